"""The HTTP API: games, tables, seats. JSON in and out; errors are ``{"detail": "..."}``."""

from __future__ import annotations

import logging
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi import Path as FastPath
from pydantic import BaseModel, Field

from coffeetable import bots, games
from coffeetable.server.api import days, my_games, operations, play_now, protocol, reliability
from coffeetable.server.api.replays import MAX_FRAMES
from coffeetable.server.api.schemas import Replay, TableSummary
from coffeetable.server.api.table_requests import (
    MAX_NAME_INPUT,
    MAX_SEATS,
    as_plain,
    create_table_body,
)
from coffeetable.server.errors import TableError
from coffeetable.server.jsonio import StrictJSONRoute
from coffeetable.server.league.runner import has_league
from coffeetable.server.limits import client_key
from coffeetable.server.lobby.lobby import Lobby
from coffeetable.server.lobby.table_settings import table_settings_json
from coffeetable.server.players import PlayersService
from coffeetable.server.players.auth_api import from_this_site
from coffeetable.server.players.sessions import Account
from coffeetable.server.social import invites

router = APIRouter(prefix="/api", route_class=StrictJSONRoute)
log = logging.getLogger("coffeetable.server")

_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"description": "bad input (unknown game, bad options or player count, ...)"},
    403: {"description": "the token holds no seat at this table"},
    404: {"description": "no such table or seat"},
    409: {"description": "not now (table full, match running, player still connected)"},
}


