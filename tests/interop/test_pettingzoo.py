"""PettingZoo's own conformance tests on every game, warnings as errors."""

from __future__ import annotations

import functools
import importlib
import random
import types

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from pettingzoo.test import (  # noqa: E402
    api_test,
    max_cycles_test,
    parallel_api_test,
    parallel_seed_test,
    seed_test,
)

from coffeetable.interop import pettingzoo as pz  # noqa: E402
from coffeetable.interop.encoding import with_codec  # noqa: E402
from coffeetable.interop.pettingzoo_table import env_name  # noqa: E402

pytestmark = pytest.mark.filterwarnings("error")

#: (game, players, options) for the AEC tests; small tables, short matches.
AEC = [
    ("doppio", 2, {}),
    ("doppio", 1, {}),
    ("fika", 2, {}),
    ("cafe", 2, {}),
    ("cafe", 1, {}),
    ("espresso", 2, {"target": 10}),
    ("espresso", 4, {"zero": True, "chaos": True, "target": 10}),
]


@pytest.fixture(autouse=True)
def _dict_observations(monkeypatch: pytest.MonkeyPatch) -> None:
    """Our observations are {"observation", "action_mask"} dicts, the format of
    PettingZoo's own classic games: api_test warns about a dict observation
    unless the environment is on its list of such games, so ours are put there."""
    api = importlib.import_module("pettingzoo.test.api_test")
    names = [env_name(name) for name in with_codec()]
    monkeypatch.setattr(api, "env_obs_dicts", [*api.env_obs_dicts, *names])
    monkeypatch.setattr(api, "env_obs_space", [*api.env_obs_space, *names])


@pytest.mark.parametrize(("name", "players", "options"), AEC)
def test_api(name: str, players: int, options: dict) -> None:
    api_test(pz.env(name, players=players, max_cycles=25, **options), num_cycles=25)


@pytest.mark.parametrize(("name", "players", "options"), AEC)
def test_seed(name: str, players: int, options: dict) -> None:
    seed_test(lambda: pz.env(name, players=players, max_cycles=20, **options), num_cycles=20)


@pytest.mark.parametrize("options", [{}, {"zero": True, "chaos": True}])
def test_parallel_api_and_seed(options: dict) -> None:
    parallel_api_test(pz.parallel_env("espresso", players=3, target=10, **options), num_cycles=60)
    parallel_seed_test(lambda: pz.parallel_env("espresso", players=3, max_cycles=30, **options))


def test_max_cycles() -> None:
    module = types.SimpleNamespace(
        env=functools.partial(pz.env, "espresso", players=3),
        parallel_env=functools.partial(pz.parallel_env, "espresso", players=3),
    )
    max_cycles_test(module)


@pytest.mark.parametrize(("name", "players"), [("fika", 2), ("doppio", 1), ("cafe", 1)])
def test_a_random_agent_plays_a_match_to_its_result(name: str, players: int) -> None:
    env = pz.env(name, players=players)
    env.reset(seed=3)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        totals[agent] += reward
        action = (
            None
            if termination or truncation
            else env.action_space(agent).sample(observation["action_mask"])
        )
        env.step(action)
    if players == 2:
        assert sorted(totals.values()) == [-1.0, 1.0]
    else:
        assert list(totals.values())[0] >= 0


def test_espresso_ticks_resolve_races_in_a_seeded_order() -> None:
    env = pz.parallel_env("espresso", players=4, target=5)
    observations, _ = env.reset(seed=11)
    rng = np.random.default_rng(0)
    refused = 0
    while env.agents:
        actions = {}
        for agent in env.agents:
            mask = observations[agent]["action_mask"].copy()
            mask[-1] = 0 if mask[:-1].any() else 1  # act whenever possible
            actions[agent] = int(rng.choice(np.flatnonzero(mask)))
        observations, rewards, terminations, truncations, infos = env.step(actions)
        refused += sum(bool(info.get("refused")) for info in infos.values())
    assert any(terminations.values()) and sorted(rewards.values())[-1] == 1.0
    assert refused > 0  # four seats acting every tick: some lose a race


