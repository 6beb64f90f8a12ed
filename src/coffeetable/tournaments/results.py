"""A round's tables, points per match by rank, and standings with tie-breaks.

Points: a match at a table of ``n`` is worth 1 to its winner and 0 to its last, the
places between evenly spaced (4 seats: 1, 2/3, 1/3, 0); players who share a rank
share the places' points (two players: a win 1, a draw 1/2, a loss 0). A bye is
worth a win (``BYE_POINTS``), as in a chess Swiss.

Tie-breaks, in order after the score:

- two seats a table: Buchholz (the sum of the opponents' scores), then
  Sonneborn-Berger (the sum, over the matches, of the opponent's score times the
  points taken from that match);
- more seats: the opponents' points (over the matches, the mean score of the others
  at the table, summed), then the sum of ranks (lower is better).

A bye has no opponent: it adds nothing to the tie-breaks. Last come the players'
entry order (their seed), so that standings are a total order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

#: What a bye is worth: a win.
BYE_POINTS = Fraction(1)


@dataclass(frozen=True)
class Table:
    """One table of a round: its players in seat order, and their ranks (1 best, equal
    ranks shared) once the match is over; one player alone is a bye."""

    players: tuple[str, ...]
    ranks: tuple[int, ...] | None = None

    @property
    def bye(self) -> bool:
        return len(self.players) == 1

    @property
    def played(self) -> bool:
        return self.bye or self.ranks is not None

    def points(self) -> dict[str, Fraction]:
        """Each player's points from this table (nothing until it is played)."""
        if self.bye:
            return {self.players[0]: BYE_POINTS}
        if self.ranks is None:
            return {}
        return dict(zip(self.players, match_points(self.ranks), strict=True))


def match_points(ranks: Sequence[int]) -> list[Fraction]:
    """Points by rank at one table: 1 for the first place, 0 for the last, the places
    between evenly spaced; tied players share their places' points."""
    size = len(ranks)
    if size < 2:
        raise ValueError("a match has at least two players")
    if any(rank < 1 or rank > size for rank in ranks):
        raise ValueError(f"ranks run from 1 to {size}, not {list(ranks)}")
    place_points = [Fraction(size - 1 - place, size - 1) for place in range(size)]
    shared: list[Fraction] = []
    for rank in ranks:
        tied = sum(1 for other in ranks if other == rank)
        places = place_points[rank - 1 : rank - 1 + tied]
        shared.append(sum(places, Fraction(0)) / len(places))
    return shared


@dataclass(frozen=True)
class Standing:
    """One line of the standings."""

    player: str
    score: Fraction
    played: int
    #: Tie-breaks by name, in the order they break ties.
    tie_breaks: dict[str, Fraction]


def _two_seats(tables: Sequence[Table]) -> bool:
    return all(len(table.players) <= 2 for table in tables)


def standings(players: Sequence[str], rounds: Iterable[Sequence[Table]]) -> list[Standing]:
    """The standings of ``players`` (in entry order) after ``rounds``, best first."""
    tables = [table for round_ in rounds for table in round_ if table.played]
    score = {player: Fraction(0) for player in players}
    played = dict.fromkeys(players, 0)
    for table in tables:
        for player, points in table.points().items():
            score[player] += points
            played[player] += 1
    two = _two_seats(tables)
    breaks: dict[str, dict[str, Fraction]] = {}
    for player in players:
        mine = [table for table in tables if player in table.players and not table.bye]
        if two:
            buchholz = Fraction(0)
            sonneborn = Fraction(0)
            for table in mine:
                (other,) = (name for name in table.players if name != player)
                buchholz += score[other]
                sonneborn += score[other] * table.points()[player]
            breaks[player] = {"buchholz": buchholz, "sonneborn_berger": sonneborn}
        else:
            opponents = Fraction(0)
            rank_sum = Fraction(0)
            for table in mine:
                others = [name for name in table.players if name != player]
                opponents += sum((score[name] for name in others), Fraction(0)) / len(others)
                assert table.ranks is not None
                rank_sum += table.ranks[table.players.index(player)]
            breaks[player] = {"opponents": opponents, "rank_sum": rank_sum}
    seed = {player: index for index, player in enumerate(players)}

    def key(player: str) -> tuple[Fraction, ...]:
        tie = breaks[player]
        if two:
            return (
                -score[player],
                -tie["buchholz"],
                -tie["sonneborn_berger"],
                Fraction(seed[player]),
            )
        return (-score[player], -tie["opponents"], tie["rank_sum"], Fraction(seed[player]))

    return [
        Standing(player, score[player], played[player], breaks[player])
        for player in sorted(players, key=key)
    ]


def scores(players: Sequence[str], rounds: Iterable[Sequence[Table]]) -> dict[str, Fraction]:
    """Each player's score so far."""
    total = {player: Fraction(0) for player in players}
    for round_ in rounds:
        for table in round_:
            for player, points in table.points().items():
                if player in total:
                    total[player] += points
    return total


def meetings(rounds: Iterable[Sequence[Table]]) -> dict[frozenset[str], int]:
    """How often each pair of players has sat at one table."""
    met: dict[frozenset[str], int] = {}
    for round_ in rounds:
        for table in round_:
            for index, first in enumerate(table.players):
                for second in table.players[index + 1 :]:
                    pair = frozenset((first, second))
                    met[pair] = met.get(pair, 0) + 1
    return met


def met_with(met: dict[frozenset[str], int], player: str, table: Sequence[str]) -> int:
    """How often ``player`` has met the players at ``table`` (``meetings``' counts)."""
    return sum(met.get(frozenset((player, other)), 0) for other in table)
