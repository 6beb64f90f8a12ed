"""The tournaments API: create, list, read, enter, withdraw, start (``service.py``'s rules)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi import Path as FastPath
from pydantic import BaseModel, Field

from coffeetable.server.errors import TableError
from coffeetable.server.jsonio import StrictJSONRoute
from coffeetable.server.players.auth_api import from_this_site
from coffeetable.server.players.sessions import Account
from coffeetable.server.tournaments.runner import Runner
from coffeetable.server.tournaments.service import MAX_MINUTES, MAX_ROUNDS, Tournaments

router = APIRouter(prefix="/api", route_class=StrictJSONRoute, tags=["tournaments"])

_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"description": "bad input (unknown game, format, seats, rounds, settings, ...)"},
    401: {"description": "sign in first (a session, or a bot account's API key)"},
    403: {"description": "only the tournament's owner may do that"},
    404: {"description": "no such tournament or entrant"},
    409: {"description": "not now (full, started, finished, too many tournaments)"},
}

TournamentId = Annotated[str, FastPath(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$")]


class CreateTournament(BaseModel):
    game: str = Field(max_length=64, description="a game from GET /api/games")
    format: Literal["swiss", "round_robin", "arena"]
    players: int = Field(2, ge=2, le=16, description="seats per table")
    rounds: int | None = Field(None, ge=1, le=MAX_ROUNDS, description="Swiss: its rounds")
    minutes: float | None = Field(None, ge=1, le=MAX_MINUTES, description="arena: its length")
    starts: str = Field(
        "when_full",
        max_length=40,
        description="'when_full' or an ISO 8601 time (no zone: UTC); the owner may start sooner",
    )
    max_entrants: int = Field(8, ge=2, le=1000, description="the field's size (Limits)")
    rated: bool = Field(False, description="its matches move ratings as any rated match")
    settings: dict[str, Any] = Field(
        default_factory=dict,
        description="every table's settings and game options, as a new table's 'options'",
    )
    name: str = Field("", max_length=80, description="shown in the lists (default: yours)")


class Enter(BaseModel):
    bot: str | None = Field(
        None, max_length=48, description="the owner enters a site bot of this level instead"
    )


class Created(BaseModel):
    id: str


class Entered(BaseModel):
    entrant: str = Field(description="the entrant's id in pairings and standings")
    name: str


async def _account(request: Request) -> Account:
    account: Account | None = await request.app.state.players.account_for(request)
    if account is None:
        raise TableError(401, "sign in first (a session, or a bot account's API key)")
    return account


def _service(request: Request) -> Tournaments:
    service: Tournaments = request.app.state.tournaments
    return service


def _runner(request: Request) -> Runner:
    runner: Runner = request.app.state.tournament_runner
    return runner


async def _poke(request: Request, tournament_id: str) -> None:
    """Let the runner look at the tournament now rather than at its next tick."""
    runner = _runner(request)
    if await runner.hold(tournament_id):
        await runner.advance(tournament_id)


@router.post(
    "/tournaments",
    summary="create a tournament (signed in)",
    operation_id="create_tournament",
    dependencies=[Depends(from_this_site)],
    responses=_ERRORS,
)
async def create_tournament(body: CreateTournament, request: Request) -> Created:
    account = await _account(request)
    tournament_id = await _service(request).create(
        account.user_id, account.username, body.model_dump()
    )
    return Created(id=tournament_id)


@router.get(
    "/tournaments",
    summary="upcoming, running and finished tournaments",
    operation_id="list_tournaments",
)
async def list_tournaments(request: Request) -> dict[str, list[dict[str, Any]]]:
    return await _service(request).listing()


@router.get(
    "/tournaments/{tournament_id}",
    summary="a tournament: entrants, rounds with each table and result, standings",
    operation_id="get_tournament",
    responses={404: _ERRORS[404]},
)
async def get_tournament(tournament_id: TournamentId, request: Request) -> dict[str, Any]:
    return await _service(request).view(tournament_id)


@router.post(
    "/tournaments/{tournament_id}/entries",
    summary="enter (yourself, or as its owner a site bot by level)",
    operation_id="enter_tournament",
    dependencies=[Depends(from_this_site)],
    responses=_ERRORS,
)
async def enter_tournament(tournament_id: TournamentId, body: Enter, request: Request) -> Entered:
    account = await _account(request)
    entry = await _service(request).enter(
        tournament_id, account.user_id, account.username, body.bot
    )
    await _poke(request, tournament_id)  # the last entry of a 'when_full' starts it
    return Entered(**entry)


@router.delete(
    "/tournaments/{tournament_id}/entries",
    summary="withdraw (yourself, or as its owner any entrant)",
    operation_id="withdraw_from_tournament",
    dependencies=[Depends(from_this_site)],
    responses=_ERRORS,
)
async def withdraw(
    tournament_id: TournamentId,
    request: Request,
    entrant: Annotated[
        str | None, Query(max_length=40, description="the owner: whom (default: yourself)")
    ] = None,
) -> dict[str, Any]:
    account = await _account(request)
    gone = await _service(request).withdraw(tournament_id, account.user_id, entrant)
    return {"entrant": gone, "withdrawn": True}


@router.post(
    "/tournaments/{tournament_id}/start",
    summary="start it now (its owner; two entrants or more)",
    operation_id="start_tournament",
    dependencies=[Depends(from_this_site)],
    responses=_ERRORS,
)
async def start_tournament(tournament_id: TournamentId, request: Request) -> dict[str, Any]:
    account = await _account(request)
    await _service(request).start(tournament_id, account.user_id)
    await _poke(request, tournament_id)
    return {"id": tournament_id, "starting": True}


_STANDING = {
    "entrant": "u7",
    "name": "bea",
    "rank": 1,
    "score": 3.0,
    "played": 3,
    "tie_breaks": {"buchholz": 4.5, "sonneborn_berger": 3.75},
}
_SUMMARY = {
    "id": "Tq3x9LcA",
    "name": "bea's Fika tournament",
    "game": "fika",
    "format": "swiss",
    "players": 2,
    "rounds": 3,
    "minutes": None,
    "starts": "when_full",
    "max_entrants": 8,
    "rated": False,
    "settings": {"clock_minutes": 5},
    "status": "running",
    "started": "2026-12-06T20:30:00+00:00",
    "finished": None,
}
#: (method, path) -> (example request or None, example answer), for ``api/openapi.py``.
EXAMPLES: dict[tuple[str, str], tuple[Any, Any]] = {
    ("post", "/api/tournaments"): (
        {
            "game": "fika",
            "format": "swiss",
            "players": 2,
            "rounds": 3,
            "starts": "when_full",
            "max_entrants": 8,
            "rated": False,
            "settings": {"clock_minutes": 5},
        },
        {"id": "Tq3x9LcA"},
    ),
    ("get", "/api/tournaments"): (
        None,
        {"upcoming": [], "running": [{**_SUMMARY, "entrants": 8}], "finished": []},
    ),
    ("get", "/api/tournaments/{tournament_id}"): (
        None,
        {
            **_SUMMARY,
            "entrants": [
                {"entrant": "u7", "name": "bea", "bot": None, "withdrawn": False, "missed": 0}
            ],
            "rounds": [
                {
                    "round": 1,
                    "tables": [
                        {
                            "board": 0,
                            "entrants": ["u7", "strong-1"],
                            "names": ["bea", "Strong bot 1"],
                            "table_id": "YHVKbgxc",
                            "bye": False,
                            "ranks": [1, 2],
                            "points": [1.0, 0.0],
                        }
                    ],
                }
            ],
            "standings": [_STANDING],
            "tie_breaks": ["buchholz", "sonneborn_berger"],
        },
    ),
    ("post", "/api/tournaments/{tournament_id}/entries"): (
        {"bot": "strong"},
        {"entrant": "strong-1", "name": "Strong bot 1"},
    ),
    ("delete", "/api/tournaments/{tournament_id}/entries"): (
        None,
        {"entrant": "u7", "withdrawn": True},
    ),
    ("post", "/api/tournaments/{tournament_id}/start"): (
        None,
        {"id": "Tq3x9LcA", "starting": True},
    ),
}
