"""Gymnasium's vector environments: a valid mask in every observation, autoresets
included, sync and async; and the quick bot, a fast opponent between random and greedy."""

from __future__ import annotations

import time

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from coffeetable import bots  # noqa: E402
from coffeetable.games import get  # noqa: E402
from coffeetable.interop.vector import sample_masked, vector_env  # noqa: E402
from coffeetable.sim.match import play_match  # noqa: E402


@pytest.mark.parametrize(
    ("name", "asynchronous", "opponent"),
    [("fika", False, "random"), ("fika", True, "random"), ("doppio", False, "quick")],
)
def test_every_observation_has_a_valid_mask_over_autoresets(
    name: str, asynchronous: bool, opponent: str
) -> None:
    envs = vector_env(name, 3, opponent=opponent, asynchronous=asynchronous, max_cycles=40)
    try:
        observations, _ = envs.reset(seed=1)
        rng = np.random.default_rng(0)
        ended = 0
        for _ in range(150):
            masks = observations["action_mask"]
            assert masks.dtype == np.int8 and masks.shape == (3, envs.single_action_space.n)
            assert (masks.sum(axis=1) > 0).all()  # something legal in every copy, every step
            # (an illegal index would raise: the environments use illegal="raise")
            observations, rewards, terminated, truncated, infos = envs.step(
                sample_masked(masks, rng)
            )
            done = terminated | truncated
            ended += int(done.sum())
            for row in np.flatnonzero(done):  # the old match's last observation is kept
                assert infos["final_obs"][row]["action_mask"].sum() == 0
        assert ended >= 3  # autoresets did happen (matches of 40 steps a seat at most)
        assert (observations["action_mask"].sum(axis=1) > 0).all()
    finally:
        envs.close()


def test_quick_is_between_random_and_greedy_and_far_faster_than_greedy() -> None:
    """In Café, over a few seeded matches (the figures in docs/research.md are larger runs)."""
    beat_random = sum(
        0 in play_match("cafe", ["quick", "random"], seed=seed)[0]["winners"] for seed in range(8)
    )
    beat_greedy = sum(
        0 in play_match("cafe", ["quick", "greedy"], seed=seed)[0]["winners"] for seed in range(3)
    )
    assert beat_random >= 6 and beat_greedy <= 1
    game = get("cafe")
    rates = {}
    for name in ("quick", "greedy"):
        bot, rng = bots.make(name, "cafe"), __import__("random").Random(0)
        state, count, spent = game.new_state(players=2, seed=4), 0, 0.0
        while not state.is_over and count < 60:
            seat = state.actors()[0]
            start = time.perf_counter()
            action = bot.choose(state, seat, rng)
            spent += time.perf_counter() - start
            assert action in state.legal_actions(seat)
            state.apply(seat, action)
            count += 1
        rates[name] = count / spent
    assert rates["quick"] >= 20 * rates["greedy"], rates


def test_quick_is_refused_where_there_is_no_rollout_policy() -> None:
    with pytest.raises(ValueError, match="rollout_action"):
        bots.make("quick", "espresso")
    assert "quick" not in bots.available("cafe")  # not offered at the site
