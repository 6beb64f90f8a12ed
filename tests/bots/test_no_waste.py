"""No wasted actions in the turn-based games beside Doppio (test_doppio_no_waste.py):
Fika and Café, over whole seeded games and every bot turn.

From the outside: each seat's positions within its turn are recorded here (not read
from the rules) and every bot action is judged against them: no action returns the
position to one the turn already had, no undo, and (the bots that play by value:
greedy, ISMCTS, Café's rollout search and the levels built on them) no pass while a
free score is legal (Café: a deliver that completes a café, or in the last round adds any point,
``heuristics.free_scores``). In both games the rules themselves make a repeat
impossible (Fika: every turn plays a card from the hand for good; Café: every action
moves cubes forward or places a card); the test pins that down.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from coffeetable import bots, games
from coffeetable.engine import State
from coffeetable.games.cafe import heuristics as cafe_heuristics
from coffeetable.games.cafe.rules import CafeState
from coffeetable.games.fika.rules import FikaState
from coffeetable.sim.realtime import bot_rngs


def fika_position(state: State, seat: int) -> Hashable:
    """Everything an action of Fika may change: cafés, hands, picks, street, supply, the
    colour order and where the step stands."""
    assert isinstance(state, FikaState)
    groups = tuple((g.card, g.column, g.facing) for g in state.groups)
    hands = tuple(tuple(sorted(hand)) for hand in state.hands)
    step = (state.phase, tuple(state.picks), tuple(state.order), state.lone, state.lone_left)
    cafes = tuple(map(tuple, state.cafes))
    return (cafes, hands, groups, tuple(state.supply), tuple(state.colour_order), step)


def cafe_position(state: State, seat: int) -> Hashable:
    """The seat's company (cards, cubes, cafés, warehouse) and the shared supply."""
    assert isinstance(state, CafeState)
    company = state.companies[seat]
    cubes = tuple(
        sorted((pos, s.cubes, s.cube_colour) for pos, s in company.grid.items() if s.cubes)
    )
    cafes = tuple(
        sorted((k, c.lost, tuple(sorted(c.have.items()))) for k, c in company.cafes.items())
    )
    warehouse = tuple(sorted(company.warehouse.items()))
    return (tuple(company.cards), cubes, cafes, warehouse, tuple(sorted(state.supply.items())))


def no_free_score(state: State, seat: int, legal: Sequence[Any]) -> bool:
    return isinstance(state, CafeState) and any(cafe_heuristics.free_scores(state, seat, legal))


#: Actions that end a seat's turn and move nothing (what a repeat compares stays put).
ENDS = ("pass", "stop")


@dataclass
class Record:
    repeats: list[tuple[Any, ...]] = field(default_factory=list)
    undos: list[tuple[Any, ...]] = field(default_factory=list)
    passed_up: list[tuple[Any, ...]] = field(default_factory=list)
    free_scores_seen: int = 0
    turns: int = 0
    actions: int = 0


def play(
    game: str,
    names: Sequence[str],
    seed: int,
    record: Record,
    position: Callable[[State, int], Hashable],
) -> State:
    """A whole game; a seat's turn is its run of actions in one phase of one round."""
    state = games.get(game).new_state(players=len(names), seed=seed)
    seats = [bots.make(name, game) for name in names]
    rngs = bot_rngs(seed, len(names))
    seen: dict[int, tuple[Hashable, set[Hashable]]] = {}
    while not state.is_over:
        for seat in state.actors():
            if state.is_over or seat not in state.actors():
                continue
            turn = (state.round, getattr(state, "phase", None))
            if seat not in seen or seen[seat][0] != turn:
                seen[seat] = (turn, {position(state, seat)})
                record.turns += 1
            legal = state.legal_actions(seat)
            action = seats[seat].choose(state, seat, rngs[seat])
            what = (seed, seat, names[seat], action)
            if action.get("type") == "undo":
                record.undos.append(what)
            if no_free_score(state, seat, legal):
                record.free_scores_seen += 1
                if action["type"] == "pass" and names[seat] != "random":
                    record.passed_up.append(what)
            state.apply(seat, action)
            record.actions += 1
            same_turn = (state.round, getattr(state, "phase", None)) == turn
            if action["type"] not in ENDS and not state.is_over and same_turn:
                after = position(state, seat)
                if after in seen[seat][1]:
                    record.repeats.append(what)
                seen[seat][1].add(after)
    return state


#: (game, bots by seat, seeds): about 40 s of one core together.
MATCHES = [
    pytest.param("fika", ("greedy", "greedy"), range(20), id="fika-greedy-greedy-20"),
    pytest.param("fika", ("ismcts:30", "greedy"), range(100, 102), id="fika-ismcts30-greedy-2"),
    pytest.param("fika", ("random", "random"), range(200, 220), id="fika-random-random-20"),
    pytest.param("cafe", ("greedy", "greedy"), range(2), id="cafe-greedy-greedy-2"),
    pytest.param("cafe", ("greedy", "greedy", "greedy"), range(10, 11), id="cafe-greedy-3p-1"),
    pytest.param("cafe", ("ismcts:20", "greedy"), range(20, 21), id="cafe-ismcts20-greedy-1"),
    pytest.param("cafe", ("ismcts", "greedy"), range(21, 22), id="cafe-rollout-greedy-1"),
    pytest.param("cafe", ("random", "random"), range(30, 36), id="cafe-random-random-6"),
]


@pytest.mark.parametrize(("game", "names", "seeds"), MATCHES)
def test_bots_never_repeat_a_position_of_the_turn_undo_or_pass_up_a_free_score(
    game: str, names: tuple[str, ...], seeds: range
) -> None:
    record = Record()
    position = fika_position if game == "fika" else cafe_position
    for seed in seeds:
        assert play(game, names, seed, record, position).is_over
    assert record.actions >= 30 * len(seeds) and record.turns >= 8 * len(seeds)
    assert record.repeats == [], f"{len(record.repeats)} of {record.actions} actions repeat"
    assert record.undos == []
    assert record.passed_up == []
    if game == "cafe" and "greedy" in names:
        assert record.free_scores_seen > 0  # the rule was put to the test


def _late_round_with_a_free_score() -> tuple[CafeState, int]:
    """A Café position (seeded random play) where a deliver completes a café."""
    rng = random.Random(4)
    for seed in range(40):
        state = games.get("cafe").new_state(players=2, seed=seed)
        assert isinstance(state, CafeState)
        while not state.is_over:
            seat = state.actors()[0]
            legal = state.legal_actions(seat)
            if state.phase == "actions" and any(cafe_heuristics.free_scores(state, seat, legal)):
                return state, seat
            greedy = bots.make("greedy", "cafe")
            state.apply(seat, greedy.choose(state, seat, rng) if rng.random() < 0.5 else legal[0])
    raise AssertionError("no free score found in 40 games")


def test_cafe_pass_is_dominated_while_a_free_score_is_legal() -> None:
    state, seat = _late_round_with_a_free_score()
    legal = state.legal_actions(seat)
    flags = cafe_heuristics.dominated(state, seat, legal)
    assert [a for a, flag in zip(legal, flags, strict=True) if flag] == [{"type": "pass"}]
    for name in ("greedy", "ismcts:30", "ismcts"):  # Café's ismcts: the rollout search
        assert bots.make(name, "cafe").choose(state, seat, random.Random(1))["type"] != "pass"
    frees = cafe_heuristics.free_scores(state, seat, legal)
    assert all(a["type"] == "deliver" for a, free in zip(legal, frees, strict=True) if free)
