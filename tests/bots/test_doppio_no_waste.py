"""Doppio bots waste no action: no move back to a position the turn already had, no
undo, and (greedy, ISMCTS) no end of turn while a free score is legal.

Players saw the ISMCTS bot exchange the cups of spaces 1 and 2 and then exchange
them back. The rule, in ``coffeetable.bots.base`` with the Doppio hooks in
``coffeetable.games.doppio.heuristics`` (``repeats_positions``, ``dominated``),
is checked here from the outside: whole seeded games are played, every turn's
positions are recorded here (not read from the rules' undo stack), and every
bot action is judged against them.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from coffeetable import bots, games
from coffeetable.bots.ismcts import ISMCTSBot, Node
from coffeetable.engine import Action
from coffeetable.games.doppio import heuristics
from coffeetable.games.doppio.cards import CARDS, CARDS_PER_PLAYER
from coffeetable.games.doppio.rules import DoppioState

GAME = games.get("doppio")
MOVES = ("move", "exchange")


def position(state: DoppioState) -> Hashable:
    """What a repeat compares: the path and every seat's face-up cards.

    Within a turn the beans change only with a score, which changes the cards
    too; solo, each move costs a bean, so the beans are left out.
    """
    return (tuple(state.path), tuple(tuple(cards) for cards in state.face_up))


def strictly_good(state: DoppioState, seat: int, action: Action) -> bool:
    """A legal score that costs nothing, as ``heuristics.free_score`` defines it: two
    players, the reserve not empty (it banks beans), and not the seat's last card of
    the round (that ends the round or the match)."""
    return (
        action["type"] == "score"
        and state.players == 2
        and state.reserve > 0
        and len(state.scored[seat]) < CARDS_PER_PLAYER - 1
    )


@dataclass
class Record:
    """What the bots did that they must not: (seed, seat, bot, action) each."""

    repeats: list[tuple[Any, ...]] = field(default_factory=list)
    undos: list[tuple[Any, ...]] = field(default_factory=list)
    passed_up: list[tuple[Any, ...]] = field(default_factory=list)
    turns: int = 0
    actions: int = 0


def play(names: Sequence[str], seed: int, record: Record, *, master: bool = False) -> DoppioState:
    """Play a whole game, judging every bot action against the turn's positions so far."""
    players = len(names)
    state = GAME.new_state(players=players, seed=seed, master=master)
    assert isinstance(state, DoppioState)
    seats = [bots.make(name, "doppio") for name in names]
    rngs = [random.Random(f"{seed}:{seat}") for seat in range(players)]
    seen: set[Hashable] = set()
    turn: tuple[int, int] | None = None
    while not state.is_over:
        seat = state.actors()[0]
        if state.phase == "play" and (seat, state.round_number) != turn:
            turn, seen = (seat, state.round_number), {position(state)}
            record.turns += 1
        legal = state.legal_actions(seat)
        action = seats[seat].choose(state, seat, rngs[seat])
        what = (seed, seat, names[seat], action)
        if action["type"] == "undo":
            record.undos.append(what)
        if (
            action["type"] == "end_turn"
            and names[seat] != "random"  # random may end its turn: any action but waste
            and any(strictly_good(state, seat, other) for other in legal)
        ):
            record.passed_up.append(what)
        state.apply(seat, action)
        record.actions += 1
        if action["type"] == "end_turn":
            turn = None  # solo has no turns: one turn, whose cards change with each score
        elif state.phase == "play":
            if action["type"] in MOVES and position(state) in seen:
                record.repeats.append(what)
            seen.add(position(state))
    return state


#: (bots by seat, seeds, Espresso Master): about 25 s of one core together.
MATCHES = [
    pytest.param(("greedy", "greedy"), range(30), False, id="greedy-greedy-30"),
    pytest.param(("greedy", "greedy"), range(100, 108), True, id="greedy-greedy-master-8"),
    pytest.param(("greedy",), range(200, 220), False, id="greedy-solo-20"),
    pytest.param(("greedy", "ismcts:30"), range(300, 302), False, id="greedy-ismcts30-2"),
    pytest.param(("ismcts:30", "greedy"), range(302, 303), False, id="ismcts30-greedy-1"),
    pytest.param(("ismcts:30", "greedy"), range(400, 401), True, id="ismcts30-greedy-master-1"),
    pytest.param(("ismcts:30",), range(500, 501), False, id="ismcts30-solo-1"),
    pytest.param(("random", "random"), range(600, 610), False, id="random-random-10"),
    pytest.param(("random",), range(700, 720), False, id="random-solo-20"),
]


