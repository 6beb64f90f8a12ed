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

from collections.abc import Iterable
from contextlib import suppress
from itertools import combinations
from typing import TYPE_CHECKING, Any, Literal, Protocol, overload

import numpy as np

from coffeetable.engine import Action, State, View
from coffeetable.games.fika.cards import CARD_COUNT, COLOURS, GROUPS, SPOTS, SUPPLY
from coffeetable.interop.encoding import Codec, Features, relative

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
        #: An action's items, in the table's order, -> its index, for the actions of
        #: hashable values (all but swaps and spot pairs): the engine writes its actions'
        #: keys in that order, so ``legal_from`` finds most with one look-up in C.
        self._by_items: dict[tuple[tuple[str, Any], ...], int] = {}
        for index, action in enumerate(self.actions):
            with suppress(TypeError):  # a list in it: looked up the usual way
                self._by_items[tuple(action.items())] = index

    def legal_from(
        self, actions: Iterable[Action], state: State | None = None, seat: int | None = None
    ) -> dict[int, Action]:
        """index -> action (the first of equal indices); each action's items are looked up
        whole, then (a list in them, or keys in another order) the base ``lookup``."""
        by_items, lookup = self._by_items, self.lookup
        out: dict[int, Action] = {}
        for action in actions:
            try:
                index: int | None = by_items[tuple(action.items())]
            except (KeyError, TypeError):
                index = lookup(action)
            if index is not None and index not in out:
                out[index] = action
        return out

    def observe_state(self, state: State, seat: int) -> NDArray[np.float32]:
        s: Any = state
        phase = s.phase
        revealed = phase in ("place", "effect")
        ones = [seat, 2 + PHASE_INDEX[phase], 7 + min(s.round_number, ROUNDS) - 1]
        indices: list[int] = []
        values: list[float] = []
        ones += [COLOUR_ORDER_AT + 3 * rank + c for rank, c in enumerate(s.colour_order[:3])]
        if s.chooser is not None:
            ones.append(19 + (s.chooser - seat) % 2)
        ones += [
            SUPPLY_AT + CARD_COUNT * n + card for n, card in enumerate(s.supply) if card is not None
        ]
        at = GROUPS_AT
        for group in s.groups:
            if group.column is not None:
                ones.append(at + group.column)
            if group.facing is not None:
                ones.append(at + SPOTS + (group.facing - seat) % 2)
            if seat in group.known:
                ones.append(at + SPOTS + 2 + group.card)
            at += GROUP_VALUES
        for offset in (0, 1):
            other = (seat + offset) % 2
            ones += [
                at + CARD_COUNT * spot + card
                for spot, card in enumerate(s.cafes[other])
                if card is not None
            ]
            at += SPOTS * CARD_COUNT
            hand = s.hands[other]
            if other == seat:
                ones += [at + card for card in hand]
            at += CARD_COUNT
            if hand:
                if len(hand) >= 6:
                    ones.append(at)
                else:
                    indices.append(at)
                    values.append(len(hand) / 6)
            pick = s.picks[other]
            if pick is not None:
                ones.append(at + 1)
                if revealed or other == seat:
                    ones.append(at + 2 + pick)
            at += 2 + CARD_COUNT
            tips = s.tips[other]
            if tips > 0:
                if tips >= 2:
                    ones.append(at)
                else:
                    indices.append(at)
                    values.append(tips / 2)
            at += 1
        if revealed and s.order:
            ones.append(ORDER_AT + (s.order[0] - seat) % 2)
            if len(s.order) >= 2:
                ones.append(ORDER_AT + 2)
            else:
                indices.append(ORDER_AT + 2)
                values.append(len(s.order) / 2)
        if phase == "effect":
            ones.append(ORDER_AT + 3 + s._pending_number() - 1)
            if s.placed_spot is not None:
                ones.append(ORDER_AT + 9 + s.placed_spot)
        if s.lone is not None:
            ones.append(ORDER_AT + 14 + (s.lone - seat) % 2)
            left = s.lone_left
            if left > 0:
                if left >= 2:
                    ones.append(ORDER_AT + 16)
                else:
                    indices.append(ORDER_AT + 16)
                    values.append(left / 2)
        ones += [ORDER_AT + 17 + (w - seat) % 2 for w in s.winners]
        out = np.zeros(self.observation_size, dtype=np.float32)
        out.put(ones, 1.0)
        if indices:
            out.put(indices, values)
        return out


def build(players: int, options: dict[str, Any]) -> Codec:
    return FikaCodec(players, options)
