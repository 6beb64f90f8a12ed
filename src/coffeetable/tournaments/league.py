"""The programs' league, pure: whom to pair next, each pair's results, standings with
95% intervals of the score share.

A league is a standing round robin of two-seat matches: the pair that has met least is
played next. A player's score share is their points (a win 1, a shared win 1/2) over
their matches; its 95% interval is Wilson's score interval (a draw counts as half a
win, as the arena's estimates do offline).

The league counts what its programs play themselves: a program that did not play its
seat all through (a stand-in chose at least one of its moves: it did not come, or went
away) forfeits that match, as a player who does not show up on lichess or Board Game Arena
loses: 0 for it and 1 for its opponent, whatever the board said. When both forfeit, the
match is void: counted for neither.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence, Set
from dataclasses import dataclass
from fractions import Fraction

from coffeetable.tournaments.results import match_points

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Played:
    """One finished league match: the two players in seat order, their ranks."""

    players: tuple[str, str]
    ranks: tuple[int, int]
    #: The seats (0, 1) whose program forfeited.
    forfeits: tuple[int, ...] = ()
    #: How many matches ended so (the store reads them grouped).
    count: int = 1


@dataclass(frozen=True)
class PairResult:
    """What ``a`` and ``b`` did against each other (``a`` before ``b`` in the entry order)."""

    a: str
    b: str
    played: int
    a_points: Fraction
    b_points: Fraction
    #: Of ``played``, the matches each forfeited; and the void ones (both forfeited,
    #: not in ``played``).
    a_forfeits: int = 0
    b_forfeits: int = 0
    void: int = 0


@dataclass(frozen=True)
class LeagueStanding:
    player: str
    played: int
    points: Fraction
    share: float
    low: float
    high: float
    forfeits: int = 0


def forfeited(held: Iterable[int], own: Set[int], stood_in: Set[int]) -> list[int]:
    """Of the seats ``held`` by programs, those that forfeit: a stand-in chose at least one
    of its moves (``stood_in``), or it chose none itself (not in ``own``)."""
    return sorted(seat for seat in held if seat in stood_in or seat not in own)


def league_points(match: Played) -> tuple[Fraction, Fraction] | None:
    """Each seat's points in ``match``: by the ranks, or 0 for a program that forfeited
    and 1 for its opponent; None if both forfeited (void)."""
    forfeited = set(match.forfeits) & {0, 1}
    if len(forfeited) == 2:
        return None
    if forfeited:
        (loser,) = forfeited
        return (Fraction(0), Fraction(1)) if loser == 0 else (Fraction(1), Fraction(0))
    first, second = match_points(match.ranks)
    return first, second


def wilson(points: float, played: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval of a share ``points / played`` ((0, 1) with no match)."""
    if played == 0:
        return 0.0, 1.0
    share = points / played
    denominator = 1 + z * z / played
    centre = (share + z * z / (2 * played)) / denominator
    half = z * math.sqrt(share * (1 - share) / played + z * z / (4 * played * played))
    half /= denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def next_pair(
    players: Sequence[str], candidates: Sequence[str], meetings: Mapping[tuple[str, str], int]
) -> tuple[str, str] | None:
    """The pair to play next: one of ``candidates`` (the programs) against anyone else
    in ``players``, the pair that met least in ``meetings`` (how many matches each seat
    order was made, finished or not; then the earliest in the entry order); the one who
    sat first less often in that pair sits first. None: no pair."""
    met: dict[frozenset[str], int] = {}
    first: dict[tuple[str, str], int] = {}
    for seats, times in meetings.items():
        met[frozenset(seats)] = met.get(frozenset(seats), 0) + times
        first[seats] = first.get(seats, 0) + times
    best: tuple[int, int, int] | None = None
    pair: tuple[str, str] | None = None
    for i, a in enumerate(players):
        for j in range(i + 1, len(players)):
            b = players[j]
            if a not in candidates and b not in candidates:
                continue  # the fixed references have nothing to learn from each other
            key = (met.get(frozenset((a, b)), 0), i, j)
            if best is None or key < best:
                best, pair = key, (a, b)
    if pair is None:
        return None
    a, b = pair
    return (b, a) if first.get((a, b), 0) > first.get((b, a), 0) else (a, b)


def pair_results(players: Sequence[str], played: Sequence[Played]) -> list[PairResult]:
    """Every pair that met, in entry order, with its matches and each side's points."""
    order = {player: index for index, player in enumerate(players)}
    # (a, b) -> [played, a's points, b's points, a's forfeits, b's forfeits, void]
    found: dict[tuple[str, str], list[Fraction]] = {}
    for match in played:
        if not all(player in order for player in match.players):
            continue  # a player who left the league
        a, b = sorted(match.players, key=order.__getitem__)
        tally = found.setdefault((a, b), [Fraction(0)] * 6)
        seat_points, n = league_points(match), match.count
        if seat_points is None:
            tally[5] += n
            continue
        points = dict(zip(match.players, seat_points, strict=True))
        forfeited = {match.players[seat] for seat in match.forfeits if seat in (0, 1)}
        tally[0] += n
        tally[1] += points[a] * n
        tally[2] += points[b] * n
        tally[3] += n if a in forfeited else 0
        tally[4] += n if b in forfeited else 0
    return [
        PairResult(
            a, b, int(tally[0]), tally[1], tally[2], int(tally[3]), int(tally[4]), int(tally[5])
        )
        for (a, b), tally in sorted(
            found.items(), key=lambda item: (order[item[0][0]], order[item[0][1]])
        )
    ]


def league_standings(players: Sequence[str], played: Sequence[Played]) -> list[LeagueStanding]:
    """Each player's matches, points, share and its 95% interval; by share, then the
    interval's low end, then entry order."""
    counts = dict.fromkeys(players, 0)
    forfeits = dict.fromkeys(players, 0)
    tally = dict.fromkeys(players, Fraction(0))
    for result in pair_results(players, played):
        for player, points, lost in (
            (result.a, result.a_points, result.a_forfeits),
            (result.b, result.b_points, result.b_forfeits),
        ):
            counts[player] += result.played
            tally[player] += points
            forfeits[player] += lost
    lines = []
    for player in players:
        count, points = counts[player], tally[player]
        low, high = wilson(float(points), count)
        share = float(points) / count if count else 0.0
        lines.append(LeagueStanding(player, count, points, share, low, high, forfeits[player]))
    order = {player: index for index, player in enumerate(players)}
    lines.sort(key=lambda line: (-line.share, -line.low, order[line.player]))
    return lines
