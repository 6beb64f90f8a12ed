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
  ``observation_size`` values in [0, 1], built by the game's ``features``
  function through ``Features``: one-hot blocks, flags, and counts divided by
  a scale (a count past its scale is clipped to 1). Seats in an observation
  are relative: the observer first, then the next seats in turn order. The
  view may come from the engine or from the site's JSON: both give the same
  vector (the site adapter, ``coffeetable.interop.site``, relies on it).

Speed matters (environments step millions of times): ``encode`` first looks
an action up by its items in their own order (``quick_key``), which is exact
for the engine's and the site's actions alike, and only on a miss builds the
canonical key; ``Features`` keeps index lists and fills the vector in one
numpy pass. The environments take two faster paths, which each game's codec
overrides: ``observe_state(state, seat)`` writes the same vector as
``observe(state.view(seat))`` straight from the state's fields (no view is
built), and ``legal_from`` encodes a whole legal list at once (Doppio by
action identity, Café with its arithmetic inlined).
tests/interop/test_fast_paths.py holds both to the plain paths over many
random positions; the site adapter takes the plain ones (it has views).
Fika's and Doppio's ``observe_state`` join their observation from blocks'
bytes (``Blocks``, ``block_bytes``, ``joined``): a block is encoded only when
the part of the state it shows is new, and numpy is called once a step; a
legal dict may carry its mask's bytes (``LegalMap``), which the environments
copy instead of setting each index. tests/interop/test_incremental.py holds
every observation and mask an environment gives to one built from nothing.
"""

from __future__ import annotations

import copy
import json
from array import array
from collections.abc import Callable, Container, Hashable, Iterable, Iterator, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np
import orjson

from coffeetable import games
from coffeetable.engine import Action, Game, State, View

if TYPE_CHECKING:
    from numpy.typing import NDArray

#: Every observation value lies in [0, OBSERVATION_HIGH]: counts past their scale are clipped.
OBSERVATION_HIGH = 1.0


def has_codec(name: str) -> bool:
    """Whether game ``name`` has a research codec (``Game.codec()``, imported now)."""
    try:
        return get_game(name).codec() is not None
    except KeyError:
        return False


def with_codec() -> list[str]:
    """The games with a research codec, in the registry's order."""
    return [name for name in games.names() if has_codec(name)]


class GameFacts(Mapping[str, Any]):
    """A read-only mapping game name -> one of its facts, over the games with a codec:
    the old per-game tables (``DEFAULT_PLAYERS`` ...), now read from each ``Game``."""

    def __init__(self, fact: Callable[[Game], Any], keep: Callable[[Game], bool] = bool) -> None:
        self._fact, self._keep = fact, keep

    def _names(self) -> list[str]:
        return [name for name in with_codec() if self._keep(get_game(name))]

    def __getitem__(self, name: str) -> Any:
        if name not in self._names():
            raise KeyError(name)
        return self._fact(get_game(name))

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __len__(self) -> int:
        return len(self._names())


#: The most quick keys a codec remembers (each action order met; a bound against odd input).
QUICK_KEYS = 200_000


class IndexedLegal(Mapping[int, Any]):
    """index -> legal action, each action made only when it is asked for.

    A fast legal path knows the indices at once (the mask needs only them) and
    makes an action from its index when one is played (``make``: what it would
    have put in the dict). ``indices`` are in the order the path found them;
    ``members`` answers ``in``. A mapping like the dict ``legal_from`` returns,
    the same items (the tests compare them); read it before the state moves on.
    ``array``: the indices as a numpy array, when the path made one (the mask's).
    """

    __slots__ = ("indices", "members", "make", "array")

    def __init__(
        self,
        indices: Sequence[int],
        members: Container[int],
        make: Callable[[int], Any],
        array: NDArray[np.intp] | None = None,
    ) -> None:
        self.indices, self.members, self.make, self.array = indices, members, make, array

    def __getitem__(self, index: int) -> Any:
        if index not in self.members:
            raise KeyError(index)
        return self.make(index)

    def __contains__(self, index: object) -> bool:
        return index in self.members

    def get(self, index: int, default: Any = None) -> Any:
        """The action at ``index`` if it is legal, else ``default`` (one look)."""
        return self.make(index) if index in self.members else default

    def __iter__(self) -> Iterator[int]:
        return iter(self.indices)

    def __len__(self) -> int:
        return len(self.indices)


