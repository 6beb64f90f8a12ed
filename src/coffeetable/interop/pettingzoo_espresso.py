"""Real-time Espresso as PettingZoo environments, stepped in ticks (AEC and Parallel).

Each tick every agent gives an action or the no-op (the last index), and the
actions resolve one by one in a random order drawn from the seed (``Ticks``);
see ``pettingzoo``'s module docstring. Made by ``pettingzoo.env("espresso")``
and ``pettingzoo.parallel_env("espresso")``.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import ParallelEnv  # type: ignore[import-untyped]

from coffeetable.engine import IllegalAction, State
from coffeetable.interop.encoding import get_game, result
from coffeetable.interop.pettingzoo_table import (
    AECTable,
    Obs,
    Table,
    check_index,
    env_name,
    length_cap,
)


class Ticks:
    """Espresso's ticks: every seat's action (or the no-op) resolved in a random order."""

    def __init__(self, table: Table) -> None:
        self.table = table
        # seat 0's observation of the state as it is now (None: not yet encoded); every
        # seat's is that one turned (``rotated``), so a tick encodes the table once
        self._base: np.ndarray | None = None
        #: whether the last ``resolve`` applied an action (the state moved)
        self.moved = True

    def changed(self) -> None:
        """The state moved (a new deal, a resolved tick): forget its observation."""
        self._base = None

    def observe(self, state: State, seat: int) -> np.ndarray:
        """``codec.observe_state(state, seat)`` (a fresh array), the state encoded once
        until ``changed``, where the codec can turn an observation to another seat."""
        codec: Any = self.table.codec
        rotated = getattr(codec, "rotated", None)
        if rotated is None:
            return codec.observe_state(state, seat)  # type: ignore[no-any-return]
        if self._base is None:
            self._base = codec.observe_state(state, 0)
        return rotated(self._base, seat)  # type: ignore[no-any-return]

    def legal(self, state: State, seat: int) -> dict[int, Any]:
        return self.table.codec.legal(state, seat)

    def mask(self, state: State, seat: int) -> np.ndarray:
        out = self.table.mask(self.table.codec.legal(state, seat))
        out[self.noop] = 1
        return out

    def masks(self, state: State) -> np.ndarray:
        """Every seat's ``mask``, row by row, in one array made by one ``put``: the
        codec's ``legal_indices`` (shifted to the seat's row) where it has them."""
        table = self.table
        width, noop = table.num_actions, self.noop
        indices_of = getattr(table.codec, "legal_indices", None)
        flat: list[int] = []
        for seat in range(table.players):
            shift = seat * width
            if indices_of is None:
                flat += [index + shift for index in table.legal(state, seat)]
            else:
                flat += indices_of(state, seat, shift)
            flat.append(shift + noop)
        out: np.ndarray = np.zeros((table.players, width), dtype=table.mask_dtype)
        out.put(flat, 1)
        return out

    @property
    def noop(self) -> int:
        return self.table.codec.num_actions - 1

    def resolve(
        self,
        state: State,
        rng: random.Random,
        chosen: dict[int, int],
        masks: np.ndarray | None = None,
    ) -> dict[int, dict[str, Any]]:
        """Apply the tick's actions (seat -> index); infos per seat.

        An index that was not legal when the tick began is refused, as is one
        that stopped being legal before its turn came (another seat was faster).
        ``masks``: the seats' masks at the tick's start (``masks``, a row a seat), when
        the caller has them (the ones its observations gave), so the legal actions are
        not listed twice. ``moved`` says afterwards whether an action was applied (if
        none was, the state is as it was, and so are its masks and observations).
        """
        infos: dict[int, dict[str, Any]] = {seat: {} for seat in chosen}
        order = [seat for seat in sorted(chosen) if chosen[seat] != self.noop]
        rng.shuffle(order)
        self.moved = False
        if order and masks is None:
            masks = self.masks(state)
        for seat in order:
            if state.is_over:
                break
            assert masks is not None
            if not masks[seat][chosen[seat]]:
                infos[seat].update(refused=True, reason="not a legal action when the tick began")
                continue
            action = self.table.codec.decode(chosen[seat], state, seat)
            infos[seat]["action"] = action
            try:
                state.apply(seat, action)
                infos[seat]["refused"] = False
                if not self.moved:
                    self.moved = True
                    self.changed()
            except IllegalAction as error:
                infos[seat]["refused"] = True  # too slow: the table moved first
                infos[seat]["reason"] = error.reason
        return infos


class EspressoTickEnv(AECTable):
    """Real-time Espresso as an AEC environment: each tick the agents give their
    actions in seat order, and they resolve in a random order after the last."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "is_parallelizable": True}

    def __init__(self, name: str = "espresso", **settings: Any) -> None:
        """``settings`` as ``AECTable``'s (players, max_cycles, ..., game options)."""
        super().__init__(name, **settings)
        self.ticks = Ticks(self.table)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        state = self._deal(seed)
        self.ticks.changed()
        self._ticks = 0
        self._chosen: dict[int, int] = {}
        self._masks = self.ticks.masks(state)
        self.agent_selection = self.possible_agents[0]

    def observe(self, agent: str) -> Obs:
        assert self.game_state is not None
        seat = self.possible_agents.index(agent)
        return {
            "observation": self.ticks.observe(self.game_state, seat),
            "action_mask": self._masks[seat].copy(),
        }

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.game_state is not None
        seat = self.possible_agents.index(agent)
        self._chosen[seat] = check_index(action, self.table.codec.num_actions, agent)
        self._cumulative_rewards[agent] = 0.0
        if seat < len(self.possible_agents) - 1:
            self._clear_rewards()
            self.agent_selection = self.possible_agents[seat + 1]
            return
        infos = self.ticks.resolve(self.game_state, self._rng, self._chosen, self._masks)
        self._chosen = {}
        self._ticks += 1
        self._clear_rewards()
        self.infos = {self.possible_agents[s]: info for s, info in infos.items()}
        if self.ticks.moved:  # else the state, and so every mask, is as it was
            self._masks = self.ticks.masks(self.game_state)
        if self.game_state.is_over:
            for other, reward in zip(
                self.possible_agents, result(self.table.name, self.game_state), strict=True
            ):
                self.rewards[other] = reward
                self.terminations[other] = True
        elif self._ticks >= self.table.max_cycles:
            self.truncations = dict.fromkeys(self.agents, True)
        self.agent_selection = self.possible_agents[0]
        self._accumulate_rewards()

    def render(self) -> str | None:
        return self.table.render(self.game_state, self.possible_agents.index(self.agent_selection))


