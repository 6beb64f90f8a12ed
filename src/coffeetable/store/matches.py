"""Finished matches, their participants, and ratings: schema and blocking queries.

Everything takes a ``Connection``; writes run inside the caller's transaction
and never commit themselves. The rating maths (openskill) and
``finish_match``, which ties these together, are in
``server.players.ratings``.

- ``matches``: one row per finished (or abandoned) table; ``table_id`` is
  unique, so a table's match is recorded once whatever calls it twice.
- ``participants``: one row per seat: the rated identity (``player_id``; None
  for a guest), the name shown at the table, the bot level that played it
  (None: a person), final score, rank (1 = best, shared on ties), whether the
  person left, the solo rank (one-player games), and the rating (mu, sigma)
  before and after (None when the match changed no rating).
- ``ratings``: openskill's (mu, sigma) per player, game and player-count
  group, with rated games and wins.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection

from coffeetable.store.db import metadata
from coffeetable.store.players import BOT, players

matches = sa.Table(
    "matches",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("group_name", sa.String(16), nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),  # over | abandoned
    sa.Column("finished", sa.Float, nullable=False),
    sa.UniqueConstraint("table_id", name="uq_matches_table_id"),
    sa.Index("ix_matches_game_id", "game", "id"),
)

participants = sa.Table(
    "participants",
    metadata,
    sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
    sa.Column("name", sa.String(80), nullable=False),
    sa.Column("bot", sa.String(32), nullable=True),
    sa.Column("score", sa.Integer, nullable=False),
    sa.Column("rank", sa.Integer, nullable=False),
    sa.Column("left", sa.Boolean, nullable=False),
    sa.Column("solo_rank", sa.String(32), nullable=True),
    sa.Column("mu_before", sa.Float, nullable=True),
    sa.Column("sigma_before", sa.Float, nullable=True),
    sa.Column("mu_after", sa.Float, nullable=True),
    sa.Column("sigma_after", sa.Float, nullable=True),
    sa.Index("ix_participants_player_id_match_id", "player_id", "match_id"),
)

ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("game", sa.String(64), primary_key=True),
    sa.Column("group_name", sa.String(16), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("wins", sa.Integer, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
    sa.Index("ix_ratings_game_group_name", "game", "group_name"),
)


@dataclass
class RatingRow:
    """One player's rating in one game and group."""

    player_id: int
    game: str
    group: str
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    updated: float = 0.0


@dataclass
class ParticipantRow:
    """One seat of a recorded match."""

    seat: int
    player_id: int | None
    name: str
    bot: str | None
    score: int
    rank: int
    left: bool = False
    solo_rank: str | None = None
    mu_before: float | None = None
    sigma_before: float | None = None
    mu_after: float | None = None
    sigma_after: float | None = None
    #: The player's shown name and kind (filled in by reads).
    player: str | None = None
    player_is_bot: bool = False


@dataclass
class MatchRow:
    """A recorded match with its seats."""

    id: int
    table_id: str
    game: str
    players: int
    group: str
    rated: bool
    status: str
    finished: float
    participants: list[ParticipantRow] = field(default_factory=list)


# -- writes --------------------------------------------------------------------


def insert_match(
    conn: Connection,
    table_id: str,
    game: str,
    player_count: int,
    group: str,
    rated: bool,
    status: str,
    finished: float,
) -> int | None:
    """Insert a match; return its id, or None if the table's match is already recorded.

    The unique ``table_id`` decides (``INSERT ... ON CONFLICT DO NOTHING`` on
    SQLite and PostgreSQL), so the caller's transaction is not broken by a
    second call. Other databases raise ``IntegrityError`` instead.
    """
    values = {
        "table_id": table_id,
        "game": game,
        "players": player_count,
        "group_name": group,
        "rated": rated,
        "status": status,
        "finished": finished,
    }
    dialect = conn.dialect.name
    if dialect == "sqlite":
        statement: Any = sqlite_insert(matches).on_conflict_do_nothing(index_elements=["table_id"])
    elif dialect == "postgresql":
        statement = postgresql_insert(matches).on_conflict_do_nothing(index_elements=["table_id"])
    else:
        result = conn.execute(matches.insert().values(**values))
        key = result.inserted_primary_key
        assert key is not None
        return int(key[0])
    row = conn.execute(statement.values(**values).returning(matches.c.id)).first()
    return None if row is None else int(row[0])


def match_id_for_table(conn: Connection, table_id: str) -> int | None:
    """The id of the table's recorded match, or None."""
    row = conn.execute(sa.select(matches.c.id).where(matches.c.table_id == table_id)).first()
    return None if row is None else int(row.id)


def insert_participants(conn: Connection, match_id: int, rows: Iterable[ParticipantRow]) -> None:
    """Insert a match's seats."""
    values = [
        {
            "match_id": match_id,
            "seat": r.seat,
            "player_id": r.player_id,
            "name": r.name,
            "bot": r.bot,
            "score": r.score,
            "rank": r.rank,
            "left": r.left,
            "solo_rank": r.solo_rank,
            "mu_before": r.mu_before,
            "sigma_before": r.sigma_before,
            "mu_after": r.mu_after,
            "sigma_after": r.sigma_after,
        }
        for r in rows
    ]
    if values:
        conn.execute(participants.insert(), values)


