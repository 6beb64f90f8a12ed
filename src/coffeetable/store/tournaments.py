"""Tournaments: schema and blocking queries (the pairing rules are ``coffeetable.tournaments``).

- ``tournaments``: one row per tournament: its owner, game, format (``swiss``,
  ``round_robin``, ``arena``), seats per table, rounds (Swiss) or minutes (arena),
  when it starts (``starts_at``; null: when full), the most entrants, rated or not,
  the table settings (JSON), its status (``upcoming``, ``running``, ``finished``,
  ``cancelled``), and its standings (JSON, rewritten with every result).
- ``tournament_entries``: who entered: an entrant id (``u<player id>`` for an account,
  a person's or a bot account's; ``<level>-<n>`` for a site bot the owner entered),
  the account (null for a site bot), the site bot's level, the name shown, and when
  they withdrew (null: still in), and how many of their matches they missed (an
  account's seat that never acted by its own player: away all along, or out of time
  before its first move); at ``MISSES_WITHDRAWN`` they are withdrawn.
- ``tournament_tables``: every table of every round: the entrants in seat order
  (JSON), the lobby table's id once dealt, and each seat's rank once it is over.

``record_result`` is called by ``server.players.ratings.finish_match`` in the
transaction that marks a match over, after the match is recorded (once per table):
a tournament's results and standings change exactly when its match ends.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from coffeetable import tournaments as rules
from coffeetable.store.db import metadata
from coffeetable.tournaments.arena import arena_points

#: The statuses of a tournament, and those a runner looks at.
UPCOMING, RUNNING, FINISHED, CANCELLED = "upcoming", "running", "finished", "cancelled"
LIVE = (UPCOMING, RUNNING)
#: An entrant who missed this many of their matches is withdrawn (paired no more).
MISSES_WITHDRAWN = 2

tournaments = sa.Table(
    "tournaments",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("owner_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False, index=True),
    sa.Column("name", sa.String(80), nullable=False),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("format", sa.String(16), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("rounds", sa.Integer, nullable=True),
    sa.Column("minutes", sa.Float, nullable=True),
    sa.Column("starts_at", sa.Float, nullable=True),
    sa.Column("max_entrants", sa.Integer, nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("settings", sa.Text, nullable=False),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("started", sa.Float, nullable=True),
    sa.Column("finished", sa.Float, nullable=True),
    sa.Column("standings", sa.Text, nullable=False),
)

entries = sa.Table(
    "tournament_entries",
    metadata,
    sa.Column("tournament_id", sa.String(32), sa.ForeignKey("tournaments.id"), primary_key=True),
    sa.Column("entrant", sa.String(40), primary_key=True),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
    sa.Column("bot", sa.String(32), nullable=True),
    sa.Column("name", sa.String(80), nullable=False),
    sa.Column("entered", sa.Float, nullable=False),
    sa.Column("withdrawn", sa.Float, nullable=True),
    sa.Column("missed", sa.Integer, nullable=False, server_default="0"),
)

pairings = sa.Table(
    "tournament_tables",
    metadata,
    sa.Column("tournament_id", sa.String(32), sa.ForeignKey("tournaments.id"), primary_key=True),
    sa.Column("round", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("board", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("entrants", sa.Text, nullable=False),
    sa.Column("table_id", sa.String(32), nullable=True, index=True),
    sa.Column("ranks", sa.Text, nullable=True),
    sa.Column("dealt", sa.Float, nullable=True),
)


@dataclass
class TournamentRow:
    """A tournament as stored."""

    id: str
    owner_id: int
    name: str
    game: str
    format: str
    players: int
    rounds: int | None
    minutes: float | None
    starts_at: float | None
    max_entrants: int
    rated: bool
    settings: dict[str, Any]
    status: str
    created: float
    started: float | None = None
    finished: float | None = None
    standings: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class EntryRow:
    entrant: str
    player_id: int | None
    bot: str | None
    name: str
    entered: float
    withdrawn: float | None
    missed: int = 0


@dataclass(frozen=True)
class PairingRow:
    round: int
    board: int
    entrants: tuple[str, ...]
    table_id: str | None
    ranks: tuple[int, ...] | None
    dealt: float | None

    def table(self) -> rules.Table:
        return rules.Table(self.entrants, self.ranks)


def _tournament(row: Any) -> TournamentRow:
    values = dict(row._mapping)
    values["settings"] = json.loads(values["settings"])
    values["standings"] = json.loads(values["standings"])
    return TournamentRow(**values)


def insert(conn: Connection, row: TournamentRow) -> None:
    values = {**row.__dict__, "settings": json.dumps(row.settings), "standings": "[]"}
    conn.execute(tournaments.insert().values(**values))


def load(conn: Connection, tournament_id: str) -> TournamentRow | None:
    row = conn.execute(tournaments.select().where(tournaments.c.id == tournament_id)).first()
    return None if row is None else _tournament(row)


def listing(conn: Connection, statuses: Sequence[str], limit: int = 100) -> list[TournamentRow]:
    query = (
        tournaments.select()
        .where(tournaments.c.status.in_(list(statuses)))
        .order_by(tournaments.c.created.desc())
        .limit(limit)
    )
    return [_tournament(row) for row in conn.execute(query)]


def live_owned(conn: Connection, owner_id: int) -> int:
    """How many upcoming or running tournaments ``owner_id`` has."""
    query = sa.select(sa.func.count()).where(
        tournaments.c.owner_id == owner_id, tournaments.c.status.in_(LIVE)
    )
    return int(conn.execute(query).scalar_one())


def set_status(conn: Connection, tournament_id: str, status: str, **stamps: float) -> None:
    conn.execute(
        tournaments.update()
        .where(tournaments.c.id == tournament_id)
        .values(status=status, **stamps)
    )


def hold(conn: Connection, tournament_id: str, statuses: Sequence[str]) -> str | None:
    """Lock the tournament's row for the rest of ``conn``'s transaction if its status is
    one of ``statuses``; that status, or None.

    An entry, a withdrawal and the start each hold the row first: on PostgreSQL the second
    waits for the first to commit and then sees its status and entries, so no one enters
    a tournament as it starts without being seated (SQLite runs one writer at a time).
    """
    where = (tournaments.c.id == tournament_id) & tournaments.c.status.in_(list(statuses))
    if conn.execute(tournaments.update().where(where).values(status=tournaments.c.status)).rowcount:
        return str(conn.execute(sa.select(tournaments.c.status).where(where)).scalar_one())
    return None


def entries_of(conn: Connection, tournament_id: str) -> list[EntryRow]:
    query = (
        entries.select()
        .where(entries.c.tournament_id == tournament_id)
        .order_by(entries.c.entered, entries.c.entrant)
    )
    return [
        EntryRow(r.entrant, r.player_id, r.bot, r.name, r.entered, r.withdrawn, r.missed)
        for r in conn.execute(query)
    ]


def add_entry(conn: Connection, tournament_id: str, entry: EntryRow) -> None:
    conn.execute(entries.insert().values(tournament_id=tournament_id, **entry.__dict__))


def set_withdrawn(conn: Connection, tournament_id: str, entrant: str, when: float | None) -> None:
    conn.execute(
        entries.update()
        .where(entries.c.tournament_id == tournament_id, entries.c.entrant == entrant)
        .values(withdrawn=when)
    )


def remove_entry(conn: Connection, tournament_id: str, entrant: str) -> None:
    conn.execute(
        entries.delete().where(
            entries.c.tournament_id == tournament_id, entries.c.entrant == entrant
        )
    )


def withdraw_accounts(conn: Connection, player_ids: Sequence[int], now: float) -> int:
    """Withdraw these accounts from every tournament not over (a moderator's suspension):
    an upcoming one forgets their entries, a running one marks them withdrawn (their
    tables not yet dealt are forfeits, as any withdrawal's); how many entries."""
    mine = (
        sa.select(entries.c.tournament_id, entries.c.entrant)
        .join(tournaments, tournaments.c.id == entries.c.tournament_id)
        .where(
            entries.c.player_id.in_(list(player_ids)),
            entries.c.withdrawn.is_(None),
            tournaments.c.status.in_(LIVE),
        )
    )
    found = conn.execute(mine).all()
    for tournament_id, entrant in found:
        status = hold(conn, tournament_id, LIVE)  # it may have started (or ended) meanwhile
        if status == UPCOMING:
            remove_entry(conn, tournament_id, entrant)
        elif status == RUNNING:
            set_withdrawn(conn, tournament_id, entrant, now)
    return len(found)


def pairings_of(conn: Connection, tournament_id: str) -> list[PairingRow]:
    query = (
        pairings.select()
        .where(pairings.c.tournament_id == tournament_id)
        .order_by(pairings.c.round, pairings.c.board)
    )
    return [
        PairingRow(
            r.round,
            r.board,
            tuple(json.loads(r.entrants)),
            r.table_id,
            None if r.ranks is None else tuple(json.loads(r.ranks)),
            r.dealt,
        )
        for r in conn.execute(query)
    ]


def add_round(
    conn: Connection, tournament_id: str, number: int, tables: Sequence[rules.Table], first: int = 0
) -> None:
    """Write round ``number``'s tables (boards from ``first``); byes are played at once."""
    for board, table in enumerate(tables, start=first):
        conn.execute(
            pairings.insert().values(
                tournament_id=tournament_id,
                round=number,
                board=board,
                entrants=json.dumps(list(table.players)),
                ranks=json.dumps([1]) if table.bye else None,
            )
        )
    write_standings(conn, tournament_id)


def set_table(conn: Connection, tournament_id: str, number: int, board: int, table_id: str) -> None:
    conn.execute(
        pairings.update()
        .where(
            pairings.c.tournament_id == tournament_id,
            pairings.c.round == number,
            pairings.c.board == board,
        )
        .values(table_id=table_id, dealt=time.time())
    )


def set_ranks(
    conn: Connection, tournament_id: str, number: int, board: int, ranks: Sequence[int]
) -> None:
    """A table decided without a match (a forfeit): its ranks, and the standings."""
    conn.execute(
        pairings.update()
        .where(
            pairings.c.tournament_id == tournament_id,
            pairings.c.round == number,
            pairings.c.board == board,
        )
        .values(ranks=json.dumps(list(ranks)), dealt=time.time())
    )
    write_standings(conn, tournament_id)


def record_result(
    conn: Connection, table_id: str, ranks: Sequence[int], absent: Sequence[int] = ()
) -> bool:
    """The match at lobby table ``table_id`` ended with ``ranks`` (by seat): if it is a
    tournament's, write its result and the tournament's standings; True if it was.
    ``absent``: the seats whose account never acted there: a miss each for their
    entrant, who is withdrawn at ``MISSES_WITHDRAWN``."""
    found = conn.execute(
        pairings.select().where(pairings.c.table_id == table_id, pairings.c.ranks.is_(None))
    ).first()
    if found is None:
        return False
    conn.execute(
        pairings.update()
        .where(
            pairings.c.tournament_id == found.tournament_id,
            pairings.c.round == found.round,
            pairings.c.board == found.board,
        )
        .values(ranks=json.dumps(list(ranks)))
    )
    seated = json.loads(found.entrants)
    for seat in absent:
        if 0 <= seat < len(seated):
            _missed(conn, found.tournament_id, seated[seat])
    write_standings(conn, found.tournament_id)
    return True


def _missed(conn: Connection, tournament_id: str, entrant: str) -> None:
    """One more miss for ``entrant``; withdrawn (from now) at the limit."""
    which = (entries.c.tournament_id == tournament_id, entries.c.entrant == entrant)
    conn.execute(entries.update().where(*which).values(missed=entries.c.missed + 1))
    conn.execute(
        entries.update()
        .where(*which, entries.c.missed >= MISSES_WITHDRAWN, entries.c.withdrawn.is_(None))
        .values(withdrawn=time.time())
    )


def _number(value: Fraction) -> float:
    return round(float(value), 4)


def standings_of(
    format: str, entrants: Sequence[str], played: Sequence[PairingRow]
) -> list[dict[str, Any]]:
    """The standings (JSON) of a tournament's entrants (in entry order) after ``played``."""
    by_round: dict[int, list[rules.Table]] = {}
    for row in played:
        by_round.setdefault(row.round, []).append(row.table())
    lines = rules.standings(entrants, list(by_round.values()))
    out: list[dict[str, Any]] = [
        {
            "entrant": line.player,
            "score": _number(line.score),
            "played": line.played,
            "tie_breaks": {name: _number(value) for name, value in line.tie_breaks.items()},
        }
        for line in lines
    ]
    if format == "arena":  # arena points with streaks, in the order matches were played
        results: dict[str, list[Fraction]] = {entrant: [] for entrant in entrants}
        for row in sorted(played, key=lambda row: (row.dealt or 0, row.round, row.board)):
            for entrant, points in row.table().points().items():
                results.setdefault(entrant, []).append(points)
        for line in out:
            line["points"] = _number(sum(arena_points(results[line["entrant"]]), Fraction(0)))
        out.sort(key=lambda line: (-line["points"], -line["score"]))
    for rank, line in enumerate(out, start=1):
        line["rank"] = rank
    return out


def write_standings(conn: Connection, tournament_id: str) -> None:
    row = load(conn, tournament_id)
    assert row is not None
    entrants = [entry.entrant for entry in entries_of(conn, tournament_id)]
    lines = standings_of(row.format, entrants, pairings_of(conn, tournament_id))
    conn.execute(
        tournaments.update()
        .where(tournaments.c.id == tournament_id)
        .values(standings=json.dumps(lines))
    )
