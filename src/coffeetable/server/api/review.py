"""The review routes: start a match's review with the bot, and ask how it stands
(``coffeetable.server.api.review_jobs``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request

from coffeetable.server.api import operations
from coffeetable.server.api.tables import TableId
from coffeetable.server.jsonio import StrictJSONRoute
from coffeetable.server.players.auth_api import from_this_site

router = APIRouter(prefix="/api", route_class=StrictJSONRoute)
_ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"description": "no such table, or no review of it yet (GET)"},
    409: {"description": "the match is not over, or is played in real time"},
    429: {
        "description": "the bot is reviewing as many matches as it may at once,"
        " or as many as it may for you"
    },
}


@router.post(
    "/tables/{table_id}/review",
    summary="review a finished match with the bot (in the background): start it, or find it",
    operation_id="start_review",
    dependencies=[Depends(from_this_site)],
    responses=_ERRORS,
)
async def start_review(table_id: TableId, request: Request) -> dict[str, Any]:
    # Run where the review is kept (one process of a cluster holds each review).
    account = await request.app.state.players.account_for(request)
    review: dict[str, Any] = await operations.run(
        request.app.state,
        "review.start",
        table_id=table_id,
        address=request.client.host if request.client else None,
        user_id=None if account is None else account.user_id,
    )
    return review


@router.get(
    "/tables/{table_id}/review",
    summary="a match's review: its progress, and once done each person's decisions,"
    " biggest mistakes first",
    operation_id="get_review",
    responses=_ERRORS,
)
async def get_review(table_id: TableId, request: Request) -> dict[str, Any]:
    review: dict[str, Any] = await operations.run(
        request.app.state, "review.get", table_id=table_id
    )
    return review
