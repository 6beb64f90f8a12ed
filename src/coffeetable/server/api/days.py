"""The API of tables that wait for you (``tables/turn_days.py``): expel a player whose time
ran out."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi import Path as FastPath
from pydantic import BaseModel, Field

from coffeetable.server.api import operations
from coffeetable.server.api.table_requests import MAX_SEATS
from coffeetable.server.jsonio import StrictJSONRoute
from coffeetable.server.lobby.expel import expel
from coffeetable.server.players import PlayersService
from coffeetable.server.players.auth_api import from_this_site

router = APIRouter(prefix="/api", route_class=StrictJSONRoute)
_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"description": "your own seat (leave instead)"},
    403: {"description": "you hold no seat at this table"},
    404: {"description": "no such table or seat"},
    409: {"description": "not a days table, not running, or that seat's time has not run out"},
}
TableId = Annotated[str, FastPath(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$")]


class Expel(BaseModel):
    seat: int = Field(ge=0, lt=MAX_SEATS, description="the seat whose time ran out")
    token: str = Field("", max_length=200, description="your seat's token (signed in: optional)")


@router.post(
    "/tables/{table_id}/expel",
    summary="days per move: expel a player whose time ran out (a bot plays their seat)",
    operation_id="expel",
    dependencies=[Depends(from_this_site)],
    responses=_ERRORS,
)
async def expel_seat(table_id: TableId, body: Expel, request: Request) -> dict[str, Any]:
    """Any other person seated at a table with ``days_per_move`` may expel a player whose
    move is overdue (``days.expired`` in the table's summary): the seat passes to a bot
    for the rest of the match and its player counts as a leaver. Or wait: do nothing."""
    players: PlayersService = request.app.state.players
    account = await players.account_for(request)
    await operations.run(
        request.app.state,
        "table.expel",
        table_id=table_id,
        seat=body.seat,
        token=body.token,
        user_id=account.user_id if account else None,
    )
    return {"seat": body.seat, "expelled": True}


@operations.operation("table.expel")
async def _expel(state: Any, table_id: str, seat: int, token: str, user_id: int | None) -> None:
    await expel(state.lobby, table_id, seat, token, user_id)
