"""Seat tokens: how a guest holds a seat (``tables/seats.py``) and claims it for an account.

A token is 32 random bytes, URL-safe, shown once (to the creator or joiner) and
stored only as its SHA-256.
"""

from __future__ import annotations

import hashlib
import secrets


def new_token() -> tuple[str, str]:
    """A fresh token and its hash."""
    token = secrets.token_urlsafe(32)
    return token, hash_token(token)


def hash_token(token: str) -> str:
    """What the database keeps of a token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()
