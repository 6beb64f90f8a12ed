"""A game's fixed integer action space and fixed-shape observation: the ``Codec``.

One codec serves every adapter (PettingZoo, OpenSpiel). It is built per game
and per table (player count and options, which can change the space: more
seats mean more stacks in Espresso) by the game's module in this package, and
it is plain data plus two functions:

- **Actions.** ``actions`` is the table ``index -> JSON action``, enumerated
  from the game's structure (never from a state), in the order documented in
  the game's module and in docs/research.md. ``encode(action)`` is its
  inverse (None for an action outside the space), ``decode(index)`` a fresh
  copy of the entry. ``legal(state, seat)`` maps the indices of the seat's
  legal actions to those actions, and ``mask(state, seat)`` is the int8 mask
  of the same. A game whose actions name places relative to the actor
  (Espresso's "owner") or depend on the state (Café's deliveries) overrides
  ``encode``/``decode``, which therefore take the state and seat too.
- **Observations.** ``observe(view)`` turns ``state.view(seat)`` (and only the
  view: hidden information never reaches it) into a float32 vector of
  ``observation_size`` values in [0, ``OBSERVATION_HIGH``], built by the
  game's ``features`` function through ``Features``: one-hot blocks, counts
  scaled to about [0, 1], and flags. Seats in an observation are relative:
  the observer first, then the next seats in turn order.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Hashable, Iterable, Mapping
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Any

import numpy as np

from coffeetable import games
from coffeetable.engine import Action, Game, State, View

if TYPE_CHECKING:
    from numpy.typing import NDArray

#: Every observation value lies in [0, OBSERVATION_HIGH] (scaled counts stay far below).
OBSERVATION_HIGH = 1000.0

#: The games with a codec, and the module that builds it (``build(players, options)``).
MODULES = {
    "doppio": "coffeetable.interop.doppio",
    "fika": "coffeetable.interop.fika",
    "cafe": "coffeetable.interop.cafe",
    "espresso": "coffeetable.interop.espresso",
}


def solo_scale(name: str) -> float:
    """A solo game's score worth a reward of 1: its best solo rank's threshold."""
    ranks = import_module(f"coffeetable.games.{name}.cards").SOLO_RANKS
    return float(max(threshold for threshold, _ in ranks))


def result(name: str, state: State) -> list[float]:
    """The end-of-match reward per seat, for both adapters.

    Two or more seats: 1 for a (shared) win, -1 for a loss (``state.returns()``).
    Solo: the score over the best solo rank's threshold (``solo_scale``).
    """
    if state.players == 1:
        return [state.scores[0] / solo_scale(name)]
    return [float(value) for value in state.returns()]


def get_game(name: str) -> Game:
    """The game ``name`` from the registry; Café straight from its package if unregistered."""
    try:
        return games.get(name)
    except KeyError:
        if name != "cafe":
            raise
        from coffeetable.games.cafe import CafeGame

        return CafeGame()


def action_key(action: Any) -> Hashable:
    """A canonical hashable form of an action (dict keys sorted), cheaper than JSON text."""
    if isinstance(action, dict):
        return tuple(sorted((key, action_key(value)) for key, value in action.items()))
    if isinstance(action, list | tuple):
        return ("[", *(action_key(item) for item in action))
    key: Hashable = action
    return key


class Features:
    """Writes an observation block by block; each call advances by a fixed size.

    Only non-zero values are stored, so a large sparse layout (Café's grids)
    costs what is on the table. ``size`` is the cursor; the layout's length is
    the same for every view, which ``Codec`` checks.
    """

    def __init__(self) -> None:
        self.size = 0
        self.indices: list[int] = []
        self.values: list[float] = []

    def set(self, offset: int, value: float = 1.0) -> None:
        """Write ``value`` at ``offset`` within the block that starts at the cursor."""
        if value:
            self.indices.append(self.size + offset)
            self.values.append(float(value))

    def skip(self, size: int) -> None:
        self.size += size

    def one_hot(self, index: int | None, size: int) -> None:
        """``size`` values, a 1 at ``index`` (none for None)."""
        if index is not None:
            if not 0 <= index < size:
                raise ValueError(f"one-hot index {index} outside 0..{size - 1}")
            self.set(index)
        self.skip(size)

    def multi_hot(self, indices: Iterable[int], size: int) -> None:
        for index in indices:
            if not 0 <= index < size:
                raise ValueError(f"multi-hot index {index} outside 0..{size - 1}")
            self.set(index)
        self.skip(size)

    def scalar(self, value: float, scale: float = 1.0) -> None:
        """One value, ``value / scale``."""
        self.set(0, value / scale)
        self.skip(1)

    def flag(self, value: bool) -> None:
        self.scalar(1.0 if value else 0.0)

    def array(self) -> NDArray[np.float32]:
        out = np.zeros(self.size, dtype=np.float32)
        if self.indices:
            out[np.asarray(self.indices)] = np.asarray(self.values, dtype=np.float32)
        return out


def relative(seat: int, other: int | None, players: int) -> int | None:
    """``other`` counted from ``seat`` (0 is the seat itself), None stays None."""
    return None if other is None else (other - seat) % players


class Codec:
    """The fixed action space and observation layout of one game at one table size.

    ``actions`` is the index -> action table; ``features(view, f)`` writes an
    observation of ``view`` into ``f``. Build one with ``codec(name, players,
    **options)``.
    """

    def __init__(
        self,
        game: str,
        players: int,
        options: Mapping[str, Any],
        actions: list[Action],
        features: Callable[[View, Features], None],
    ) -> None:
        self.game = game
        self.players = players
        self.options = dict(options)
        self.actions = actions
        self.features = features
        self._index: dict[Hashable, int] = {}
        for index, action in enumerate(actions):
            key = action_key(action)
            if key in self._index:
                raise ValueError(f"{game}: action {key} is listed twice")
            self._index[key] = index
        sample = get_game(game).new_state(players=players, seed=0, **self.options)
        self.observation_size = self._features(sample.view(0)).size

    @property
    def num_actions(self) -> int:
        return len(self.actions)

    def encode(
        self, action: Mapping[str, Any], state: State | None = None, seat: int | None = None
    ) -> int | None:
        """The index of ``action`` (None if the space has no such action)."""
        return self._index.get(action_key(action))

    def decode(self, index: int, state: State | None = None, seat: int | None = None) -> Action:
        """The JSON action at ``index`` (a fresh copy)."""
        return copy.deepcopy(self.actions[int(index)])

    def legal(self, state: State, seat: int) -> dict[int, Action]:
        """index -> action for every legal action of ``seat`` that the space holds."""
        out: dict[int, Action] = {}
        for action in state.legal_actions(seat):
            index = self.encode(action, state, seat)
            if index is not None and index not in out:
                out[index] = action
        return out

    def mask(self, state: State, seat: int) -> NDArray[np.int8]:
        """1 for each legal index of ``seat``, else 0."""
        out = np.zeros(self.num_actions, dtype=np.int8)
        legal = list(self.legal(state, seat))
        if legal:
            out[np.asarray(legal)] = 1
        return out

    def _features(self, view: View) -> Features:
        f = Features()
        self.features(view, f)
        return f

    def observe(self, view: View) -> NDArray[np.float32]:
        """The observation vector of ``view`` (``state.view(seat)``)."""
        f = self._features(view)
        if f.size != self.observation_size:
            raise AssertionError(f"{self.game}: observation of {f.size} values, not {self.size}")
        return f.array()

    @property
    def size(self) -> int:
        return self.observation_size

    def describe_action(self, index: int) -> str:
        """A short text of the action at ``index``, for rendering and logs."""
        return json.dumps(self.actions[int(index)], sort_keys=True, separators=(",", ":"))


@cache
def _cached(name: str, players: int, options: tuple[tuple[str, Any], ...]) -> Codec:
    module = import_module(MODULES[name])
    built: Codec = module.build(players, dict(options))
    return built


def codec(name: str, players: int | None = None, **options: Any) -> Codec:
    """The codec of game ``name`` for ``players`` seats (default: the game's most) and options.

    Options are resolved with the game's defaults; codecs are cached.
    """
    if name not in MODULES:
        raise KeyError(f"no codec for {name!r}; the games are {', '.join(MODULES)}")
    game = get_game(name)
    seats = game.max_players if players is None else players
    game.check_players(seats)
    resolved = game.resolve_options(options)
    return _cached(name, seats, tuple(sorted(resolved.items())))