def test_render_prints_the_view(capsys: pytest.CaptureFixture[str]) -> None:
    env = pz.env("fika", render_mode="human")
    env.reset(seed=1)
    env.render()
    assert '"game": "fika"' in capsys.readouterr().out
    text = pz.env("doppio", render_mode="ansi")
    text.reset(seed=1)
    assert '"game": "doppio"' in text.render()


def test_illegal_actions_are_refused() -> None:
    env = pz.env("fika")
    env.reset(seed=1)
    observation, *_ = env.last()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)


def test_observations_come_from_the_view_only() -> None:
    """Re-deal what a seat cannot see under the environment: its observation stays."""
    import random

    env = pz.env("fika")
    env.reset(seed=5)
    for _ in range(12):
        agent = env.agent_selection
        env.step(env.action_space(agent).sample(env.observe(agent)["action_mask"]))
    for seat, agent in enumerate(env.possible_agents):
        before = env.observe(agent)
        real = env.game_state
        env.game_state = real.determinize(seat, random.Random(seat))
        after = env.observe(agent)
        env.game_state = real
        assert np.array_equal(before["observation"], after["observation"])


def test_undo_is_not_in_doppios_action_space() -> None:
    """A policy could play a move and undo it forever: undo has no index."""
    env = pz.env("doppio")
    table = env.table
    assert env.action_space("player_0").n == table.codec.num_actions - 1
    assert table.codec.actions[table.num_actions] == {"type": "undo"}
    env.reset(seed=2)
    undone = 0
    for agent in env.agent_iter(max_iter=400):
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        undone += {"type": "undo"} in env.game_state.legal_actions(seat)
        assert len(observation["action_mask"]) == table.num_actions
        env.step(env.action_space(agent).sample(observation["action_mask"]))
    assert undone, "the engine offered undo: the space left it out"


@pytest.mark.parametrize("name", with_codec())
def test_every_environment_has_a_default_length_cap(name: str) -> None:
    env = pz.env(name)
    assert env.table.max_cycles == pz.DEFAULT_MAX_CYCLES[name]
    with pytest.raises(ValueError, match="max_cycles"):
        pz.env(name, max_cycles=0)


def test_a_policy_that_never_ends_a_match_is_truncated() -> None:
    """Doppio by a policy that only moves pieces (never scores): truncated, not terminated
    (the repetition ruling, which would end such a match, is off here)."""
    env = pz.env("doppio", max_cycles=30, repetition_ends=False)
    env.reset(seed=4)
    steps = 0
    for _agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            assert truncation and not termination
            env.step(None)
            continue
        mask = observation["action_mask"]
        legal = np.flatnonzero(mask)
        moves = [i for i in legal if env.table.codec.actions[i]["type"] != "score"]
        env.step(int(moves[0] if moves else legal[0]))
        steps += 1
    assert steps == 30 * 2


def test_observations_are_in_zero_one() -> None:
    for name in with_codec():
        env = pz.env(name)
        space = env.observation_space("player_0")["observation"]
        assert float(space.low.min()) == 0.0 and float(space.high.max()) == 1.0
        env.reset(seed=0)
        for agent in env.agent_iter(max_iter=200):
            observation, _, termination, truncation, _ = env.last()
            assert space.contains(observation["observation"])
            action = None
            if not (termination or truncation):
                action = env.action_space(agent).sample(observation["action_mask"])
            env.step(action)


def test_illegal_penalty_ends_the_match_for_the_offender() -> None:
    env = pz.env("fika", illegal="penalty")
    env.reset(seed=1)
    offender = env.agent_selection
    observation, *_ = env.last()
    before = env.game_state.view(None)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    env.step(illegal)
    assert env.game_state.view(None) == before  # nothing applied
    assert all(env.terminations.values())
    rewards = {agent: env._cumulative_rewards[agent] for agent in env.agents}
    assert rewards[offender] == pz.ILLEGAL_REWARD
    assert all(value == 0.0 for agent, value in rewards.items() if agent != offender)
    assert env.infos[offender]["illegal"] is True
    for _agent in env.agent_iter():
        env.step(None)
    assert not env.agents
    with pytest.raises(ValueError, match="illegal is"):
        pz.env("fika", illegal="ignore")


