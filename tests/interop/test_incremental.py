"""The environments' cached and incremental observations equal encodings from scratch.

The environments avoid work between steps (Espresso encodes a tick's state once and
turns it for each seat, checks a tick's actions against the masks its agents were
given, and keeps a tick's masks when it applied nothing; the turn-based games list a
step's legal actions once for the mask and the step).
Here seeded random episodes of every game are played through the environments, and
every observation and mask an agent receives is compared, value for value, with one
built from nothing: ``observe(state.view(seat))`` (the plain path, the site's) and the
mask of ``Codec.legal_from`` (the base class's, no game's fast path) over
``state.legal_actions(seat)``. A cache that outlived its state would differ: the last
test makes one go stale on purpose and checks that the comparison catches it.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from coffeetable.interop import encoding  # noqa: E402
from coffeetable.interop import pettingzoo as pz  # noqa: E402
from coffeetable.interop.encoding import Blocks, Codec  # noqa: E402
from coffeetable.interop.pettingzoo_espresso import Ticks  # noqa: E402

#: (game, players, options, episodes)
TABLES = [
    ("fika", 2, {}, 4),
    ("doppio", 2, {}, 2),
    ("doppio", 1, {"master": True}, 8),
    ("cafe", 2, {}, 2),
    ("cafe", 4, {}, 1),
    ("espresso", 4, {}, 2),
    ("espresso", 3, {"zero": True, "chaos": True}, 2),
    ("espresso", 4, {"chaos": True}, 2),
]


def scratch(env: Any, seat: int) -> tuple[Any, Any]:
    """The seat's observation and mask now, built from nothing."""
    table, state = env.table, env.game_state
    codec = table.codec
    observation = codec.observe(state.view(seat))
    mask = np.zeros(table.num_actions, dtype=table.mask_dtype)
    for index in Codec.legal_from(codec, state.legal_actions(seat), state, seat):
        if index < table.num_actions:
            mask[index] = 1
    if table.game.realtime:
        mask[codec.num_actions - 1] = 1  # the no-op, always open
    return observation, mask


def play(name: str, players: int, options: dict, episodes: int, steps: int = 600) -> int:
    """Seeded random episodes through the AEC environment; every observation compared."""
    env = pz.env(name, players=players, **options)
    rng = random.Random(7)
    compared = 0
    for episode in range(episodes):
        env.reset(seed=episode)
        for _ in range(steps):
            agent = env.agent_selection
            observation, _, terminated, truncated, _ = env.last()
            seat = env.possible_agents.index(agent)
            expected, mask = scratch(env, seat)
            assert np.array_equal(observation["observation"], expected), (name, episode, agent)
            assert np.array_equal(observation["action_mask"], mask), (name, episode, agent)
            assert observation["action_mask"].dtype == mask.dtype
            compared += 1
            if terminated or truncated:
                break
            env.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
    return compared


@pytest.mark.parametrize(("name", "players", "options", "episodes"), TABLES)
def test_every_observation_is_the_scratch_one(
    name: str, players: int, options: dict, episodes: int
) -> None:
    assert play(name, players, options, episodes) > 80


def test_parallel_espresso_observations_are_the_scratch_ones() -> None:
    env = pz.parallel_env("espresso", players=4)
    rng = random.Random(3)
    observations, _ = env.reset(seed=3)
    compared = 0
    for _ in range(300):
        for agent, given in observations.items():
            expected, mask = scratch(env, env.possible_agents.index(agent))
            assert np.array_equal(given["observation"], expected)
            assert np.array_equal(given["action_mask"], mask)
            compared += 1
        actions = {
            agent: rng.choice(np.flatnonzero(given["action_mask"]).tolist())
            for agent, given in observations.items()
        }
        observations, _, terminations, truncations, _ = env.step(actions)
        if any(terminations.values()) or any(truncations.values()):
            break
    assert compared > 400


def test_a_stale_cache_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Espresso's tick cache never forgetting its state: the comparison must fail."""
    monkeypatch.setattr(Ticks, "changed", lambda self: None)
    with pytest.raises(AssertionError):
        play("espresso", 4, {}, 1)


def test_stale_masks_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Espresso's masks kept over a tick that moved the state (as if nothing had been
    applied, when a tick's masks are kept): the comparison must fail."""
    resolve = Ticks.resolve

    def never_moved(self: Ticks, *args: Any, **kwargs: Any) -> Any:
        infos = resolve(self, *args, **kwargs)
        self.moved = False
        return infos

    monkeypatch.setattr(Ticks, "resolve", never_moved)
    with pytest.raises(AssertionError):
        play("espresso", 4, {}, 1)


def test_masks_are_kept_only_over_ticks_that_changed_nothing() -> None:
    """A tick of no-ops keeps its masks (the same array: nothing was listed again); a
    tick that applied an action lists them anew."""
    env = pz.env("espresso", players=2)
    env.reset(seed=5)
    noop = env.table.codec.num_actions - 1
    before = env._masks
    for _ in env.possible_agents:
        env.step(noop)
    assert env._masks is before and not env.ticks.moved
    for _ in env.possible_agents:
        env.step(0)  # ready: legal for both at a round's start
    assert env.ticks.moved and env._masks is not before


def test_a_stale_observation_block_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fika's blocks kept by key (``Blocks``) answering wrong bytes: the comparison fails."""
    codec = pz.env("fika").table.codec
    monkeypatch.setattr(codec, "_seats", Blocks(lambda key: bytes(4 * 21)))
    with pytest.raises(AssertionError):
        play("fika", 2, {}, 1)


def test_stale_kept_moves_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Doppio's moves kept per occupancy with an empty mask: the comparison fails."""
    codec = pz.env("doppio").table.codec
    emptied = {
        key: (moves, listed, legal, bytes(len(mask)))
        for key, (moves, listed, legal, mask) in codec._moves.items()
    }
    monkeypatch.setattr(codec, "_moves", emptied)
    with pytest.raises(AssertionError):
        play("doppio", 2, {}, 1)


def test_blocks_encode_a_key_once_and_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    met: list[int] = []

    def encode(key: int) -> bytes:
        met.append(key)
        return bytes([key])

    blocks = Blocks(encode)
    assert [blocks[1], blocks[2], blocks[1]] == [b"\x01", b"\x02", b"\x01"]
    assert met == [1, 2]
    monkeypatch.setattr(encoding, "BLOCKS_KEPT", 2)
    assert blocks[3] == b"\x03"
    assert dict(blocks) == {3: b"\x03"}  # full: it started again


@pytest.mark.parametrize("name", ["fika", "doppio", "cafe", "espresso"])
def test_each_mask_is_fresh_and_writable(name: str) -> None:
    """Masks are written as bytes and viewed by numpy: each call's is its own array."""
    env = pz.env(name)
    env.reset(seed=5)
    agent = env.agent_selection
    first = env.observe(agent)["action_mask"]
    assert first.flags.writeable and first.any()
    first[:] = 0
    again = env.observe(agent)["action_mask"]
    assert again.any() and not np.shares_memory(first, again)
    assert np.array_equal(again, scratch(env, env.possible_agents.index(agent))[1])
