"""Fair races against programs: a program's action in a real-time game counts no sooner
than a fast person could have answered.

In a card race reaction time is the game, and no person matches a program that
answers the moment a state arrives. So at a table of a real-time game
(``Game.realtime``) the action of a seat a bot account holds (``Seat.program``)
is held until ``min_reaction`` seconds after the state it answers (its
``seq``; without one, the last state sent) was sent to that socket; then it goes
to the table's queue like any action and is applied if still legal, or refused
"too slow" like any late one. People's actions and the site's own bots (which
have their own human reaction times) are never held.

``min_reaction`` is a table setting (``lobby/table_settings.py``), ``DEFAULT`` seconds
unless the table says otherwise. Only a table of programs alone (every seat a
bot account's or a site bot's) may set it below ``DEFAULT``: a table where a
person sits or may still sit holds programs at least ``DEFAULT`` whatever the
setting says; a table that lifts it is unrated (``lobby/lobby.py``), so that ratings and the
bots' leaderboard are earned at a person's pace.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from coffeetable.server.tables.connections import Offer
from coffeetable.server.tables.seats import Seat

if TYPE_CHECKING:
    from coffeetable.server.tables.face import TableFace

#: The setting's name, and its default: a fast person's reaction (seconds).
SETTING = "min_reaction"
DEFAULT = 0.3


def people_may_sit(seats: Sequence[Seat]) -> bool:
    """True if a person sits at one of ``seats`` or may still take one (an open seat)."""
    return any(seat.is_open or (seat.is_person and seat.program is None) for seat in seats)


def min_reaction(table: TableFace) -> float:
    """The seconds a program's action waits after the state it answers, at ``table``."""
    value = float(table.settings.get(SETTING, DEFAULT))
    return max(value, DEFAULT) if people_may_sit(table.seats) else value


def not_before(table: TableFace, seat: int | None, offer: Offer | None) -> float | None:
    """When (``time.monotonic``) an action of ``seat`` answering ``offer`` may go to the
    table's queue; None: at once (not a program's seat, not a real-time game, no hold)."""
    if seat is None or not table.game.realtime or table.seats[seat].program is None:
        return None
    hold = min_reaction(table)
    if hold <= 0:
        return None
    sent = time.monotonic() if offer is None else offer.sent
    return sent + hold
