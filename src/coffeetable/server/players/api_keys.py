"""API keys: how a program signs in as its bot account.

A key is ``ctb_`` and 32 random bytes, URL-safe (256 bits: guessing one is
hopeless, so a SHA-256 of it is a safe stored form, like session cookies).
It is shown once, when made; the database keeps its hash and its first
characters (``prefix``, to tell keys apart in a list). A program sends it in
the ``Authorization: Bearer <key>`` header of HTTP requests and of the table
WebSocket's handshake, never in a URL (URLs end up in logs). A bot may have
several keys (one per machine, say); revoking one refuses it at once.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping
from dataclasses import dataclass

from coffeetable.server.players.sessions import Account

#: What every key starts with (so secret scanners and people can tell one).
PREFIX = "ctb_"
#: Characters of a key kept in the clear to recognise it (``ctb_`` and 6 more).
SHOWN = len(PREFIX) + 6
#: The longest header value taken as a key (a key is 47 characters).
MAX_KEY = 100


@dataclass(frozen=True)
class ProgramAccount(Account):
    """A request signed in by a bot's API key: the bot's account, its owner, the key.

    ``session_id`` is empty: a program has no session to list or end.
    """

    owner: str = ""
    key_id: str = ""


def is_program(account: Account | None) -> bool:
    """True when the request came from a program (an API key), not a person."""
    return isinstance(account, ProgramAccount)


def new_key() -> tuple[str, str, str, str]:
    """A fresh key: (public id, the key, its SHA-256, its shown prefix)."""
    key = PREFIX + secrets.token_urlsafe(32)
    return secrets.token_urlsafe(12), key, hash_key(key), key[:SHOWN]


def hash_key(key: str) -> str:
    """The stored form of a key."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def bearer_key(headers: Mapping[str, str]) -> str | None:
    """The key of an ``Authorization: Bearer <key>`` header; "" for a malformed one,
    None when there is no such header."""
    value = headers.get("authorization")
    if value is None:
        return None
    scheme, _, key = value.strip().partition(" ")
    key = key.strip()
    if scheme.lower() != "bearer" or not key.startswith(PREFIX) or len(key) > MAX_KEY:
        return ""
    return key
