"""The programs' league as the API shows it: ``GET /api/leagues/{game}``.

Its players (the bot accounts that opted in, and the site's bot levels as references),
each pair's results, and the standings: matches, points (a win 1, a shared win 1/2),
the score share and its 95% interval (Wilson's). A program that did not play its seat
itself forfeited the match (0 for it, 1 for its opponent; both: void, counted for
neither), and each pair and line says how many (``coffeetable.tournaments.league``).
Anyone may read it.
"""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Path as FastPath

from coffeetable import bots
from coffeetable.server.errors import TableError
from coffeetable.server.jsonio import StrictJSONRoute
from coffeetable.server.league.runner import (
    REFERENCE,
    STALE_SECONDS,
    league_games,
    played,
    references,
)
from coffeetable.store import Store
from coffeetable.store import bot_accounts as bot_db
from coffeetable.store import league as db
from coffeetable.tournaments.league import league_standings, pair_results

router = APIRouter(prefix="/api", route_class=StrictJSONRoute, tags=["league"])

GameName = Annotated[str, FastPath(min_length=1, max_length=64, pattern=r"^[a-z0-9_-]+$")]


def _points(value: Any) -> float:
    return round(float(value), 4)


async def league_view(store: Store, game: str, pace: float) -> dict[str, Any]:
    """The league of ``game`` (404 if no league is played in it)."""
    found = next((g for g in league_games() if g.name == game), None)
    if found is None:
        names = ", ".join(g.name for g in league_games())
        raise TableError(404, f"no league for {game!r}; the leagues are {names}")

    since = time.time() - STALE_SECONDS  # older matches not over no longer count as played

    def read(conn: Any) -> tuple[list[bot_db.BotRow], list[db.LeagueMatch], list[db.Results]]:
        recent = db.recent_matches(conn, game, since)
        return bot_db.league_bots(conn), recent, db.results(conn, game)

    programs, recent, results = await store.read(read)
    programs_by = {f"u{bot.id}": bot.name for bot in programs}
    levels = {f"{REFERENCE}{level}": level for level in bots.available(game)}
    players = [*programs_by, *references(game)]
    shown = {**programs_by, **{entrant: f"{level} (site bot)" for entrant, level in levels.items()}}
    finished = played(results)
    return {
        "game": game,
        "title": found.title,
        "matches_per_hour": pace,
        "playing": sum(
            1 for m in recent if m.ranks is None and m.table_id is not None and m.created > since
        ),
        "matches": sum(match.count for match in finished),
        "players": [
            {"entrant": entrant, "name": shown[entrant], "reference": entrant in levels}
            for entrant in players
        ],
        "pairs": [
            {
                "a": result.a,
                "b": result.b,
                "played": result.played,
                "a_points": _points(result.a_points),
                "b_points": _points(result.b_points),
                "a_forfeits": result.a_forfeits,
                "b_forfeits": result.b_forfeits,
                "void": result.void,
            }
            for result in pair_results(players, finished)
        ],
        "standings": [
            {
                "rank": rank,
                "entrant": line.player,
                "name": shown[line.player],
                "played": line.played,
                "points": _points(line.points),
                "share": round(line.share, 4),
                "low": round(line.low, 4),
                "high": round(line.high, 4),
                "forfeits": line.forfeits,
            }
            for rank, line in enumerate(league_standings(players, finished), start=1)
        ],
    }


@router.get(
    "/leagues/{game}",
    summary="the programs' league of a game: pairs' results, standings with 95% intervals",
    operation_id="get_league",
    responses={404: {"description": "no league for this game"}},
)
async def get_league(game: GameName, request: Request) -> dict[str, Any]:
    pace = request.app.state.lobby.limits.league_matches_per_hour
    return await league_view(request.app.state.store, game, pace)


#: (method, path) -> (example request or None, example answer), for ``api/openapi.py``.
EXAMPLES: dict[tuple[str, str], tuple[Any, Any]] = {
    ("get", "/api/leagues/{game}"): (
        None,
        {
            "game": "fika",
            "title": "Fika",
            "matches_per_hour": 60,
            "playing": 1,
            "matches": 3,
            "players": [
                {"entrant": "u12", "name": "ana/bot-v2", "reference": False},
                {"entrant": "bot:strong", "name": "strong (site bot)", "reference": True},
            ],
            "pairs": [
                {
                    "a": "u12",
                    "b": "bot:strong",
                    "played": 3,
                    "a_points": 2,
                    "b_points": 1,
                    "a_forfeits": 1,
                    "b_forfeits": 0,
                    "void": 0,
                }
            ],
            "standings": [
                {
                    "rank": 1,
                    "entrant": "u12",
                    "name": "ana/bot-v2",
                    "played": 3,
                    "points": 2,
                    "share": 0.6667,
                    "low": 0.2077,
                    "high": 0.9385,
                    "forfeits": 1,
                }
            ],
        },
    ),
}
