"""The HTTP API: games, tables, seats. JSON in and out; errors are ``{"detail": "..."}``."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from fastapi import Path as FastPath
from pydantic import BaseModel, Field, StrictInt

import coffeetable
from coffeetable import bots, games
from coffeetable.server.jsonio import StrictJSONRoute
from coffeetable.server.lobby import Lobby, TableError, table_settings_json

router = APIRouter(prefix="/api", route_class=StrictJSONRoute)
log = logging.getLogger("coffeetable.server")
#: A game has a board in the browser when web/games/<name>/index.js exists.
GAMES_WEB_DIR = Path(coffeetable.__file__).parent / "web" / "games"

_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"description": "bad input (unknown game, bad options or player count, ...)"},
    403: {"description": "the token holds no seat at this table"},
    404: {"description": "no such table or seat"},
    409: {"description": "not now (table full, match running, player still connected)"},
}


#: The registered games' names, for the OpenAPI (``enum``) and validation.
GameName = Literal[tuple(games.names())]  # type: ignore[valid-type]
#: The most seats any game has (Espresso: 6).
MAX_SEATS = max(games.get(name).max_players for name in games.names())
SeatNumber = Annotated[int, FastPath(ge=0, lt=MAX_SEATS, description="a seat, from 0")]
TableId = Annotated[str, FastPath(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$")]


class CreateTable(BaseModel):
    game: GameName = Field(description="a game name from GET /api/games")
    players: StrictInt = Field(
        ge=1, le=MAX_SEATS, description="number of seats (each game has its own range)"
    )
    options: dict[str, Any] = Field(
        default_factory=dict,
        description="game options, plus table settings (bot_speed, clock_minutes for turn-based"
        " games); missing ones take defaults",
    )
    bots: dict[str, str] = Field(
        default_factory=dict,
        max_length=MAX_SEATS,
        description='bot seats: {"1": "medium", "2": "easy"}',
    )
    name: str = Field("", max_length=200, description="the creator's name")
    seed: StrictInt | None = Field(None, description="accepted only by servers started for tests")


class Created(BaseModel):
    table_id: str
    seat: int | None = Field(description="the creator's seat (null: every seat is a bot)")
    token: str | None = Field(description="keep it: it holds the seat, also after a restart")


class JoinTable(BaseModel):
    name: str = Field("", max_length=200, description="the joiner's name")


class Joined(BaseModel):
    seat: int
    token: str


class Leave(BaseModel):
    token: str = Field(max_length=200)


class SeatBot(BaseModel):
    token: str = Field(max_length=200, description="the token of any person seated at the table")
    level: str = Field(max_length=32, description="a bot name from GET /api/games")


def _lobby(request: Request) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


@router.get(
    "/games", summary="the games, their options, bots, table settings and whether they have a board"
)
def list_games() -> list[dict[str, Any]]:
    out = []
    for name in games.names():
        try:
            description = games.get(name).describe()
        except Exception:  # a game that does not load is left out, not the lobby
            log.exception("game %s could not be loaded", name)
            continue
        description["bots"] = bots.available(name)
        description["settings"] = table_settings_json(games.get(name))
        description["board"] = (GAMES_WEB_DIR / name / "index.js").is_file()
        out.append(description)
    return out


@router.post("/tables", summary="create a table and sit at it", responses=_ERRORS)
async def create_table(body: CreateTable, request: Request) -> Created:
    address = request.client.host if request.client else None
    table, seat, token = await _lobby(request).create(
        body.game, body.players, body.options, body.bots, body.name, body.seed, address
    )
    return Created(table_id=table.id, seat=seat, token=token)


@router.get("/tables", summary="open and running tables")
def list_tables(request: Request) -> list[dict[str, Any]]:
    return _lobby(request).listing()


@router.get("/tables/{table_id}", summary="a table's public summary", responses=_ERRORS)
async def get_table(table_id: TableId, request: Request) -> dict[str, Any]:
    table = await _lobby(request).get(table_id)
    return table.summary()


@router.post("/tables/{table_id}/join", summary="take the first open seat", responses=_ERRORS)
async def join_table(table_id: TableId, body: JoinTable, request: Request) -> Joined:
    seat, token = await _lobby(request).join(table_id, body.name)
    return Joined(seat=seat, token=token)


@router.post("/tables/{table_id}/leave", summary="give up your seat", responses=_ERRORS)
async def leave_table(table_id: TableId, body: Leave, request: Request) -> dict[str, Any]:
    seat = await _lobby(request).leave(table_id, body.token)
    return {"seat": seat, "left": True}


@router.post(
    "/tables/{table_id}/seats/{seat}/bot",
    summary="seat a bot: an open seat, your own, or one whose player left or is away 10 s",
    responses=_ERRORS,
)
async def seat_bot(
    table_id: TableId, seat: SeatNumber, body: SeatBot, request: Request
) -> dict[str, Any]:
    await _lobby(request).seat_bot(table_id, seat, body.token, body.level)
    return {"seat": seat, "bot": body.level}


@router.get(
    "/tables/{table_id}/log",
    summary="the replay log (MatchLog JSON), once the match is over",
    responses=_ERRORS,
)
async def get_log(table_id: TableId, request: Request) -> dict[str, Any]:
    table = await _lobby(request).get(table_id)
    if table.live:
        raise TableError(409, "the log (and its seed) is secret until the match is over")
    return table.match_log().to_json()