@pytest.mark.parametrize(("names", "seeds", "master"), MATCHES)
def test_bots_never_return_to_a_position_of_the_turn_undo_or_pass_up_a_free_score(
    names: tuple[str, ...], seeds: range, master: bool
) -> None:
    record = Record()
    for seed in seeds:
        play(names, seed, record, master=master)
    assert record.actions >= 12 * len(seeds) and record.turns >= len(seeds)  # whole games
    assert record.repeats == [], f"{len(record.repeats)} of {record.actions} actions repeat"
    assert record.undos == []
    assert record.passed_up == []


# -- the reported position: the cups of spaces 1 and 2 exchanged, then back --------

#: The path before the turn: card 16 (white-brown-black cups, read turned) and card 5
#: (the black set) are met there, 5 beans. Colours: 0 brown, 1 white, 2 black.
BEFORE = (
    (None, 0, None),
    (2, None, 1),
    (0, 2, 0),
    (1, None, 2),
    (None, 1, None),
)
EXCHANGE_CUPS = {"type": "exchange", "from": 1, "to": 2, "kinds": ["cup"], "with": ["cup"]}


def mid_turn(
    path: Sequence[Any],
    mine: list[int],
    theirs: list[int],
    *,
    earlier: Sequence[Sequence[Any]] = (),
    actions_taken: int | None = None,
    reserve: int = 60,
    scored: int = 0,
) -> DoppioState:
    """Seat 0 in the middle of its turn on ``path``, the turn's earlier paths ``earlier``."""
    state = GAME.new_state(players=2, seed=0)
    assert isinstance(state, DoppioState)
    rest = [card.id for card in CARDS if card.id not in mine + theirs]
    done, rest = rest[:scored], rest[scored:]
    pile = CARDS_PER_PLAYER - scored - len(mine)
    state.phase, state.current, state.round_number = "play", 0, 1
    state.path = list(path)
    state.face_up, state.scored = [list(mine), list(theirs)], [done, []]
    state.piles = [rest[:pile], rest[pile:]]
    state.beans, state.reserve = [60 - reserve, 0], reserve
    state.undo_stack = [(list(p), state.beans[0]) for p in earlier]
    state.actions_taken = len(earlier) if actions_taken is None else actions_taken
    return state


def reported() -> DoppioState:
    after = heuristics.after(BEFORE, EXCHANGE_CUPS)  # the first exchange: both cards broken
    return mid_turn(after, [16, 5, 2], [11, 15, 13], earlier=[BEFORE])


def test_the_reported_position_tempts_a_greedy_eye_to_exchange_back() -> None:
    state = reported()
    legal = state.legal_actions(0)
    assert EXCHANGE_CUPS in legal
    values = heuristics.action_values(state, 0, legal)
    best = legal[values.index(max(values))]
    assert best == EXCHANGE_CUPS and sorted(values)[-2] < max(values)  # the only best
    assert heuristics.after(state.path, EXCHANGE_CUPS) == BEFORE
    assert heuristics.repeats_position(state, 0, EXCHANGE_CUPS)


@pytest.mark.parametrize("name", ["greedy", "ismcts:30", "random"])
def test_no_bot_exchanges_the_cups_back(name: str) -> None:
    for seed in range(20 if name == "random" else 5):
        state = reported()
        action = bots.make(name, "doppio").choose(state, 0, random.Random(seed))
        assert action != EXCHANGE_CUPS, (name, seed)
        assert action["type"] != "undo"
        if action["type"] in MOVES:
            assert heuristics.after(state.path, action) != BEFORE


def test_the_search_tree_holds_no_return_to_a_position_of_the_turn() -> None:
    """ISMCTS prunes at every node, not only at the root: no branch of its tree
    goes back to a position the turn had (before the search or in the branch)."""
    state = reported()
    bot = ISMCTSBot(heuristics, iterations=400)
    root, rng = Node(), random.Random(3)
    for _ in range(400):
        bot._iterate(root, state.determinize(0, rng), 0, rng)
    checked = 0

    def walk(node: Node, here: DoppioState, seen: set[Hashable]) -> None:
        nonlocal checked
        for child in node.children.values():
            assert child.action is not None
            later = here.clone()
            later.apply(child.actor, child.action)
            if child.action["type"] in MOVES:
                assert position(later) not in seen, child.action
                checked += 1
            if child.action["type"] != "end_turn":  # the horizon: the end of this turn
                walk(child, later, seen | {position(later)})

    walk(root, state, {position(state), (BEFORE, position(state)[1])})
    assert checked > 20


