"""Why a stand-in may not take a person's seat yet (``Lobby.seat_bot``): their grace is
not over, or the table has days per move, where a seat waits for its player until the
others expel them (``expel.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from coffeetable.server.tables.table import Table


def not_away(table: Table, index: int) -> str:
    """Why no stand-in may take seat ``index`` now (its person is not away long enough)."""
    if table.days.clock is not None:
        return (
            f"at a table with days per move, seat {index} waits for its player:"
            " once their time runs out, you may expel them"
        )
    away, grace = table.seats[index].away_for(), table.stand_ins.grace_seconds
    return (
        f"seat {index}'s player is connected or was only away for {away:.0f} s;"
        f" wait until {grace:g} s (the table's grace_seconds)"
    )
