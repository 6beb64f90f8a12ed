"""The public players routes: profiles, leaderboards and match history."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Query, Request

from coffeetable import games
from coffeetable.server.jsonio import StrictJSONRoute
from coffeetable.server.players import models, ratings
from coffeetable.server.players.auth_api import MaybeAccount, players_service
from coffeetable.server.players.usernames import name_key, normalize
from coffeetable.store import learn, profiles, reliability
from coffeetable.store import matches as store_matches
from coffeetable.store import players as db

router = APIRouter(prefix="/api", route_class=StrictJSONRoute)
_NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"description": "no such player or game"}}
HISTORY = 50
RECENT = 10
#: The deepest leaderboard page (a person's own place is in ``me`` at any depth): a
#: bound keeps the database's OFFSET scan short and the number within 64 bits.
MAX_OFFSET = 10_000


def _rating(mu: float | None) -> int | None:
    return None if mu is None else ratings.display(mu)


def match_out(match: store_matches.MatchRow) -> dict[str, Any]:
    """A recorded match as the API shows it."""
    return {
        "match_id": match.id,
        "table_id": match.table_id,
        "game": match.game,
        "players": match.players,
        "group": match.group,
        "rated": match.rated,
        "status": match.status,
        "finished": match.finished,
        "participants": [
            models.Participant(
                seat=p.seat,
                name=p.name,
                player=p.player,
                bot=p.player_is_bot or (p.player is None and p.bot is not None),
                # a site bot's level ("casual"); a bot account's seat holds "owner/name"
                level=p.bot if p.bot is not None and "/" not in p.bot else None,
                score=p.score,
                rank=p.rank,
                left=p.left,
                solo_rank=p.solo_rank,
                rating_before=_rating(p.mu_before),
                rating_after=_rating(p.mu_after),
            )
            for p in match.participants
        ],
        "links": models.MatchLinks(
            table=f"/api/tables/{match.table_id}", log=f"/api/tables/{match.table_id}/log"
        ),
    }


def _result(match: store_matches.MatchRow, player_id: int) -> tuple[int, str]:
    mine = next(p for p in match.participants if p.player_id == player_id)
    if match.players == 1:
        return mine.rank, "solo"
    if mine.left:
        return mine.rank, "left"
    if mine.rank != 1:
        return mine.rank, "lost"
    shared = sum(1 for p in match.participants if p.rank == 1) > 1
    return 1, "shared" if shared else "won"


async def _player(request: Request, name: str) -> db.PlayerRow:
    key = name_key(normalize(name))
    store = players_service(request).store
    player = await store.read(lambda conn: db.player_by_key(conn, key))
    if player is None:
        raise HTTPException(404, f"no player {name!r}")
    return player


@router.get(
    "/players/{name}",
    summary="a player's profile: ratings with history, games, solo bests, recent matches",
    responses=_NOT_FOUND,
)
async def profile(name: str, request: Request) -> models.Profile:
    player = await _player(request, name)
    store = players_service(request).store

    def read(conn: Any) -> dict[str, Any]:
        rows = profiles.ratings_of(conn, player.id)
        return {
            "ratings": [
                (r, profiles.rating_history(conn, player.id, r.game, r.group, HISTORY))
                for r in rows
            ],
            "games": profiles.tallies(conn, player.id),
            "solo": profiles.solo_bests(conn, player.id),
            "recent": store_matches.list_matches(conn, player_id=player.id, limit=RECENT),
            "learned": learn.games_of(conn, player.id),
            "reliability": reliability.of_players(conn, [player.id]).get(player.id),
        }

    found = await store.read(read)
    recent = []
    for match in found["recent"]:
        place, result = _result(match, player.id)
        recent.append(models.RecentMatch(**match_out(match), place=place, result=result))
    share = found["reliability"]
    return models.Profile(
        name=player.name,
        bot=player.bot,
        joined=player.created,
        reliability=None
        if share is None
        else models.Reliability(
            finished=share[0], started=share[1], percent=reliability.percent(*share)
        ),
        ratings=[
            models.RatingOut(
                game=r.game,
                group=r.group,
                rating=ratings.display(r.mu),
                provisional=ratings.provisional(r.games),
                mu=r.mu,
                sigma=r.sigma,
                games=r.games,
                wins=r.wins,
                history=[ratings.display(mu) for mu in history],
            )
            for r, history in found["ratings"]
        ],
        games=[models.GameCount(game=t.game, played=t.played, won=t.won) for t in found["games"]],
        solo=[
            models.SoloBest(
                game=b.game, played=b.played, best=b.best, rank=b.rank, match_id=b.match_id
            )
            for b in found["solo"]
        ],
        recent=recent,
        learned=found["learned"],
    )


def board_group(game: str, group: str | None) -> str:
    """The player-count group of a leaderboard (default: the game's first); 404 for no
    such game, 400 for no such group."""
    if game not in games.names():
        raise HTTPException(404, f"no game {game!r}")
    names = ratings.groups(game)
    chosen = names[0] if group is None else group
    if chosen not in names:
        raise HTTPException(400, f"{game} has the groups {', '.join(names)}")
    return chosen


def _entry(row: profiles.BoardRow) -> models.BoardEntry:
    return models.BoardEntry(
        place=row.place,
        name=row.name,
        bot=row.bot,
        rating=ratings.display(row.mu),
        provisional=ratings.provisional(row.games),
        games=row.games,
        wins=row.wins,
    )


@router.get(
    "/leaderboards/{game}",
    summary="the best rated players of a game (people and bots), and my place",
    responses={**_NOT_FOUND, 400: {"description": "no such player-count group"}},
)
async def leaderboard(
    game: str,
    request: Request,
    account: MaybeAccount,
    group: str | None = Query(None, description="player-count group; default the first"),
    limit: int = Query(50, ge=1, le=200),
    offset: int = Query(0, ge=0, le=MAX_OFFSET, description="entries to skip"),
) -> models.Leaderboard:
    chosen = board_group(game, group)
    store = players_service(request).store
    below = ratings.PROVISIONAL_GAMES

    def read(conn: Any) -> tuple[list[profiles.BoardRow], profiles.BoardRow | None]:
        rows = profiles.leaderboard(
            conn, game, chosen, provisional_below=below, limit=limit, offset=offset
        )
        mine = None
        if account is not None:
            mine = profiles.board_place(
                conn, account.user_id, game, chosen, provisional_below=below
            )
        return rows, mine

    rows, mine = await store.read(read)
    return models.Leaderboard(
        game=game,
        group=chosen,
        groups=ratings.groups(game),
        entries=[_entry(row) for row in rows],
        me=None if mine is None else _entry(mine),
    )


@router.get(
    "/matches",
    summary="finished matches, newest first, a page at a time",
    responses={**_NOT_FOUND, 400: {"description": "a bad cursor"}},
)
async def list_matches(
    request: Request,
    player: str | None = Query(None, description="only this player's matches"),
    game: str | None = Query(None, description="only this game"),
    before: str | None = Query(None, description="the `next` of the previous page"),
    limit: int = Query(20, ge=1, le=100),
    table: str | None = Query(
        None,
        max_length=64,
        description="only this table's match (none while it runs): its end screen's rating change",
    ),
) -> models.MatchPage:
    if table is not None:  # one table has at most one match: no page, no other filter
        store = players_service(request).store
        one = await store.read(lambda conn: store_matches.match_for_table(conn, table))
        return models.MatchPage(
            matches=[] if one is None else [models.MatchOut(**match_out(one))], next=None
        )
    cursor = None
    if before is not None:
        if not (before.isascii() and before.isdigit()) or len(before) > 18:  # not "²"
            raise HTTPException(400, "before is the `next` of a previous page")
        cursor = int(before)
    player_id = None if player is None else (await _player(request, player)).id
    store = players_service(request).store
    found = await store.read(
        lambda conn: store_matches.list_matches(
            conn, player_id=player_id, game=game, before=cursor, limit=limit + 1
        )
    )
    page = found[:limit]
    more = len(found) > limit
    return models.MatchPage(
        matches=[models.MatchOut(**match_out(match)) for match in page],
        next=str(page[-1].id) if more and page else None,
    )