class LegalMap(dict[int, Any]):
    """The dict ``legal_from`` returns (index -> legal action), with its mask kept beside it.

    ``mask``: one byte an index of the codec's space, 1 where the dict has a key (a 0/1
    byte is both an int8 and a bool to numpy), or None. A fast legal path that keeps a
    mask's bytes for a part of its lists (Doppio's moves of an occupancy) fills it, and
    the environments' ``Table.mask`` copies those bytes instead of setting each index:
    numpy converts a Python list of indices at some 400 instructions an index.
    """

    __slots__ = ("mask",)

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.mask: bytearray | None = None


def solo_scale(name: str) -> float:
    """A solo game's score worth a reward of 1: its best solo rank's threshold
    (``Game.solo_ranks``; 1 for a game without ranks)."""
    ranks = get_game(name).solo_ranks
    return float(max((threshold for threshold, _ in ranks), default=0) or 1)


def result(name: str, state: State) -> list[float]:
    """The end-of-match reward per seat, for both adapters.

    Two or more seats: 1 for a (shared) win, -1 for a loss (``state.returns()``).
    Solo: the score over the best solo rank's threshold (``solo_scale``).
    """
    if state.players == 1:
        return [state.scores[0] / solo_scale(name)]
    return [float(value) for value in state.returns()]


def get_game(name: str) -> Game:
    """The game ``name`` from the registry (KeyError, naming the games, for another)."""
    return games.get(name)


def action_key(action: Any) -> Hashable:
    """A canonical hashable form of an action: its JSON, every object's keys sorted
    (orjson does it in C: a Café delivery's nested dicts cost a recursion in Python)."""
    return orjson.dumps(action, option=orjson.OPT_SORT_KEYS)


def quick_key(action: Mapping[str, Any]) -> Hashable:
    """The action's items in their own order, lists as tuples: cheap, and exact.

    Two actions with the same quick key are equal dicts, so a quick key can
    stand for the canonical ``action_key`` once that has been looked up.
    """
    items = []
    for key, value in action.items():
        if type(value) is list:
            value = action_key(value)
        elif type(value) is dict:
            value = ("{", *((k, action_key(v)) for k, v in value.items()))
        items.append((key, value))
    return tuple(items)


class Features:
    """Writes an observation block by block; each call advances by a fixed size.

    Only non-zero values are stored (ones apart from other values), so a
    large sparse layout (Café's grids) costs what is on the table, and the
    vector is filled in one numpy pass. ``size`` is the cursor; the layout's
    length is the same for every view, which ``Codec`` checks.
    """

    __slots__ = ("size", "ones", "indices", "values")

    def __init__(self) -> None:
        self.size = 0
        self.ones: list[int] = []
        self.indices: list[int] = []
        self.values: list[float] = []

    def set(self, offset: int, value: float = 1.0) -> None:
        """Write ``value`` (clipped to [0, 1]) at ``offset`` in the block at the cursor."""
        if value >= 1.0:
            self.ones.append(self.size + offset)
        elif value > 0:
            self.indices.append(self.size + offset)
            self.values.append(value)

    def skip(self, size: int) -> None:
        self.size += size

    def one_hot(self, index: int | None, size: int) -> None:
        """``size`` values, a 1 at ``index`` (none for None)."""
        if index is not None:
            if not 0 <= index < size:
                raise ValueError(f"one-hot index {index} outside 0..{size - 1}")
            self.ones.append(self.size + index)
        self.size += size

    def multi_hot(self, indices: Iterable[int], size: int) -> None:
        base = self.size
        for index in indices:
            if not 0 <= index < size:
                raise ValueError(f"multi-hot index {index} outside 0..{size - 1}")
            self.ones.append(base + index)
        self.size += size

    def scalar(self, value: float, scale: float = 1.0) -> None:
        """One value, ``value / scale`` clipped to [0, 1]."""
        if value > 0:
            if value >= scale:
                self.ones.append(self.size)
            else:
                self.indices.append(self.size)
                self.values.append(value / scale)
        self.size += 1

    def flag(self, value: bool) -> None:
        if value:
            self.ones.append(self.size)
        self.size += 1

    def array(self) -> NDArray[np.float32]:
        """The vector (every value already in [0, 1])."""
        out = np.zeros(self.size, dtype=np.float32)
        if self.ones:
            out.put(self.ones, 1.0)
        if self.indices:
            out.put(self.indices, self.values)
        return out


