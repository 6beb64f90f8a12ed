"""Play now: queues of people waiting for the same kind of table.

A person asks to play a game at a player count (rated or not) and gets a
ticket, a secret that only they hold. People waiting in the same queue see
each other's names. As soon as the queue holds enough people, a table is
dealt with them all seated; if the first person in line has waited
``Limits.play_now_wait_seconds`` and not enough people came, the table is
dealt with whoever is there and the empty seats go to bots of the level the
first person chose. Each person then finds their seat (table, seat and seat
token) by asking about their ticket. A ticket nobody asks about for
``Limits.play_now_idle_seconds`` is dropped: its person went away.

Two accounts of which one blocked the other (``server/social/``) are never dealt to one
table: the others in line are dealt around them, as below.

Reliable players meet reliable players: when more tickets could sit together than a
table has seats, the first in line always sits, and the others are taken by how close
their reliability (``store/reliability.py``: the share of their last matches finished)
is to the first's, the higher on a tie, then by their place in line. Nobody is starved:
the first in line is dealt at every deal (with bots after the wait), so each ticket waits
at most for the deals of those before it. Guests and new players count as 100%.

Programs (bot accounts, by their API key) queue like people, marked as bots;
a person chooses whether to meet them (``meet_bots``): one who does not is
never seated with a program, and the others in line are dealt around them.

A play-now table counts against the table quotas (``quotas.py``) of the
address of each person dealt to it, once per address, as if each had made it: a
ticket is refused up front (429 or 409, as ``POST /api/tables``) when its
address could not make one more table counting its tickets still waiting, and
at the deal a ticket whose address has no room left is refused then (its status
answers the refusal) while the others keep their places.

One process keeps the queues in memory (tickets are stored by their hash,
like seat tokens).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from coffeetable import bots, games
from coffeetable.server.errors import TableError
from coffeetable.server.lobby.lobby import Lobby
from coffeetable.server.lobby.quotas import Refusal
from coffeetable.server.tables.seats import clean_name
from coffeetable.store import reliability, social

log = logging.getLogger("coffeetable.server")

QueueKey = tuple[str, int, bool]


def _hash(ticket: str) -> str:
    return hashlib.sha256(ticket.encode()).hexdigest()


@dataclass
class Ticket:
    """One person waiting (or, once matched, where they sit)."""

    key: QueueKey
    name: str
    bot_level: str
    address: str | None
    #: The person's account (None: a guest; a rated queue takes accounts only).
    user_id: int | None = None
    #: A program (a bot account, by its API key), not a person.
    program: bool = False
    #: A person's choice: may they be seated with programs?
    meet_bots: bool = True
    #: The accounts this one blocked or is blocked by: never dealt to one table with it.
    avoid: frozenset[int] = frozenset()
    #: The account's reliability, a percent (guests and new players: 100).
    reliability: int = 100
    since: float = field(default_factory=time.monotonic)
    last_seen: float = field(default_factory=time.monotonic)
    #: Set once the table is dealt.
    table_id: str | None = None
    seat: int | None = None
    token: str | None = None
    #: Set if the ticket was refused at the deal (its address met a table quota).
    refusal: Refusal | None = None

    def status(self, queue: list[Ticket], wait: float) -> dict[str, Any]:
        """What the ticket's holder is told."""
        game, players, rated = self.key
        base = {"game": game, "players": players, "rated": rated}
        if self.table_id is not None:
            return {
                **base,
                "status": "seated",
                "table_id": self.table_id,
                "seat": self.seat,
                "token": self.token,
            }
        first = queue[0].since if queue else self.since
        return {
            **base,
            "status": "waiting",
            "waiting": [ticket.name for ticket in queue],
            "seconds_left": max(0.0, round(first + wait - time.monotonic(), 1)),
        }


def _person(ticket: Ticket) -> str | None:
    """The person behind an account's ticket: a person's username, a program's owner's
    (``alice/bot-v2``: ``alice``); None for a guest."""
    return None if ticket.user_id is None else ticket.name.split("/")[0].casefold()


def _by_reliability(queue: list[Ticket]) -> list[Ticket]:
    """The first in line, then the others by how close their reliability is to the
    first's (the higher on a tie), then by their place in line (a stable sort)."""
    if not queue:
        return []
    first = queue[0].reliability
    rest = sorted(queue[1:], key=lambda t: (abs(t.reliability - first), -t.reliability))
    return [queue[0], *rest]


