"""Café's integer actions and observation (1-4 players): 41,891 actions.

A company grows from its start card at (0, 0)-(2, 1); every placement covers
2 to 4 visible squares, so it reaches at most 2 squares past what was there,
and 8 placements keep every square (and every card's top-left corner) within
x in -16..18, y in -16..17: the ``BOARD`` of 35 x 34 positions. A position
below is an index ``(y + 16) * 35 + (x + 16)`` into it; an area is named by
its id square (its first square in reading order), as ``legal_actions`` does.

Actions, in index order (1,190 positions; the 48 plan cards in the order of
``cards.PLANS``; the café cards, ``CAFE_IDS``, in the order of ``cards``):

============  ======  =====================================================
range         count   action
============  ======  =====================================================
0-239         240     take: plan card (48) x pay (none, red yellow green black)
240-4999      4,760   place: rotation 0-3 x position (top-left corner)
5000-6189     1,190   produce: area position
6190-10949    4,760   dry: colour x area position
10950-15709   4,760   roast: colour x area position
15710-41889   26,180  deliver: area position x recipient (22)
41890         1       pass
============  ======  =====================================================

A deliver's recipient is one of 22: 0 the warehouse (``"to": {}``); 1-20
one café (the 20 café cards: the 4 start cards, then the plan cards with a
café), which takes every cube of the area it still wants
(the rest to the warehouse); 21 every café in id order, each taking what it
still wants of what is left. These depend on the state, so a deliver decodes
with the state and seat. Other splits of an area's cubes among several cafés
are legal in the game but not in this space (the mask leaves them out); every
roasting area with cubes always has recipient 0.

Observation (seats relative: the observer first): per seat 17,998 values,
plus 177 for the table (solo: 18,175; 2 players: 36,173; 4 players: 72,169).

- table: own seat one-hot 4; phase one-hot (take place actions over) 4;
  round one-hot 8; Master and whose turn, relative one-hot 4 each; display,
  card held, discard: plan card multi-hot 48 each; deck count / 40;
  supply per colour / 35
- per seat: the board, 1,190 positions x 15 (icon one-hot: bean dry roast
  cup ship cafe blank; bean colour one-hot 4; cubes per colour / 3); cafés,
  20 café ids x (in play, lost, complete, cubes had per colour / 3); warehouse
  per colour / 10; cups / 10; ships / 10; actions left / 8; score / 50
- winners multi-hot 4
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import TYPE_CHECKING, Any

from coffeetable.engine import Action, IllegalAction, State, View
from coffeetable.games.cafe.cards import COLOURS, PLANS, ROUNDS, STARTS
from coffeetable.games.cafe.rules import CafeState
from coffeetable.interop.encoding import Codec, Features, action_key, relative, scaled

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

REACH = 2 * ROUNDS
X_MIN, X_MAX = -REACH, 2 + REACH
Y_MIN, Y_MAX = -REACH, 1 + REACH
WIDTH, HEIGHT = X_MAX - X_MIN + 1, Y_MAX - Y_MIN + 1
POSITIONS = WIDTH * HEIGHT
PLAN_IDS = [card.id for card in PLANS]
CAFE_IDS = [card.id for card in STARTS + PLANS if card.has_cafe]
RECIPIENTS = 2 + len(CAFE_IDS)
ICONS = ("bean", "dry", "roast", "cup", "ship", "cafe", "blank")
PHASES = ("take", "place", "actions", "over")
SQUARE = len(ICONS) + 2 * len(COLOURS)
MAX_PLAYERS = 4


ICON_INDEX = {icon: i for i, icon in enumerate(ICONS)}
COLOUR_OFFSET = {colour: len(ICONS) + c for c, colour in enumerate(COLOURS)}
CUBE_OFFSET = {colour: len(ICONS) + len(COLOURS) + c for c, colour in enumerate(COLOURS)}
PLAN_INDEX = {card: i for i, card in enumerate(PLAN_IDS)}
#: Where each kind of action starts in the table (see the docstring's table).
PLACE_BASE = 5 * len(PLAN_IDS)
PRODUCE_BASE = PLACE_BASE + 4 * POSITIONS
DRY_BASE = PRODUCE_BASE + POSITIONS
ROAST_BASE = DRY_BASE + len(COLOURS) * POSITIONS
PASS_INDEX = ROAST_BASE + len(COLOURS) * POSITIONS + POSITIONS * RECIPIENTS
PAY_INDEX = {None: 0, **{colour: 1 + c for c, colour in enumerate(COLOURS)}}
COLOUR_INDEX = {colour: c for c, colour in enumerate(COLOURS)}


def positions() -> list[tuple[int, int]]:
    """The board's (x, y), in index order (reading order)."""
    return [(x, y) for y in range(Y_MIN, Y_MAX + 1) for x in range(X_MIN, X_MAX + 1)]


