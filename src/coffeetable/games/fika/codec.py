"""Fika's integer actions and observation (2 players): 3,289 actions.

Actions, in index order. ``cafe`` in an effect is an absolute seat (0 or 1),
as in the JSON; a hand card is its id 0-17 (``colour * 6 + number - 1``).

===========  =====  =======================================================
range        count  action
===========  =====  =======================================================
0-2          3      colour: brown green pink
3-20         18     pick: card 0-17
21           1      stop
22-26        5      place: spot 0-4
27           1      skip
28-67        40     effect 1: supply 0-3 x cafe 0-1 x spot 0-4
68-72        5      effect 2: spot 0-4
73-108       36     effect 3: hand card 0-17 x group 0-1
109-198      90     effect 4, one swap: column 0-4 x hand card 0-17
199-3258     3060   effect 4, two swaps: columns a < b (10 pairs) x card for a x card for b (!= a's)
3259-3268    10     effect 5: group 0-1 x column 0-4
3269-3288    20     effect 6: cafe 0-1 x spots a < b (10 pairs)
===========  =====  =======================================================

Observation (seats relative: the observer first): 420 values.

- own seat one-hot 2; phase one-hot (colours pick place effect over) 5;
  round one-hot 3; colour order 3 ranks x 3 colours; chooser one-hot 2
- supply: 4 x card one-hot 18
- groups, 2 x: column one-hot 5 (none: beside the street), facing one-hot 2,
  card one-hot 18 (only once the observer has seen it)
- per seat: café 5 spots x card one-hot 18, hand multi-hot 18 (the
  observer's own only), hand count / 6, picked, the pick one-hot 18 (own, or
  both once revealed), tips / 2
- placement order: who places next one-hot 2, cards still to place / 2
- pending effect: number one-hot 6, spot one-hot 5
- lone plays: seat one-hot 2, plays left / 2; winners multi-hot 2
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any, Literal, Protocol, overload

import numpy as np

from coffeetable.engine import Action, State, View
from coffeetable.games.fika.cards import CARD_COUNT, COLOURS, GROUPS, SPOTS, SUPPLY
from coffeetable.interop.encoding import (
    Blocks,
    Codec,
    Features,
    block_bytes,
    joined,
    relative,
    scaled,
)

if TYPE_CHECKING:
    from numpy.typing import NDArray

PHASES = ("colours", "pick", "place", "effect", "over")
ROUNDS = 3


def action_table() -> list[Action]:
    cards = range(CARD_COUNT)
    actions: list[Action] = [{"type": "colour", "colour": colour} for colour in COLOURS]
    actions += [{"type": "pick", "card": card} for card in cards]
    actions.append({"type": "stop"})
    actions += [{"type": "place", "spot": spot} for spot in range(SPOTS)]
    actions.append({"type": "skip"})
    actions += [
        {"type": "effect", "supply": index, "cafe": cafe, "spot": spot}
        for index in range(SUPPLY)
        for cafe in (0, 1)
        for spot in range(SPOTS)
    ]
    actions += [{"type": "effect", "spot": spot} for spot in range(SPOTS)]
    actions += [
        {"type": "effect", "hand": card, "group": group}
        for card in cards
        for group in range(GROUPS)
    ]
    actions += [
        {"type": "effect", "swaps": [[column, card]]} for column in range(SPOTS) for card in cards
    ]
    actions += [
        {"type": "effect", "swaps": [[a, first], [b, second]]}
        for a, b in combinations(range(SPOTS), 2)
        for first in cards
        for second in cards
        if second != first
    ]
    actions += [
        {"type": "effect", "group": group, "column": column}
        for group in range(GROUPS)
        for column in range(SPOTS)
    ]
    actions += [
        {"type": "effect", "cafe": cafe, "spots": [a, b]}
        for cafe in (0, 1)
        for a, b in combinations(range(SPOTS), 2)
    ]
    return actions


COLOUR_INDEX = {colour: c for c, colour in enumerate(COLOURS)}
PAIR_INDEX: dict[tuple[int, ...], int] = {
    pair: n for n, pair in enumerate(combinations(range(SPOTS), 2))
}


class ActionFields(Protocol):
    """The fields ``fast_index`` reads, typed by key, for the checker only: any JSON action
    (``Mapping[str, Any]``) passes as one, and the body needs no typed locals (a cost on
    this path); the codec checks every answer against the table, whatever the fields hold."""

    @overload
    def __getitem__(self, key: Literal["type", "colour"], /) -> str: ...
    @overload
    def __getitem__(self, key: Literal["swaps"], /) -> list[list[int]]: ...
    @overload
    def __getitem__(self, key: Literal["spots"], /) -> list[int]: ...
    @overload
    def __getitem__(
        self, key: Literal["card", "spot", "supply", "cafe", "hand", "group", "column"], /
    ) -> int: ...
    def __contains__(self, key: object, /) -> bool: ...


def fast_index(action: ActionFields) -> int:
    """The table index of ``action`` by arithmetic (the codec checks it against the table)."""
    kind = action["type"]
    if kind == "pick":
        return 3 + action["card"]
    if kind == "place":
        return 22 + action["spot"]
    if kind == "effect":
        if "supply" in action:
            return 28 + action["supply"] * 10 + action["cafe"] * 5 + action["spot"]
        if "swaps" in action:
            swaps = action["swaps"]
            if len(swaps) == 1:
                return 109 + swaps[0][0] * CARD_COUNT + swaps[0][1]
            (a, first), (b, second) = swaps
            seconds = CARD_COUNT - 1
            offset = PAIR_INDEX[a, b] * CARD_COUNT * seconds + first * seconds
            return 199 + offset + second - (second > first)
        if "hand" in action:
            return 73 + action["hand"] * GROUPS + action["group"]
        if "column" in action:
            return 3259 + action["group"] * SPOTS + action["column"]
        if "spots" in action:
            return 3269 + action["cafe"] * 10 + PAIR_INDEX[tuple(action["spots"])]
        return 68 + action["spot"]
    if kind == "colour":
        return COLOUR_INDEX[action["colour"]]
    if kind == "stop":
        return 21
    if kind == "skip":
        return 27
    raise KeyError(kind)


def _card(card: dict[str, Any] | None) -> int | None:
    return None if card is None else int(card["id"])


def features(view: View, f: Features) -> None:
    seat = view["seat"] if view["seat"] is not None else 0
    f.one_hot(seat, 2)
    f.one_hot(PHASES.index(view["phase"]), len(PHASES))
    f.one_hot(min(view["round"], ROUNDS) - 1, ROUNDS)
    order = view["colour_order"]
    for rank in range(3):
        f.one_hot(COLOURS.index(order[rank]) if rank < len(order) else None, 3)
    f.one_hot(relative(seat, view["chooser"], 2), 2)
    for card in view["supply"]:
        f.one_hot(_card(card), CARD_COUNT)
    for group in view["groups"]:
        f.one_hot(group["column"], SPOTS)
        f.one_hot(relative(seat, group["facing"], 2), 2)
        f.one_hot(_card(group["card"]), CARD_COUNT)
    for offset in (0, 1):
        player = view["players"][(seat + offset) % 2]
        for card in player["cafe"]:
            f.one_hot(_card(card), CARD_COUNT)
        f.multi_hot([card["id"] for card in player["hand"] or []], CARD_COUNT)
        f.scalar(player["hand_count"], 6)
        f.flag(player["picked"])
        f.one_hot(_card(player["pick"]), CARD_COUNT)
        f.scalar(player["tips"], 2)
    placing = view["order"]
    f.one_hot(relative(seat, placing[0], 2) if placing else None, 2)
    f.scalar(len(placing), 2)
    effect = view["effect"]
    f.one_hot(None if effect is None else effect["number"] - 1, 6)
    f.one_hot(None if effect is None else effect["spot"], SPOTS)
    lone = view["lone"]
    f.one_hot(None if lone is None else relative(seat, lone["seat"], 2), 2)
    f.scalar(0 if lone is None else lone["left"], 2)
    f.multi_hot([(w - seat) % 2 for w in view["winners"]], 2)


#: Where the blocks start in the observation (see the module docstring's layout).
COLOUR_ORDER_AT = 10
SUPPLY_AT = 21
GROUPS_AT = SUPPLY_AT + SUPPLY * CARD_COUNT
GROUP_VALUES = SPOTS + 2 + CARD_COUNT
PLAYERS_AT = GROUPS_AT + GROUPS * GROUP_VALUES
PLAYER_VALUES = SPOTS * CARD_COUNT + 2 * CARD_COUNT + 3
ORDER_AT = PLAYERS_AT + 2 * PLAYER_VALUES
PHASE_INDEX = {phase: p for p, phase in enumerate(PHASES)}


class FikaCodec(Codec):
    """Fika's codec; ``observe_state`` reads the state, not a view built for it (the tests
    hold it to ``features`` of the view, and the view's hiding: only what the seat sees)."""

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        super().__init__("fika", players, options, action_table(), features, fast_index)
        self._heads, self._groups = Blocks(_head), Blocks(_groups)
        self._seats, self._ends = Blocks(_seat), Blocks(_end)
        self._supplies, self._cafes = Blocks(_cards), Blocks(_cards)

    def observe_state(self, state: State, seat: int) -> NDArray[np.float32]:
        """``observe(state.view(seat))`` from the state's fields, block by block (``Blocks``):
        each block's key is the part of the state it shows, as the observer sees it."""
        s: Any = state
        phase = s.phase
        revealed = phase in ("place", "effect")
        groups: tuple[Any, ...] = (seat,)
        for group in s.groups:
            groups += (group.column, group.facing, group.card if seat in group.known else None)
        other = 1 - seat
        hands, picks, cafes, tips = s.hands, s.picks, s.cafes, s.tips
        hand, pick, far = hands[seat], picks[seat], picks[other]
        order = s.order if revealed else ()
        bits = sum(map(CARD_BITS.__getitem__, hand))  # the hand, a bit a card
        return joined(
            (
                self._heads[seat, phase, s.round_number, s.chooser, *s.colour_order],
                self._supplies[(*s.supply,)],
                self._groups[groups],
                self._cafes[(*cafes[seat],)],
                HAND_BYTES[bits & 63],
                HAND_BYTES[bits >> THIRD & 63],
                HAND_BYTES[bits >> 2 * THIRD],
                self._seats[len(hand), pick is not None, pick, tips[seat]],
                self._cafes[(*cafes[other],)],
                NO_CARD_BYTES,
                self._seats[
                    len(hands[other]), far is not None, far if revealed else None, tips[other]
                ],
                self._ends[
                    seat,
                    (*order,),
                    s._pending_number() if phase == "effect" else None,
                    s.placed_spot,
                    s.lone,
                    s.lone_left,
                    (*s._winners,),
                ],
            )
        )