def scaled(
    ones: list[int], indices: list[int], values: list[float], at: int, value: float, scale: float
) -> None:
    """``Features.scalar`` for the fast observation paths, which collect an observation as
    lists (indices set to 1, and other indices with their values) for one numpy pass:
    ``value / scale`` at ``at``, clipped to [0, 1] (0 adds nothing)."""
    if value > 0:
        if value >= scale:
            ones.append(at)
        else:
            indices.append(at)
            values.append(value / scale)


#: The most blocks an observation memo keeps (``Blocks``; past it, it starts again).
BLOCKS_KEPT = 100_000


class Blocks(dict[Hashable, bytes]):
    """An observation block's bytes by the part of the state it shows (its key).

    A game's ``observe_state`` may cut its layout into contiguous blocks, name
    each by a key holding all that the block shows (a café's cards, a seat's
    tips ...), and join the blocks' bytes: a block is encoded only when its key
    is new (``encode(key)``, which must read nothing but the key), so a step
    costs a key and a look-up a block. Bounded by ``BLOCKS_KEPT``.
    """

    __slots__ = ("encode",)

    def __init__(self, encode: Callable[[Any], bytes]) -> None:
        super().__init__()
        self.encode = encode

    def __missing__(self, key: Hashable) -> bytes:
        if len(self) >= BLOCKS_KEPT:
            self.clear()
        value = self[key] = self.encode(key)
        return value


#: Zeros to cut blocks from (``block_bytes``): an ``array`` slice is a cheap fresh copy.
_ZEROS = array("f", bytes(4 * 1024))


def block_bytes(
    size: int, ones: Iterable[int], indices: Sequence[int] = (), values: Sequence[float] = ()
) -> bytes:
    """``size`` float32 values as bytes: 1 at ``ones``, ``values`` at ``indices`` (a
    ``Blocks`` miss; the values rounded to float32 as numpy rounds them)."""
    out = _ZEROS[:size] if size <= len(_ZEROS) else array("f", bytes(4 * size))
    for index in ones:
        out[index] = 1.0
    for index, value in zip(indices, values, strict=True):
        out[index] = value
    return out.tobytes()


