"""The notifications routes: ``GET /api/notifications`` (newest first, paged by ``before``)
and ``POST /api/notifications/read`` (some ids, or all). A signed-in account's own only."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from coffeetable.server.jsonio import StrictJSONRoute
from coffeetable.server.players.auth_api import SignedInAccount, from_this_site
from coffeetable.server.social.notices import Social
from coffeetable.store import social as db

router = APIRouter(prefix="/api", route_class=StrictJSONRoute, tags=["social"])

#: The most notices one page holds, and the most ids one read may name.
MAX_PAGE = 100
MAX_IDS = 500
_SIGNED_IN: dict[int | str, dict[str, Any]] = {401: {"description": "not signed in"}}
_CHANGE: dict[int | str, dict[str, Any]] = {
    **_SIGNED_IN,
    400: {"description": "name some ids or all, not both"},
    403: {"description": "the request came from another site"},
}


def social(request: Request) -> Social:
    """The app's ``Social``."""
    found: Social = request.app.state.social
    return found


class NoticeOut(BaseModel):
    id: int
    kind: str = Field(
        description="your_turn, invited, friend_request, match_over, table_full, table_ready"
        " or warning"
    )
    at: float = Field(description="when (seconds since 1970)")
    table_id: str | None = Field(description="the table it is about (null: none)")
    data: dict[str, Any] = Field(
        description='its details: the game\'s "title"; "result" and "score" (match over);'
        ' "by" and "seat" (invited); "from" (friend request)'
    )
    read: bool


class NoticePage(BaseModel):
    notifications: list[NoticeOut] = Field(description="newest first")
    unread: int = Field(description="how many of all your notifications are unread")
    next: int | None = Field(description="pass as before= for the next page (null: no more)")


class ReadBody(BaseModel):
    model_config = ConfigDict(strict=True)

    ids: list[Annotated[int, Field(ge=1)]] | None = Field(
        None, max_length=MAX_IDS, description="the notifications to mark read"
    )
    all: bool = Field(False, description="mark every notification read")


class ReadOut(BaseModel):
    read: int = Field(description="how many were unread and are read now")
    unread: int = Field(description="how many are still unread")


@router.get(
    "/notifications", summary="my notifications, newest first (paged)", responses=_SIGNED_IN
)
async def list_notifications(
    request: Request,
    account: SignedInAccount,
    before: Annotated[
        int | None, Query(ge=1, le=2**62, description="only those older than this id")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE, description="how many")] = 20,
) -> NoticePage:
    user = account.user_id

    def read(conn: Any) -> tuple[list[db.Notice], int]:
        return db.notices(conn, user, limit + 1, before), db.unread_count(conn, user)

    found, unread = await social(request).store.read(read)
    page = found[:limit]
    more = len(found) > limit
    return NoticePage(
        notifications=[NoticeOut(**notice.to_json()) for notice in page],
        unread=unread,
        next=page[-1].id if more else None,
    )


@router.post(
    "/notifications/read",
    summary="mark notifications read: some ids, or all",
    responses=_CHANGE,
    dependencies=[Depends(from_this_site)],
)
async def read_notifications(body: ReadBody, request: Request, account: SignedInAccount) -> ReadOut:
    if (body.ids is None) == (not body.all):
        raise HTTPException(400, 'name the notifications ("ids") or "all": true, one of them')
    user = account.user_id
    ids = None if body.all else list(body.ids or [])

    def write(conn: Any) -> tuple[int, int]:
        return db.mark_read(conn, user, ids), db.unread_count(conn, user)

    changed, unread = await social(request).store.write(write)
    return ReadOut(read=changed, unread=unread)