#: A card's one-hot block (None: none) as bytes: the supply's and the cafés' slots.
CARD_BYTES: dict[int | None, bytes] = {
    card: block_bytes(CARD_COUNT, () if card is None else (card,))
    for card in (None, *range(CARD_COUNT))
}
NO_CARD_BYTES = CARD_BYTES[None]
#: A card's bit in a hand, and a third of the hand's multi-hot (six cards: a
#: colour) by its six bits as bytes: the hand block in three precomputed pieces.
CARD_BITS = [1 << card for card in range(CARD_COUNT)]
THIRD = CARD_COUNT // 3
HAND_BYTES = [
    block_bytes(THIRD, [card for card in range(THIRD) if bits >> card & 1])
    for bits in range(1 << THIRD)
]


def _cards(key: tuple[int | None, ...]) -> bytes:
    """Card slots (the supply, a café), each one-hot or none."""
    return b"".join([CARD_BYTES[card] for card in key])


#: Each other block of the layout from its key: what ``FikaCodec.observe_state`` joins.
def _head(key: tuple[Any, ...]) -> bytes:
    """Own seat, phase, round, colour order, chooser: 21 values."""
    seat, phase, round_number, chooser, *order = key
    ones = [seat, 2 + PHASE_INDEX[phase], 7 + min(round_number, ROUNDS) - 1]
    ones += [COLOUR_ORDER_AT + 3 * rank + c for rank, c in enumerate(order[:3])]
    if chooser is not None:
        ones.append(19 + (chooser - seat) % 2)
    return block_bytes(SUPPLY_AT, ones)


