"""Every game as a PettingZoo environment.

``env(name, players=None, max_cycles=None, render_mode=None, illegal="raise",
mask_dtype="int8", **options)`` returns an AEC environment for "doppio", "fika",
"cafe" and "espresso"; ``parallel_env("espresso", ...)`` a Parallel one for
real-time Espresso. Game options (``master=True``, ``zero=True``, ``target=20``, ...) pass through.

- Agents are ``player_0`` .. ``player_{n-1}``, seat numbers in order.
- Each agent's action space is ``Discrete(n)``: the game's fixed integer
  encoding of its JSON actions (``coffeetable.interop.<game>``,
  docs/research.md), less Doppio's ``undo`` (its last index: a policy could
  play and undo a move forever, and undo is never needed to play well).
  Observations are dicts ``{"observation": float32 vector in [0, 1] of the
  seat's view, "action_mask": int8 vector}`` (``mask_dtype``, below).
- ``mask_dtype``: the mask's dtype, ``"int8"`` (the default) or ``"bool"``.
  int8 is what Gymnasium's ``Discrete.sample(mask)`` demands (it asserts the
  dtype), and PettingZoo's ``api_test`` samples that way, as its classic
  games' masks are; but numpy finds the legal indices of a bool mask
  (``np.flatnonzero``) several times faster (about 2 ns an index against
  under 1 ns: some 11 us a step on Café's 4,915 actions, 83 us on the
  41,891 it had before its frame). A loop that reads the mask itself
  (MaskablePPO wants bool anyway) gains by ``"bool"``.
- ``illegal``: what an index the mask forbids does. ``"raise"`` (the
  default: with the mask a policy never meets it, so one that does has a
  bug worth hearing about) raises ValueError and changes nothing;
  ``"penalty"`` ends the match as PettingZoo's classic games do: the
  offender is rewarded ``ILLEGAL_REWARD`` (-1), every other seat 0, every
  agent terminated, ``infos[offender]["illegal"]`` True. Learners that sample
  without the mask (SB3's ``check_env``) need ``"penalty"``. Espresso refuses
  an illegal index in either case, as the table refuses a late play
  ("too slow", below).
- Turn-based games: the agent to act is the one ``state.actors()`` names.
  When several seats may act (Fika's secret picks, Café's action phase) they
  take turns, starting after the last seat that acted; a second picker sees
  nothing of the first pick (the view hides it).
- Espresso is stepped in ticks: each tick every agent gives an action or the
  no-op (the last index), and the actions resolve one by one in a random
  order drawn from the seed, as races resolve at the table; an action that
  is no longer legal when its turn comes (the stack moved) is refused ("too
  slow": ``infos[agent]["refused"]``). The AEC form collects the tick's
  actions agent by agent and resolves them after the last one.
- Rewards come once, at the end: the match result, 1 for a (shared) win and
  -1 for a loss (``state.returns()``); a solo game (Doppio, Café) gives its
  score divided by the best solo rank's threshold (``SOLO_RANKS`` in the
  game's cards: today Doppio 16 beans, Café 24 points), so 1.0 is the best
  rank.
- ``max_cycles`` truncates a match after that many steps of each agent
  (ticks, for Espresso); by default the game's ``DEFAULT_MAX_CYCLES``, far
  above a real match's length, so no policy can make an episode endless.
- ``env.game_state`` is the engine's state of the match (``state.view(seat)``,
  ``state.scores``, ...), for logging and analysis; agents should not read it.
- ``render()`` prints (``render_mode="human"``) or returns (``"ansi"``) the
  view of the agent to act, as JSON.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]

from coffeetable.engine import Action, IllegalAction, State
from coffeetable.interop.encoding import (
    OBSERVATION_HIGH,
    Codec,
    IndexedLegal,
    codec,
    get_game,
    result,
)

#: Seats when ``players`` is not given.
DEFAULT_PLAYERS = {"doppio": 2, "fika": 2, "cafe": 2, "espresso": 4}

#: The default length cap, in steps per agent (Espresso: ticks). Measured over
#: seeded matches (steps per seat, most seen): Doppio greedy 45, random 1,038
#: (random play rarely scores); Fika 48; Café greedy 58; Espresso, four random
#: seats acting every tick, 572 ticks (two seats 1,282).
DEFAULT_MAX_CYCLES = {"doppio": 2_000, "fika": 200, "cafe": 300, "espresso": 10_000}

#: The actions left out of the RL action spaces (each the last index of its codec).
LEFT_OUT: dict[str, Action] = {"doppio": {"type": "undo"}}

#: What ``illegal="penalty"`` rewards the offender (every other seat gets 0).
ILLEGAL_REWARD = -1.0
ILLEGAL_MODES = ("raise", "penalty")
#: The mask dtypes offered (see ``mask_dtype`` in the module docstring).
MASK_DTYPES: dict[str, type] = {"int8": np.int8, "bool": np.bool_}


def action_count(table: Codec) -> int:
    """The size of a game's RL action space: its codec less ``LEFT_OUT`` (a last index)."""
    left_out = LEFT_OUT.get(table.game)
    if left_out is None:
        return table.num_actions
    if table.encode(left_out) != table.num_actions - 1:
        raise AssertionError(f"{table.game}: {left_out} must be the codec's last index")
    return table.num_actions - 1


