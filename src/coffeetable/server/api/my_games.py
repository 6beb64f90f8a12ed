"""``GET /api/me/games``: every open and running table of mine, those waiting for me first.

Each table says whether it waits for my move (my seat is among the actors and no
bot plays it), the time left for that move (days per move, or a live table's
clock), and the table's summary facts. Read where each table runs (``operations``),
so it holds with several processes. The page ``#/games`` and the header's counts
read it.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from coffeetable.server.api import operations
from coffeetable.server.errors import TableError
from coffeetable.server.jsonio import StrictJSONRoute
from coffeetable.server.players.auth_api import SignedInAccount
from coffeetable.store import players as db

router = APIRouter(prefix="/api", route_class=StrictJSONRoute)
#: The most tables one answer lists (the newest).
MOST = 200


class MyGame(BaseModel):
    table_id: str
    game: str
    title: str
    name: str
    status: str = Field(description="open | running")
    seat: int
    my_turn: bool = Field(description="the table waits for my move")
    time_left: float | None = Field(
        description="seconds left for my move (days per move, or a live clock); null: none"
    )
    days_per_move: float = Field(description="0: a live table")
    expired: list[int] = Field(description="seats out of time at a days table (to expel)")
    opponents: list[str | None] = Field(description="the other seats' names (null: open)")


class MyGames(BaseModel):
    my_turn: int = Field(description="how many tables wait for my move")
    total: int
    tables: list[MyGame]


@operations.operation("table.my_seat")
async def my_seat(state: Any, table_id: str, seat: int) -> dict[str, Any]:
    """What My games shows of one table for seat ``seat``."""
    table = await state.lobby.get(table_id)
    summary = table.summary()
    turn = (
        table.status == "running"
        and not table.holding
        and seat in table.state.actors()
        and table.seats[seat].bot_level is None
    )
    days, clock = summary["days"], summary["clock"]
    left = None
    if turn and days is not None:
        left = days["left"][seat]
    elif turn and clock is not None:
        left = clock["left"][seat]
    return {
        "table_id": table.id,
        "game": table.game.name,
        "title": table.game.title,
        "name": table.name,
        "status": table.status,
        "seat": seat,
        "my_turn": turn,
        "time_left": left,
        "days_per_move": float(table.settings.get("days_per_move") or 0),
        "expired": [] if days is None else [i for i, out in enumerate(days["expired"]) if out],
        "opponents": [s["name"] for s in summary["seats"] if s["seat"] != seat],
    }


@router.get(
    "/me/games",
    summary="my open and running tables, those waiting for my move first, with the time left",
    operation_id="my_games",
    responses={401: {"description": "not signed in"}},
)
async def my_games(request: Request, account: SignedInAccount) -> MyGames:
    store = request.app.state.lobby.store
    held = await store.read(lambda conn: db.seats_of_user(conn, account.user_id))
    found = []
    for seat in held[:MOST]:
        try:
            found.append(
                await operations.run(
                    request.app.state, "table.my_seat", table_id=seat.table_id, seat=seat.seat
                )
            )
        except TableError:
            continue  # gone meanwhile (or cannot be rebuilt): not listed
    live = [game for game in found if game["status"] in ("open", "running")]
    # Mine to play first, the least time left first; then the others, newest first.
    live.sort(key=lambda g: (not g["my_turn"], g["time_left"] is None, g["time_left"] or 0))
    return MyGames(
        my_turn=sum(1 for game in live if game["my_turn"]),
        total=len(live),
        tables=[MyGame(**game) for game in live],
    )
