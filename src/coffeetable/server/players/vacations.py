"""Vacations: days off that stop a player's clocks at tables with days per move.

``PUT /api/me/vacation {"days": n}`` starts a vacation now, for ``n`` days
(replacing the running one; ``0`` ends it now). An account may take at most
``Limits.vacation_days_per_year`` days in any 365 days (counted from the start
of that window to the end of the vacation asked for); beyond it the request is
refused and nothing changes. The tables read their players' vacations
(``tables/turn_days.py``): the time of a vacation inside a move is not charged.

``now`` is the wall clock of vacations and of the days tables; tests replace it.
"""

from __future__ import annotations

import time
from typing import Any

from coffeetable.store import vacations

DAY = 86_400.0
YEAR = 365 * DAY


def now() -> float:
    """Seconds since the epoch (tests replace it with a fake clock)."""
    return time.time()


def _used(spans: list[tuple[float, float]], since: float) -> float:
    """Days of vacation in ``spans`` after ``since`` (to their ends, future ones too)."""
    return sum(max(0.0, end - max(start, since)) for start, end in spans) / DAY


def status(conn: Any, player_id: int, allowed: float, at: float) -> dict[str, Any]:
    """The account's vacation now, and the days used and left in the last 365 days."""
    spans = vacations.of_players(conn, [player_id], at - YEAR)[player_id]
    running = next((end for start, end in spans if start <= at < end), None)
    used = _used(spans, at - YEAR)
    return {
        "on_vacation": running is not None,
        "until": running,
        "used_days": round(used, 3),
        "allowed_days": allowed,
        "left_days": round(max(0.0, allowed - used), 3),
    }


def take(conn: Any, player_id: int, days: float, allowed: float, at: float) -> dict[str, Any]:
    """Start a vacation of ``days`` now (0: end the running one), within the allowance.
    Runs in one transaction; beyond the allowance it changes nothing and answers
    ``{"refused": why}`` (not an exception: a failed write is logged as a fault)."""
    spans = vacations.of_players(conn, [player_id], at - YEAR)[player_id]
    kept = [(start, min(end, at)) for start, end in spans if start < at]
    left = allowed - _used(kept, at - YEAR)
    if days < 0 or days > left + 1e-9:
        return {
            "refused": f"at most {allowed:g} vacation days in a year: {max(0.0, left):.1f} left"
        }
    vacations.end_now(conn, player_id, at)
    if days > 0:
        vacations.add(conn, player_id, at, at + days * DAY)
    return status(conn, player_id, allowed, at)