def position(x: int, y: int) -> int | None:
    if X_MIN <= x <= X_MAX and Y_MIN <= y <= Y_MAX:
        return (y - Y_MIN) * WIDTH + (x - X_MIN)
    return None


def area_of(action: Any) -> tuple[tuple[int, int], int] | None:
    """An action's ``area`` as ``(x, y)`` with its position, or None if it names none on the
    board."""
    area = action.get("area")
    if not isinstance(area, list) or len(area) != 2:
        return None
    spot = position(area[0], area[1])
    return None if spot is None else ((area[0], area[1]), spot)


#: Values per café in a company's block (in play, lost, complete, cubes had per colour).
CAFE_VALUES = 3 + len(COLOURS)
#: café id -> where its values start in the cafés block.
CAFE_BASE = {cafe_id: n * CAFE_VALUES for n, cafe_id in enumerate(CAFE_IDS)}
#: (x, y) -> where the square's 15 values start in a company's board block.
SQUARE_BASE = {(x, y): n * SQUARE for n, (x, y) in enumerate(positions())}


def fast_index(action: Any) -> int:
    """The table index of ``action`` by arithmetic (the codec checks it against the table);
    deliveries are the codec's (they depend on the state)."""
    kind = action["type"]
    if kind == "place":
        return (
            PLACE_BASE
            + action["rotation"] * POSITIONS
            + SQUARE_BASE[action["x"], action["y"]] // SQUARE
        )
    if kind == "take":
        return PLAN_INDEX[action["card"]] * 5 + PAY_INDEX[action.get("pay")]
    if kind in ("produce", "dry", "roast"):
        x, y = action["area"]
        spot = SQUARE_BASE[x, y] // SQUARE
        if kind == "produce":
            return PRODUCE_BASE + spot
        base = DRY_BASE if kind == "dry" else ROAST_BASE
        return base + COLOUR_INDEX[action["colour"]] * POSITIONS + spot
    if kind == "pass":
        return PASS_INDEX
    raise KeyError(kind)


def action_table() -> list[Action]:
    board = positions()
    actions: list[Action] = []
    for card in PLAN_IDS:
        actions.append({"type": "take", "card": card})
        actions += [{"type": "take", "card": card, "pay": colour} for colour in COLOURS]
    actions += [
        {"type": "place", "x": x, "y": y, "rotation": r} for r in range(4) for x, y in board
    ]
    actions += [{"type": "produce", "area": [x, y]} for x, y in board]
    for kind in ("dry", "roast"):
        actions += [
            {"type": kind, "colour": colour, "area": [x, y]} for colour in COLOURS for x, y in board
        ]
    # deliveries: placeholders, resolved against the state (see CafeCodec.decode)
    actions += [
        {"type": "deliver", "area": [x, y], "recipient": r}
        for x, y in board
        for r in range(RECIPIENTS)
    ]
    actions.append({"type": "pass"})
    return actions


