"""Points by rank and standings with tie-breaks, on hand-checked examples."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from coffeetable.tournaments import Table, match_points, standings
from coffeetable.tournaments.arena import arena_points, on_fire, pair_free


def test_points_by_rank_share_tied_places() -> None:
    assert match_points([1, 2]) == [1, 0]
    assert match_points([2, 1]) == [0, 1]
    assert match_points([1, 1]) == [F(1, 2), F(1, 2)]
    assert match_points([1, 2, 3, 4]) == [1, F(2, 3), F(1, 3), 0]
    # Two share first: the places 1 and 2/3 shared, 5/6 each.
    assert match_points([1, 1, 3, 4]) == [F(5, 6), F(5, 6), F(1, 3), 0]


@pytest.mark.parametrize("ranks", [[1], [0, 1], [1, 3], []])
def test_bad_ranks_are_refused(ranks: list[int]) -> None:
    with pytest.raises(ValueError):
        match_points(ranks)


def test_two_seat_standings_buchholz_and_sonneborn_berger() -> None:
    # Round 1: A beats B, C beats D. Round 2: A beats C, D beats B. Round 3: A draws D,
    # B draws C. Scores: A 2.5, B 0.5, C 1.5, D 1.5.
    rounds = [
        [Table(("A", "B"), (1, 2)), Table(("C", "D"), (1, 2))],
        [Table(("A", "C"), (1, 2)), Table(("B", "D"), (2, 1))],
        [Table(("D", "A"), (1, 1)), Table(("C", "B"), (1, 1))],
    ]
    table = {line.player: line for line in standings(["A", "B", "C", "D"], rounds)}
    assert [line.player for line in standings(["A", "B", "C", "D"], rounds)] == [
        "A",
        "C",
        "D",
        "B",
    ]
    assert table["A"].score == F(5, 2) and table["B"].score == F(1, 2)
    # Buchholz: C met A, B, D: 2.5 + 0.5 + 1.5 = 4.5; D met C, B, A: 1.5 + 0.5 + 2.5 = 4.5.
    assert table["C"].tie_breaks["buchholz"] == F(9, 2)
    assert table["D"].tie_breaks["buchholz"] == F(9, 2)
    # Sonneborn-Berger: C beat D (1.5), lost to A, drew B (0.5 x 0.5): 1.75;
    # D lost to C, beat B (0.5), drew A (2.5 x 0.5): 1.75. Equal: entry order, C first.
    assert table["C"].tie_breaks["sonneborn_berger"] == F(7, 4)
    assert table["D"].tie_breaks["sonneborn_berger"] == F(7, 4)
    # A: beat B (0.5) and C (1.5), drew D (1.5 x 0.5): 2.75.
    assert table["A"].tie_breaks["sonneborn_berger"] == F(11, 4)
    assert table["A"].played == 3


def test_buchholz_breaks_equal_scores() -> None:
    # A beats B, C beats D; then A beats D, B beats C. Then B beats A and C beats D
    # again. A 2, B 2, C 2, D 0. Buchholz A: B 2 + D 0 + B 2 = 4; B: A + C + A = 6;
    # C: D + B + D = 2. So B, A, C.
    rounds = [
        [Table(("A", "B"), (1, 2)), Table(("C", "D"), (1, 2))],
        [Table(("A", "D"), (1, 2)), Table(("B", "C"), (1, 2))],
        [Table(("B", "A"), (1, 2)), Table(("D", "C"), (2, 1))],
    ]
    lines = standings(["A", "B", "C", "D"], rounds)
    assert [line.player for line in lines] == ["B", "A", "C", "D"]
    assert [line.tie_breaks["buchholz"] for line in lines] == [6, 4, 2, 6]


def test_a_bye_is_a_win_without_tie_breaks() -> None:
    rounds = [[Table(("A", "B"), (2, 1)), Table(("C",))]]
    table = {line.player: line for line in standings(["A", "B", "C"], rounds)}
    assert table["C"].score == 1 and table["C"].tie_breaks["buchholz"] == 0
    assert table["B"].tie_breaks["buchholz"] == 0  # A has nothing
    assert table["A"].tie_breaks["buchholz"] == 1


def test_more_seats_opponents_points_then_rank_sum() -> None:
    rounds = [
        [Table(("A", "B", "C"), (1, 2, 3)), Table(("D", "E", "F"), (1, 1, 3))],
        [Table(("A", "D", "F"), (3, 2, 1)), Table(("B", "C", "E"), (2, 3, 1))],
    ]
    lines = standings(list("ABCDEF"), rounds)
    table = {line.player: line for line in lines}
    # Scores: A 1 + 0, B 1/2 + 1/2, C 0 + 0, D 3/4 + 1/2, E 3/4 + 1, F 0 + 1.
    assert [table[name].score for name in "ABCDEF"] == [1, 1, 0, F(5, 4), F(7, 4), 1]
    # A sat with B, C (mean 1/2) then D, F (mean 9/8): 13/8.
    assert table["A"].tie_breaks["opponents"] == F(13, 8)
    assert table["A"].tie_breaks["rank_sum"] == 4
    assert table["F"].tie_breaks["rank_sum"] == 4
    # F: E, D (mean 3/2) then A, D (mean 9/8): 21/8, ahead of A and B at 1 point.
    assert [line.player for line in lines] == ["E", "D", "F", "A", "B", "C"]


def test_an_unplayed_table_counts_nothing() -> None:
    lines = standings(["A", "B"], [[Table(("A", "B"))]])
    assert [(line.score, line.played) for line in lines] == [(0, 0), (0, 0)]


def test_arena_points_double_on_a_streak() -> None:
    results = [F(1), F(1), F(1), F(1, 2), F(1), F(0)]
    # Two wins set a player on fire: the third win is 4, the draw on fire 2; the draw
    # ends the streak.
    assert arena_points(results) == [2, 2, 4, 2, 2, 0]
    assert on_fire([F(1), F(1)]) and not on_fire([F(1), F(1), F(0)])


def test_arena_pairs_free_players_close_in_score_not_again_at_once() -> None:
    score = {"a": F(5), "b": F(4), "c": F(3), "d": F(0), "e": F(0)}
    free = ["d", "c", "b", "a", "e"]
    tables = pair_free(free, score, {})
    assert [table.players for table in tables] == [("a", "b"), ("c", "d")]  # e waits
    last = {"a": frozenset({"b"}), "b": frozenset({"a"})}
    assert [table.players for table in pair_free(free[:4], score, last)] == [
        ("a", "c"),
        ("b", "d"),
    ]
    # Only the two who just met are free: they meet again rather than wait.
    assert [table.players for table in pair_free(["a", "b"], score, last)] == [("a", "b")]