def ratings_for(
    conn: Connection, player_ids: Iterable[int], game: str, group: str
) -> dict[int, RatingRow]:
    """The stored ratings of these players (locked ``FOR UPDATE`` where the database can)."""
    ids = sorted(set(player_ids))
    if not ids:
        return {}
    rows = conn.execute(
        ratings.select()
        .where(
            ratings.c.player_id.in_(ids),
            ratings.c.game == game,
            ratings.c.group_name == group,
        )
        .order_by(ratings.c.player_id)
        .with_for_update()
    ).all()
    return {r.player_id: rating_from_row(r) for r in rows}


def save_rating(conn: Connection, row: RatingRow, exists: bool) -> None:
    """Write a rating: update it if ``exists``, else insert it."""
    values = {
        "mu": row.mu,
        "sigma": row.sigma,
        "games": row.games,
        "wins": row.wins,
        "updated": row.updated,
    }
    if exists:
        conn.execute(
            ratings.update()
            .where(
                ratings.c.player_id == row.player_id,
                ratings.c.game == row.game,
                ratings.c.group_name == row.group,
            )
            .values(**values)
        )
    else:
        conn.execute(
            ratings.insert().values(
                player_id=row.player_id, game=row.game, group_name=row.group, **values
            )
        )


# -- reads ---------------------------------------------------------------------


def rating_from_row(row: Any) -> RatingRow:
    """A ``RatingRow`` from a row of ``ratings``."""
    return RatingRow(
        row.player_id, row.game, row.group_name, row.mu, row.sigma, row.games, row.wins, row.updated
    )


def list_matches(
    conn: Connection,
    *,
    player_id: int | None = None,
    game: str | None = None,
    before: int | None = None,
    limit: int = 20,
) -> list[MatchRow]:
    """Recorded matches, newest first (by id), with their seats.

    ``player_id``: only matches with that player; ``before``: only matches
    with a smaller id (the cursor of the previous page).
    """
    query = sa.select(matches)
    if player_id is not None:
        mine = sa.select(participants.c.match_id).where(participants.c.player_id == player_id)
        query = query.where(matches.c.id.in_(mine))
    if game is not None:
        query = query.where(matches.c.game == game)
    if before is not None:
        query = query.where(matches.c.id < before)
    rows = conn.execute(query.order_by(matches.c.id.desc()).limit(limit)).all()
    found = {
        r.id: MatchRow(
            r.id, r.table_id, r.game, r.players, r.group_name, bool(r.rated), r.status, r.finished
        )
        for r in rows
    }
    if found:
        _fill_participants(conn, found)
    return list(found.values())


def list_matches_between(
    conn: Connection, game: str, since: float, until: float | None, limit: int | None = None
) -> Iterator[MatchRow]:
    """``game``'s matches that ended by the rules (status ``over``) in ``[since, until)``,
    oldest first, with their seats; read a page at a time (an export may be long)."""
    query = sa.select(matches).where(
        matches.c.game == game, matches.c.status == "over", matches.c.finished >= since
    )
    if until is not None:
        query = query.where(matches.c.finished < until)
    after, given = 0, 0
    while limit is None or given < limit:
        page = min(_PAGE, limit - given) if limit is not None else _PAGE
        rows = conn.execute(
            query.where(matches.c.id > after).order_by(matches.c.id).limit(page)
        ).all()
        if not rows:
            return
        found = {r.id: _row(r) for r in rows}
        _fill_participants(conn, found)
        yield from found.values()
        after, given = rows[-1].id, given + len(rows)


#: Matches read at once by ``list_matches_between``.
_PAGE = 200


def _row(r: Any) -> MatchRow:
    return MatchRow(
        r.id, r.table_id, r.game, r.players, r.group_name, bool(r.rated), r.status, r.finished
    )


def match_for_table(conn: Connection, table_id: str) -> MatchRow | None:
    """The recorded match of a table, with its seats."""
    row = conn.execute(matches.select().where(matches.c.table_id == table_id)).first()
    if row is None:
        return None
    match = MatchRow(
        row.id,
        row.table_id,
        row.game,
        row.players,
        row.group_name,
        bool(row.rated),
        row.status,
        row.finished,
    )
    _fill_participants(conn, {match.id: match})
    return match


def _fill_participants(conn: Connection, found: dict[int, MatchRow]) -> None:
    rows = conn.execute(
        sa.select(participants, players.c.name.label("player"), players.c.kind)
        .outerjoin(players, players.c.id == participants.c.player_id)
        .where(participants.c.match_id.in_(list(found)))
        .order_by(participants.c.match_id, participants.c.seat)
    ).all()
    for r in rows:
        found[r.match_id].participants.append(
            ParticipantRow(
                r.seat,
                r.player_id,
                r.name,
                r.bot,
                r.score,
                r.rank,
                bool(r.left),
                r.solo_rank,
                r.mu_before,
                r.sigma_before,
                r.mu_after,
                r.sigma_after,
                r.player,
                r.kind == BOT,
            )
        )
