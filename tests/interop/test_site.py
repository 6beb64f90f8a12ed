"""The site adapter (``coffeetable.interop.site``): from what the site sends a seat (its view
JSON and legal actions) it builds the environment's own observation and mask, and a policy
trained on the PettingZoo environment plays on the site with the actions the environment
would take."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from coffeetable.engine import State  # noqa: E402
from coffeetable.engine.replay import replay_log  # noqa: E402
from coffeetable.interop import pettingzoo as pz  # noqa: E402
from coffeetable.interop.encoding import get_game  # noqa: E402
from coffeetable.interop.gym import OpponentEnv  # noqa: E402
from coffeetable.interop.linear import LinearPolicy, train  # noqa: E402
from coffeetable.interop.site import site_policy  # noqa: E402
from tests.server.conftest import browsers, server, start_server  # noqa: E402, F401, F811

#: (game, players, options): every game, and the options that change a space.
TABLES = [
    ("doppio", 2, {}),
    ("doppio", 1, {"master": True}),
    ("fika", 2, {}),
    ("cafe", 2, {}),
    ("cafe", 1, {}),
    ("espresso", 3, {"zero": True, "chaos": True}),
]


def wire(value: Any) -> Any:
    """``value`` as the site sends it: through JSON."""
    return json.loads(json.dumps(value))


def positions(name: str, players: int, options: dict, games: int, steps: int):
    """(state, seat) for every seat that may act, along seeded random matches."""
    game = get_game(name)
    for seed in range(games):
        state = game.new_state(players=players, seed=seed, **options)
        rng = random.Random(seed)
        for _ in range(steps):
            if state.is_over:
                break
            for seat in state.actors():
                yield state, seat
            seat = rng.choice(state.actors())
            state.apply(seat, rng.choice(state.legal_actions(seat)))


@pytest.mark.parametrize(("name", "players", "options"), TABLES)
def test_the_site_encoding_is_the_environments(name: str, players: int, options: dict) -> None:
    """Over many random positions: the observation from the view JSON, the mask from the legal
    list and the action of every index are the environment's."""
    table = pz.env(name, players=players, **options).table
    adapter = site_policy(name, lambda observation, mask: 0, **options)
    checked = 0
    for state, seat in positions(name, players, options, games=10, steps=100):
        env_observation = table.codec.observe_state(state, seat)  # what the env observes
        legal = table.legal(state, seat)
        env_mask = table.mask(legal)
        observation, mask, actions = adapter.encode(
            wire(state.view(seat)), wire(state.legal_actions(seat))
        )
        assert observation.dtype == np.float32 and observation.shape == env_observation.shape
        assert np.array_equal(observation, env_observation)
        assert observation.min() >= 0.0 and observation.max() <= 1.0
        if name == "espresso":  # the env always offers its no-op; the site only when idle
            env_mask[-1] = 0 if env_mask[:-1].any() else 1
        assert np.array_equal(mask, env_mask)
        assert actions == {index: wire(action) for index, action in legal.items()}
        checked += 1
    assert checked > 80


def test_the_adapter_plays_the_legal_action_of_the_index() -> None:
    state = get_game("fika").new_state(players=2, seed=4)
    seat = state.actors()[0]
    legal = state.legal_actions(seat)
    chosen: list[int] = []

    def last_legal(observation: Any, mask: Any) -> int:
        chosen.append(int(np.flatnonzero(mask)[-1]))
        return chosen[-1]

    action = site_policy("fika", last_legal)(wire(state.view(seat)), wire(legal))
    table = pz.env("fika").table
    assert action == table.legal(state, seat)[chosen[0]]
    assert action in legal


def test_bad_input_is_refused_with_a_clear_error() -> None:
    state = get_game("fika").new_state(players=2, seed=1)
    seat = state.actors()[0]
    view, legal = wire(state.view(seat)), wire(state.legal_actions(seat))
    with pytest.raises(ValueError, match="forbids"):
        site_policy("fika", lambda observation, mask: int(np.flatnonzero(mask == 0)[0]))(
            view, legal
        )
    any_policy = site_policy("fika", lambda observation, mask: 0)
    with pytest.raises(ValueError, match="not of 'fika'"):
        any_policy({**view, "game": "doppio"}, legal)
    with pytest.raises(ValueError, match="spectator"):
        any_policy({**view, "seat": None}, legal)
    with pytest.raises(ValueError, match="no legal action"):
        any_policy(view, [])
    with pytest.raises(KeyError):
        site_policy("chess", lambda observation, mask: 0)


def test_a_linear_policy_learns_on_the_environment() -> None:
    """The light learner trains for real: its weights move, and it stays deterministic."""
    env = OpponentEnv("fika", opponent="random")
    policy, figures = train(env, 1500, seed=3)
    assert figures["matches"] >= 10
    assert np.abs(policy.weights).sum() > 0
    observation, _ = env.reset(seed=8)
    mask = env.action_masks().astype(np.int8)
    assert policy(observation, mask) == policy(observation, mask)
    assert mask[policy(observation, mask)] == 1


def env_decisions(
    log: dict[str, Any], seat: int, policy: LinearPolicy
) -> dict[bytes, tuple[Any, Any]]:
    """Replay the site's match: at every position where ``seat`` could act, its observation in
    the environment -> (the environment's mask, the action its policy takes there)."""
    table = pz.env(log["game"], players=log["players"], **log.get("options", {})).table
    decisions = {}
    state: State = replay_log({**log, "actions": []})
    for actor, action in [*log["actions"], (None, None)]:
        if seat in state.actors():
            legal = table.legal(state, seat)
            observation = table.codec.observe_state(state, seat)
            mask = table.mask(legal)
            decisions[observation.tobytes()] = (mask, wire(legal[policy(observation, mask)]))
        if action is not None:
            state.apply(actor, action)
    return decisions


def test_a_trained_policy_plays_on_the_site_as_in_the_environment(
    server: Any,  # noqa: F811
    browsers: Any,  # noqa: F811
) -> None:
    """A policy trained a few thousand steps on the PettingZoo environment plays matches on
    the site through the client and the adapter. Replaying each match: every position the
    site asked the bot about is one of the match's positions, where the environment gives the
    same observation and mask and its policy takes the same action; and every action the
    bot played at the site is one it chose there."""
    from coffeetable import client
    from tests.server.test_bot_accounts_play import make_bot

    policy, _ = train(OpponentEnv("fika", opponent="random"), 3000, seed=0)
    alice = browsers(server.url)
    alice.sign_up("alice")
    key = make_bot(alice)
    adapter = site_policy("fika", policy)
    adapter.record = []
    ends: list[int] = []  # where each match's decisions end in adapter.record
    results = client.play(
        server.url,
        key,
        adapter,
        game="fika",
        games=2,
        opponents=["greedy"],
        on_match=lambda result: ends.append(len(adapter.record or [])),
    )
    assert adapter.record is not None
    for result, start, end in zip(results, [0, *ends[:-1]], ends, strict=True):
        assert result.status == "over" and result.actions > 0
        response = server.http.get(f"/api/tables/{result.table_id}/log")
        assert response.status_code == 200, response.text
        log = response.json()
        decisions = env_decisions(log, result.seat, policy)
        chosen = []
        for observation, mask, _, action in adapter.record[start:end]:
            env_mask, env_action = decisions[observation.tobytes()]
            assert np.array_equal(mask, env_mask)
            assert action == env_action
            chosen.append(action)
        played = [action for actor, action in log["actions"] if actor == result.seat]
        assert len(played) == result.actions <= len(chosen)
        assert all(action in chosen for action in played)
    assert {result.seat for result in results} == {0, 1}