def length_cap(name: str, max_cycles: int | None) -> int:
    """``max_cycles``, or the game's default cap; a positive whole number."""
    cap = DEFAULT_MAX_CYCLES.get(name, 1_000) if max_cycles is None else max_cycles
    if type(cap) is not int or cap < 1:
        raise ValueError(f"max_cycles is a whole number of steps of at least 1, not {cap!r}")
    return cap


Obs = dict[str, np.ndarray]


class _Table:
    """What both environment kinds share: the game, its codec, seeds and spaces."""

    def __init__(
        self,
        name: str,
        players: int | None,
        max_cycles: int | None,
        render_mode: str | None,
        options: dict[str, Any],
        illegal: str = "raise",
        mask_dtype: str = "int8",
    ) -> None:
        if illegal not in ILLEGAL_MODES:
            raise ValueError(f"illegal is 'raise' or 'penalty', not {illegal!r}")
        if mask_dtype not in MASK_DTYPES:
            raise ValueError(f"mask_dtype is 'int8' or 'bool', not {mask_dtype!r}")
        self.mask_dtype = MASK_DTYPES[mask_dtype]
        self.illegal = illegal
        self.name = name
        self.game = get_game(name)
        self.players = (
            DEFAULT_PLAYERS.get(name, self.game.min_players) if players is None else players
        )
        self.game_options = self.game.resolve_options(options)
        self.codec: Codec = codec(name, self.players, **self.game_options)
        self.num_actions = action_count(self.codec)
        self.max_cycles = length_cap(name, max_cycles)
        if render_mode not in (None, "human", "ansi"):
            raise ValueError(f"render_mode is 'human' or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.names = [f"player_{seat}" for seat in range(self.players)]
        self._seeds: random.Random | None = None
        size = self.codec.observation_size
        self.observation_spaces = {
            agent: gymnasium.spaces.Dict(
                {
                    "observation": gymnasium.spaces.Box(
                        0.0, OBSERVATION_HIGH, (size,), dtype=np.float32
                    ),
                    "action_mask": gymnasium.spaces.Box(
                        0, 1, (self.num_actions,), dtype=self.mask_dtype
                    ),
                }
            )
            for agent in self.names
        }
        self.action_spaces = {
            agent: gymnasium.spaces.Discrete(self.num_actions) for agent in self.names
        }

    def deal(self, seed: int | None) -> tuple[State, random.Random]:
        """A new match (and a generator for tick orders) from ``seed`` or the running seed."""
        if seed is not None:
            self._seeds = random.Random(seed)
        elif self._seeds is None:
            self._seeds = random.Random()
        state = self.game.new_state(
            players=self.players, seed=self._seeds.randrange(2**31), **self.game_options
        )
        return state, random.Random(self._seeds.randrange(2**31))

    def legal(self, state: State, seat: int) -> dict[int, Action]:
        """index -> action of the seat's legal actions within the RL space."""
        legal = self.codec.legal(state, seat)
        if self.num_actions < self.codec.num_actions:
            legal.pop(self.num_actions, None)
        return legal

    def mask(self, legal: Mapping[int, Action]) -> np.ndarray:
        out: np.ndarray = np.zeros(self.num_actions, dtype=self.mask_dtype)
        if legal:
            # a fast legal path's own index array when it made one (Café's placements)
            array = legal.array if type(legal) is IndexedLegal else None
            out.put(list(legal) if array is None else array, 1)
        return out

    def render(self, state: State | None, seat: int | None) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        if state is None:
            return None
        text = f"{self.name} (seat {seat} to act)\n" + json.dumps(state.view(seat), indent=1)
        if self.render_mode == "human":
            print(text)
            return None
        return text


class _Ticks:
    """Espresso's ticks: every seat's action (or the no-op) resolved in a random order."""

    def __init__(self, table: _Table) -> None:
        self.table = table

    def legal(self, state: State, seat: int) -> dict[int, Any]:
        return self.table.codec.legal(state, seat)

    def mask(self, state: State, seat: int) -> np.ndarray:
        out = self.table.mask(self.table.codec.legal(state, seat))
        out[self.noop] = 1
        return out

    @property
    def noop(self) -> int:
        return self.table.codec.num_actions - 1

    def resolve(
        self, state: State, rng: random.Random, chosen: dict[int, int]
    ) -> dict[int, dict[str, Any]]:
        """Apply the tick's actions (seat -> index); infos per seat.

        An index that was not legal when the tick began is refused, as is one
        that stopped being legal before its turn came (another seat was faster).
        """
        infos: dict[int, dict[str, Any]] = {seat: {} for seat in chosen}
        order = [seat for seat in sorted(chosen) if chosen[seat] != self.noop]
        rng.shuffle(order)
        masks = {seat: self.mask(state, seat) for seat in order}
        for seat in order:
            if state.is_over:
                break
            if not masks[seat][chosen[seat]]:
                infos[seat].update(refused=True, reason="not a legal action when the tick began")
                continue
            action = self.table.codec.decode(chosen[seat], state, seat)
            infos[seat]["action"] = action
            try:
                state.apply(seat, action)
                infos[seat]["refused"] = False
            except IllegalAction as error:
                infos[seat]["refused"] = True  # too slow: the table moved first
                infos[seat]["reason"] = error.reason
        return infos


def _check(index: Any, size: int, agent: str) -> int:
    """An Espresso tick's index: any index of the space (an illegal one is refused)."""
    if index is None or not 0 <= int(index) < size:
        raise ValueError(f"{agent}: action {index!r} is outside 0..{size - 1}")
    return int(index)


class _AECTable(AECEnv):  # type: ignore[misc]
    """What both AEC environments share: the table, the agents, the spaces, a new deal."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"]}

    def __init__(
        self,
        name: str,
        players: int | None = None,
        max_cycles: int | None = None,
        render_mode: str | None = None,
        illegal: str = "raise",
        mask_dtype: str = "int8",
        **options: Any,
    ) -> None:
        super().__init__()
        self.table = _Table(name, players, max_cycles, render_mode, options, illegal, mask_dtype)
        self.metadata = {**type(self).metadata, "name": f"coffeetable_{name}_v0"}
        self.possible_agents = list(self.table.names)
        self.render_mode = render_mode
        self.game_state: State | None = None
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.table.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.table.action_spaces[agent]

    def _deal(self, seed: int | None) -> State:
        """A new match: every agent in, no rewards, nobody done."""
        self.game_state, self._rng = self.table.deal(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        return self.game_state

    def close(self) -> None:
        self.game_state = None


class CoffeeTableEnv(_AECTable):
    """A turn-based game (Doppio, Fika, Café) as a PettingZoo AEC environment."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "is_parallelizable": False}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._deal(seed)
        self._steps = 0
        self._last: int | None = None
        self._legal: dict[int, dict[int, Action]] = {}
        self.agent_selection = self._next_agent()

    def _next_agent(self) -> str:
        assert self.game_state is not None
        actors = self.game_state.actors()
        if len(actors) == 1:  # most steps: one seat may act
            return self.possible_agents[actors[0]]
        if not actors:
            return self.agent_selection
        start = -1 if self._last is None else self._last
        seat = min(actors, key=lambda s: (s - start - 1) % self.table.players)
        return self.possible_agents[seat]

    def legal(self, seat: int) -> dict[int, Action]:
        """index -> action for ``seat`` now, computed once per step (observe and step share it)."""
        legal = self._legal.get(seat)
        if legal is None:
            assert self.game_state is not None
            legal = self._legal[seat] = self.table.legal(self.game_state, seat)
        return legal

    def observe(self, agent: str) -> Obs:
        assert self.game_state is not None
        seat = self.possible_agents.index(agent)
        return {
            "observation": self.table.codec.observe_state(self.game_state, seat),
            "action_mask": self.table.mask(self.legal(seat)),
        }

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.game_state is not None
        seat = self.possible_agents.index(agent)
        legal = self.legal(seat)
        index = _check(action, self.table.num_actions, agent)
        self._cumulative_rewards[agent] = 0.0
        if index not in legal:
            if self.table.illegal == "raise":
                raise ValueError(f"{agent}: action {index} is not legal now (see its action_mask)")
            self._penalise(agent, index)
            return
        self.game_state.apply(seat, legal[index])
        self._legal = {}
        self._last = seat
        self._steps += 1
        self._clear_rewards()
        if self.game_state.is_over:
            for other, reward in zip(
                self.possible_agents, result(self.table.name, self.game_state), strict=True
            ):
                self.rewards[other] = reward
                self.terminations[other] = True
        elif self._steps >= self.table.max_cycles * len(self.possible_agents):
            self.truncations = dict.fromkeys(self.agents, True)
        self.agent_selection = self._next_agent()
        self._accumulate_rewards()

    def _penalise(self, agent: str, index: int) -> None:
        """``illegal="penalty"``: the match ends, the offender rewarded ILLEGAL_REWARD."""
        self._clear_rewards()
        self.rewards[agent] = ILLEGAL_REWARD
        self.terminations = dict.fromkeys(self.agents, True)
        self.infos[agent] = {"illegal": True, "action": index}
        self._accumulate_rewards()

    def render(self) -> str | None:
        seat = None if self.game_state is None else self.possible_agents.index(self.agent_selection)
        return self.table.render(self.game_state, seat)


class EspressoTickEnv(_AECTable):
    """Real-time Espresso as an AEC environment: each tick the agents give their
    actions in seat order, and they resolve in a random order after the last."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "is_parallelizable": True}

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
        super().__init__(name, players, max_cycles, render_mode, illegal, mask_dtype, **options)
        self.ticks = _Ticks(self.table)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        state = self._deal(seed)
        self._ticks = 0
        self._chosen: dict[int, int] = {}
        self._masks = {seat: self.ticks.mask(state, seat) for seat in range(self.table.players)}
        self.agent_selection = self.possible_agents[0]

    def observe(self, agent: str) -> Obs:
        assert self.game_state is not None
        seat = self.possible_agents.index(agent)
        return {
            "observation": self.table.codec.observe_state(self.game_state, seat),
            "action_mask": self._masks[seat].copy(),
        }

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.game_state is not None
        seat = self.possible_agents.index(agent)
        self._chosen[seat] = _check(action, self.table.codec.num_actions, agent)
        self._cumulative_rewards[agent] = 0.0
        if seat < len(self.possible_agents) - 1:
            self._clear_rewards()
            self.agent_selection = self.possible_agents[seat + 1]
            return
        infos = self.ticks.resolve(self.game_state, self._rng, self._chosen)
        self._chosen = {}
        self._ticks += 1
        self._clear_rewards()
        self.infos = {self.possible_agents[s]: info for s, info in infos.items()}
        self._masks = {
            seat: self.ticks.mask(self.game_state, seat) for seat in range(self.table.players)
        }
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

    metadata: dict[str, Any] = {
        "render_modes": ["human", "ansi"],
        "name": "coffeetable_espresso_v0",
    }

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
            raise ValueError(f"{name} is turn-based: use env({name!r}) for its AEC environment")
        self.table = _Table(name, players, max_cycles, render_mode, options, illegal, mask_dtype)
        self.ticks = _Ticks(self.table)
        self.metadata = {**type(self).metadata, "name": f"coffeetable_{name}_v0"}
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
        for agent in self.agents:
            seat = self.possible_agents.index(agent)
            out[agent] = {
                "observation": self.table.codec.observe_state(self.game_state, seat),
                "action_mask": self.ticks.mask(self.game_state, seat),
            }
        return out

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Obs], dict[str, dict[str, Any]]]:
        self.game_state, self._rng = self.table.deal(seed)
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
            chosen[seat] = _check(index, self.table.codec.num_actions, agent)
        infos = self.ticks.resolve(self.game_state, self._rng, chosen)
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


def env(
    name: str,
    players: int | None = None,
    max_cycles: int | None = None,
    render_mode: str | None = None,
    illegal: str = "raise",
    mask_dtype: str = "int8",
    **options: Any,
) -> AECEnv:
    """The AEC environment of game ``name`` (Espresso: stepped in ticks)."""
    kind = EspressoTickEnv if get_game(name).realtime else CoffeeTableEnv
    return kind(
        name,
        players=players,
        max_cycles=max_cycles,
        render_mode=render_mode,
        illegal=illegal,
        mask_dtype=mask_dtype,
        **options,
    )


def parallel_env(
    name: str = "espresso",
    players: int | None = None,
    max_cycles: int | None = None,
    render_mode: str | None = None,
    illegal: str = "raise",
    mask_dtype: str = "int8",
    **options: Any,
) -> ParallelEnv:
    """The Parallel environment of a real-time game (Espresso), stepped in ticks."""
    return EspressoParallelEnv(
        name,
        players=players,
        max_cycles=max_cycles,
        render_mode=render_mode,
        illegal=illegal,
        mask_dtype=mask_dtype,
        **options,
    )
