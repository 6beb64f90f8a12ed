"""The round robin at tables of three to six seats (``coffeetable.tournaments.tables``):
properties over fields and table sizes, the resolvable designs, and the measured bounds
its docstring states, checked on every field of 3 to 24 players."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coffeetable.tournaments import Table
from coffeetable.tournaments.results import meetings
from coffeetable.tournaments.round_robin import schedule
from coffeetable.tournaments.swiss import table_sizes
from coffeetable.tournaments.tables import table_schedule


def _field(count: int) -> list[str]:
    return [f"P{number}" for number in range(1, count + 1)]


def _spread(rounds: list[list[Table]]) -> int:
    values = list(meetings(rounds).values())
    return max(values) - min(values)


def _fewest_rounds(count: int, seats: int) -> int:
    sizes, _ = table_sizes(count, seats)
    pairs = count * (count - 1) // 2
    per_round = sum(size * (size - 1) // 2 for size in sizes)
    return max(-(-(count - 1) // (max(sizes) - 1)), -(-pairs // per_round))


def _check_rounds(players: list[str], seats: int, fewest: int, rounds: list[list[Table]]) -> None:
    """What holds for every field: everyone once a round, tables as ``table_sizes`` sets
    them, byes in turn, every pair met, seat 0 to whoever of the table had it least."""
    sizes, byes = table_sizes(len(players), seats, fewest)
    first: Counter[str] = Counter()
    byes_had: Counter[str] = Counter()
    for round_ in rounds:
        seated = [player for table in round_ for player in table.players]
        assert sorted(seated) == sorted(players)  # each entrant once: no one twice at a table
        played = [table for table in round_ if not table.bye]
        assert sorted(len(table.players) for table in played) == sorted(sizes)
        assert sum(1 for table in round_ if table.bye) == byes
        byes_had.update(table.players[0] for table in round_ if table.bye)
        for table in played:
            head = table.players[0]
            assert all(first[head] <= first[other] for other in table.players)
            first[head] += 1
    if byes:
        had = [byes_had[player] for player in players]
        assert max(had) - min(had) <= 1
    assert len(meetings(rounds)) == len(players) * (len(players) - 1) // 2


@settings(max_examples=25, deadline=None)
@given(
    count=st.integers(min_value=2, max_value=20),
    seats=st.integers(min_value=3, max_value=6),
    fewest=st.integers(min_value=2, max_value=6),
)
def test_every_pair_meets_everyone_plays_or_has_a_fair_bye(
    count: int, seats: int, fewest: int
) -> None:
    fewest = min(fewest, seats, max(2, count))
    players = _field(count)
    rounds = schedule(players, seats, fewest)
    _check_rounds(players, seats, fewest, rounds)
    assert rounds == schedule(players, seats, fewest)  # the same field, the same rounds


@pytest.mark.parametrize(
    ("count", "seats", "rounds"),
    [(9, 3, 4), (15, 3, 7), (16, 4, 5), (15, 4, 5), (25, 5, 6), (4, 4, 1), (6, 6, 1)],
)
def test_a_resolvable_design_meets_each_pair_exactly_once(
    count: int, seats: int, rounds: int
) -> None:
    players = _field(count)
    found = schedule(players, seats)
    assert len(found) == rounds
    assert set(meetings(found).values()) == {1}
    _check_rounds(players, seats, 2, found)


@pytest.mark.parametrize("seats", range(3, 7))
def test_the_measured_bounds_hold_for_every_field_up_to_20(seats: int) -> None:
    """The docstring's figures: spread at most 1 at three seats from 7 players up, at most
    2 at four seats from 7 up, at most 3 everywhere; at most 3 rounds over the fewest."""
    for count in range(3, 21):
        rounds = schedule(_field(count), seats)
        spread = _spread(rounds)
        assert spread <= 3, (count, seats)
        if count >= 7 and seats in (3, 4):
            assert spread <= seats - 2, (count, seats, spread)
        assert len(rounds) <= _fewest_rounds(count, seats) + 3, (count, seats)


def _least_spread(players: int, tables: tuple[int, int], rounds: int) -> int | None:
    """The least spread of any ``rounds`` rounds of two tables meeting every pair (all tried)."""
    everyone = list(range(players))
    splits = [
        (first, tuple(p for p in everyone if p not in first))
        for first in itertools.combinations(everyone, tables[0])
        if 0 in first
    ]
    least = None
    for chosen in itertools.combinations_with_replacement(splits, rounds):
        met = Counter(
            pair for split in chosen for table in split for pair in itertools.combinations(table, 2)
        )
        if len(met) == players * (players - 1) // 2:
            spread = max(met.values()) - min(met.values())
            least = spread if least is None else min(least, spread)
    return least


def test_six_players_at_two_tables_of_three_cannot_do_better() -> None:
    """The docstring's example of a field that cannot do better: four rounds of two tables
    of three that meet every pair spread 3 at least, five rounds 2; the schedule: five, 2."""
    assert _least_spread(6, (3, 3), 3) is None  # three rounds cannot meet every pair
    assert _least_spread(6, (3, 3), 4) == 3
    assert _least_spread(6, (3, 3), 5) == 2
    rounds = schedule(_field(6), 3)
    assert len(rounds) == 5 and _spread(rounds) == 2


def test_two_seats_keep_the_circle_and_a_field_that_cannot_sit_is_refused() -> None:
    circle = schedule(_field(6))
    assert len(circle) == 5 and set(meetings(circle).values()) == {1}
    with pytest.raises(ValueError, match="cannot sit"):
        table_schedule(_field(2), 4, fewest=3)