SeatNumber = Annotated[int, FastPath(ge=0, lt=MAX_SEATS, description="a seat, from 0")]
TableId = Annotated[str, FastPath(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$")]


class Created(BaseModel):
    table_id: str
    seat: int | None = Field(description="the creator's seat (null: every seat is a bot)")
    token: str | None = Field(
        description="keep it: it holds the seat, also after a restart (null: a program,"
        " which plays by its API key)"
    )


class JoinTable(BaseModel):
    name: str = Field("", max_length=MAX_NAME_INPUT, description="the joiner's name")


class Joined(BaseModel):
    seat: int
    token: str | None = Field(description="keep it: it holds the seat (null: a program)")


class Leave(BaseModel):
    token: str = Field("", max_length=200, description="your seat's token (signed in: optional)")


class SeatBot(BaseModel):
    token: str = Field(
        "",
        max_length=200,
        description="the token of any person seated at the table (signed in: optional)",
    )
    level: str = Field(
        max_length=48,
        description='a bot name from GET /api/games, or a bot account by name ("alice/bot-v2")',
    )


async def _account(request: Request) -> Account | None:
    """The signed-in account of the request's session cookie, or None (a guest)."""
    players: PlayersService = request.app.state.players
    return await players.account_for(request)


def _lobby(request: Request) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


@router.get(
    "/games",
    summary="the games: options, bots, table settings, whether they have a board and a league",
    operation_id="list_games",
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
        board = games.get(name).web_dir()  # else the generic board (web/js/genericboard.js)
        description["board"] = board is not None and (board / "index.js").is_file()
        description["league"] = has_league(games.get(name))  # its page: #/leagues/<name>
        out.append(description)
    return out


def _link(operation: str, body: dict[str, str] | None = None) -> dict[str, Any]:
    """An OpenAPI link from a created table to ``operation`` on it (clients and fuzzers
    follow these from one call to the next)."""
    link: dict[str, Any] = {
        "operationId": operation,
        "parameters": {"table_id": "$response.body#/table_id"},
    }
    if body is not None:
        link["requestBody"] = body
    return link


_TOKEN = "$response.body#/token"
_CREATED_LINKS = {
    "GetTable": _link("get_table"),
    "JoinTable": _link("join_table"),
    "LeaveTable": _link("leave_table", {"token": _TOKEN}),
    "GetLog": _link("get_log"),
    "GetReplay": _link("get_replay"),
}


def make_router() -> APIRouter:
    """The whole API. The create-table body is built now, from the games registered."""
    body_type = create_table_body()

    async def create_table(body: Any, request: Request) -> Created:
        given = as_plain(body)
        address = client_key(request)
        account = await _account(request)
        social = request.app.state.social
        invited = await invites.check(
            social,
            given.get("invite", {}),
            creator=account.user_id if account else None,
            players=given["players"],
            bot_seats=given.get("bots", {}),
        )
        table, seat, token = await _lobby(request).create(
            given["game"],
            given["players"],
            given["options"],
            given.get("bots", {}),
            account.username if account else given.get("name", ""),
            given.get("seed"),
            address,
            user_id=account.user_id if account else None,
            rated=given.get("rated"),
            invited={index: name for index, (_, name) in invited.items()},
        )
        if account is not None:
            await invites.notify(social, invited, table, account.username)
        return Created(table_id=table.id, seat=seat, token=token)

    # The body's type exists only now: give FastAPI the annotations as objects.
    create_table.__annotations__ = {"body": body_type, "request": Request, "return": Created}
    api = APIRouter(route_class=StrictJSONRoute)
    api.add_api_route(
        "/api/tables",
        create_table,
        methods=["POST"],
        summary="create a table and sit at it",
        operation_id="create_table",
        dependencies=[Depends(from_this_site)],
        responses={**_ERRORS, 200: {"links": _CREATED_LINKS}},
    )
    api.include_router(router)
    api.include_router(play_now.router)
    api.include_router(days.router)
    api.include_router(my_games.router)
    return api


@router.get("/health", summary="this process is up: its name and tables", operation_id="health")
def health(request: Request) -> dict[str, Any]:
    """For load balancers: 200 while this process serves. ``process``: its name in the
    cluster (null: a single process); ``tables``: the tables it runs."""
    cluster = request.app.state.cluster
    return {
        "ok": True,
        "process": None if cluster is None else cluster.me,
        "tables": len(_lobby(request).tables),
    }


@router.get(
    "/protocol",
    summary="the table socket's protocol: an AsyncAPI 3.0 document with every message's"
    " JSON Schema",
    operation_id="get_protocol",
)
def get_protocol() -> dict[str, Any]:
    """Every message the table socket (``/ws/tables/{table_id}``) sends and takes, as JSON
    Schemas (``components.schemas``: ``ServerMessage``, ``ClientMessage``, one per type);
    docs/bots.md tells the same in words."""
    return protocol.document()


@router.get(
    "/tables",
    summary="open and running tables",
    operation_id="list_tables",
    response_model=None,  # documented below; the summaries are returned as they are
    responses={200: {"model": list[TableSummary], "description": "their summaries"}},
)
async def list_tables(request: Request) -> list[dict[str, Any]]:
    listed = await _lobby(request).list_tables()
    return await reliability.add_to_listing(_lobby(request).store, listed)


@router.get(
    "/tables/{table_id}",
    summary="a table's public summary",
    operation_id="get_table",
    response_model=None,
    responses={**_ERRORS, 200: {"model": TableSummary, "description": "its summary"}},
)
async def get_table(table_id: TableId, request: Request) -> dict[str, Any]:
    summary: dict[str, Any] = await operations.run(
        request.app.state, "table.summary", table_id=table_id
    )
    return summary


@router.post(
    "/tables/{table_id}/join",
    summary="take the first open seat",
    operation_id="join_table",
    dependencies=[Depends(from_this_site)],
    responses=_ERRORS,
)
async def join_table(table_id: TableId, body: JoinTable, request: Request) -> Joined:
    account = await _account(request)
    name = account.username if account else body.name
    user_id = account.user_id if account else None
    await reliability.check_join(request.app.state, table_id, user_id)  # a table's minimum
    joined = await operations.run(
        request.app.state, "table.join", table_id=table_id, name=name, user_id=user_id
    )
    return Joined(**joined)


@router.post(
    "/tables/{table_id}/decline",
    summary="decline an invitation to this table: the seat held for you opens",
    operation_id="decline_table",
    dependencies=[Depends(from_this_site)],
    responses={**_ERRORS, 401: {"description": "not signed in"}},
)
async def decline_table(table_id: TableId, request: Request) -> dict[str, Any]:
    account = await _account(request)
    if account is None:
        raise TableError(401, "sign in to answer an invitation")
    seat = await operations.run(
        request.app.state, "table.decline", table_id=table_id, username=account.username
    )
    return {"seat": seat, "declined": True}


@router.post(
    "/tables/{table_id}/leave",
    summary="give up your seat",
    operation_id="leave_table",
    dependencies=[Depends(from_this_site)],
    responses=_ERRORS,
)
async def leave_table(table_id: TableId, body: Leave, request: Request) -> dict[str, Any]:
    account = await _account(request)
    user_id = account.user_id if account else None
    seat = await operations.run(
        request.app.state, "table.leave", table_id=table_id, token=body.token, user_id=user_id
    )
    return {"seat": seat, "left": True}


@router.post(
    "/tables/{table_id}/seats/{seat}/bot",
    summary="seat a bot: an open seat, your own, or one whose player is away past the grace",
    operation_id="seat_bot",
    dependencies=[Depends(from_this_site)],
    responses=_ERRORS,
)
async def seat_bot(
    table_id: TableId, seat: SeatNumber, body: SeatBot, request: Request
) -> dict[str, Any]:
    account = await _account(request)
    user_id = account.user_id if account else None
    await operations.run(
        request.app.state,
        "table.seat_bot",
        table_id=table_id,
        seat=seat,
        token=body.token,
        level=body.level,
        user_id=user_id,
    )
    return {"seat": seat, "bot": body.level}


@router.get(
    "/tables/{table_id}/log",
    summary="the replay log (MatchLog JSON), once the match is over",
    operation_id="get_log",
    responses=_ERRORS,
)
async def get_log(table_id: TableId, request: Request) -> dict[str, Any]:
    match_log: dict[str, Any] = await operations.run(
        request.app.state, "table.log", table_id=table_id
    )
    return match_log


@router.get(
    "/tables/{table_id}/replay",
    summary="a finished match, frame by frame: what a seat (or a spectator) saw",
    operation_id="get_replay",
    response_model=None,
    responses={**_ERRORS, 200: {"model": Replay, "description": "a window of its frames"}},
)
async def get_replay(
    table_id: TableId,
    request: Request,
    seat: Annotated[int | None, Query(ge=0, lt=MAX_SEATS, description="whose eyes")] = None,
    start: Annotated[int, Query(ge=0, le=1_000_000, description="first frame (0: the deal)")] = 0,
    count: Annotated[int, Query(ge=1, le=MAX_FRAMES, description="frames wanted")] = 50,
) -> dict[str, Any]:
    replay: dict[str, Any] = await operations.run(
        request.app.state, "table.replay", table_id=table_id, seat=seat, start=start, count=count
    )
    return replay


class Rematch(BaseModel):
    token: str = Field("", max_length=200, description="your seat's token (signed in: optional)")


@router.post(
    "/tables/{table_id}/rematch",
    summary="play again with the same seats: accept, and once all have, your new seat",
    operation_id="rematch",
    dependencies=[Depends(from_this_site)],
    responses=_ERRORS,
)
async def rematch(table_id: TableId, body: Rematch, request: Request) -> dict[str, Any]:
    account = await _account(request)
    user_id = account.user_id if account else None
    result: dict[str, Any] = await operations.run(
        request.app.state, "table.rematch", table_id=table_id, token=body.token, user_id=user_id
    )
    return result
