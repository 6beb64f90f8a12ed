"""The players service: sign-up, sign-in, sessions and seat claims, over the ``Store``.

One ``PlayersService`` per app (``app.state.players``), made in the app's
lifespan. Errors are ``PlayersError`` (an HTTP status, a sentence, and for
429 the seconds to wait); the routes turn them into responses.

Slowing down the guesser, not the owner. Failed sign-ins count per username
from one client address (5 free in 15 minutes, then 15 s, 30 s, 60 s, ... up
to 15 minutes between attempts), per client address (20 free), per username
from everywhere (20 free), and on the whole site (30 a minute, then wait for
the next minute). A browser that signed in to the account before (a known
device, ``devices.py``) is counted per username and device instead, and passes
the others: failures from strangers cannot lock the owner out of their own
browsers. Sign-ups count per address (5 an hour, then waits from a minute).
A throttled request is refused with 429 and ``Retry-After`` before any password
is checked, whether the username exists or not. Hashing is bounded per client
address too (``Limits.hashes_per_client``, then 429 at once).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from sqlalchemy.exc import IntegrityError
from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection

from coffeetable.server.errors import Elsewhere, OwnerGone, PlayersError, TableError
from coffeetable.server.limits import Limits
from coffeetable.server.players import devices, passwords, usernames
from coffeetable.server.players.api_keys import bearer_key
from coffeetable.server.players.fair_slots import Busy
from coffeetable.server.players.passwords import Hasher, PasswordError
from coffeetable.server.players.revocation import (
    SESSION_ENDED,
    SIGNED_OUT_EVERYWHERE,
    SocketRevocations,
    session,
    sessions_of,
)
from coffeetable.server.players.seat_tokens import hash_token
from coffeetable.server.players.sessions import (
    IDLE,
    MAX_AGE,
    TOUCH_EVERY,
    Account,
    cookie_secret,
    hash_secret,
    new_secret,
)
from coffeetable.server.players.throttle import MemoryRate, MemoryThrottle, Rate, Throttle
from coffeetable.server.players.usernames import UsernameError
from coffeetable.store import Store, moderation
from coffeetable.store import devices as known_devices
from coffeetable.store import players as db

log = logging.getLogger("coffeetable.server")

WRONG = "wrong username or password"
#: Sign-in refused to an account a moderator suspended (``server/moderation``).
SUSPENDED = "this account is suspended by a moderator: it cannot sign in or play"
FROM_HERE = "too many failed sign-ins from here; wait before trying again"
ANYWHERE = (
    "too many failed sign-ins for this username; wait before trying again,"
    " or sign in from a browser that signed in to it before"
)
SITE_WIDE = (
    "too many failed sign-ins on the site right now; wait before trying again,"
    " or sign in from a browser that signed in to this account before"
)
BUSY = "too many sign-ins at once from your address; try again in a moment"
#: How many seats one sign-up or sign-in may claim.
MAX_CLAIMS = 20


@dataclass(frozen=True)
class Claim:
    """A guest's seat to hand to an account: the table and the seat's token."""

    table_id: str
    token: str


@dataclass(frozen=True)
class NewSession:
    """A new session: the account, the cookie's secret, and the seats claimed."""

    account: Account
    secret: str
    claimed: list[tuple[str, int]]
    #: The browser's device secret (``devices.py``): the one it sent, or a new one.
    device: str = ""


