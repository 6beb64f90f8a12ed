"""Every limit of the site, with a default a person never meets, in one place.

Each limit is a field of ``Limits``; ``Limits.from_env()`` reads an override for
each from the environment, ``COFFEETABLE_`` + the field's name in capitals
(``COFFEETABLE_TABLES_PER_MINUTE=30``). ``create_app(limits=...)`` takes one
directly (tests and benchmarks). docs/security.md lists them all and why.

A refusal always says which limit was met: HTTP 429 (rates), 413 (sizes) or
409 (quotas) with a ``detail`` sentence, or a WebSocket ``rejected``/``error``.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import math
import os
import time
from dataclasses import dataclass

from starlette.requests import HTTPConnection

ENV_PREFIX = "COFFEETABLE_"


@dataclass(frozen=True)
class Limits:
    """The limits one server process enforces."""

    #: Largest HTTP request body, in bytes.
    max_body_bytes: int = 64 * 1024
    #: Largest WebSocket message, in bytes (a state is a few KB; an action ~100 B).
    max_message_bytes: int = 16 * 1024
    #: WebSocket messages per connection: a steady rate per second and a burst.
    messages_per_second: float = 20.0
    message_burst: int = 60
    #: Actions per connection, and per seat over all its connections (a person plays
    #: a few cards a second at most).
    actions_per_second: float = 10.0
    action_burst: int = 30
    #: Actions per client address, over all its seats and connections at the tables
    #: of one process (a household, or a program playing several seats).
    address_actions_per_second: float = 50.0
    address_action_burst: int = 150
    #: A socket refused for its rate this many bursts' worth of messages
    #: (``flood_bursts * message_burst``, forgiven at ``messages_per_second``) is
    #: closed with 1008: it floods far past the limit, it is no slow person.
    flood_bursts: int = 10
    #: Tables one client address may create per minute.
    tables_per_minute: int = 10
    #: Live (open or running) tables one client address may hold at once.
    open_tables_per_client: int = 10
    #: Live tables and bot seats at live tables, on this process.
    max_live_tables: int = 500
    max_bot_seats: int = 1500
    #: WebSocket connections one client address may hold open at once.
    sockets_per_client: int = 64
    #: A live table is closed as abandoned after this long without any client
    #: connected (no person and no spectator).
    abandon_after_seconds: float = 15 * 60
    #: A days-per-move table looks at its clocks (and its players' vacations) at least
    #: this often, besides at each deadline (``tables/turn_days.py``).
    days_check_seconds: float = 60.0
    #: Days of vacation (clocks stopped at days-per-move tables) an account may take in
    #: any 365 days (``players/vacations.py``).
    vacation_days_per_year: float = 30.0
    #: Highest ``bot_speed`` a table may ask for (the lobby offers up to 10); servers
    #: for tests and benchmarks raise it.
    max_bot_speed: float = 10.0
    #: Play now: how long the first person in a queue waits before bots fill the table,
    #: how long a ticket lives unasked (its person left), and queues one address may
    #: wait in at once.
    play_now_wait_seconds: float = 20.0
    play_now_idle_seconds: float = 30.0
    play_now_tickets_per_client: int = 4
    #: Chat: longest message (characters), messages a minute per socket and per seat
    #: and their burst, per client address (over its sockets at the tables of one
    #: process) and its burst, and the messages a table keeps for clients that arrive.
    chat_max_chars: int = 300
    chat_per_minute: int = 12
    chat_burst: int = 5
    address_chat_per_minute: int = 60
    address_chat_burst: int = 20
    chat_history: int = 100
    #: Accounts: failed sign-ins let through per username from one client address, per
    #: client address, and per username from everywhere (in 15 minutes, then waits that
    #: double from 15 s; a browser that signed in to the account before passes the
    #: last), and sign-ups per address an hour.
    sign_in_failures_per_name: int = 5
    sign_in_failures_per_address: int = 20
    sign_in_failures_per_name_anywhere: int = 20
    #: Failed sign-ins a minute on the whole site from browsers unknown to the account;
    #: past it, such sign-ins wait for the next minute (spraying many names).
    sign_in_failures_per_minute: int = 30
    sign_ups_per_hour: int = 5
    #: Password hashes (argon2, 64 MiB and ~0.1 s of CPU each) one client address may
    #: have computing or waiting at once; more are refused at once.
    hashes_per_client: int = 3
    #: Bot accounts: bots one person may own, and live API keys per bot.
    bots_per_account: int = 10
    keys_per_bot: int = 5
    #: Review with the bot: search iterations per decision, reviews running at once
    #: (each a few seconds of CPU), and of them per client address and per account
    #: (so that one client cannot hold every slot), worker processes they share, and
    #: finished reviews kept in memory.
    review_iterations: int = 300
    reviews_at_once: int = 2
    reviews_per_client: int = 1
    review_workers: int = 1
    review_cache: int = 100
    #: Finished matches whose replay is kept (states every 500 actions, ``api/replays.py``),
    #: so that a replay's windows do not each replay the whole log.
    replay_cache: int = 32
    #: The open database of matches (``GET /api/exports/{game}/{month}``): the most
    #: matches one download holds (a month with more is refused, 413), and 1 to replace
    #: every account's name by a pseudonym in it (0: account names, as profiles show).
    export_max_matches: int = 5_000
    export_anonymous: int = 0
    #: Tournaments: the most entrants one may take, the upcoming or running ones an
    #: account may own at once, and how often the runner looks at them (seconds).
    tournament_max_entrants: int = 64
    tournaments_per_owner: int = 3
    tournament_tick_seconds: float = 1.0
    #: The programs' league (``server/league``): matches started an hour per game (0: the
    #: league is off), and the seconds a program has to come to its league table before a
    #: stand-in plays its seat.
    league_matches_per_hour: float = 0.0
    league_grace_seconds: float = 60.0
    #: Social (``server/social/``): notifications an account keeps (older ones are
    #: deleted), players one account may ask as friends (friends and requests out), and
    #: players it may block.
    notifications_kept: int = 200
    friends_per_account: int = 300
    blocks_per_account: int = 500
    #: Reports one account may make a day (``server/moderation/reports.py``).
    reports_per_day: int = 10
    #: Mails queued for one account an hour (verifications and notices; past it, notices
    #: stay on the site only and a new address is refused with 429).
    mails_per_hour: int = 10
    #: Origins besides the site's own that may open a WebSocket ("*": any).
    allowed_origins: tuple[str, ...] = ()

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None, **overrides: object) -> Limits:
        """The defaults, overridden by ``COFFEETABLE_<NAME>`` variables, then by ``overrides``."""
        env = os.environ if environ is None else environ
        values: dict[str, object] = {}
        for field in dataclasses.fields(cls):
            raw = env.get(ENV_PREFIX + field.name.upper())
            if raw is not None:
                values[field.name] = _parse(field.name, field.type, raw)
        values.update(overrides)
        return cls(**values)  # type: ignore[arg-type]

    def describe(self) -> dict[str, object]:
        """Every limit and its value (for docs and the startup log)."""
        return dataclasses.asdict(self)


def _parse(name: str, kind: object, raw: str) -> object:
    """One environment value as the field's type; a bad value stops the server at once."""
    try:
        if kind in ("int", int):
            return int(raw)
        if kind in ("float", float):
            value = float(raw)
            if not math.isfinite(value):
                raise ValueError("not a finite number")
            return value
        return tuple(item.strip() for item in raw.split(",") if item.strip())
    except ValueError as error:
        raise ValueError(f"{ENV_PREFIX}{name.upper()}={raw!r}: {error}") from None


class TokenBucket:
    """A rate with bursts: ``rate`` tokens a second, at most ``burst`` saved up.

    ``take()`` spends one token if there is one. Cheap enough to run per message.
    """

    __slots__ = ("rate", "burst", "tokens", "stamp")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def full(self) -> bool:
        """Whether it has refilled to its burst (as good as a new one)."""
        return self.tokens + (time.monotonic() - self.stamp) * self.rate >= self.burst

    def wait(self) -> float:
        """Seconds until a token will be there (0 if one is)."""
        return max(0.0, (1.0 - self.tokens) / self.rate) if self.rate > 0 else math.inf


#: The IPv6 prefix one client gets (a /64 is the smallest a site or home is given).
IPV6_CLIENT_PREFIX = 64


def address_key(host: str) -> str:
    """The client an address belongs to: the IPv4 address (also when IPv4-mapped),
    the IPv6 address's /64, or ``host`` itself when it is not an IP address."""
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, IPV6_CLIENT_PREFIX), strict=False))
    return str(address)


def client_key(connection: HTTPConnection) -> str | None:
    """The key a request's or socket's per-address limits count by (None: no address)."""
    client = connection.scope.get("client")
    return address_key(str(client[0])) if client else None
