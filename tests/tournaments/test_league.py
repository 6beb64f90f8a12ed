"""The programs' league, pure: the next pair (least met, programs only against anyone),
each pair's results, and standings with Wilson's 95% interval on hand-checked figures."""

from __future__ import annotations

from fractions import Fraction

import pytest

from coffeetable.tournaments.league import (
    Played,
    league_standings,
    next_pair,
    pair_results,
    wilson,
)

PLAYERS = ["u1", "u2", "bot:strong", "bot:casual"]
PROGRAMS = ["u1", "u2"]


def test_wilson_on_hand_checked_figures() -> None:
    # 8 of 10: centre (0.8 + 0.19208) / 1.38415 = 0.71681, half 0.3136 / 1.38415 = 0.22657
    low, high = wilson(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-4)
    assert high == pytest.approx(0.9433, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(0, 5)
    assert low == 0.0 and high == pytest.approx(0.4345, abs=1e-4)


def test_the_pair_that_met_least_plays_next_and_references_never_meet() -> None:
    played: list[tuple[str, str]] = []
    seen = []
    for _ in range(5 * 5):  # five times every pair with a program (5 such pairs)
        pair = next_pair(PLAYERS, PROGRAMS, played)
        assert pair is not None
        assert set(pair) & set(PROGRAMS)
        seen.append(frozenset(pair))
        played.append(pair)
    counts = {pair: seen.count(pair) for pair in set(seen)}
    assert len(counts) == 5 and set(counts.values()) == {5}
    assert frozenset(("bot:strong", "bot:casual")) not in counts
    # Seat order alternates within a pair.
    firsts = [seats[0] for seats in played if set(seats) == {"u1", "u2"}]
    assert firsts == ["u1", "u2", "u1", "u2", "u1"]
    assert next_pair(["bot:strong", "bot:casual"], [], []) is None


def test_pair_results_and_standings() -> None:
    played = [
        Played(("u1", "bot:strong"), (1, 2)),
        Played(("bot:strong", "u1"), (1, 1)),  # shared
        Played(("u2", "u1"), (1, 2)),
        Played(("u9", "u1"), (1, 2)),  # u9 left the league: not counted
    ]
    results = pair_results(PLAYERS, played)
    assert [(r.a, r.b, r.played, r.a_points, r.b_points) for r in results] == [
        ("u1", "u2", 1, Fraction(0), Fraction(1)),
        ("u1", "bot:strong", 2, Fraction(3, 2), Fraction(1, 2)),
    ]
    lines = league_standings(PLAYERS, played)
    assert [line.player for line in lines] == ["u2", "u1", "bot:strong", "bot:casual"]
    u1 = lines[1]
    assert (u1.played, u1.points, u1.share) == (3, Fraction(3, 2), 0.5)
    assert (u1.low, u1.high) == pytest.approx(wilson(1.5, 3))
    assert lines[3].played == 0 and (lines[3].low, lines[3].high) == (0.0, 1.0)
