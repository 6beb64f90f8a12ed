"""Every round of a round robin.

Two seats a table: the circle method (Berger tables). With an odd number a bye joins
the circle; the first place stays put, the others turn one place a round, so every
two players meet once in ``n - 1`` rounds (``n`` even; odd, the bye is the fixed
place). Seats alternate: the fixed place's by round, the others' by their place on
the circle, so no one has seat 0 more than once oftener than seat 1.

Three to six seats: rounds until every two players have met (at most ``n - 1``);
each round's tables are filled, in order of who has met the fewest others, by the
player who has met the table least, which spreads the meetings (no exact design
exists for most field sizes).
"""

from __future__ import annotations

from collections.abc import Sequence

from coffeetable.tournaments.results import Table, meetings, met_with
from coffeetable.tournaments.swiss import table_sizes


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


def _spread(players: Sequence[str], seats: int, fewest: int) -> list[list[Table]]:
    count = len(players)
    rounds: list[list[Table]] = []
    everyone = count * (count - 1) // 2
    while len(rounds) < count - 1:
        met = meetings(rounds)
        if len(met) == everyone and len(rounds) >= -(-(count - 1) // (seats - 1)):
            break

        def known(player: str, met: dict[frozenset[str], int] = met) -> int:
            return sum(1 for pair in met if player in pair)

        remaining = sorted(players, key=known)
        sizes, _byes = table_sizes(count, seats, fewest)
        tables: list[Table] = []
        for size in sizes:
            table = [remaining.pop(0)]
            while len(table) < size:
                chosen = min(remaining, key=lambda player: met_with(met, player, table))
                remaining.remove(chosen)
                table.append(chosen)
            tables.append(Table(tuple(table)))
        rounds.append(tables + [Table((player,)) for player in remaining])
    return rounds


def schedule(players: Sequence[str], seats: int = 2, fewest: int = 2) -> list[list[Table]]:
    """Every round of a round robin of ``players`` at tables of ``seats``."""
    if len(players) < 2:
        raise ValueError("a round robin needs at least two players")
    if seats == 2:
        return _circle(players)
    return _spread(players, seats, fewest)
