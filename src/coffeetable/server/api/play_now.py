"""The play-now API: queue for a game, ask where you stand, cancel (``lobby/matchmaking.py``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field

from coffeetable import games
from coffeetable.server.api import operations
from coffeetable.server.api.table_requests import MAX_NAME_INPUT, MAX_SEATS
from coffeetable.server.errors import TableError
from coffeetable.server.jsonio import StrictJSONRoute
from coffeetable.server.limits import client_key
from coffeetable.server.players import PlayersService
from coffeetable.server.players.api_keys import is_program
from coffeetable.server.players.auth_api import from_this_site

router = APIRouter(prefix="/api", route_class=StrictJSONRoute)
_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"description": "bad input (unknown game, player count or bot)"},
    403: {"description": "rated matches need signing in"},
    404: {"description": "no such ticket"},
    409: {"description": "already waiting for this table"},
    429: {"description": "waiting in too many queues"},
}


class PlayNow(BaseModel):
    game: str = Field(max_length=64, description="a game name from GET /api/games")
    players: int = Field(ge=1, le=MAX_SEATS, description="the table's number of seats")
    rated: bool = Field(False, description="meet only people who want a rated match")
    bot_level: str | None = Field(
        None, max_length=32, description="who fills the empty seats after the wait"
    )
    name: str = Field("", max_length=MAX_NAME_INPUT, description="your name")
    meet_bots: bool = Field(
        True, description="may you be seated with programs (bot accounts)? bots always may"
    )


class TicketBody(BaseModel):
    ticket: str = Field(max_length=64, description="the ticket POST /api/play-now gave you")


@router.post(
    "/play-now",
    summary="wait for a table of this game: seated with others, or with bots after the wait",
    operation_id="play_now",
    dependencies=[Depends(from_this_site)],
    responses=_ERRORS,
)
async def play_now(body: PlayNow, request: Request) -> dict[str, Any]:
    if body.game not in games.names():
        raise TableError(400, f"no game {body.game!r}; the games are {', '.join(games.names())}")
    address = client_key(request)
    players: PlayersService = request.app.state.players
    account = await players.account_for(request)
    joined: dict[str, Any] = await operations.run(
        request.app.state,
        "play_now.join",
        game_name=body.game,
        players=body.players,
        rated=body.rated,
        bot_level=body.bot_level,
        name=account.username if account else body.name,
        address=address,
        user_id=account.user_id if account else None,
        program=is_program(account),
        meet_bots=body.meet_bots,
    )
    return joined


@router.get("/play-now", summary="who waits for what", operation_id="play_now_queues")
async def play_now_queues(request: Request) -> list[dict[str, Any]]:
    overview: list[dict[str, Any]] = await operations.run(request.app.state, "play_now.overview")
    return overview


@router.post(
    "/play-now/status",
    summary="your ticket: still waiting (with whom), or seated (table, seat and token)",
    operation_id="play_now_status",
    responses=_ERRORS,
)
async def play_now_status(body: TicketBody, request: Request) -> dict[str, Any]:
    status: dict[str, Any] = await operations.run(
        request.app.state, "play_now.status", ticket=body.ticket
    )
    return status


@router.post(
    "/play-now/cancel",
    summary="stop waiting",
    operation_id="play_now_cancel",
    responses=_ERRORS,
)
async def play_now_cancel(body: TicketBody, request: Request) -> dict[str, Any]:
    await operations.run(request.app.state, "play_now.cancel", ticket=body.ticket)
    return {"cancelled": True}
