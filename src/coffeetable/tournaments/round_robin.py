"""Every round of a round robin.

Two seats a table: the circle method (Berger tables). With an odd number a bye joins
the circle; the first place stays put, the others turn one place a round, so every
two players meet once in ``n - 1`` rounds (``n`` even; odd, the bye is the fixed
place). Seats alternate: the fixed place's by round, the others' by their place on
the circle, so no one has seat 0 more than once oftener than seat 1.

Three to six seats (``tables.table_schedule``): the fewest rounds in which every two
players meet, as evenly as the search finds (every pair at least once; the spread of
pair meetings at most 1 for the fields the tests try; a resolvable design, each pair
exactly once, where the search or an affine plane finds one); its module says how.
"""

from __future__ import annotations

from collections.abc import Sequence

from coffeetable.tournaments.results import Table
from coffeetable.tournaments.tables import table_schedule


def _circle(players: Sequence[str]) -> list[list[Table]]:
    circle: list[str | None] = list(players)
    if len(circle) % 2:
        circle.insert(0, None)  # the bye stays put: the seats alternate as for an even field
    count = len(circle)
    rounds: list[list[Table]] = []
    for number in range(count - 1):
        tables: list[Table] = []
        byes: list[Table] = []
        for index in range(count // 2):
            first, second = circle[index], circle[count - 1 - index]
            if first is None or second is None:
                byes.append(Table((first or second,)))  # type: ignore[arg-type]
            else:
                swap = number % 2 == 1 if index == 0 else index % 2 == 1
                tables.append(Table((second, first) if swap else (first, second)))
        rounds.append(tables + byes)
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds


def schedule(players: Sequence[str], seats: int = 2, fewest: int = 2) -> list[list[Table]]:
    """Every round of a round robin of ``players`` at tables of ``seats``."""
    if len(players) < 2:
        raise ValueError("a round robin needs at least two players")
    if seats == 2:
        return _circle(players)
    return table_schedule(players, seats, fewest)