class EspressoParallelEnv(ParallelEnv):  # type: ignore[misc]
    """Real-time Espresso as a PettingZoo Parallel environment, stepped in ticks."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"]}  # "name": env_name(...)

    def __init__(
        self,
        name: str = "espresso",
        players: int | None = None,
        max_cycles: int | None = None,
        render_mode: str | None = None,
        illegal: str = "raise",
        mask_dtype: str = "int8",
        **options: Any,
    ) -> None:
        if not get_game(name).realtime:
            raise ValueError(
                f"{name} is turn-based: it has an AEC environment only, env({name!r}) "
                "(docs/research.md lists which games are turn-based and which real-time)"
            )
        self.table = Table(name, players, max_cycles, render_mode, options, illegal, mask_dtype)
        self.ticks = Ticks(self.table)
        self.metadata = {**type(self).metadata, "name": env_name(name)}
        self.possible_agents = list(self.table.names)
        self.render_mode = render_mode
        self.game_state: State | None = None
        self.agents: list[str] = []

    @property
    def max_cycles(self) -> int:
        return self.table.max_cycles

    @max_cycles.setter
    def max_cycles(self, value: int | None) -> None:
        self.table.max_cycles = length_cap(self.table.name, value)

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.table.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.table.action_spaces[agent]

    def _observe(self) -> dict[str, Obs]:
        assert self.game_state is not None
        out = {}
        self._masks = self.ticks.masks(self.game_state)
        for agent in self.agents:
            seat = self.possible_agents.index(agent)
            out[agent] = {
                "observation": self.ticks.observe(self.game_state, seat),
                "action_mask": self._masks[seat].copy(),
            }
        return out

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Obs], dict[str, dict[str, Any]]]:
        self.game_state, self._rng = self.table.deal(seed)
        self.ticks.changed()
        self.agents = list(self.possible_agents)
        self._ticks = 0
        return self._observe(), {agent: {} for agent in self.agents}

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[
        dict[str, Obs],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        assert self.game_state is not None
        chosen: dict[int, int] = {}
        for agent in self.agents:
            seat = self.possible_agents.index(agent)
            index = actions.get(agent, self.ticks.noop)
            chosen[seat] = check_index(index, self.table.codec.num_actions, agent)
        infos = self.ticks.resolve(self.game_state, self._rng, chosen, self._masks)
        self._ticks += 1
        observations = self._observe()
        over = self.game_state.is_over
        truncated = not over and self._ticks >= self.table.max_cycles
        results = result(self.table.name, self.game_state) if over else None
        rewards, terminations, truncations, info = {}, {}, {}, {}
        for agent in self.agents:
            seat = self.possible_agents.index(agent)
            rewards[agent] = results[seat] if results is not None else 0.0
            terminations[agent] = over
            truncations[agent] = truncated
            info[agent] = infos.get(seat, {})
        if over or truncated:
            self.agents = []
        return observations, rewards, terminations, truncations, info

    def render(self) -> str | None:
        return self.table.render(self.game_state, None)

    def close(self) -> None:
        self.game_state = None
