"""Swiss and round-robin pairings: hand-checked rounds and properties over seeded fields."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from coffeetable.tournaments import Table
from coffeetable.tournaments.results import meetings
from coffeetable.tournaments.round_robin import schedule
from coffeetable.tournaments.swiss import pair_round, table_sizes

EIGHT = [f"P{number}" for number in range(1, 9)]


def _played(tables: list[Table], rng: random.Random) -> list[Table]:
    """The tables with seeded results (draws now and then)."""
    out = []
    for table in tables:
        if table.bye:
            out.append(table)
            continue
        ranks = [rng.randint(1, len(table.players)) for _ in table.players]
        ranks = [1 + sum(1 for other in ranks if other < rank) for rank in ranks]
        out.append(Table(table.players, tuple(ranks)))
    return out


def _white_balance(rounds: list[list[Table]]) -> Counter[str]:
    balance: Counter[str] = Counter()
    for round_ in rounds:
        for table in round_:
            if not table.bye:
                balance[table.players[0]] += 1
                balance[table.players[1]] -= 1
    return balance


def test_the_first_round_meets_top_half_against_bottom_half_alternating_colours() -> None:
    tables = pair_round(EIGHT, [])
    assert [table.players for table in tables] == [
        ("P1", "P5"),
        ("P6", "P2"),
        ("P3", "P7"),
        ("P8", "P4"),
    ]


def test_the_bye_goes_to_the_lowest_ranked_without_one() -> None:
    five = EIGHT[:5]
    first = pair_round(five, [])
    assert first[-1] == Table(("P5",)) and [t.players for t in first[:2]] == [
        ("P1", "P3"),
        ("P4", "P2"),
    ]
    # P1, P4 win; P5 had the bye (1 point). Ranking: P1, P4, P5 on 1; P2, P3 on 0.
    played = [[Table(("P1", "P3"), (1, 2)), Table(("P4", "P2"), (1, 2)), Table(("P5",))]]
    second = pair_round(five, played)
    assert second[-1] == Table(("P3",))  # the lowest is P3; P5 had one already
    met = meetings(played)
    assert all(met.get(frozenset(table.players), 0) == 0 for table in second if not table.bye)


def test_score_groups_pair_without_repeating_a_meeting() -> None:
    # After round 1 (P1, P6, P3, P8 won), the winners' group is P1, P3, P6, P8 and
    # the Dutch split pairs P1-P6 and P3-P8; the losers' (P2, P4, P5, P7) P2-P5 and P4-P7.
    played = [
        [
            Table(("P1", "P5"), (1, 2)),
            Table(("P6", "P2"), (1, 2)),
            Table(("P3", "P7"), (1, 2)),
            Table(("P8", "P4"), (1, 2)),
        ]
    ]
    pairs = {frozenset(table.players) for table in pair_round(EIGHT, played)}
    assert pairs == {
        frozenset({"P1", "P6"}),
        frozenset({"P3", "P8"}),
        frozenset({"P2", "P5"}),
        frozenset({"P4", "P7"}),
    }


def test_a_repeat_is_avoided_by_pairing_across_the_group() -> None:
    # P1 and P2 alone lead, but met in round 1: P1 meets the best of the next group.
    played = [
        [Table(("P1", "P2"), (1, 1)), Table(("P3", "P4"), (1, 2))],
        [Table(("P1", "P3"), (1, 2)), Table(("P2", "P4"), (1, 2))],
    ]
    pairs = {frozenset(table.players) for table in pair_round(EIGHT[:4], played)}
    assert frozenset({"P1", "P2"}) not in pairs
    assert pairs == {frozenset({"P1", "P4"}), frozenset({"P2", "P3"})}


@pytest.mark.parametrize(("field", "rounds"), [(8, 5), (7, 5), (12, 6), (16, 7)])
def test_seeded_swiss_fields_never_repeat_and_balance_colours(field: int, rounds: int) -> None:
    players = [f"P{number}" for number in range(1, field + 1)]
    rng = random.Random(field)
    history: list[list[Table]] = []
    for _ in range(rounds):
        history.append(_played(pair_round(players, history), rng))
    assert max(meetings(history).values()) == 1
    assert all(abs(value) <= 2 for value in _white_balance(history).values())
    byes = Counter(table.players[0] for round_ in history for table in round_ if table.bye)
    assert all(count == 1 for count in byes.values())
    assert sum(byes.values()) == (rounds if field % 2 else 0)


def test_four_seat_swiss_of_twelve_rotates_meetings_and_seats() -> None:
    players = [f"P{number}" for number in range(1, 13)]
    first = pair_round(players, [], seats=4)
    assert [table.players for table in first] == [
        ("P1", "P2", "P3", "P4"),
        ("P5", "P6", "P7", "P8"),
        ("P9", "P10", "P11", "P12"),
    ]
    rng = random.Random(4)
    history = [_played(first, rng)]
    for _ in range(3):
        history.append(_played(pair_round(players, history, seats=4), rng))
    met = meetings(history)
    assert max(met.values()) <= 2  # 4 rounds x 3 table-mates = 12 meetings for 11 others
    assert len(met) >= 40  # of 66 pairs
    firsts = Counter(round_[i].players[0] for round_ in history for i in range(3))
    assert max(firsts.values()) <= 2


def test_table_sizes() -> None:
    assert table_sizes(8, 2) == ([2, 2, 2, 2], 0)
    assert table_sizes(9, 2) == ([2, 2, 2, 2], 1)
    assert table_sizes(10, 4) == ([4, 3, 3], 0)
    assert table_sizes(5, 4) == ([3, 2], 0)
    assert table_sizes(5, 4, fewest=3) == ([4], 1)
    assert table_sizes(1, 4) == ([], 1)
    with pytest.raises(ValueError):
        table_sizes(8, 1)


@pytest.mark.parametrize("field", range(2, 13))
def test_round_robin_meets_everyone_once_with_balanced_seats(field: int) -> None:
    players = [f"P{number}" for number in range(1, field + 1)]
    rounds = schedule(players)
    assert len(rounds) == field - 1 + field % 2
    met = meetings(rounds)
    assert len(met) == field * (field - 1) // 2 and set(met.values()) == {1}
    assert all(abs(value) <= 1 for value in _white_balance(rounds).values())
    for round_ in rounds:
        seated = [player for table in round_ for player in table.players]
        assert sorted(seated) == sorted(players)


def test_round_robin_at_four_seats_meets_everyone() -> None:
    players = [f"P{number}" for number in range(1, 9)]
    rounds = schedule(players, seats=4)
    assert len(meetings(rounds)) == 28
    assert len(rounds) <= 7
    with pytest.raises(ValueError):
        schedule(["P1"])
