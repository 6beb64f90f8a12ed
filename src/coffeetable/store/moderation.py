"""Reports and moderation: schema and blocking queries. Writes run in the caller's transaction.

- ``reports``: a player reported another (``reason``: one of ``REASONS``, with their words),
  maybe at a table and about a chat line; ``context`` keeps the table's chat lines as they
  were when the report was made (JSON), so a moderator reads what the reporter read.
  ``status`` is ``open`` until a moderator acts on it (then the action's name).
- ``moderation_log``: every moderator action: who (None: the command line), on whom, which
  report, what (``ACTIONS`` and ``moderator_added``/``moderator_removed``), for how many
  hours (a mute), why, when.
- On ``accounts`` (``store.players``): ``moderator``, ``muted_until`` (chat refused until
  then) and ``suspended`` (since when; None: not suspended).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from coffeetable.store.db import metadata
from coffeetable.store.players import accounts, players

REASONS = ("chat", "conduct", "cheating", "other")
OPEN = "open"
WARN, MUTE, SUSPEND, DISMISS = "warn", "mute", "suspend", "dismiss"
ACTIONS = (WARN, MUTE, SUSPEND, DISMISS)
MODERATOR_ADDED, MODERATOR_REMOVED = "moderator_added", "moderator_removed"

reports = sa.Table(
    "reports",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("reporter_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
    sa.Column("reported_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
    sa.Column("reason", sa.String(16), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("table_id", sa.String(32), nullable=True),
    sa.Column("chat_id", sa.Integer, nullable=True),
    sa.Column("context", sa.Text, nullable=False),  # JSON: the chat lines
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("closed", sa.Float, nullable=True),
    sa.Index("ix_reports_reporter_id_created", "reporter_id", "created"),
    sa.Index("ix_reports_status", "status"),
)

log = sa.Table(
    "moderation_log",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("moderator_id", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
    sa.Column("report_id", sa.Integer, sa.ForeignKey("reports.id"), nullable=True),
    sa.Column("action", sa.String(16), nullable=False),
    sa.Column("hours", sa.Float, nullable=True),
    sa.Column("why", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)


@dataclass(frozen=True)
class Report:
    """One report as a moderator reads it."""

    id: int
    reporter: str
    reported: str
    reported_id: int
    reason: str
    text: str
    table_id: str | None
    chat_id: int | None
    chat: list[dict[str, Any]]
    created: float
    status: str

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "reporter": self.reporter,
            "reported": self.reported,
            "reason": self.reason,
            "text": self.text,
            "table_id": self.table_id,
            "chat_id": self.chat_id,
            "chat": self.chat,
            "created": self.created,
            "status": self.status,
        }


@dataclass(frozen=True)
class Standing:
    """An account's moderation standing."""

    moderator: bool
    muted_until: float | None
    suspended: float | None


# -- standing ----------------------------------------------------------------------


def standing(conn: Connection, player_id: int) -> Standing | None:
    """The account's standing (None: no such account)."""
    row = conn.execute(
        sa.select(accounts.c.moderator, accounts.c.muted_until, accounts.c.suspended).where(
            accounts.c.player_id == player_id
        )
    ).first()
    if row is None:
        return None
    return Standing(bool(row.moderator), row.muted_until, row.suspended)


def set_moderator(conn: Connection, player_id: int, moderator: bool) -> bool:
    """Make the account a moderator or not; whether that changed anything."""
    result = conn.execute(
        accounts.update()
        .where(accounts.c.player_id == player_id, accounts.c.moderator != moderator)
        .values(moderator=moderator)
    )
    return result.rowcount > 0


def moderators(conn: Connection) -> list[str]:
    """The moderators' names, in order."""
    rows = conn.execute(
        sa.select(players.c.name)
        .join(accounts, accounts.c.player_id == players.c.id)
        .where(accounts.c.moderator == sa.true())
        .order_by(players.c.name_key)
    )
    return [row.name for row in rows]


def mute(conn: Connection, player_id: int, until: float) -> None:
    conn.execute(
        accounts.update().where(accounts.c.player_id == player_id).values(muted_until=until)
    )


