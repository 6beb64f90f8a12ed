"""The API of tables that wait for you (``tables/turn_days.py``): expel a player whose time
ran out; take a vacation (``players/vacations.py``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi import Path as FastPath
from pydantic import BaseModel, Field

from coffeetable.server.api import operations
from coffeetable.server.api.table_requests import MAX_SEATS
from coffeetable.server.errors import TableError
from coffeetable.server.jsonio import StrictJSONRoute
from coffeetable.server.lobby.expel import expel
from coffeetable.server.players import PlayersService, vacations
from coffeetable.server.players.auth_api import SignedInAccount, from_this_site

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


class Vacation(BaseModel):
    days: float = Field(ge=0, le=366, description="days off from now (0: end your vacation now)")


class VacationStatus(BaseModel):
    on_vacation: bool
    until: float | None = Field(description="when it ends, seconds since the epoch")
    used_days: float = Field(description="vacation days in the last 365 days, planned ones too")
    allowed_days: float = Field(description="the most in any 365 days (the site's setting)")
    left_days: float


@router.get(
    "/me/vacation",
    summary="my vacation, and the days I have left this year",
    operation_id="get_vacation",
    responses={401: {"description": "not signed in"}},
)
async def get_vacation(request: Request, account: SignedInAccount) -> VacationStatus:
    lobby = request.app.state.lobby
    allowed = lobby.limits.vacation_days_per_year
    at = vacations.now()
    found = await lobby.store.read(
        lambda conn: vacations.status(conn, account.user_id, allowed, at)
    )
    return VacationStatus(**found)


@router.put(
    "/me/vacation",
    summary="days off: my clocks stop at tables with days per move",
    operation_id="put_vacation",
    dependencies=[Depends(from_this_site)],
    responses={
        400: {"description": "beyond the vacation days allowed in a year"},
        401: {"description": "not signed in"},
    },
)
async def put_vacation(
    body: Vacation, request: Request, account: SignedInAccount
) -> VacationStatus:
    """Start a vacation now for ``days`` (replacing a running one; 0 ends it). At most
    ``vacation_days_per_year`` days in any 365 days: beyond, 400 and nothing changes."""
    lobby = request.app.state.lobby
    allowed = lobby.limits.vacation_days_per_year
    at = vacations.now()
    found = await lobby.store.write(
        lambda conn: vacations.take(conn, account.user_id, body.days, allowed, at)
    )
    if "refused" in found:
        raise TableError(400, found["refused"])
    for table in list(lobby.tables.values()):  # other processes' tables read it within a minute
        if any(seat.user_id == account.user_id for seat in table.seats):
            table.days.vacations_changed()
    return VacationStatus(**found)
