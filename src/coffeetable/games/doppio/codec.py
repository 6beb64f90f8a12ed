"""Espresso Doppio's integer actions and observation (1 or 2 players): 709 actions.

Actions, in index order (kinds of a move are listed cup, saucer, spoon; a
subset of kinds is a 3-bit mask, cup 1, saucer 2, spoon 4, taken 1..7):

==========  =====  =========================================================
range       count  action
==========  =====  =========================================================
0-44        45     place: kind (cup saucer spoon) x colour (brown white black) x space 0-4
45-184      140    move: from 0-4 x to 0-4 (to != from) x kinds mask 1-7
185-674     490    exchange: (from, to) with from < to (10 pairs) x kinds 1-7 x with 1-7
675-706     32     score: card 1-16 x turned (false, true)
707         1      end_turn
708         1      undo
==========  =====  =========================================================

Observation (seats relative: the observer first), 2 players: 146 values;
solo: 110.

- phase one-hot (setup, play, over) 3; round one-hot (1, 2) 2; solo, master 2
- path: 5 spaces x 3 kinds x (empty, brown, white, black) 60
- set-up: kind one-hot 3, pieces placed / 9
- whose turn one-hot (relative) per seat; actions taken / 3; scored this turn
- per seat: face-up cards multi-hot 16, scored cards multi-hot 16,
  pile count / 8, beans / 20
- reserve / 60; winners multi-hot per seat
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations, product
from typing import TYPE_CHECKING, Any, Literal, Protocol, overload

import numpy as np

from coffeetable.engine import Action, State, View
from coffeetable.games.doppio.cards import COLOURS, KINDS, SETUP_ORDER, SPACES
from coffeetable.games.doppio.moves import move_actions
from coffeetable.interop.encoding import (
    Blocks,
    Codec,
    Features,
    LegalMap,
    block_bytes,
    joined,
    relative,
    scaled,
)

if TYPE_CHECKING:
    from numpy.typing import NDArray

CARDS = 16
Moves = tuple[Action, ...]


def kinds(mask: int) -> list[str]:
    """The kinds in a 3-bit mask (cup 1, saucer 2, spoon 4), in kind order."""
    return [KINDS[k] for k in range(3) if mask >> k & 1]


def action_table() -> list[Action]:
    actions: list[Action] = []
    for kind in KINDS:
        for colour in COLOURS:
            for space in range(SPACES):
                actions.append({"type": "place", "kind": kind, "colour": colour, "space": space})
    for start in range(SPACES):
        for end in range(SPACES):
            if end != start:
                for mask in range(1, 8):
                    actions.append({"type": "move", "from": start, "to": end, "kinds": kinds(mask)})
    for start in range(SPACES):
        for end in range(start + 1, SPACES):
            for given in range(1, 8):
                for taken in range(1, 8):
                    actions.append(
                        {
                            "type": "exchange",
                            "from": start,
                            "to": end,
                            "kinds": kinds(given),
                            "with": kinds(taken),
                        }
                    )
    for card in range(1, CARDS + 1):
        for turned in (False, True):
            actions.append({"type": "score", "card": card, "turned": turned})
    actions += [{"type": "end_turn"}, {"type": "undo"}]
    return actions


KIND_BIT = {kind: 1 << k for k, kind in enumerate(KINDS)}
KIND_INDEX = {kind: k for k, kind in enumerate(KINDS)}
COLOUR_INDEX = {colour: c for c, colour in enumerate(COLOURS)}
PAIR_INDEX = {
    (start, end): n
    for n, (start, end) in enumerate(
        (start, end) for start in range(SPACES) for end in range(start + 1, SPACES)
    )
}
PLACES = 3 * len(COLOURS) * SPACES
MOVES = SPACES * (SPACES - 1) * 7
EXCHANGES = len(PAIR_INDEX) * 49
SCORES = 2 * CARDS


#: A path square's colour (None: empty) -> its place among its 4 values.
PATH_CODE: dict[str | None, int] = {None: 0, **{colour: c + 1 for c, colour in enumerate(COLOURS)}}
#: The kinds of a move, in kind order, -> their 3-bit mask.
MASK_OF = {tuple(kinds(mask)): mask for mask in range(1, 8)}


def play_occupancies() -> Iterator[int]:
    """Every occupancy of play (``moves.occupancy``): each kind on three of the five spaces."""
    threes = [sum(1 << space for space in spaces) for spaces in combinations(range(SPACES), 3)]
    for cups in threes:
        for saucers in threes:
            for spoons in threes:
                yield cups | saucers << SPACES | spoons << 2 * SPACES


def _mask(names: list[str]) -> int:
    return MASK_OF[tuple(names)]  # a list out of kind order has no entry: the table decides


class ActionFields(Protocol):
    """The fields ``fast_index`` reads, typed by key, for the checker only: any JSON action
    (``Mapping[str, Any]``) passes as one, and the body needs no typed locals (a cost on
    this path); the codec checks every answer against the table, whatever the fields hold."""

    @overload
    def __getitem__(self, key: Literal["type", "kind", "colour"], /) -> str: ...
    @overload
    def __getitem__(self, key: Literal["kinds", "with"], /) -> list[str]: ...
    @overload
    def __getitem__(self, key: Literal["turned"], /) -> bool: ...
    @overload
    def __getitem__(self, key: Literal["from", "to", "card", "space"], /) -> int: ...


def fast_index(action: ActionFields) -> int:
    """The table index of ``action`` by arithmetic (the codec checks it against the table)."""
    kind = action["type"]
    if kind == "move":
        start, end = action["from"], action["to"]
        return PLACES + start * 28 + (end - (end > start)) * 7 + _mask(action["kinds"]) - 1
    if kind == "score":
        return PLACES + MOVES + EXCHANGES + (action["card"] - 1) * 2 + bool(action["turned"])
    if kind == "exchange":
        pair = PAIR_INDEX[action["from"], action["to"]]
        given, taken = _mask(action["kinds"]), _mask(action["with"])
        return PLACES + MOVES + pair * 49 + (given - 1) * 7 + taken - 1
    if kind == "place":
        return (
            KIND_INDEX[action["kind"]] * 15 + COLOUR_INDEX[action["colour"]] * 5 + action["space"]
        )
    if kind == "end_turn":
        return PLACES + MOVES + EXCHANGES + SCORES
    if kind == "undo":
        return PLACES + MOVES + EXCHANGES + SCORES + 1
    raise KeyError(kind)


def features(view: View, f: Features) -> None:
    seat = view["seat"] if view["seat"] is not None else 0
    players = view["players"]
    n = len(players)
    f.one_hot(["setup", "play", "over"].index(view["phase"]), 3)
    f.one_hot(view["round"] - 1, 2)
    f.flag(view["solo"])
    f.flag(view["master"])
    ones, base = f.ones, f.size
    for space in view["path"]:  # 5 spaces x 3 kinds x (empty, brown, white, black)
        for kind in KINDS:
            ones.append(base + PATH_CODE[space[kind]])
            base += 4
    f.skip(SPACES * len(KINDS) * 4)
    setup = view["setup"]
    f.one_hot(None if setup is None else KINDS.index(setup["kind"]), 3)
    f.scalar(0 if setup is None else setup["placed"], 9)
    f.one_hot(relative(seat, view["turn"], n), n)
    f.scalar(view["actions_taken"], 3)
    f.flag(view["scored_this_turn"])
    for offset in range(n):
        player = players[(seat + offset) % n]
        f.multi_hot([card["id"] - 1 for card in player["cards"]], CARDS)
        f.multi_hot([card["id"] - 1 for card in player["scored"]], CARDS)
        f.scalar(player["pile"]["count"], 8)
        f.scalar(player["beans"], 20)
    f.scalar(view["reserve"], 60)
    f.multi_hot([(w - seat) % n for w in view["winners"]], n)


#: Where the blocks start in the observation (see the module docstring's layout).
PATH_AT = 7
SETUP_AT = PATH_AT + SPACES * len(KINDS) * 4
TURN_AT = SETUP_AT + 4
SEAT_VALUES = 2 * CARDS + 2
PHASE_INDEX = {"setup": 0, "play": 1, "over": 2}
#: The most actions ``DoppioCodec`` remembers by identity (past it, it starts again).
KNOWN_KEPT = 20_000


class DoppioCodec(Codec):
    """Doppio's codec, with the environment's fast paths (the tests hold them to the plain ones).

    - ``legal_from`` knows actions by identity: the engine lists the same
      action objects again and again (``moves.move_actions`` makes each
      once, and no code changes an action it is given), so each is encoded
      once. An entry keeps its action alive, so an id is never another's.
      In play the list starts with the moves of the path's occupancy, one
      shared tuple: its legal dict and mask bytes are kept by that tuple
      (checked by identity, action by action), so a step encodes only the
      few actions after it and ``Table.mask`` copies the kept bytes.
    - ``observe_state`` reads the state, not a view built for it.
    """

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        super().__init__("doppio", players, options, action_table(), features, fast_index)
        #: id -> index of each action met (``_alive`` keeps those actions, so an id
        #: in it is never a new action's)
        self._known: dict[int, int] = {}
        self._alive: list[Action] = []
        self._heads, self._turns = Blocks(_head), Blocks(_turn)
        self._seats, self._ends = Blocks(_seat), Blocks(_end)
        #: id of an occupancy's moves tuple -> what ``legal_from`` keeps of it (``_kept_moves``)
        self._moves: dict[int, tuple[Moves, list[Action], LegalMap, bytes]] = {}
        # all 1,000 kept at once: about 0.2 s the first time (it fills the engine's move
        # tables too), some MB; kept lazily, a short run met a new one every other step
        for packed in play_occupancies():
            moves = move_actions(packed)
            self._moves[id(moves)] = self._kept_moves(moves)

    def legal_from(
        self, actions: Iterable[Action], state: State | None = None, seat: int | None = None
    ) -> dict[int, Action]:
        listed = actions if type(actions) is list else list(actions)
        s: Any = state
        if s is not None and s.phase == "play" and listed:
            # The engine lists an occupancy's moves first, as one shared tuple
            # (``move_actions``, cached): their indices and mask are kept by the tuple.
            moves = move_actions(s._occupancy())
            kept = self._moves.get(id(moves))
            if kept is None or kept[0] is not moves:
                kept = self._moves[id(moves)] = self._kept_moves(moves)
            count = len(moves)
            if listed[:count] == kept[1]:  # the same objects: compared by identity
                out = LegalMap(kept[2])
                mask = out.mask = bytearray(kept[3])
                known = self._known
                for action in listed[count:]:  # scores, end_turn, undo: a few
                    index = known.get(id(action))
                    if index is None:
                        index = self._learn(action)
                    if index is not None and index not in out:
                        out[index] = action
                        mask[index] = 1
                return out
        return self._legal_each(listed)

    def _kept_moves(self, moves: Moves) -> tuple[Moves, list[Action], LegalMap, bytes]:
        """What ``legal_from`` keeps of an occupancy's moves: the tuple (alive, so its id is
        never another's), as a list, its legal dict, and its mask's bytes."""
        legal = self._legal_each(list(moves))
        mask = bytearray(self.num_actions)
        for index in legal:
            mask[index] = 1
        return moves, list(moves), legal, bytes(mask)

    def _learn(self, action: Action) -> int | None:
        """The index of an action met for the first time, kept by its id."""
        index = self.lookup(action)
        if index is not None:
            if len(self._alive) >= KNOWN_KEPT:
                self._known.clear()
                self._alive.clear()
            self._known[id(action)] = index
            self._alive.append(action)  # kept alive: its id is never another action's
        return index

    def _legal_each(self, actions: list[Action]) -> LegalMap:
        """``legal_from`` an action at a time (the set-up, and lists met the first time)."""
        known = self._known
        out = LegalMap()
        for action in actions:
            index = known.get(id(action))
            if index is None:
                index = self._learn(action)
            if index is not None and index not in out:
                out[index] = action
        return out

    def observe_state(self, state: State, seat: int) -> NDArray[np.float32]:
        """``observe(state.view(seat))`` from the state's fields (``features``' layout), joined
        from blocks' bytes: the path's spaces and the seats' cards from precomputed pieces,
        the rest kept by what it shows (``Blocks``)."""
        s: Any = state
        n = s.players
        phase = s.phase
        parts = [
            self._heads[phase, s.round_number, n, s.master],
            *map(SPACE_BYTES.__getitem__, s._path),
            self._turns[
                n,
                s.placed if phase == "setup" else None,
                None if phase == "over" else (s.current - seat) % n,
                s.actions_taken,
                s.scored_this_turn,
            ],
        ]
        bit = CARD_BITS.__getitem__
        for offset in range(n):
            other = (seat + offset) % n
            face = sum(map(bit, s.face_up[other]))
            scored = sum(map(bit, s.scored[other]))
            parts += (
                EIGHT_BYTES[face & 255],
                EIGHT_BYTES[face >> 8],
                EIGHT_BYTES[scored & 255],
                EIGHT_BYTES[scored >> 8],
                self._seats[len(s.piles[other]), s.beans[other]],
            )
        parts.append(self._ends[seat, n, s.reserve, (*s._winners,)])
        return joined(parts)


#: A path space (a colour or None a kind) -> its 12 values as bytes: all 64 precomputed.
SPACE_BYTES = {
    space: block_bytes(
        12, [4 * kind + (0 if colour is None else colour + 1) for kind, colour in enumerate(space)]
    )
    for space in product((None, *range(len(COLOURS))), repeat=len(KINDS))
}
#: A card's bit (cards 1-16; 0 has none), and eight cards' multi-hot by their bits, as bytes.
CARD_BITS = [0] + [1 << card for card in range(CARDS)]
EIGHT_BYTES = [block_bytes(8, [n for n in range(8) if bits >> n & 1]) for bits in range(256)]


def _head(key: tuple[str, int, int, bool]) -> bytes:
    """Phase, round, solo, master: 7 values."""
    phase, round_number, players, master = key
    ones = [PHASE_INDEX[phase], 3 + round_number - 1]
    if players == 1:
        ones.append(5)
    if master:
        ones.append(6)
    return block_bytes(PATH_AT, ones)


def _turn(key: tuple[int, int | None, int | None, int, bool]) -> bytes:
    """Set-up (kind, placed), whose turn, actions taken, scored: 6 values and one a seat."""
    players, placed, turn, taken, scored = key
    ones: list[int] = []
    indices: list[int] = []
    values: list[float] = []
    if placed is not None:
        ones.append(KIND_INDEX[SETUP_ORDER[placed // 3]])
        scaled(ones, indices, values, 3, placed, 9)
    if turn is not None:
        ones.append(4 + turn)
    scaled(ones, indices, values, 4 + players, taken, 3)
    if scored:
        ones.append(5 + players)
    return block_bytes(6 + players, ones, indices, values)


def _seat(key: tuple[int, int]) -> bytes:
    """A seat's pile count / 8 and beans / 20."""
    pile, beans = key
    ones: list[int] = []
    indices: list[int] = []
    values: list[float] = []
    scaled(ones, indices, values, 0, pile, 8)
    scaled(ones, indices, values, 1, beans, 20)
    return block_bytes(2, ones, indices, values)


def _end(key: tuple[int, int, int, tuple[int, ...]]) -> bytes:
    """The reserve / 60 and the winners, relative to the observer."""
    seat, players, reserve, winners = key
    ones: list[int] = []
    indices: list[int] = []
    values: list[float] = []
    scaled(ones, indices, values, 0, reserve, 60)
    ones += [1 + (w - seat) % players for w in winners]
    return block_bytes(1 + players, ones, indices, values)


def build(players: int, options: dict[str, Any]) -> Codec:
    return DoppioCodec(players, options)