def joined(parts: Iterable[bytes]) -> NDArray[np.float32]:
    """The observation of blocks' bytes, in order: a fresh, writable float32 array."""
    return np.frombuffer(bytearray().join(parts), np.float32)


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
        fast_index: Callable[[Mapping[str, Any]], int] | None = None,
    ) -> None:
        self.game = game
        self.fast_index = fast_index
        #: ``state_view(state, seat)``: the fields of the view the features read, built
        #: cheaply from the state (None: ``state.view(seat)``); must give the same vector.
        self.state_view: Callable[[State, int], View] | None = None
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
        # quick key -> index, filled as actions are met (bounded: see ``lookup``)
        self._quick: dict[Hashable, int | None] = {}
        sample = get_game(game).new_state(players=players, seed=0, **self.options)
        self.observation_size = self._features(sample.view(0)).size

    @property
    def num_actions(self) -> int:
        return len(self.actions)

    def encode(
        self, action: Mapping[str, Any], state: State | None = None, seat: int | None = None
    ) -> int | None:
        """The index of ``action`` (None if the space has no such action)."""
        return self.lookup(action)

    def lookup(self, action: Mapping[str, Any]) -> int | None:
        """The table's index of ``action`` (None if it has none).

        The game's ``fast_index`` (arithmetic on the fields) goes first, its
        answer checked against the table; then the quick key; then the
        canonical key.
        """
        if self.fast_index is not None:
            try:
                index = self.fast_index(action)
                if self.actions[index] == action:
                    return index
            except (KeyError, TypeError, ValueError, IndexError, AttributeError):
                pass
        try:
            key = quick_key(action)
            return self._quick[key]
        except KeyError:
            pass
        except (TypeError, AttributeError):
            return None  # not a JSON object of hashable leaves
        found = self._index.get(action_key(action))
        if len(self._quick) < QUICK_KEYS:
            self._quick[key] = found
        return found

    def decode(self, index: int, state: State | None = None, seat: int | None = None) -> Action:
        """The JSON action at ``index`` (a fresh copy)."""
        return copy.deepcopy(self.actions[int(index)])

    def encode_in_view(self, action: Any, view: View) -> int | None:
        """``encode`` from the seat's view instead of the state (the site adapter's path)."""
        if not isinstance(action, Mapping):
            return None
        return self.encode(action, None, view["seat"])

    def decode_in_view(self, index: int, view: View) -> Action:
        """``decode`` from the seat's view instead of the state."""
        return self.decode(index, None, view["seat"])

    def legal_in_view(self, actions: Iterable[Any], view: View) -> dict[int, Any]:
        """index -> action for the given legal actions, encoded from the seat's view (the
        first of equal indices): ``legal_from``'s counterpart for the site adapter."""
        out: dict[int, Any] = {}
        for action in actions:
            index = self.encode_in_view(action, view)
            if index is not None and index not in out:
                out[index] = action
        return out

    def legal(self, state: State, seat: int) -> dict[int, Action]:
        """index -> action for every legal action of ``seat`` that the space holds."""
        return self.legal_from(state.legal_actions(seat), state, seat)

    def legal_from(
        self, actions: Iterable[Action], state: State | None = None, seat: int | None = None
    ) -> dict[int, Action]:
        """index -> action for the given legal actions (the first of equal indices)."""
        out: dict[int, Action] = {}
        fast, table = self.fast_index, self.actions
        if fast is None or type(self).encode is not Codec.encode:
            encode = self.encode
            for action in actions:
                index = encode(action, state, seat)
                if index is not None and index not in out:
                    out[index] = action
            return out
        for action in actions:  # ``lookup`` inlined: this runs for every legal action
            try:
                found: int | None = fast(action)
                if table[found] != action:  # type: ignore[index]
                    found = self.lookup(action)
            except (KeyError, TypeError, ValueError, IndexError, AttributeError):
                found = self.lookup(action)
            if found is not None and found not in out:
                out[found] = action
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

    def observe_state(self, state: State, seat: int) -> NDArray[np.float32]:
        """``observe(state.view(seat))``, through ``state_view`` where the game has one."""
        view = state.view(seat) if self.state_view is None else self.state_view(state, seat)
        return self.observe(view)

    @property
    def size(self) -> int:
        return self.observation_size

    def describe_action(self, index: int) -> str:
        """A short text of the action at ``index``, for rendering and logs."""
        return json.dumps(self.actions[int(index)], sort_keys=True, separators=(",", ":"))


@cache
def _cached(name: str, players: int, options: tuple[tuple[str, Any], ...]) -> Codec:
    module = get_game(name).codec()
    assert module is not None  # codec() checked it
    built: Codec = module.build(players, dict(options))
    return built


def codec(name: str, players: int | None = None, **options: Any) -> Codec:
    """The codec of game ``name`` for ``players`` seats (default: the game's most) and options.

    Options are resolved with the game's defaults; codecs are cached.
    """
    if not has_codec(name):
        raise KeyError(f"no codec for {name!r}; the games are {', '.join(with_codec())}")
    game = get_game(name)
    seats = game.max_players if players is None else players
    game.check_players(seats)
    resolved = game.resolve_options(options)
    return _cached(name, seats, tuple(sorted(resolved.items())))
