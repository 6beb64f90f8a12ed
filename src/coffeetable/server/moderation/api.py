"""The moderators' routes (403 for anyone else):

- ``GET /api/moderation/reports``: the open reports, oldest first, with their context (the
  chat lines, the table), the reporter and the reported.
- ``POST /api/moderation/reports/{id}`` ``{"action": "warn" | "mute" | "suspend" |
  "dismiss", "hours": 24 (mute), "why": "..."}``: act on it (``actions.py``).
- ``GET /api/moderation/log``: every action, newest first (paged by ``before``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Path, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from coffeetable.server.jsonio import StrictJSONRoute
from coffeetable.server.moderation import actions
from coffeetable.server.moderation.reports import Reason, store_of
from coffeetable.server.players.api_keys import is_program
from coffeetable.server.players.auth_api import SignedInAccount, from_this_site
from coffeetable.server.players.sessions import Account
from coffeetable.store import moderation as db

router = APIRouter(prefix="/api/moderation", route_class=StrictJSONRoute, tags=["moderation"])

MAX_PAGE = 100
MAX_WHY = 500
_READ: dict[int | str, dict[str, Any]] = {
    401: {"description": "not signed in"},
    403: {"description": "not a moderator"},
}
_ACT: dict[int | str, dict[str, Any]] = {
    **_READ,
    400: {"description": "a mute without hours, or hours for another action"},
    403: {"description": "not a moderator, another site, or a report about yourself"},
    404: {"description": "no such report"},
    409: {"description": "the report was closed already"},
}


async def moderator(request: Request, account: SignedInAccount) -> Account:
    """The signed-in moderator; 403 for anyone else."""
    user = account.user_id
    found = await store_of(request).read(lambda conn: db.standing(conn, user))
    if is_program(account) or found is None or not found.moderator:
        raise HTTPException(403, "this is for moderators only")
    return account


Moderator = Annotated[Account, Depends(moderator)]


class ChatLine(BaseModel):
    id: int | None
    at: float
    channel: str = Field(description='"players" or "spectators"')
    seat: int | None
    name: str
    text: str | None
    phrase: str | None = Field(description="a quick phrase's key (null: free text)")


class ReportOut(BaseModel):
    id: int
    reporter: str
    reported: str
    reason: Reason
    text: str = Field(description="the reporter's words")
    table_id: str | None
    chat_id: int | None = Field(description="the chat line reported (null: conduct)")
    chat: list[ChatLine] = Field(description="the table's chat as it was, oldest first")
    created: float
    status: str


class Reports(BaseModel):
    reports: list[ReportOut] = Field(description="the open reports, oldest first")


class ActBody(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    action: Literal["warn", "mute", "suspend", "dismiss"]
    hours: float | None = Field(
        None, gt=0, le=actions.MAX_MUTE_HOURS, description="how long a mute lasts"
    )
    why: str = Field("", max_length=MAX_WHY, description="the reason, kept in the log")


class Acted(BaseModel):
    id: int = Field(description="the report")
    status: str = Field(description="the action taken")


class LogEntry(BaseModel):
    id: int
    moderator: str | None = Field(description="who (null: the command line)")
    player: str = Field(description="on whom")
    action: str = Field(description="warn, mute, suspend, dismiss, moderator_added/removed")
    report_id: int | None
    hours: float | None
    why: str
    at: float


class LogPage(BaseModel):
    entries: list[LogEntry] = Field(description="newest first")
    next: int | None = Field(description="pass as before= for the next page (null: no more)")


@router.get("/reports", summary="the open reports, with their context", responses=_READ)
async def list_reports(request: Request, account: Moderator) -> Reports:
    found = await store_of(request).read(lambda conn: db.open_reports(conn, MAX_PAGE))
    return Reports(reports=[ReportOut(**r.to_json()) for r in found])


@router.post(
    "/reports/{report_id}",
    summary="act on a report: warn, mute for hours, suspend, or dismiss",
    responses=_ACT,
    dependencies=[Depends(from_this_site)],
)
async def act_on_report(
    body: ActBody,
    request: Request,
    account: Moderator,
    report_id: Annotated[int, Path(ge=1, le=2**62)],
) -> Acted:
    if (body.action == db.MUTE) != (body.hours is not None):
        raise HTTPException(400, 'a mute needs "hours" (and only a mute takes them)')
    found = await store_of(request).read(lambda conn: db.report(conn, report_id))
    if found is None:
        raise HTTPException(404, f"no report {report_id}")
    if found.reported_id == account.user_id:
        raise HTTPException(403, "a report about you is for another moderator")
    if found.status != db.OPEN:
        raise HTTPException(409, f"this report was closed already ({found.status})")
    why = " ".join(body.why.split())
    try:
        await actions.act(request.app.state, account.user_id, found, body.action, why, body.hours)
    except actions.ReportClosed:
        raise HTTPException(409, "this report was closed meanwhile") from None
    return Acted(id=report_id, status=body.action)


@router.get("/log", summary="every moderator action, newest first (paged)", responses=_READ)
async def moderation_log(
    request: Request,
    account: Moderator,
    before: Annotated[
        int | None, Query(ge=1, le=2**62, description="only those older than this id")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE, description="how many")] = 50,
) -> LogPage:
    found = await store_of(request).read(lambda conn: db.log_entries(conn, limit + 1, before))
    page = found[:limit]
    return LogPage(
        entries=[LogEntry(**entry) for entry in page],
        next=page[-1]["id"] if len(found) > limit else None,
    )