def _groups(key: tuple[Any, ...]) -> bytes:
    """Per group (seat, then column, facing, card or None, a group after another)."""
    seat, ones, at = key[0], [], 0
    for n in range(1, len(key), 3):
        column, facing, card = key[n : n + 3]
        if column is not None:
            ones.append(at + column)
        if facing is not None:
            ones.append(at + SPOTS + (facing - seat) % 2)
        if card is not None:
            ones.append(at + SPOTS + 2 + card)
        at += GROUP_VALUES
    return block_bytes(GROUPS * GROUP_VALUES, ones)


def _seat(key: tuple[int, bool, int | None, int]) -> bytes:
    """Hand count, picked, the pick when seen, tips: 21 values."""
    count, picked, pick, tips = key
    ones: list[int] = []
    indices: list[int] = []
    values: list[float] = []
    scaled(ones, indices, values, 0, count, 6)
    if picked:
        ones.append(1)
    if pick is not None:
        ones.append(2 + pick)
    scaled(ones, indices, values, 2 + CARD_COUNT, tips, 2)
    return block_bytes(3 + CARD_COUNT, ones, indices, values)


def _end(key: tuple[Any, ...]) -> bytes:
    """Placement order, pending effect, lone plays, winners: 19 values."""
    seat, order, number, spot, lone, left, winners = key
    ones: list[int] = []
    indices: list[int] = []
    values: list[float] = []
    if order:
        ones.append((order[0] - seat) % 2)
        scaled(ones, indices, values, 2, len(order), 2)
    if number is not None:
        ones += [3 + number - 1, 9 + spot]
    if lone is not None:
        ones.append(14 + (lone - seat) % 2)
        scaled(ones, indices, values, 16, left, 2)
    ones += [17 + (w - seat) % 2 for w in winners]
    return block_bytes(19, ones, indices, values)


def build(players: int, options: dict[str, Any]) -> Codec:
    return FikaCodec(players, options)