@pytest.mark.parametrize(("name", "players", "options"), AEC)
def test_api_with_the_penalty(name: str, players: int, options: dict) -> None:
    api_test(
        pz.env(name, players=players, max_cycles=25, illegal="penalty", **options), num_cycles=25
    )


@pytest.mark.parametrize(("name", "players"), [("fika", 2), ("doppio", 2), ("doppio", 1)])
def test_sb3_check_env_passes_with_the_penalty(name: str, players: int) -> None:
    """SB3's check_env samples actions without the mask: it needs illegal="penalty"."""
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_checker import check_env

    from coffeetable.interop.gym import OpponentEnv

    check_env(OpponentEnv(name, players=players, illegal="penalty"), warn=True)


@pytest.mark.parametrize(("name", "players"), [("fika", 2), ("doppio", 2), ("cafe", 1)])
def test_gymnasium_check_env_passes_with_the_penalty(name: str, players: int) -> None:
    """Gymnasium's own checker (it steps unmasked samples too), without SB3 and torch."""
    from gymnasium.utils.env_checker import check_env

    from coffeetable.interop.gym import OpponentEnv

    check_env(OpponentEnv(name, players=players, illegal="penalty"), skip_render_check=True)


def test_the_one_seat_environment_plays_against_a_bot() -> None:
    """OpponentEnv: the learner acts only on its own turns; a match ends with its result;
    an illegal index with the penalty ends it at -1."""
    from coffeetable.interop.gym import OpponentEnv

    env = OpponentEnv("fika", opponent="greedy", seat=1)
    observation, info = env.reset(seed=5)
    assert info["seat"] == 1 and env.table.agent_selection == "player_1"
    total, steps = 0.0, 0
    rng = np.random.default_rng(0)
    while True:
        mask = env.action_masks()
        assert mask.any() and env.observation_space.contains(observation)
        observation, reward, terminated, truncated, _ = env.step(
            int(rng.choice(np.flatnonzero(mask)))
        )
        total, steps = total + reward, steps + 1
        if terminated or truncated:
            break
    assert terminated and total in (-1.0, 1.0) and steps > 5
    penalised = OpponentEnv("doppio", illegal="penalty")
    penalised.reset(seed=1)
    illegal = int(np.flatnonzero(~penalised.action_masks())[0])
    _, reward, terminated, _, info = penalised.step(illegal)
    assert terminated and reward == -1.0 and info["illegal"] is True
    with pytest.raises(ValueError, match="real-time"):
        OpponentEnv("espresso")


@pytest.mark.parametrize("name", with_codec())
def test_a_bool_mask_is_the_int8_mask(name: str) -> None:
    """``mask_dtype="bool"``: the same legal indices, as bool, in a bool space; others refused."""
    fast, plain = pz.env(name, mask_dtype="bool"), pz.env(name)
    fast.reset(seed=3)
    plain.reset(seed=3)
    rng = random.Random(3)
    space = fast.observation_space(fast.possible_agents[0])["action_mask"]
    assert space.dtype == np.bool_
    for _ in range(60):
        agent = fast.agent_selection
        assert agent == plain.agent_selection
        mask, reference = fast.observe(agent)["action_mask"], plain.observe(agent)["action_mask"]
        assert mask.dtype == np.bool_ and reference.dtype == np.int8
        assert np.array_equal(mask, reference.astype(bool)) and space.contains(mask)
        if fast.terminations[agent] or fast.truncations[agent]:
            break
        index = int(rng.choice(np.flatnonzero(mask)))
        fast.step(index)
        plain.step(index)
    with pytest.raises(ValueError, match="mask_dtype"):
        pz.env(name, mask_dtype="float32")
