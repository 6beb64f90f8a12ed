"""One seat of a turn-based game against bots, as a Gymnasium environment.

``OpponentEnv("fika", opponent="greedy")`` is the PettingZoo environment
(``coffeetable.interop.pettingzoo.env``) seen from one seat: every other
seat is played by an opponent, so single-agent learners (Stable-Baselines3,
sb3-contrib's MaskablePPO) train on it as they are.

- Observation: the seat's observation vector, ``Box(0, 1, (size,), float32)``;
  action space: the PettingZoo environment's ``Discrete(n)`` (Doppio without
  undo). ``action_masks()`` is the seat's legal-action mask (bool), the method
  MaskablePPO looks for; ``info["action_mask"]`` carries it too.
- Opponents: a bot name (``"random"``, ``"greedy"``, anything
  ``coffeetable.bots.make`` plays the game with), or a policy
  ``policy(observation, mask) -> index`` such as a frozen copy of the learner.
  Bots choose from the engine state as they do at the site: only what their
  seat may see.
- ``seat``: the learner's seat, or None (the default) for a seat drawn anew
  each match, so it learns to play first and second.
- Reward: the match result for the learner's seat, at the end (see the
  PettingZoo module); ``illegal`` and ``max_cycles`` as there (an illegal
  index with ``illegal="penalty"`` ends the match with -1).
- ``mask_in_observation=True``: the observation is the dict
  ``{"observation": ..., "action_mask": int8}`` (PettingZoo's format), so a
  vector environment carries each copy's mask with its observation
  (``coffeetable.interop.vector``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np

from coffeetable import bots
from coffeetable.interop.pettingzoo import CoffeeTableEnv, env

#: A policy on our encoding: observation and mask in, action index out.
Policy = Callable[[np.ndarray, np.ndarray], int]


class OpponentEnv(gymnasium.Env[Any, int]):
    """A turn-based game from one seat; the other seats are played by ``opponent``."""

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(
        self,
        name: str,
        opponent: str | Policy = "random",
        players: int | None = None,
        seat: int | None = None,
        max_cycles: int | None = None,
        illegal: str = "raise",
        mask_in_observation: bool = False,
        **options: Any,
    ) -> None:
        table = env(name, players=players, max_cycles=max_cycles, illegal=illegal, **options)
        if not isinstance(table, CoffeeTableEnv):
            raise ValueError(f"{name} is real-time: OpponentEnv plays the turn-based games")
        self.table = table
        self.name = name
        self.players = len(table.possible_agents)
        if seat is not None and not 0 <= seat < self.players:
            raise ValueError(f"seat {seat} is not one of 0..{self.players - 1}")
        self.fixed_seat = seat
        self.opponent_name = opponent if isinstance(opponent, str) else "policy"
        self._bot = bots.make(opponent, name) if isinstance(opponent, str) else None
        self._policy = None if isinstance(opponent, str) else opponent
        agent = table.possible_agents[0]
        space = table.table.observation_spaces[agent]
        self.mask_in_observation = mask_in_observation
        self.observation_space = space if mask_in_observation else space["observation"]
        self.action_space: gymnasium.spaces.Discrete = table.table.action_spaces[agent]  # type: ignore[assignment]
        self._rng = random.Random()
        self.seat = 0 if seat is None else seat
        self._mask = np.zeros(self.action_space.n, dtype=np.int8)

    @property
    def agent(self) -> str:
        return str(self.table.possible_agents[self.seat])

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now (bool), for MaskablePPO."""
        return self._mask.astype(bool)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        self.table.reset(seed=self._rng.randrange(2**31))
        self.seat = (
            self._rng.randrange(self.players) if self.fixed_seat is None else self.fixed_seat
        )
        reward, over = self._opponents()
        if over:  # a match the opponents ended alone: deal again
            return self.reset(options=options)
        return self._observe(), {"action_mask": self._mask.copy(), "seat": self.seat}

    def step(self, action: int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        me = self.agent
        self.table.step(int(action))
        reward = float(self.table.rewards.get(me, 0.0))
        info: dict[str, Any] = dict(self.table.infos.get(me, {}))
        if not self._done():
            more, _ = self._opponents()
            reward += more
        terminated = bool(self.table.terminations.get(me, False))
        truncated = bool(self.table.truncations.get(me, False)) and not terminated
        observation = self._observe()
        info["action_mask"] = self._mask.copy()
        return observation, reward, terminated, truncated, info

    def _done(self) -> bool:
        me = self.agent
        return bool(self.table.terminations.get(me) or self.table.truncations.get(me))

    def _opponents(self) -> tuple[float, bool]:
        """Play the other seats until the learner is to act or the match is over."""
        reward = 0.0
        table = self.table
        while not self._done() and table.agent_selection != self.agent:
            agent = table.agent_selection
            seat = table.possible_agents.index(agent)
            legal = table.legal(seat)
            if self._policy is not None:
                observation = table.observe(agent)
                index = int(self._policy(observation["observation"], observation["action_mask"]))
            else:
                assert self._bot is not None and table.game_state is not None
                action = self._bot.choose(table.game_state, seat, self._rng)
                found = table.table.codec.encode(action, table.game_state, seat)
                # a bot's action outside the space (a Café split delivery): the first legal index
                index = found if found is not None and found in legal else next(iter(legal))
            table.step(index)
            reward += float(table.rewards.get(self.agent, 0.0))
        return reward, self._done()

    def _observe(self) -> Any:
        """The learner's observation (at the end too: the final table, an empty mask)."""
        observation = self.table.observe(self.agent)
        self._mask = observation["action_mask"]
        return observation if self.mask_in_observation else observation["observation"]