def test_rollouts_never_go_back_to_a_position_of_the_turn() -> None:
    """The search's rollout policy keeps the rule too (and plays legal actions)."""
    rng, checked = random.Random(9), 0
    for seed in range(16):
        state = GAME.new_state(players=2 - seed % 2, seed=seed, master=seed % 3 == 0)
        assert isinstance(state, DoppioState)
        seen: set[Hashable] = set()
        turn: int | None = None
        while not state.is_over:
            seat = state.actors()[0]
            if state.phase == "play" and seat != turn:
                turn, seen = seat, {position(state)}
            action = heuristics.rollout_action(state, seat, rng)
            assert action in state.legal_actions(seat)
            state.apply(seat, action)
            if action["type"] == "end_turn":
                turn = None
            elif state.phase == "play":
                if action["type"] in MOVES:
                    assert position(state) not in seen, (seed, action)
                    checked += 1
                seen.add(position(state))
    assert checked > 200
    state = reported()
    for _ in range(30):
        assert heuristics.rollout_action(state, 0, rng) != EXCHANGE_CUPS


# -- the hooks, against a replay of the turn ----------------------------------------


def positions_seen(names: Sequence[str], seeds: range) -> list[tuple[DoppioState, set[Hashable]]]:
    """Mid-turn states of bot games, each with the positions its turn had so far."""
    out: list[tuple[DoppioState, set[Hashable]]] = []
    for seed in seeds:
        state = GAME.new_state(players=len(names), seed=seed, master=seed % 4 == 0)
        assert isinstance(state, DoppioState)
        seats = [bots.make(name, "doppio") for name in names]
        rng = random.Random(seed)
        seen: set[Hashable] = set()
        turn: int | None = None
        while not state.is_over:
            seat = state.actors()[0]
            if state.phase == "play" and seat != turn:
                turn, seen = seat, {position(state)}
            if state.phase == "play":
                out.append((state.clone(), set(seen)))
            action = seats[seat].choose(state, seat, rng)
            state.apply(seat, action)
            if action["type"] == "end_turn":
                turn = None
            elif state.phase == "play":
                seen.add(position(state))
    return out


@pytest.mark.parametrize("names", [("random", "random"), ("greedy", "greedy"), ("random",)])
def test_the_hooks_agree_with_the_turn_so_far(names: tuple[str, ...]) -> None:
    """``repeats_positions`` flags exactly the actions that reach a position this turn
    had; ``free_score`` is ``strictly_good``; ``dominated`` is ending the turn with one."""
    repeats = 0
    mid_turn = [(s, seen) for s, seen in positions_seen(names, range(4)) if s.actions_taken]
    for state, seen in mid_turn[:: max(1, len(mid_turn) // 150)]:
        seat = state.current
        legal = state.legal_actions(seat)
        flags = heuristics.repeats_positions(state, seat, legal)
        for action, flag in zip(legal, flags, strict=True):
            later = state.clone()
            later.apply(seat, action)
            back = action["type"] in MOVES and position(later) in seen
            assert flag == back, action
            repeats += flag
            assert heuristics.free_score(state, seat, action) == strictly_good(state, seat, action)
        free = any(strictly_good(state, seat, action) for action in legal)
        assert heuristics.dominated(state, seat, legal) == [
            free and action["type"] == "end_turn" for action in legal
        ]
    assert repeats > 0


def test_a_free_score_is_scored_and_a_costly_one_may_wait() -> None:
    """After three moves a met card is scored rather than the turn ended; a score of
    the round's last card, or from an empty reserve, is not free (a bot may wait)."""
    state = mid_turn(BEFORE, [16, 5, 2], [11, 15, 13], actions_taken=3)
    legal = state.legal_actions(0)
    assert {"type": "end_turn"} in legal
    scores = [action for action in legal if action["type"] == "score"]
    assert scores and all(heuristics.free_score(state, 0, action) for action in scores)
    for name in ("greedy", "ismcts:30"):
        for seed in range(3):
            action = bots.make(name, "doppio").choose(state, 0, random.Random(seed))
            assert action["type"] == "score", (name, seed)
    empty = mid_turn(BEFORE, [16, 5, 2], [11, 15, 13], actions_taken=3, reserve=0)
    last = mid_turn(BEFORE, [16], [11, 15, 13], actions_taken=3, scored=CARDS_PER_PLAYER - 1)
    for costly in (empty, last):
        legal = costly.legal_actions(0)
        assert any(action["type"] == "score" for action in legal)
        assert not any(heuristics.free_score(costly, 0, action) for action in legal)
        assert heuristics.dominated(costly, 0, legal) == [False] * len(legal)
