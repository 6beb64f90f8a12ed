"""``POST /api/reports``: a signed-in person reports another player.

The report keeps its context: the table's last ``CONTEXT_LINES`` chat lines (up to the
reported line when there is one), as they were, so the moderator reads what the reporter
read. Each account may report ``Limits.reports_per_day`` times in any 24 hours (429).
A program (a bot account's key) cannot report (403); a player cannot report themself (400).
"""

from __future__ import annotations

import time
from typing import Any, Literal

import sqlalchemy as sa
from fastapi import APIRouter, Depends, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field

from coffeetable.server.jsonio import StrictJSONRoute
from coffeetable.server.limits import Limits
from coffeetable.server.players.api_keys import is_program
from coffeetable.server.players.auth_api import SignedInAccount, from_this_site
from coffeetable.server.players.usernames import name_key, normalize
from coffeetable.server.text import clean_text
from coffeetable.store import Store
from coffeetable.store import chat as chat_db
from coffeetable.store import moderation as db
from coffeetable.store import players as players_db
from coffeetable.store.db import tables

router = APIRouter(prefix="/api", route_class=StrictJSONRoute, tags=["moderation"])

#: The chat lines a report keeps, and the most words its reporter may add.
CONTEXT_LINES = 30
MAX_TEXT = 500
DAY = 24 * 3600.0
Reason = Literal["chat", "conduct", "cheating", "other"]

_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"description": "that is you, or the chat line is not at that table"},
    401: {"description": "not signed in"},
    403: {"description": "a program's key, or another site"},
    404: {"description": "no such player, table or chat line"},
    429: {"description": "too many reports today (Limits.reports_per_day)"},
}


class ReportBody(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    username: str = Field(min_length=1, max_length=40, description="the player reported")
    reason: Reason = Field(description="chat, conduct, cheating or other")
    text: str = Field("", max_length=MAX_TEXT, description="what happened, in your words")
    table_id: str | None = Field(
        None, min_length=1, max_length=32, description="the table it happened at"
    )
    chat_id: int | None = Field(None, ge=1, le=2**62, description="the chat line reported")


class ReportMade(BaseModel):
    id: int = Field(description="the report's number")
    status: str = Field(description='"open": a moderator will read it')


def store_of(request: Request) -> Store:
    found: Store = request.app.state.store
    return found


def limits_of(request: Request) -> Limits:
    found: Limits = request.app.state.limits
    return found


def find_account(conn: Any, username: str) -> players_db.PlayerRow | None:
    """The account (a person's, not a bot level) of this username, or None."""
    found = players_db.player_by_key(conn, name_key(normalize(username)))
    return found if found is not None and found.kind == players_db.USER else None


def _context(conn: Any, table_id: str, chat_id: int | None) -> list[dict[str, Any]]:
    """The table's last chat lines, up to ``chat_id`` when given, oldest first."""
    query = chat_db.chat.select().where(chat_db.chat.c.table_id == table_id)
    if chat_id is not None:
        query = query.where(chat_db.chat.c.id <= chat_id)
    rows = conn.execute(query.order_by(chat_db.chat.c.id.desc()).limit(CONTEXT_LINES)).all()
    return [
        chat_db.ChatMessage(
            row.table_id, row.channel, row.seat, row.name, row.text, row.phrase, row.at, row.id
        ).to_json()
        for row in reversed(rows)
    ]


@router.post(
    "/reports",
    summary="report a player to the moderators (a chat line, or conduct at a table)",
    responses=_ERRORS,
    dependencies=[Depends(from_this_site)],
)
async def report(body: ReportBody, request: Request, account: SignedInAccount) -> ReportMade:
    if is_program(account):
        raise HTTPException(403, "a program cannot report players: a person can")
    limit = limits_of(request).reports_per_day
    user = account.user_id
    text = clean_text(body.text, MAX_TEXT) if body.text else ""
    now = time.time()

    def check(conn: Any) -> tuple[int, str | None, list[dict[str, Any]]]:
        """Refuse a bad report (nothing written); else who, where and the chat lines."""
        reported = find_account(conn, body.username)
        if reported is None:
            raise HTTPException(404, f"no player {body.username!r}")
        if reported.id == user:
            raise HTTPException(400, "you cannot report yourself")
        table_id = body.table_id
        if body.chat_id is not None:
            line = conn.execute(
                sa.select(chat_db.chat.c.table_id).where(chat_db.chat.c.id == body.chat_id)
            ).first()
            if line is None:
                raise HTTPException(404, f"no chat line {body.chat_id}")
            if table_id is not None and line.table_id != table_id:
                raise HTTPException(400, "that chat line was not said at that table")
            table_id = line.table_id
        if table_id is not None:
            found = conn.execute(sa.select(tables.c.id).where(tables.c.id == table_id)).first()
            if found is None:
                raise HTTPException(404, f"no table {table_id!r}")
        if db.reports_since(conn, user, now - DAY) >= limit:
            raise HTTPException(
                429,
                f"at most {limit} reports a day: try again later",
                headers={"Retry-After": "3600"},
            )
        chat = [] if table_id is None else _context(conn, table_id, body.chat_id)
        return reported.id, table_id, chat

    store = store_of(request)
    reported, table_id, chat = await store.read(check)
    report_id = await store.write(
        lambda conn: db.add_report(
            conn,
            reporter_id=user,
            reported_id=reported,
            reason=body.reason,
            text=text,
            table_id=table_id,
            chat_id=body.chat_id,
            chat=chat,
            now=now,
        )
    )
    return ReportMade(id=report_id, status=db.OPEN)
