"""A light learner in numpy: a linear softmax policy trained by REINFORCE.

It trains in seconds on one core, so tests and CI can train a real policy on
our environments and play it (``coffeetable.interop.site``) without torch;
for strong play use a real library (examples/train_maskable_ppo.py).

- ``LinearPolicy(observation_size, actions, seed)``: logits ``W @ obs + b``,
  the mask applied (illegal logits are minus infinity). Called as
  ``policy(observation, mask) -> index`` it plays the most likely legal
  action (the lowest index among equals): deterministic.
- ``train(env, steps, ...)``: REINFORCE with a running-mean baseline on a
  Gymnasium environment with ``action_masks()`` (``OpponentEnv``): actions
  sampled from the masked softmax by a seeded generator, each match's final
  return credited to all its steps.
"""

from __future__ import annotations

from typing import Any

import numpy as np


class LinearPolicy:
    """A masked linear softmax policy over our observation vectors."""

    def __init__(self, observation_size: int, actions: int, seed: int = 0) -> None:
        self.weights = np.zeros((actions, observation_size), dtype=np.float64)
        self.bias = np.zeros(actions, dtype=np.float64)
        self.rng = np.random.default_rng(seed)

    def logits(self, observation: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """The logits of the ``legal`` indices (from the observation's non-zero values)."""
        present = np.flatnonzero(observation)
        rows = self.weights[legal]
        out: np.ndarray = rows[:, present] @ observation[present] + self.bias[legal]
        return out

    def probabilities(self, observation: np.ndarray, legal: np.ndarray) -> np.ndarray:
        logits = self.logits(observation, legal)
        logits -= logits.max()
        weights = np.exp(logits)
        out: np.ndarray = weights / weights.sum()
        return out

    def __call__(self, observation: np.ndarray, mask: np.ndarray) -> int:
        """The most likely legal index (deterministic)."""
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError("the mask allows no action")
        return int(legal[int(np.argmax(self.logits(observation, legal)))])

    def sample(self, observation: np.ndarray, mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        return int(self.rng.choice(legal, p=self.probabilities(observation, legal)))

    def update(
        self, observation: np.ndarray, mask: np.ndarray, index: int, advantage: float, rate: float
    ) -> None:
        """One REINFORCE step: raise the log-probability of ``index`` by ``advantage``."""
        legal = np.flatnonzero(mask)
        present = np.flatnonzero(observation)
        gradient = -self.probabilities(observation, legal)
        gradient[int(np.searchsorted(legal, index))] += 1.0
        step = rate * advantage * gradient
        self.weights[np.ix_(legal, present)] += np.outer(step, observation[present])
        self.bias[legal] += step


def train(
    env: Any, steps: int, seed: int = 0, rate: float = 0.05, policy: LinearPolicy | None = None
) -> tuple[LinearPolicy, dict[str, float]]:
    """Train a ``LinearPolicy`` for ``steps`` learner steps on ``env``; it and some figures.

    ``env`` is a Gymnasium environment with ``action_masks()``; the figures
    are the matches played and the mean return of the first and last halves.
    """
    if steps < 1:
        raise ValueError("steps is at least 1")
    if policy is None:
        policy = LinearPolicy(env.observation_space.shape[0], int(env.action_space.n), seed)
    baseline = 0.0
    returns: list[float] = []
    observation, _ = env.reset(seed=seed)
    episode: list[tuple[np.ndarray, np.ndarray, int]] = []
    total = 0.0
    for _ in range(steps):
        mask = env.action_masks().astype(np.int8)
        index = policy.sample(observation, mask)
        episode.append((observation, mask, index))
        observation, reward, terminated, truncated, _ = env.step(index)
        total += float(reward)
        if terminated or truncated:
            advantage = total - baseline
            for seen, legal, chosen in episode:
                policy.update(seen, legal, chosen, advantage, rate / max(1, len(episode)) ** 0.5)
            baseline += 0.1 * (total - baseline)
            returns.append(total)
            episode, total = [], 0.0
            observation, _ = env.reset()
    half = max(1, len(returns) // 2)
    figures = {
        "matches": float(len(returns)),
        "first_half_return": float(np.mean(returns[:half])) if returns else 0.0,
        "second_half_return": float(np.mean(returns[half:])) if returns[half:] else 0.0,
    }
    return policy, figures
