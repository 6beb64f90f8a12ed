"""An arena (lichess's): for a fixed time, a player who finishes a match is paired
again at once with someone free and close in score.

Points by result: a match's points by rank (``results.match_points``: 1 for a win)
times ``WIN``: a win 2, a draw 1, a loss 0 at two seats. A streak: after two wins in a
row a player is on fire, and each match's points count double until one is not a win.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from coffeetable.tournaments.results import Table

#: An arena win's points (a draw at two seats is half of it).
WIN = 2
#: Wins in a row that set a player on fire (double points).
STREAK = 2


def arena_points(results: Sequence[Fraction]) -> list[Fraction]:
    """Each match's arena points, for one player's match points in playing order."""
    points: list[Fraction] = []
    wins = 0
    for result in results:
        factor = 2 if wins >= STREAK else 1
        points.append(result * WIN * factor)
        wins = wins + 1 if result == 1 else 0
    return points


def on_fire(results: Sequence[Fraction]) -> bool:
    """Is the player's next match worth double?"""
    wins = 0
    for result in results:
        wins = wins + 1 if result == 1 else 0
    return wins >= STREAK


def pair_free(
    free: Sequence[str],
    score: Mapping[str, Fraction],
    last_table: Mapping[str, frozenset[str]],
    seats: int = 2,
) -> list[Table]:
    """Tables for the free players (``free`` in the order they became free), close in
    score; a full table's worth of players waits for more. Two who just met are not
    paired again at once when a third is free."""
    order = {player: index for index, player in enumerate(free)}
    ranked = sorted(free, key=lambda player: (-score.get(player, Fraction(0)), order[player]))
    tables: list[Table] = []
    while len(ranked) >= seats:
        table = [ranked.pop(0)]
        while len(table) < seats:
            fresh = [
                player
                for player in ranked
                if not any(player in last_table.get(other, frozenset()) for other in table)
            ]
            chosen = fresh[0] if fresh else ranked[0]
            ranked.remove(chosen)
            table.append(chosen)
        tables.append(Table(tuple(table)))
    return tables