def _compatible(queue: list[Ticket], players: int, rated: bool = False) -> list[Ticket]:
    """The tickets that may sit together (at most ``players``), the first in line first,
    then the closest in reliability (``_by_reliability``): a person who does not meet
    bots never sits with a program, and in a rated queue nobody sits with their own
    bots; the first in line always sits."""
    group: list[Ticket] = []
    for ticket in _by_reliability(queue):
        together = [*group, ticket]
        if any(t.program for t in together) and not all(t.meet_bots for t in together):
            continue
        if any(t.user_id in ticket.avoid or ticket.user_id in t.avoid for t in group):
            continue  # one of them blocked the other
        person = _person(ticket)
        if rated and person is not None and any(_person(t) == person for t in group):
            continue
        group.append(ticket)
        if len(group) == players:
            break
    return group


def _facts(conn: Any, user_id: int) -> tuple[set[int], int]:
    """An account's ticket facts: whom it avoids (blocks), its reliability (percent)."""
    record = reliability.of_players(conn, [user_id]).get(user_id, (0, 0))
    return social.avoided(conn, user_id), reliability.percent(*record)


class Matchmaker:
    """The play-now queues of one process."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.limits = lobby.limits
        self.queues: dict[QueueKey, list[Ticket]] = {}
        self.tickets: dict[str, Ticket] = {}
        self._timers: dict[QueueKey, asyncio.TimerHandle] = {}

    # -- requests --------------------------------------------------------------

    async def join(
        self,
        game_name: str,
        players: int,
        rated: bool,
        bot_level: str | None,
        name: str,
        address: str | None,
        user_id: int | None = None,
        *,
        program: bool = False,
        meet_bots: bool = True,
    ) -> tuple[str, dict[str, Any]]:
        """Queue a person (or a program: ``program``); return their ticket and its first
        status. A person with ``meet_bots`` False is never seated with a program."""
        if rated and user_id is None:
            raise TableError(403, "rated matches are for signed-in players: sign in first")
        self._forget_idle()
        game = games.get(game_name)
        try:
            game.check_players(players)
        except ValueError as error:
            raise TableError(400, str(error)) from None
        levels = bots.available(game.name)
        # The usual level where the game has it, else its first bot (random: every game has it).
        level = bot_level or next((n for n in ("medium", "greedy") if n in levels), levels[0])
        if level not in levels:
            raise TableError(400, f"no bot {level!r} for {game.title}; choose from {levels}")
        mine = [t for t in self.tickets.values() if t.address == address and t.table_id is None]
        if address is not None:
            if len(mine) >= self.limits.play_now_tickets_per_client:
                raise TableError(
                    429, f"you are already waiting in {len(mine)} queues: cancel one first"
                )
            refusal = await self.lobby.address_refusal(address, pending=len(mine))
            if refusal is not None:  # each waiting ticket is a table to come
                raise TableError(*refusal)
        if rated and players < 2:
            raise TableError(400, "a solo game is not rated")
        avoid: set[int] = set()
        share = 100
        if user_id is not None:
            avoid, share = await self.lobby.store.read(lambda conn: _facts(conn, user_id))
        key: QueueKey = (game.name, players, rated)
        if user_id is not None and any(t.user_id == user_id for t in self.queues.get(key, [])):
            raise TableError(409, "you are already waiting for this table")
        ticket_text = secrets.token_urlsafe(24)
        ticket = Ticket(
            key,
            clean_name(name, len(self.queues.get(key, []))),
            level,
            address,
            user_id,
            program=program,
            meet_bots=meet_bots or program,
            avoid=frozenset(avoid),
            reliability=share,
        )
        self.tickets[_hash(ticket_text)] = ticket
        self.queues.setdefault(key, []).append(ticket)
        await self._match(key)
        self._arm(key)
        return ticket_text, self.status(ticket_text)

    def status(self, ticket_text: str) -> dict[str, Any]:
        """Where the ticket stands (waiting, with whom; or seated, where)."""
        digest = _hash(ticket_text)
        ticket = self.tickets.get(digest)
        if ticket is None:
            raise TableError(404, "no such ticket: it was cancelled, or it waited unasked")
        if ticket.refusal is not None:  # said once, then the ticket is gone
            del self.tickets[digest]
            raise TableError(*ticket.refusal)
        ticket.last_seen = time.monotonic()
        queue = self.queues.get(ticket.key, [])
        return ticket.status(queue, self.limits.play_now_wait_seconds)

    def cancel(self, ticket_text: str) -> None:
        """Leave the queue (a seated ticket is only forgotten: the seat is the table's now)."""
        ticket = self.tickets.pop(_hash(ticket_text), None)
        if ticket is None:
            raise TableError(404, "no such ticket")
        queue = self.queues.get(ticket.key, [])
        if ticket in queue:
            queue.remove(ticket)
        self._arm(ticket.key)

    def overview(self) -> list[dict[str, Any]]:
        """Every queue with people in it: who waits for what (the lobby shows it)."""
        self._forget_idle()
        return [
            {"game": key[0], "players": key[1], "rated": key[2], "waiting": [t.name for t in q]}
            for key, queue in self.queues.items()
            if (q := queue)
        ]

    def close(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()

    # -- dealing tables ---------------------------------------------------------

    async def _match(self, key: QueueKey, fill_with_bots: bool = False) -> None:
        """Deal a table if the queue has enough people (or, past the wait, with bots)."""
        players = key[1]
        while True:
            queue = self.queues.get(key, [])
            seated = _compatible(queue, players, rated=key[2])
            if not seated or (len(seated) < players and not fill_with_bots):
                return
            # Out of the queue before any await: a second deal cannot take them too.
            self.queues[key] = [ticket for ticket in queue if ticket not in seated]
            refused = await self._over_quota(seated)
            if not refused:
                break
            kept = [ticket for ticket in seated if ticket not in refused]
            self.queues[key] = kept + self.queues.get(key, [])  # they keep their places
        level = seated[0].bot_level
        seat_bots = {str(index): level for index in range(len(seated), players)}
        try:
            table, seat, token = await self.lobby.create(
                key[0],
                players,
                {},
                seat_bots,
                seated[0].name,
                address=seated[0].address,
                user_id=seated[0].user_id,
                rated=key[2],
                more_addresses=[ticket.address for ticket in seated[1:]],
            )
        except TableError as error:  # e.g. the server is full: said to each of them
            for ticket in seated:
                ticket.refusal = (error.status, error.detail, error.retry_after)
            return
        except Exception:
            log.exception("play now: could not deal a %s table", key[0])
            self.queues[key] = seated + self.queues.get(key, [])  # they keep their places
            return
        try:
            places = [(seat, token)]
            for ticket in seated[1:]:
                places.append(await self.lobby.join(table.id, ticket.name, ticket.user_id))
        except Exception:
            log.exception("play now: could not seat everyone at table %s", table.id)
            self.queues[key] = seated + self.queues.get(key, [])  # they keep their places
            return
        for ticket, (index, seat_token) in zip(seated, places, strict=True):
            ticket.table_id, ticket.seat, ticket.token = table.id, index, seat_token

    async def _over_quota(self, seated: list[Ticket]) -> list[Ticket]:
        """The tickets whose address may not have one more table now (each is given its
        refusal). The table counts once for each address at it."""
        refusals: dict[str, Refusal | None] = {}
        refused = []
        for ticket in seated:
            if ticket.address is None:
                continue
            if ticket.address not in refusals:
                refusals[ticket.address] = await self.lobby.address_refusal(ticket.address)
            ticket.refusal = refusals[ticket.address]
            if ticket.refusal is not None:
                refused.append(ticket)
        return refused

    def _arm(self, key: QueueKey) -> None:
        """(Re)start the queue's timer: it fires when its first person has waited enough."""
        timer = self._timers.pop(key, None)
        if timer is not None:
            timer.cancel()
        queue = self.queues.get(key)
        if not queue:
            self.queues.pop(key, None)
            return
        due = max(0.0, queue[0].since + self.limits.play_now_wait_seconds - time.monotonic())
        loop = asyncio.get_running_loop()
        self._timers[key] = loop.call_later(due, self._on_timer, key)

    def _on_timer(self, key: QueueKey) -> None:
        self._timers.pop(key, None)

        async def fill() -> None:
            self._forget_idle()
            await self._match(key, fill_with_bots=True)
            self._arm(key)

        asyncio.get_running_loop().create_task(fill())

    def _forget_idle(self) -> None:
        """Drop tickets nobody asked about for a while (their person left the page)."""
        now = time.monotonic()
        idle = self.limits.play_now_idle_seconds
        for digest, ticket in list(self.tickets.items()):
            if now - ticket.last_seen > idle:
                del self.tickets[digest]
                queue = self.queues.get(ticket.key, [])
                if ticket in queue:
                    queue.remove(ticket)
