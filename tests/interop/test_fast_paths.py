"""The environment's fast paths give what the plain ones give.

The environments observe straight from the state (``Codec.observe_state``:
Café's ``cafe_state``, and each game's own) and encode whole legal lists at
once (``Codec.legal_from``; Café while placing and in the actions phase reads
the engine's own lists instead of the legal actions: ``Codec.legal``). The
reference is the plain path, the one the site adapter takes:
``observe(state.view(seat))`` through the game's ``features`` (the layout
documented in each game's module; Café's is written in the company's frame,
found from the view's squares alone), and each legal action encoded alone
(``encode``). Over many random positions, for every seat (whether it acts or
not), both must be equal, value for value and in order (Café's ``legal``: the
same items, deliveries' recipients in their own order).
"""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

from coffeetable.engine import Action, State  # noqa: E402
from coffeetable.interop.encoding import Codec, codec, get_game  # noqa: E402

#: (game, players, options, matches): every table size and option that changes a layout.
TABLES = [
    ("doppio", 2, {}, 6),
    ("doppio", 1, {"master": True}, 12),
    ("fika", 2, {}, 10),
    ("cafe", 1, {}, 4),
    ("cafe", 2, {}, 4),
    ("cafe", 4, {}, 2),
    ("espresso", 2, {}, 3),
    ("espresso", 4, {}, 2),
    ("espresso", 3, {"zero": True, "chaos": True}, 2),
    ("espresso", 4, {"chaos": True}, 2),
]


def positions(name: str, players: int, options: dict, matches: int, steps: int = 400):
    """Every state met along seeded random matches, the last (over) one included."""
    game = get_game(name)
    for seed in range(matches):
        state = game.new_state(players=players, seed=seed, **options)
        rng = random.Random(seed)
        for _ in range(steps):
            yield state
            if state.is_over:
                break
            seat = rng.choice(state.actors())
            state.apply(seat, rng.choice(state.legal_actions(seat)))


@pytest.mark.parametrize(("name", "players", "options", "matches"), TABLES)
def test_observations_from_the_state_are_the_views(
    name: str, players: int, options: dict, matches: int
) -> None:
    table = codec(name, players, **options)
    seen = 0
    for state in positions(name, players, options, matches):
        for seat in range(players):
            fast = table.observe_state(state, seat)
            plain = table.observe(state.view(seat))
            assert fast.dtype == plain.dtype == np.float32
            assert fast.shape == plain.shape == (table.observation_size,)
            assert np.array_equal(fast, plain), np.flatnonzero(fast != plain)[:10]
            seen += 1
    assert seen > 100, seen


def encoded_alone(
    table: Codec, actions: list[Action], state: State, seat: int
) -> dict[int, object]:
    """The plain path: each action encoded alone, the first action of each index kept."""
    expected: dict[int, object] = {}
    for action in actions:
        index = table.encode(action, state, seat)
        if index is not None and index not in expected:
            expected[index] = action
    return expected


@pytest.mark.parametrize(("name", "players", "options", "matches"), TABLES)
def test_legal_lists_encode_as_each_action_alone(
    name: str, players: int, options: dict, matches: int
) -> None:
    table = codec(name, players, **options)
    seen = 0
    for state in positions(name, players, options, matches):
        for seat in range(players):
            actions = state.legal_actions(seat)
            expected = encoded_alone(table, actions, state, seat)
            got = table.legal_from(actions, state, seat)
            assert list(got.items()) == list(expected.items())
            legal = table.legal(state, seat)
            # the same items (Café's fast paths list a delivery's recipients in their own
            # order, not the engine's: nothing reads the order), every key once
            assert dict(legal.items()) == expected
            assert len(legal) == len(list(legal)) == len(expected)
            assert all(index in legal for index in expected)
            # asked twice (the environment's caches): the same answer
            assert list(table.legal_from(actions, state, seat).items()) == list(expected.items())
            seen += len(actions)
    assert seen > 100, seen


def test_odd_actions_take_the_slow_way() -> None:
    """Actions no engine lists (a field too many, a rotation out of range, a tuple area)
    get what ``encode`` gives them: the fast paths trust nothing they have not checked."""
    name, players = "cafe", 2
    table = codec(name, players)
    state = get_game(name).new_state(players=players, seed=0)
    odd = [
        {"type": "place", "x": 0, "y": 2, "rotation": 4},
        {"type": "place", "x": 0, "y": 2, "rotation": -1},
        {"type": "place", "x": 0, "y": 2, "rotation": 1.0},
        {"type": "place", "x": 0, "y": 2, "rotation": 0, "extra": 1},
        {"type": "place", "x": 99, "y": 2, "rotation": 0},
        {"type": "produce", "area": (0, 0)},
        {"type": "take", "card": "nope"},
        {"type": "place", "x": 0, "y": 2, "rotation": 0},
    ]
    expected = encoded_alone(table, odd, state, 0)
    assert list(table.legal_from(odd, state, 0).items()) == list(expected.items())
    assert len(expected) >= 1  # the last one is a real placement's index


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_cafe_legal_indices_are_the_plain_path(players: int) -> None:
    """Café's fast legal paths (placements from the layout's anchors, the actions phase
    read from the company, actions made when asked): every index of the space is in
    them exactly when the plain path has it, each made action is the plain path's (as
    a value), and the environment's mask is the plain one. Over many random matches
    at every table size, so deliveries to several cafés come up."""
    from coffeetable.interop.cafe import DELIVER_BASE, PASS_INDEX
    from coffeetable.interop.encoding import IndexedLegal
    from coffeetable.interop.pettingzoo import env

    table = codec("cafe", players)
    mask_of = env("cafe", players=players).unwrapped.table.mask
    everything = range(table.num_actions)
    kinds: dict[str, int] = {}
    for n, state in enumerate(positions("cafe", players, {}, 12 if players < 3 else 6)):
        for seat in range(players):
            expected = encoded_alone(table, state.legal_actions(seat), state, seat)
            legal = table.legal(state, seat)
            assert dict(legal.items()) == expected
            plain = np.zeros(table.num_actions, dtype=np.int8)
            plain[list(expected)] = 1
            assert np.array_equal(mask_of(legal), plain)
            if isinstance(legal, IndexedLegal):
                kinds[state.phase] = kinds.get(state.phase, 0) + 1
                if n % 7 == 0:  # every index, a sample of positions (4,915 each)
                    assert [i for i in everything if i in legal] == sorted(expected)
                    assert all(np.int64(i) in legal for i in expected)
                    missing = next(i for i in everything if i not in expected)
                    with pytest.raises(KeyError):
                        legal[missing]
            delivers = [i for i in expected if DELIVER_BASE <= i < PASS_INDEX]
            kinds["deliver"] = kinds.get("deliver", 0) + len(delivers)
    assert kinds.get("place", 0) > 20 and kinds.get("actions", 0) > 20, kinds
    assert kinds.get("take", 0) > 20, kinds
    assert kinds["deliver"] > 20, kinds
