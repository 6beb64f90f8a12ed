"""Passwords: argon2id hashes, computed off the event loop, a bounded number at once.

A password has 8-128 characters (a hard upper bound: hashing a megabyte is a
denial of service). Verifying an unknown username still runs one argon2
verification, against ``Hasher.dummy``, so both answers take as long.
"""

from __future__ import annotations

import asyncio
import os
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

MIN_LENGTH = 8
MAX_LENGTH = 128


class PasswordError(ValueError):
    """A password that is not allowed; the message says why."""


def check(password: str, username: str | None = None) -> str:
    """The password if it may be used, else ``PasswordError``."""
    if not MIN_LENGTH <= len(password) <= MAX_LENGTH:
        raise PasswordError(f"a password has {MIN_LENGTH} to {MAX_LENGTH} characters")
    if username is not None and password.casefold() == username.casefold():
        raise PasswordError("the password must not be the username")
    return password


class Hasher:
    """argon2id with ``PasswordHasher``'s parameters, run in threads.

    ``concurrency`` bounds the hashes computed at once (each takes
    ``memory_cost`` KiB: 64 MiB by default). Tests pass cheap parameters.
    """

    def __init__(self, hasher: PasswordHasher | None = None, concurrency: int | None = None):
        self.hasher = hasher or PasswordHasher()
        self._slots = asyncio.Semaphore(concurrency or max(2, os.cpu_count() or 2))
        self._dummy: str | None = None

    @property
    def dummy(self) -> str:
        """A hash with today's parameters that no password matches (made on first use)."""
        if self._dummy is None:
            self._dummy = self.hasher.hash(secrets.token_urlsafe(32))
        return self._dummy

    async def hash(self, password: str) -> str:
        """A new salted hash of ``password``."""
        async with self._slots:
            return await asyncio.to_thread(self.hasher.hash, password)

    async def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches ``stored`` (None: an unknown user, always False)."""
        async with self._slots:
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
