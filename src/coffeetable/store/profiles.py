"""Profiles and leaderboards: blocking reads over matches, participants and ratings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from coffeetable.store.matches import RatingRow, matches, participants, rating_from_row, ratings
from coffeetable.store.players import BOT, players


@dataclass(frozen=True)
class BoardRow:
    """A leaderboard line."""

    place: int
    player_id: int
    name: str
    bot: bool
    mu: float
    sigma: float
    games: int
    wins: int


def ratings_of(conn: Connection, player_id: int) -> list[RatingRow]:
    """Every rating of a player, by game and group."""
    rows = conn.execute(
        ratings.select()
        .where(ratings.c.player_id == player_id)
        .order_by(ratings.c.game, ratings.c.group_name)
    ).all()
    return [rating_from_row(r) for r in rows]


def rating_history(
    conn: Connection, player_id: int, game: str, group: str, limit: int = 50
) -> list[float]:
    """The player's mu after each of their last ``limit`` rated matches, oldest first."""
    rows = conn.execute(
        sa.select(participants.c.mu_after)
        .join(matches, matches.c.id == participants.c.match_id)
        .where(
            participants.c.player_id == player_id,
            participants.c.mu_after.is_not(None),
            matches.c.game == game,
            matches.c.group_name == group,
        )
        .order_by(matches.c.id.desc())
        .limit(limit)
    ).all()
    return [float(r.mu_after) for r in reversed(rows)]


@dataclass(frozen=True)
class GameTally:
    """A player's multi-player matches of one game (rated or not)."""

    game: str
    played: int
    won: int


def tallies(conn: Connection, player_id: int) -> list[GameTally]:
    """Multi-player matches played and won (rank 1, shared included) per game."""
    won = sa.func.sum(sa.case((participants.c.rank == 1, 1), else_=0))
    rows = conn.execute(
        sa.select(matches.c.game, sa.func.count().label("played"), won.label("won"))
        .join(matches, matches.c.id == participants.c.match_id)
        .where(participants.c.player_id == player_id, matches.c.players > 1)
        .group_by(matches.c.game)
        .order_by(matches.c.game)
    ).all()
    return [GameTally(r.game, int(r.played), int(r.won or 0)) for r in rows]


@dataclass(frozen=True)
class SoloBest:
    """A player's best one-player result in a game."""

    game: str
    played: int
    best: int
    rank: str | None
    match_id: int


def solo_bests(conn: Connection, player_id: int) -> list[SoloBest]:
    """Per one-player game: how often played, the best score and its solo rank."""
    rows = conn.execute(
        sa.select(
            matches.c.game,
            matches.c.id,
            participants.c.score,
            participants.c.solo_rank,
        )
        .join(matches, matches.c.id == participants.c.match_id)
        .where(
            participants.c.player_id == player_id,
            matches.c.players == 1,
            matches.c.status == "over",
        )
        .order_by(matches.c.game, participants.c.score.desc(), matches.c.id)
    ).all()
    out: dict[str, SoloBest] = {}
    counts: dict[str, int] = {}
    for r in rows:
        counts[r.game] = counts.get(r.game, 0) + 1
        if r.game not in out:
            out[r.game] = SoloBest(r.game, 0, int(r.score), r.solo_rank, int(r.id))
    return [SoloBest(b.game, counts[b.game], b.best, b.rank, b.match_id) for b in out.values()]


def _board_order(provisional_below: int) -> Sequence[Any]:
    provisional = sa.case((ratings.c.games < provisional_below, 1), else_=0)
    return (provisional, ratings.c.mu.desc(), ratings.c.player_id)


def leaderboard(
    conn: Connection,
    game: str,
    group: str,
    *,
    provisional_below: int,
    limit: int = 50,
    offset: int = 0,
) -> list[BoardRow]:
    """Players rated in ``game``/``group``: established ones (``games >=
    provisional_below``) first, each part by mu, best first."""
    rows = conn.execute(
        sa.select(ratings, players.c.name, players.c.kind)
        .join(players, players.c.id == ratings.c.player_id)
        .where(ratings.c.game == game, ratings.c.group_name == group)
        .order_by(*_board_order(provisional_below))
        .limit(limit)
        .offset(offset)
    ).all()
    return [
        BoardRow(
            offset + index + 1, r.player_id, r.name, r.kind == BOT, r.mu, r.sigma, r.games, r.wins
        )
        for index, r in enumerate(rows)
    ]


def board_place(
    conn: Connection, player_id: int, game: str, group: str, *, provisional_below: int
) -> BoardRow | None:
    """The player's line on the leaderboard (None: not rated there)."""
    mine = conn.execute(
        sa.select(ratings, players.c.name, players.c.kind)
        .join(players, players.c.id == ratings.c.player_id)
        .where(
            ratings.c.player_id == player_id,
            ratings.c.game == game,
            ratings.c.group_name == group,
        )
    ).first()
    if mine is None:
        return None
    my_prov = 1 if mine.games < provisional_below else 0
    provisional = sa.case((ratings.c.games < provisional_below, 1), else_=0)
    ahead = conn.execute(
        sa.select(sa.func.count())
        .select_from(ratings)
        .where(
            ratings.c.game == game,
            ratings.c.group_name == group,
            sa.or_(
                provisional < my_prov,
                sa.and_(provisional == my_prov, ratings.c.mu > mine.mu),
                sa.and_(
                    provisional == my_prov,
                    ratings.c.mu == mine.mu,
                    ratings.c.player_id < player_id,
                ),
            ),
        )
    ).scalar_one()
    return BoardRow(
        int(ahead) + 1,
        player_id,
        mine.name,
        mine.kind == BOT,
        mine.mu,
        mine.sigma,
        mine.games,
        mine.wins,
    )
