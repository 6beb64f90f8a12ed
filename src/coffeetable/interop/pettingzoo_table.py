"""What every PettingZoo environment of ``coffeetable.interop.pettingzoo`` shares.

The table (``Table``: the game, its codec, the seeds, the spaces, the mask),
the AEC environments' common part (``AECTable``: agents, spaces, a new deal),
the defaults (seats, length caps) and the checks of what a caller gives. The
environments themselves are in ``pettingzoo`` (turn-based games) and
``pettingzoo_espresso`` (real-time Espresso, in ticks); the module docstring of
``pettingzoo`` documents them all.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from coffeetable.engine import Action, State
from coffeetable.interop.encoding import (
    OBSERVATION_HIGH,
    Codec,
    GameFacts,
    IndexedLegal,
    LegalMap,
    codec,
    get_game,
)

#: Seats when ``players`` is not given (``Game.preferred_players()``).
DEFAULT_PLAYERS = GameFacts(lambda game: game.preferred_players())

#: The default length cap, in steps per agent (Espresso: ticks): ``Game.max_cycles``.
#: Measured over seeded matches (steps per seat, most seen): Doppio greedy 45, random
#: 1,038 (random play rarely scores); Fika 48; Café greedy 58; Espresso, four random
#: seats acting every tick, 572 ticks (two seats 1,282).
DEFAULT_MAX_CYCLES = GameFacts(lambda game: game.max_cycles)

#: The actions left out of the RL action spaces (each the last index of its codec): the
#: games' ``undo_action``.
LEFT_OUT = GameFacts(lambda game: game.undo_action, lambda game: game.undo_action is not None)

#: What ``illegal="penalty"`` rewards the offender (every other seat gets 0).
ILLEGAL_REWARD = -1.0
ILLEGAL_MODES = ("raise", "penalty")
#: The mask dtypes offered (see ``mask_dtype`` in the module docstring).
MASK_DTYPES: dict[str, type] = {"int8": np.int8, "bool": np.bool_}


def action_count(table: Codec) -> int:
    """The size of a game's RL action space: its codec less ``LEFT_OUT`` (a last index)."""
    left_out = get_game(table.game).undo_action
    if left_out is None:
        return table.num_actions
    if table.encode(left_out) != table.num_actions - 1:
        raise AssertionError(f"{table.game}: {left_out} must be the codec's last index")
    return table.num_actions - 1


def env_name(name: str) -> str:
    """PettingZoo's name of a game's environments, ``<game>_v<version>`` (``Game.env_version``):
    their ``metadata["name"]``, ``str(env)`` and module in ``coffeetable.interop.pettingzoo``."""
    return f"{name}_v{get_game(name).env_version}"


def length_cap(name: str, max_cycles: int | None) -> int:
    """``max_cycles``, or the game's default cap; a positive whole number."""
    cap = get_game(name).max_cycles if max_cycles is None else max_cycles
    if type(cap) is not int or cap < 1:
        raise ValueError(f"max_cycles is a whole number of steps of at least 1, not {cap!r}")
    return cap


Obs = dict[str, np.ndarray]


class Table:
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
        self.players = self.game.preferred_players() if players is None else players
        self.game_options = self.game.resolve_options(options)
        self.codec: Codec = codec(name, self.players, **self.game_options)
        self.num_actions = action_count(self.codec)
        self.max_cycles = length_cap(name, max_cycles)
        if render_mode not in (None, "human", "ansi"):
            raise ValueError(f"render_mode is 'human' or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.names = [f"player_{seat}" for seat in range(self.players)]
        self._seeds: random.Random | None = None
        #: A mask's bytes before any index is set (``mask``); the codec's whole space, so
        #: that an index left out of the RL space (its last) is set, then cut off.
        self._no_actions = bytes(self.codec.num_actions)
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
        """A fresh, writable mask of ``legal``'s indices, of ``mask_dtype``.

        Written as bytes and viewed by numpy (a 0/1 byte is an int8 and a bool alike):
        numpy takes some 400 instructions an index to convert a Python list, a byte set
        in a bytearray fewer, and a codec's kept bytes (``LegalMap.mask``) none.
        """
        if type(legal) is IndexedLegal and legal.array is not None:
            out: np.ndarray = np.zeros(self.num_actions, dtype=self.mask_dtype)
            out.put(legal.array, 1)  # a fast legal path's own index array (Café's placements)
            return out
        kept = legal.mask if type(legal) is LegalMap else None
        if kept is None:
            buffer = bytearray(self._no_actions)
            for index in legal:
                buffer[index] = 1
        else:
            buffer = bytearray(kept)
        return np.frombuffer(buffer, self.mask_dtype, self.num_actions)

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


def check_index(index: Any, size: int, agent: str) -> int:
    """An index of the space (whether it is legal is the environment's question)."""
    if index is None or not 0 <= int(index) < size:
        raise ValueError(f"{agent}: action {index!r} is outside 0..{size - 1}")
    return int(index)


class AECTable(AECEnv):  # type: ignore[misc]
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
        self.table = Table(name, players, max_cycles, render_mode, options, illegal, mask_dtype)
        self.metadata = {**type(self).metadata, "name": env_name(name)}
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