def suspend(conn: Connection, player_id: int, now: float) -> None:
    conn.execute(accounts.update().where(accounts.c.player_id == player_id).values(suspended=now))


# -- reports -----------------------------------------------------------------------


def reports_since(conn: Connection, reporter_id: int, since: float) -> int:
    """How many reports the account made since ``since``."""
    found = conn.execute(
        sa.select(sa.func.count())
        .select_from(reports)
        .where(reports.c.reporter_id == reporter_id, reports.c.created >= since)
    ).scalar_one()
    return int(found)


def add_report(
    conn: Connection,
    *,
    reporter_id: int,
    reported_id: int,
    reason: str,
    text: str,
    table_id: str | None,
    chat_id: int | None,
    chat: list[dict[str, Any]],
    now: float | None = None,
) -> int:
    """Keep a report; return its id."""
    result = conn.execute(
        reports.insert().values(
            reporter_id=reporter_id,
            reported_id=reported_id,
            reason=reason,
            text=text,
            table_id=table_id,
            chat_id=chat_id,
            context=json.dumps(chat, separators=(",", ":")),
            created=time.time() if now is None else now,
            status=OPEN,
        )
    )
    key = result.inserted_primary_key
    assert key is not None
    return int(key[0])


def _reports_query() -> sa.Select[Any]:
    reporter, reported = players.alias("reporter"), players.alias("reported")
    return (
        sa.select(
            reports,
            reporter.c.name.label("reporter_name"),
            reported.c.name.label("reported_name"),
        )
        .join(reporter, reporter.c.id == reports.c.reporter_id)
        .join(reported, reported.c.id == reports.c.reported_id)
    )


def _report(row: Any) -> Report:
    return Report(
        id=row.id,
        reporter=row.reporter_name,
        reported=row.reported_name,
        reported_id=row.reported_id,
        reason=row.reason,
        text=row.text,
        table_id=row.table_id,
        chat_id=row.chat_id,
        chat=json.loads(row.context),
        created=row.created,
        status=row.status,
    )


def open_reports(conn: Connection, limit: int) -> list[Report]:
    """The open reports, oldest first (the longest waiting on top)."""
    rows = conn.execute(
        _reports_query().where(reports.c.status == OPEN).order_by(reports.c.id).limit(limit)
    )
    return [_report(row) for row in rows]


def report(conn: Connection, report_id: int) -> Report | None:
    row = conn.execute(_reports_query().where(reports.c.id == report_id)).first()
    return None if row is None else _report(row)


def close_report(conn: Connection, report_id: int, status: str, now: float) -> bool:
    """Close an open report with the action taken; False if it was not open (any more)."""
    result = conn.execute(
        reports.update()
        .where(reports.c.id == report_id, reports.c.status == OPEN)
        .values(status=status, closed=now)
    )
    return result.rowcount > 0


# -- the log -----------------------------------------------------------------------


def add_log(
    conn: Connection,
    *,
    moderator_id: int | None,
    player_id: int,
    action: str,
    why: str,
    report_id: int | None = None,
    hours: float | None = None,
    now: float | None = None,
) -> None:
    conn.execute(
        log.insert().values(
            moderator_id=moderator_id,
            player_id=player_id,
            report_id=report_id,
            action=action,
            hours=hours,
            why=why,
            at=time.time() if now is None else now,
        )
    )


def log_entries(conn: Connection, limit: int, before: int | None = None) -> list[dict[str, Any]]:
    """The log, newest first: ``limit`` entries older than id ``before``."""
    moderator, player = players.alias("moderator"), players.alias("player")
    query = (
        sa.select(log, moderator.c.name.label("moderator"), player.c.name.label("player"))
        .outerjoin(moderator, moderator.c.id == log.c.moderator_id)
        .join(player, player.c.id == log.c.player_id)
        .order_by(log.c.id.desc())
        .limit(limit)
    )
    if before is not None:
        query = query.where(log.c.id < before)
    return [
        {
            "id": row.id,
            "moderator": row.moderator,
            "player": row.player,
            "action": row.action,
            "report_id": row.report_id,
            "hours": row.hours,
            "why": row.why,
            "at": row.at,
        }
        for row in conn.execute(query)
    ]
