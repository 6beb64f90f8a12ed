"""Passwords: argon2id hashes, computed off the event loop, a bounded number at once.

A password has 8-128 characters (a hard upper bound: hashing a megabyte is a
denial of service) and is not one of the first guesses of anyone who guesses:
not in the list of the 20,000 most common passwords shipped beside this module
(``data/common-passwords.txt.gz``: Django's list, from Royce Williams' gist of
the most common passwords in public breach corpora; compared in lower case),
not one character repeated or a short unit repeated (``aaaaaaaa``,
``abababab``), not only white space, not a run of neighbouring characters
(``12345678``, ``abcdefgh``, ``87654321``), and not containing the username.

Verifying an unknown username still runs one argon2 verification, against
``Hasher.dummy``, so both answers take as long. Hashing is bounded per client
too (``FairSlots``): a few at once per address, the others waiting their
turn address by address.
"""

from __future__ import annotations

import asyncio
import functools
import gzip
import os
import secrets
from importlib import resources

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from coffeetable.server.players.fair_slots import FairSlots

MIN_LENGTH = 8
MAX_LENGTH = 128


class PasswordError(ValueError):
    """A password that is not allowed; the message says why."""


#: The shipped list of the most common passwords (one a line, lower case, gzip).
COMMON_PASSWORDS = "data/common-passwords.txt.gz"
#: The longest unit whose repetition makes a trivial password (``abcabcab``).
_REPEATED_UNIT = 4


@functools.cache
def common_passwords() -> frozenset[str]:
    """The most common passwords (read once, on first use)."""
    data = resources.files(__package__).joinpath(COMMON_PASSWORDS).read_bytes()
    return frozenset(gzip.decompress(data).decode("utf-8").split())


def _repeats_a_unit(text: str) -> bool:
    """``aaaaaaaa``, ``abababab``, ``abcdabcd``: a unit of a few characters, repeated."""
    return any(
        text == (text[:size] * (len(text) // size + 1))[: len(text)]
        for size in range(1, _REPEATED_UNIT + 1)
    )


def _is_a_run(text: str) -> bool:
    """``12345678``, ``abcdefgh``, ``hgfedcba``: each character the next (or the previous)
    of the one before."""
    steps = {ord(b) - ord(a) for a, b in zip(text, text[1:], strict=False)}
    return steps in ({1}, {-1})


def check(password: str, username: str | None = None) -> str:
    """The password if it may be used, else ``PasswordError`` saying why."""
    if not MIN_LENGTH <= len(password) <= MAX_LENGTH:
        raise PasswordError(f"a password has {MIN_LENGTH} to {MAX_LENGTH} characters")
    folded = password.casefold()
    if not password.strip():
        raise PasswordError("a password cannot be only spaces")
    if _repeats_a_unit(folded):
        raise PasswordError("this password only repeats a few characters: choose a longer mix")
    if _is_a_run(folded):
        raise PasswordError("this password is a run like 12345678 or abcdefgh: choose another")
    if username is not None and username.casefold() in folded:
        raise PasswordError("the password must not contain the username")
    if folded.strip() in common_passwords():
        raise PasswordError(
            "this password is one of the most common ones, the first that anyone guesses:"
            " choose another"
        )
    return password


#: A client may have this many hashes computing or waiting at once (``Limits``).
PER_CLIENT = 3


class Hasher:
    """argon2id with ``PasswordHasher``'s parameters, run in threads.

    ``concurrency`` bounds the hashes computed at once (each takes
    ``memory_cost`` KiB: 64 MiB by default); ``per_client`` bounds those of one
    client (``client``: its address's key), running or waiting, and waiting
    clients take freed slots in turn (``FairSlots``): one more is ``Busy`` at
    once. Tests pass cheap parameters.
    """

    def __init__(
        self,
        hasher: PasswordHasher | None = None,
        concurrency: int | None = None,
        per_client: int = PER_CLIENT,
    ):
        self.hasher = hasher or PasswordHasher()
        self.slots = FairSlots(concurrency or max(2, os.cpu_count() or 2), per_client)
        self._dummy: str | None = None

    @property
    def dummy(self) -> str:
        """A hash with today's parameters that no password matches (made on first use)."""
        if self._dummy is None:
            self._dummy = self.hasher.hash(secrets.token_urlsafe(32))
        return self._dummy

    async def hash(self, password: str, client: str = "") -> str:
        """A new salted hash of ``password`` (``Busy``: ``client`` has too many)."""
        async with self.slots.slot(client):
            return await asyncio.to_thread(self.hasher.hash, password)

    async def verify(self, stored: str | None, password: str, client: str = "") -> bool:
        """Whether ``password`` matches ``stored`` (None: an unknown user, always False;
        ``Busy``: ``client`` has too many hashes at once)."""
        async with self.slots.slot(client):
            ok = await asyncio.to_thread(self._verify, stored, password)
        return ok and stored is not None

    def _verify(self, stored: str | None, password: str) -> bool:
        try:
            return self.hasher.verify(stored or self.dummy, password)
        except (VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, stored: str) -> bool:
        """True if ``stored`` was made with other parameters than today's."""
        try:
            return self.hasher.check_needs_rehash(stored)
        except InvalidHashError:
            return True