class CafeCodec(Codec):
    """Café's codec: deliveries are encoded by recipient and decoded with the state.

    The environment's paths, ``observe_state`` and ``legal_from`` with a state,
    are ``cafe_state``'s: they read the state, not a view (the site's path,
    ``features``), and the tests hold them to it.
    """

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        super().__init__("cafe", players, options, action_table(), features, fast_index)
        from coffeetable.interop import cafe_state  # it reads this module's tables

        self._state = cafe_state
        self.deliver_base = self._index[
            action_key({"type": "deliver", "area": [X_MIN, Y_MIN], "recipient": 0})
        ]

    def _recipients(self, state: State, seat: int, area_id: tuple[int, int]) -> list[Action]:
        """The deliveries of the area for each recipient 0..21 (a legal action each)."""
        assert isinstance(state, CafeState)
        company = state.companies[seat]
        area = company.area_at(area_id)
        if area is None or area.kind != "roast":
            raise IllegalAction(f"there is no roasting area at {list(area_id)}")
        wants = {
            cafe.id: {colour: cafe.wants(colour) for colour in COLOURS}
            for cafe in company.cafes.values()
        }
        return deliveries(list(area.id), company.cubes_on(area), wants)

    def _recipients_in_view(self, view: View, area_id: tuple[int, int]) -> list[Action]:
        """``_recipients`` from the seat's view (what the site sends): the same deliveries."""
        company = view["players"][view["seat"]]
        area = next((a for a in company["areas"] if tuple(a["id"]) == area_id), None)
        if area is None or area["kind"] != "roast":
            raise IllegalAction(f"there is no roasting area at {list(area_id)}")
        wants = {
            cafe["id"]: {
                colour: 0
                if cafe["lost"]
                else max(0, cafe["need"].get(colour, 0) - cafe["have"].get(colour, 0))
                for colour in COLOURS
            }
            for cafe in company["cafes"]
        }
        return deliveries(list(area["id"]), dict(area["cubes"]), wants)

    def encode_in_view(self, action: Any, view: View) -> int | None:
        if not isinstance(action, dict) or action.get("type") != "deliver":
            return super().encode_in_view(action, view)
        return self._encode_delivery(action, lambda area: self._recipients_in_view(view, area))

    def decode_in_view(self, index: int, view: View) -> Action:
        action = super().decode(index)
        if action["type"] != "deliver":
            return action
        x, y = action["area"]
        return self._recipients_in_view(view, (x, y))[action["recipient"]]

    def _encode_delivery(
        self,
        action: Any,
        recipients: Callable[[tuple[int, int]], list[Action]],
        memo: dict[tuple[int, int], dict[Hashable, int]] | None = None,
    ) -> int | None:
        """A delivery's index; ``memo`` keeps each area's recipients (one legal list's worth)."""
        found = area_of(action)
        if found is None:
            return None
        where, spot = found
        keys = None if memo is None else memo.get(where)
        if keys is None:
            try:
                choices = recipients(where)
            except IllegalAction:
                return None
            keys = {}
            for recipient, choice in enumerate(choices):
                keys.setdefault(action_key(choice), recipient)
            if memo is not None:
                memo[where] = keys
        recipient = keys.get(action_key({**action, "to": action.get("to", {})}))
        return None if recipient is None else self.deliver_base + spot * RECIPIENTS + recipient

    def deliver_index(
        self,
        action: Action,
        state: State,
        seat: int,
        memo: dict[tuple[int, int], list[Action]],
    ) -> int | None:
        """A legal delivery's index, found by equality among its area's recipients
        (``memo`` keeps them per area, for one legal list)."""
        found = area_of(action)
        if found is None:
            return None
        where, spot = found
        choices = memo.get(where)
        if choices is None:
            try:
                choices = memo[where] = self._recipients(state, seat, where)
            except IllegalAction:
                return None
        wanted = action if "to" in action else {**action, "to": {}}
        try:
            recipient = choices.index(wanted)
        except ValueError:
            return None
        return self.deliver_base + spot * RECIPIENTS + recipient

    def legal_from(
        self, actions: Iterable[Action], state: State | None = None, seat: int | None = None
    ) -> dict[int, Action]:
        """As the codec's, each area's deliveries worked out once for the whole list."""
        if state is None or seat is None:
            return super().legal_from(actions, state, seat)
        assert isinstance(state, CafeState)
        return self._state.legal_from(self, actions, state, seat)

    def observe_state(self, state: State, seat: int) -> NDArray[np.float32]:
        """``observe(state.view(seat))``, read straight from the state (``cafe_state``)."""
        assert isinstance(state, CafeState)
        return self._state.observe(state, seat, self.observation_size)

    def encode(
        self, action: Any, state: State | None = None, seat: int | None = None
    ) -> int | None:
        if action.get("type") != "deliver":
            return super().encode(action, state, seat)
        if state is None or seat is None:
            raise ValueError("a Café delivery is encoded with its state and seat")
        return self._encode_delivery(action, lambda area: self._recipients(state, seat, area))

    def decode(self, index: int, state: State | None = None, seat: int | None = None) -> Action:
        action = super().decode(index)
        if action["type"] != "deliver":
            return action
        if state is None or seat is None:
            raise ValueError("a Café delivery is decoded with its state and seat")
        x, y = action["area"]
        return self._recipients(state, seat, (x, y))[action["recipient"]]