class PlayersService:
    """Accounts and sessions; ``lobby`` (optional) lets claims reach live tables."""

    def __init__(
        self,
        store: Store,
        lobby: Any = None,
        *,
        hasher: Hasher | None = None,
        user_throttle: Throttle | None = None,
        address_throttle: Throttle | None = None,
        signup_throttle: Throttle | None = None,
        name_throttle: Throttle | None = None,
        site_failures: Rate | None = None,
        limits: Limits | None = None,
    ) -> None:
        self.store = store
        self.lobby = lobby
        limits = limits or Limits()
        self.hasher = hasher or Hasher(per_client=limits.hashes_per_client)
        #: Failures per username from one address (or from one known device).
        self.user_throttle = user_throttle or MemoryThrottle(
            allowed=limits.sign_in_failures_per_name
        )
        self.address_throttle = address_throttle or MemoryThrottle(
            allowed=limits.sign_in_failures_per_address
        )
        #: Failures per username from everywhere: known devices pass it.
        self.name_throttle = name_throttle or MemoryThrottle(
            allowed=limits.sign_in_failures_per_name_anywhere
        )
        #: Failures a minute on the whole site from unknown devices.
        self.site_failures = site_failures or MemoryRate(limits.sign_in_failures_per_minute)
        self.signup_throttle = signup_throttle or MemoryThrottle(
            allowed=limits.sign_ups_per_hour, window=3600.0, base=60.0
        )
        self._purged = 0.0
        #: The open sockets by what they were opened with: ending a session closes them.
        self.revocations = SocketRevocations(getattr(lobby, "cluster", None))

    # -- signing up and in ---------------------------------------------------

    async def register(
        self,
        username: str,
        password: str,
        *,
        address: str,
        user_agent: str = "",
        claims: Sequence[Claim] = (),
        device: str | None = None,
    ) -> NewSession:
        """Make an account and sign it in (400 bad name or password, 409 taken, 429).

        ``device``: the browser's device secret, if it has one (``devices.py``).
        """
        address_key = f"signup:{address}"
        wait = await self.signup_throttle.retry_after([address_key])
        if wait > 0:
            raise PlayersError(429, "too many new accounts from here; try again later", wait)
        try:
            name = usernames.check(username)
            passwords.check(password, name)
        except (UsernameError, PasswordError) as error:
            raise PlayersError(400, str(error)) from None
        key, shape = usernames.name_key(name), usernames.skeleton(name)
        taken = "this username, or one that looks like it, is taken"
        if await self.store.read(lambda conn: db.name_taken(conn, key, shape)):
            raise PlayersError(409, taken)
        password_hash = await self._hash(password, address)
        try:
            user_id = await self.store.write(
                lambda conn: db.create_account(conn, name, key, shape, password_hash)
            )
        except IntegrityError:
            raise PlayersError(409, taken) from None
        await self.signup_throttle.hit([address_key])
        log.info("new account %s", name)
        return await self._sign_in(user_id, name, user_agent, claims, device)

    async def login(
        self,
        username: str,
        password: str,
        *,
        address: str,
        user_agent: str = "",
        claims: Sequence[Claim] = (),
        replacing: str | None = None,
        device: str | None = None,
    ) -> NewSession:
        """Check the password and start a session (401 one message for both mistakes, 429).

        ``replacing``: the session secret the browser held, ended first. ``device``:
        the browser's device secret; one known to the account passes the limits
        strangers can run up (per username from everywhere, and site-wide).
        """
        text = usernames.normalize(username)[: usernames.MAX_LENGTH * 2]
        key = usernames.name_key(text)
        found = await self.store.read(lambda conn: db.account_by_key(conn, key))
        known = found is not None and await self._known(device, found.player_id)
        if known:
            assert device is not None
            checks = [
                (self.user_throttle, [f"login-device:{key}|{hash_secret(device)}"], FROM_HERE)
            ]
        else:
            checks = [
                (self.user_throttle, [f"login:{key}|{address}"], FROM_HERE),
                (self.address_throttle, [f"login-addr:{address}"], FROM_HERE),
                (self.name_throttle, [f"login-name:{key}"], ANYWHERE),
            ]
        waits = [(await throttle.retry_after(keys), why) for throttle, keys, why in checks]
        if not known:
            waits.append((await self.site_failures.retry_after(), SITE_WIDE))
        wait, why = max(waits, key=lambda item: item[0])
        if wait > 0:
            raise PlayersError(429, why, wait)
        too_long = len(password) > passwords.MAX_LENGTH
        stored = None if found is None or too_long else found.password_hash
        ok = await self._verify(stored, password[: passwords.MAX_LENGTH], address)
        if not ok or found is None:
            for throttle, keys, _ in checks:
                await throttle.hit(keys)
            if not known:
                await self.site_failures.hit()
            raise PlayersError(401, WRONG)
        await self.user_throttle.clear(checks[0][1])
        standing = await self.store.read(lambda conn: moderation.standing(conn, found.player_id))
        if standing is not None and standing.suspended is not None:  # only past the password
            raise PlayersError(403, SUSPENDED)
        if self.hasher.needs_rehash(found.password_hash):
            fresh = await self._hash(password, address)
            await self.store.write(lambda conn: db.set_password_hash(conn, found.player_id, fresh))
        if replacing:
            old = hash_secret(replacing)
            ended = await self.store.read(lambda conn: db.session_by_hash(conn, old))
            await self.store.write(lambda conn: db.delete_session_by_hash(conn, old))
            if ended is not None:
                self.revocations.revoke([session(ended.id)], SESSION_ENDED)
        return await self._sign_in(found.player_id, found.name, user_agent, claims, device)

    async def _known(self, device: str | None, user_id: int) -> bool:
        """Whether this device secret signed in to this account (within a year)."""
        if not device:
            return False
        device_hash, since = hash_secret(device), time.time() - devices.MAX_AGE
        return bool(
            await self.store.read(
                lambda conn: known_devices.is_known(conn, device_hash, user_id, since)
            )
        )

    async def _hash(self, password: str, address: str) -> str:
        try:
            return await self.hasher.hash(password, address)
        except Busy:
            raise PlayersError(429, BUSY, 1.0) from None

    async def _verify(self, stored: str | None, password: str, address: str) -> bool:
        try:
            return await self.hasher.verify(stored, password, address)
        except Busy:
            raise PlayersError(429, BUSY, 1.0) from None

    async def _sign_in(
        self,
        user_id: int,
        name: str,
        user_agent: str,
        claims: Sequence[Claim],
        device: str | None = None,
    ) -> NewSession:
        session_id, secret, secret_hash = new_secret()
        device = device or devices.new_device()
        device_hash = hash_secret(device)
        await self.store.write(
            lambda conn: db.create_session(conn, session_id, secret_hash, user_id, user_agent)
        )
        await self.store.write(
            lambda conn: known_devices.remember(conn, device_hash, user_id, devices.KEEP)
        )
        await self._purge()
        account = Account(user_id, name, session_id)
        claimed = await self.claim(account, claims)
        return NewSession(account, secret, claimed, device)

    async def _purge(self) -> None:
        """Delete ended sessions, at most once an hour."""
        now = time.time()
        if now - self._purged < 3600:
            return
        self._purged = now
        await self.store.write(lambda conn: db.purge_sessions(conn, now - IDLE, now - MAX_AGE))
        await self.store.write(lambda conn: known_devices.forget_older(conn, now - devices.MAX_AGE))

    # -- sessions ------------------------------------------------------------

    async def account_for(self, connection: HTTPConnection) -> Account | None:
        """Who a request's or a WebSocket's session cookie signs in, or None.

        It does not check the ``Origin``: a socket must (``origin.py``) before
        it trusts the cookie. A program signs in with its bot's API key instead
        (``Authorization: Bearer <key>``): a bad or revoked key is refused with
        401, never taken for a guest.
        """
        key = bearer_key(connection.headers)
        if key is not None:
            from coffeetable.server.players.bot_accounts import bot_service

            try:
                program = await bot_service(connection.app.state).resolve(key) if key else None
            except PlayersError as refused:  # its owner is suspended
                raise HTTPException(refused.status, refused.detail) from None
            if program is None:
                raise HTTPException(401, "this API key is not valid (unknown or revoked)")
            return program
        return await self.account(cookie_secret(connection.cookies))

    async def account(self, secret: str | None) -> Account | None:
        """Who the cookie's secret signs in, or None (unknown, revoked or ended)."""
        if not secret:
            return None
        secret_hash = hash_secret(secret)
        row = await self.store.read(lambda conn: db.session_by_hash(conn, secret_hash))
        if row is None:
            return None
        now = time.time()
        if now - row.last_seen > IDLE or now - row.created > MAX_AGE:
            await self.store.write(lambda conn: db.delete_session(conn, row.player_id, row.id))
            return None
        if now - row.last_seen > TOUCH_EVERY:
            await self.store.write(lambda conn: db.touch_session(conn, row.id, now))
        return Account(row.player_id, row.name, row.id)

    async def sessions(self, account: Account) -> list[db.SessionRow]:
        """The account's sessions, most recently used first."""
        return await self.store.read(lambda conn: db.list_sessions(conn, account.user_id))

    async def revoke(self, account: Account, session_id: str) -> bool:
        """End one of the account's sessions (its open sockets close, on every process);
        False if it has none by that id."""
        ended = await self.store.write(
            lambda conn: db.delete_session(conn, account.user_id, session_id)
        )
        if ended:
            self.revocations.revoke([session(session_id)], SESSION_ENDED)
        return ended

    async def logout(self, account: Account) -> None:
        """End the account's current session."""
        await self.revoke(account, account.session_id)

    async def logout_everywhere(self, account: Account) -> int:
        """End every session of the account (this one too; their open sockets close, on
        every process); return how many."""
        ended = await self.store.write(lambda conn: db.delete_sessions(conn, account.user_id))
        self.revocations.revoke([sessions_of(account.user_id)], SIGNED_OUT_EVERYWHERE)
        return ended

    # -- seats ---------------------------------------------------------------

    async def claim(self, account: Account, claims: Sequence[Claim]) -> list[tuple[str, int]]:
        """Give the account the seats these guest tokens hold; return (table, seat) claimed.

        A live table's seat gets ``user_id`` at once (when the seat has that
        field), then the database row; a claim that fails is skipped.
        """
        claimed: list[tuple[str, int]] = []
        for claim in list(claims)[:MAX_CLAIMS]:
            seat = await self.claim_seat(claim.table_id, claim.token, account.user_id)
            if seat is not None:
                claimed.append((claim.table_id, seat))
        return claimed

    async def claim_seat(self, table_id: str, token: str, user_id: int) -> int | None:
        """Claim one guest seat for ``user_id``; its index, or None if refused. With several
        processes, the process that runs a live table claims it (its seats are in memory there)."""
        cluster = getattr(self.lobby, "cluster", None)
        if cluster is not None and table_id not in self.lobby.tables:
            try:
                await self.lobby.get(table_id)  # nobody runs it: run it here
            except Elsewhere as moved:
                args = {"table_id": table_id, "token": token, "user_id": user_id}
                try:
                    outcome, value = await cluster.call(moved.owner, "players.claim_seat", args)
                except OwnerGone:
                    return None
                return int(value) if outcome == "ok" and value is not None else None
            except TableError:
                pass  # no such table: the database refuses the claim below
        live = self._live_seat(table_id, token, user_id)
        if live is False:
            return None
        if live is not None:
            live.user_id = user_id
        seat: int | None = await self.store.write(
            partial(_claim, table=table_id, token_hash=hash_token(token), user=user_id)
        )
        if seat is None and live is not None:
            live.user_id = None
        return seat

    def _live_seat(self, table_id: str, token: str, user_id: int) -> Any:
        """The live seat to claim; None: no live table (or seats without user_id);
        False: the live table refuses."""
        tables = getattr(self.lobby, "tables", None) or {}
        table = tables.get(table_id)
        if table is None:
            return None
        index = table.seat_for_token(token)
        if index is None:
            return False
        seat = table.seats[index]
        if not hasattr(seat, "user_id"):
            return None
        if seat.bot is not None or seat.left or seat.user_id not in (None, user_id):
            return False
        others = (s for s in table.seats if s.index != index)
        if any(getattr(s, "user_id", None) == user_id for s in others):
            return False
        return seat


def _claim(conn: Any, *, table: str, token_hash: str, user: int) -> int | None:
    """``claim_seat`` with keywords (for ``partial``)."""
    return db.claim_seat(conn, table, token_hash, user)
