"""The programs' league, pure: the next pair (least met, programs only against anyone),
each pair's results, forfeits, and standings with Wilson's 95% interval on hand-checked
figures."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from coffeetable.tournaments.league import (
    Played,
    league_points,
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
        pair = next_pair(PLAYERS, PROGRAMS, Counter(played))
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
    assert next_pair(["bot:strong", "bot:casual"], [], {}) is None


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
    # Matches read grouped (``count``) give the same as one by one.
    grouped = [Played(("u1", "bot:strong"), (1, 2), count=2), Played(("u2", "u1"), (1, 2))]
    twice = [played[0], played[0], played[2]]
    assert pair_results(PLAYERS, grouped) == pair_results(PLAYERS, twice)
    assert league_standings(PLAYERS, grouped) == league_standings(PLAYERS, twice)
    u1 = lines[1]
    assert (u1.played, u1.points, u1.share) == (3, Fraction(3, 2), 0.5)
    assert (u1.low, u1.high) == pytest.approx(wilson(1.5, 3))
    assert lines[3].played == 0 and (lines[3].low, lines[3].high) == (0.0, 1.0)


def test_wilson_with_draws_on_hand_checked_figures() -> None:
    # 4 wins, 2 draws, 4 losses: 5 of 10. Centre (0.5 + 0.19208) / 1.38415 = 0.5,
    # half 1.95996 * sqrt(0.025 + 0.0096040) / 1.38415 = 0.26340.
    lines = league_standings(
        ["u1", "bot:strong"],
        [Played(("u1", "bot:strong"), ranks) for ranks in [(1, 2)] * 4 + [(1, 1)] * 2]
        + [Played(("bot:strong", "u1"), (1, 2))] * 4,
    )
    u1 = next(line for line in lines if line.player == "u1")
    assert (u1.played, u1.points, u1.share) == (10, Fraction(5), 0.5)
    assert u1.low == pytest.approx(0.2366, abs=1e-4)
    assert u1.high == pytest.approx(0.7634, abs=1e-4)
    # 10 of 10: low n / (n + z^2) = 10 / 13.84146 = 0.72247, high 1.
    low, high = wilson(10, 10)
    assert low == pytest.approx(0.72247, abs=1e-5) and high == pytest.approx(1.0)


def test_a_program_a_stand_in_played_for_forfeits() -> None:
    """Whatever the board said: the program that did not play its seat itself scores 0,
    its opponent 1; both forfeited: void, counted for neither."""
    played = [
        Played(("u1", "bot:strong"), (1, 2), forfeits=(0,)),  # u1 "won" through a stand-in
        Played(("bot:strong", "u1"), (1, 1), forfeits=(1,)),  # a shared win, stood in for
        Played(("u1", "u2"), (1, 2), forfeits=(0, 1)),  # neither came: void
        Played(("u2", "u1"), (2, 1), forfeits=(0,)),  # u2 away, u1 present: u1 wins
    ]
    assert league_points(played[0]) == (0, 1)
    assert league_points(played[1]) == (1, 0)
    assert league_points(played[2]) is None
    results = {(r.a, r.b): r for r in pair_results(PLAYERS, played)}
    strong = results[("u1", "bot:strong")]
    assert (strong.played, strong.a_points, strong.b_points) == (2, 0, 2)
    assert (strong.a_forfeits, strong.b_forfeits, strong.void) == (2, 0, 0)
    programs = results[("u1", "u2")]
    assert (programs.played, programs.a_points, programs.b_points) == (1, 1, 0)
    assert (programs.a_forfeits, programs.b_forfeits, programs.void) == (0, 1, 1)
    lines = {line.player: line for line in league_standings(PLAYERS, played)}
    assert (lines["u1"].played, lines["u1"].points, lines["u1"].forfeits) == (3, 1, 2)
    assert (lines["u2"].played, lines["u2"].points, lines["u2"].forfeits) == (1, 0, 1)
    assert (lines["bot:strong"].played, lines["bot:strong"].points) == (2, 2)
