"""The programs' league: its matches (schema and blocking queries).

``league_matches``: one row per league match: the game, the two entrants in seat order
(JSON: ``u<player id>`` for a bot account, ``bot:<level>`` for a site bot), the lobby
table's id once dealt, the ranks once over, when it was made and finished. Which bot
accounts play is ``bot_accounts.league``.

``record_result`` is called by ``server.players.ratings.finish_match`` in the
transaction that ends the match (as tournaments' results are): a result counts once.
With it go the match's *forfeits*: the seats of programs that did not play their match
themselves (a stand-in chose at least one of its moves, or the program never acted); the
league scores them (``coffeetable.tournaments.league``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from coffeetable.store.db import actions, metadata, seats
from coffeetable.store.matches import match_id_for_table, participants
from coffeetable.tournaments.league import forfeited

league_matches = sa.Table(
    "league_matches",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game", sa.String(64), nullable=False, index=True),
    sa.Column("entrants", sa.Text, nullable=False),
    sa.Column("table_id", sa.String(32), nullable=True, index=True),
    sa.Column("ranks", sa.Text, nullable=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("finished", sa.Float, nullable=True),
    # JSON: the seats a stand-in played (part of) for their program: its forfeit.
    sa.Column("forfeits", sa.Text, nullable=True),
)


@dataclass(frozen=True)
class LeagueMatch:
    id: int
    game: str
    entrants: tuple[str, ...]
    table_id: str | None
    ranks: tuple[int, ...] | None
    created: float
    #: The seats whose program forfeited (a stand-in played for it).
    forfeits: tuple[int, ...] = ()


def add_match(conn: Connection, game: str, entrants: Sequence[str], now: float) -> int:
    """A new match (not dealt yet); its id."""
    query = league_matches.insert().values(
        game=game, entrants=json.dumps(list(entrants)), created=now
    )
    key = conn.execute(query).inserted_primary_key
    assert key is not None
    return int(key[0])


def drop_matches(conn: Connection, match_ids: Sequence[int]) -> None:
    """Forget matches never dealt (no table: the deal was refused, or its process died)."""
    conn.execute(
        league_matches.delete().where(
            league_matches.c.id.in_(list(match_ids)), league_matches.c.table_id.is_(None)
        )
    )


def set_table(conn: Connection, match_id: int, table_id: str) -> None:
    """The match's table is dealt. A match of fast bots may be over already: its result
    is recorded then from the match's record."""
    conn.execute(
        league_matches.update().where(league_matches.c.id == match_id).values(table_id=table_id)
    )
    recorded = match_id_for_table(conn, table_id)
    if recorded is not None:
        query = (
            sa.select(participants.c.rank)
            .where(participants.c.match_id == recorded)
            .order_by(participants.c.seat)
        )
        ranks = [int(rank) for rank in conn.execute(query).scalars()]
        record_result(conn, table_id, ranks, forfeits_in_log(conn, table_id))


def forfeits_in_log(conn: Connection, table_id: str) -> list[int]:
    """The seats of ``table_id`` held by an account that did not play all of its moves
    itself, as the stored log says (``actions.by_stand_in``): one a stand-in chose for,
    or none it chose."""
    held = conn.execute(
        sa.select(seats.c.seat).where(seats.c.table_id == table_id, seats.c.user_id.is_not(None))
    ).scalars()
    query = sa.select(actions.c.seat, actions.c.by_stand_in).where(actions.c.table_id == table_id)
    own: set[int] = set()
    stood_in: set[int] = set()
    for seat, by_stand_in in conn.execute(query):
        (stood_in if by_stand_in else own).add(seat)
    return forfeited(held, own, stood_in)


def record_result(
    conn: Connection, table_id: str, ranks: Sequence[int], forfeits: Sequence[int] = ()
) -> bool:
    """The match at ``table_id`` ended with ``ranks`` (by seat), the programs in seats
    ``forfeits`` forfeiting it: if it is the league's and not recorded yet, record it;
    True if it was."""
    done = conn.execute(
        league_matches.update()
        .where(league_matches.c.table_id == table_id, league_matches.c.ranks.is_(None))
        .values(
            ranks=json.dumps(list(ranks)),
            forfeits=json.dumps(sorted(set(forfeits))),
            finished=time.time(),
        )
    )
    return bool(done.rowcount)


def _match(r: Any) -> LeagueMatch:
    return LeagueMatch(
        r.id,
        r.game,
        tuple(json.loads(r.entrants)),
        r.table_id,
        None if r.ranks is None else tuple(json.loads(r.ranks)),
        r.created,
        tuple(json.loads(r.forfeits or "[]")),
    )


def matches_of(conn: Connection, game: str) -> list[LeagueMatch]:
    """Every league match of ``game``, oldest first."""
    query = (
        league_matches.select().where(league_matches.c.game == game).order_by(league_matches.c.id)
    )
    return [_match(r) for r in conn.execute(query)]


# A league plays on for ever: what is read every tick or page is bounded (the last hour's
# rows) or grouped (a row per pair, or per pair and result), never every match.


def recent_matches(conn: Connection, game: str, since: float) -> list[LeagueMatch]:
    """The matches of ``game`` made after ``since``, and those never dealt; oldest first."""
    recent = sa.or_(league_matches.c.created > since, league_matches.c.table_id.is_(None))
    query = (
        league_matches.select()
        .where(league_matches.c.game == game, recent)
        .order_by(league_matches.c.id)
    )
    return [_match(r) for r in conn.execute(query)]


def latest(conn: Connection, game: str) -> float | None:
    """When the newest match of ``game`` was made (None: never)."""
    query = sa.select(sa.func.max(league_matches.c.created)).where(league_matches.c.game == game)
    found = conn.execute(query).scalar()
    return None if found is None else float(found)


def meetings(conn: Connection, game: str) -> dict[tuple[str, str], int]:
    """How many matches of ``game`` each seat order was made (finished or not)."""
    query = (
        sa.select(league_matches.c.entrants, sa.func.count())
        .where(league_matches.c.game == game)
        .group_by(league_matches.c.entrants)
    )
    found: dict[tuple[str, str], int] = {}
    for entrants, count in conn.execute(query):
        seats = tuple(json.loads(entrants))
        if len(seats) == 2:
            found[(seats[0], seats[1])] = found.get((seats[0], seats[1]), 0) + int(count)
    return found


@dataclass(frozen=True)
class Results:
    """The finished matches of a game that ended alike, and how many."""

    entrants: tuple[str, ...]
    ranks: tuple[int, ...]
    forfeits: tuple[int, ...]
    count: int


def results(conn: Connection, game: str) -> list[Results]:
    """The finished matches of ``game``, grouped by seats, ranks and forfeits."""
    c = league_matches.c
    query = (
        sa.select(c.entrants, c.ranks, c.forfeits, sa.func.count())
        .where(c.game == game, c.ranks.is_not(None))
        .group_by(c.entrants, c.ranks, c.forfeits)
        .order_by(sa.func.min(c.id))
    )
    return [
        Results(
            tuple(json.loads(entrants)),
            tuple(json.loads(ranks)),
            tuple(json.loads(forfeits or "[]")),
            int(count),
        )
        for entrants, ranks, forfeits, count in conn.execute(query)
    ]