def deliveries(
    area: list[int], cubes: dict[str, int], wants: dict[str, dict[str, int]]
) -> list[Action]:
    """An area's delivery for each recipient 0..21 (see the module docstring).

    ``cubes`` are the area's cubes per colour; ``wants`` the company's cafés
    (id -> colour -> cubes it still takes).
    """

    def fill(order: list[str]) -> dict[str, dict[str, int]]:
        left = dict(cubes)
        to: dict[str, dict[str, int]] = {}
        for cafe_id in order:
            for colour in COLOURS:
                give = min(wants[cafe_id][colour], left.get(colour, 0))
                if give:
                    to.setdefault(cafe_id, {})[colour] = give
                    left[colour] -= give
        return to

    owned = [cafe_id for cafe_id in CAFE_IDS if cafe_id in wants]
    out = [fill([])]
    out += [fill([cafe_id] if cafe_id in wants else []) for cafe_id in CAFE_IDS]
    out.append(fill(owned))
    return [{"type": "deliver", "area": list(area), "to": to} for to in out]


def features(view: View, f: Features) -> None:
    seat = view["seat"] if view["seat"] is not None else 0
    players = view["players"]
    n = len(players)
    f.one_hot(seat, MAX_PLAYERS)
    f.one_hot(PHASES.index(view["phase"]), len(PHASES))
    f.one_hot(view["round"] - 1, ROUNDS)
    f.one_hot(relative(seat, view["master"], n), MAX_PLAYERS)
    f.one_hot(relative(seat, view["turn"], n), MAX_PLAYERS)
    f.multi_hot([PLAN_IDS.index(card["id"]) for card in view["display"]], len(PLAN_IDS))
    holding = view["holding"]
    f.one_hot(None if holding is None else PLAN_IDS.index(holding["id"]), len(PLAN_IDS))
    f.multi_hot([PLAN_IDS.index(card["id"]) for card in view["discard"]], len(PLAN_IDS))
    f.scalar(view["deck_count"], 40)
    for colour in COLOURS:
        f.scalar(view["supply"][colour], 35)
    for offset in range(n):
        company = players[(seat + offset) % n]
        ones, indices, values = f.ones, f.indices, f.values
        start = f.size
        for square in company["squares"]:
            base = SQUARE_BASE.get((square["x"], square["y"]))
            if base is None:
                raise ValueError(f"square {square['x']},{square['y']} is off the board")
            base += start
            ones.append(base + ICON_INDEX[square["icon"]])
            if square["colour"] is not None:
                ones.append(base + COLOUR_OFFSET[square["colour"]])
            cubes = square["cubes"]
            if cubes and square["cube_colour"] is not None:
                scaled(ones, indices, values, base + CUBE_OFFSET[square["cube_colour"]], cubes, 3)
        f.skip(POSITIONS * SQUARE)
        start = f.size
        for cafe in company["cafes"]:
            base = start + CAFE_BASE[cafe["id"]]
            ones.append(base)
            if cafe["lost"]:
                ones.append(base + 1)
            if cafe["complete"]:
                ones.append(base + 2)
            for colour, have in cafe["have"].items():
                scaled(ones, indices, values, base + 3 + COLOUR_INDEX[colour], have, 3)
        f.skip(len(CAFE_IDS) * CAFE_VALUES)
        for colour in COLOURS:
            f.scalar(company["warehouse"][colour], 10)
        f.scalar(company["cups"], 10)
        f.scalar(company["ships"], 10)
        f.scalar(company["actions_left"], 8)
        f.scalar(company["score"], 50)
    f.multi_hot([(w - seat) % n for w in view["winners"]], MAX_PLAYERS)


def build(players: int, options: dict[str, Any]) -> Codec:
    return CafeCodec(players, options)
