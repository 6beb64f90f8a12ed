"""The codecs: every legal action round-trips through its integer, and observations
are built from what a seat may see, never from hidden cards."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

from coffeetable.engine import State  # noqa: E402
from coffeetable.interop.encoding import codec, get_game  # noqa: E402

#: (game, players, options): one line per action space worth checking.
TABLES = [
    ("doppio", 2, {}),
    ("doppio", 1, {"master": True}),
    ("fika", 2, {}),
    ("cafe", 1, {}),
    ("cafe", 3, {}),
    ("espresso", 2, {}),
    ("espresso", 3, {"zero": True, "chaos": True}),
]


def random_states(name: str, players: int, options: dict, games: int, steps: int):
    """States met along a few random matches (every one before its action is applied)."""
    game = get_game(name)
    for seed in range(games):
        state = game.new_state(players=players, seed=seed, **options)
        rng = random.Random(seed)
        for _ in range(steps):
            if state.is_over:
                break
            yield state
            seat = rng.choice(state.actors())
            state.apply(seat, rng.choice(state.legal_actions(seat)))


@pytest.mark.parametrize(("name", "players", "options"), TABLES)
def test_every_legal_action_round_trips(name: str, players: int, options: dict) -> None:
    table = codec(name, players, **options)
    missing = []
    for state in random_states(name, players, options, games=3, steps=150):
        for seat in state.actors():
            for action in state.legal_actions(seat):
                index = table.encode(action, state, seat)
                if index is None:
                    missing.append(action)
                    continue
                assert 0 <= index < table.num_actions
                assert table.decode(index, state, seat) == action
            mask = table.mask(state, seat)
            assert mask.dtype == np.int8 and mask.any()
    # the only actions outside a space: Café deliveries split among several cafés
    assert all(name == "cafe" and action["type"] == "deliver" for action in missing)


def _hidden_differs(name: str, a: State, b: State, seat: int) -> bool:
    """Do two states differ somewhere ``seat`` cannot see?"""
    if name == "fika":
        return a.hands[1 - seat] != b.hands[1 - seat] or [g.card for g in a.groups] != [
            g.card for g in b.groups
        ]
    if name == "doppio":
        return a.piles != b.piles
    if name == "cafe":
        return a.deck != b.deck
    return [x.hand for x in a.areas] != [x.hand for x in b.areas]


@pytest.mark.parametrize(("name", "players", "options"), TABLES)
def test_observations_hold_no_hidden_information(name: str, players: int, options: dict) -> None:
    """Two states differing only in hidden cards give each seat the same observation."""
    table = codec(name, players, **options)
    rng = random.Random(7)
    differed = 0
    for n, state in enumerate(random_states(name, players, options, games=2, steps=60)):
        if n % 5:
            continue
        for seat in range(players):
            other = state.determinize(seat, rng)
            assert other.view(seat) == state.view(seat)
            assert np.array_equal(table.observe(other.view(seat)), table.observe(state.view(seat)))
            differed += _hidden_differs(name, state, other, seat)
    assert differed, "no determinization changed a hidden card: the check proves nothing"


def test_observation_size_is_fixed() -> None:
    for name, players, options in TABLES:
        table = codec(name, players, **options)
        for state in random_states(name, players, options, games=1, steps=40):
            for seat in range(players):
                assert table.observe(state.view(seat)).shape == (table.observation_size,)


def test_the_core_never_imports_the_rl_libraries() -> None:
    """numpy, PettingZoo, Gymnasium and OpenSpiel are the optional rl extra."""
    import subprocess
    import sys

    code = (
        "import sys, coffeetable.games, coffeetable.bots, coffeetable.sim.arena, "
        "coffeetable.server.app, coffeetable.cli\n"
        "from coffeetable import games\n"
        "[games.get(name) for name in games.names()]\n"
        "bad = {'numpy', 'pettingzoo', 'gymnasium', 'pyspiel'} & set(sys.modules)\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
