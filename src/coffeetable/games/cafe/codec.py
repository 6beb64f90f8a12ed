"""Café's integer actions and observation (1-4 players): 4,915 actions.

**The frame.** Every position is written relative to the company's own
bounding box: ``(x0, y0)`` is the least x and the least y of its squares,
and a *cell* ``(i, j)`` is the square at ``(x0 + i, y0 + j)``. The frame has
``FRAME_W x FRAME_H`` = 19 x 18 = 342 cells, index ``j * 19 + i``. It follows
the company: the same layout reads the same wherever it lies, and when a
card pushes the box left or up every cell moves with it (the rules do not
care where a company lies, so neither does the encoding).

Why 19 x 18 holds every square and every legal action (the tests check it
over random matches at 1-4 players, and a company spread as far as it goes):
a placement covers 2 to 4 visible squares, which lie in the box; its 3x2 or
2x3 rectangle meets the box in an ``a x b`` rectangle holding them, so
``a * b >= 2`` and ``a + b >= 3``, and the box's width plus height grows by at
most ``5 - (a + b) = 2`` (it cannot stick out on both sides of a box at least
3 wide and 2 high). The start card is 3 x 2, so after ``k`` placements
``w + h <= 5 + 2k``: with 8 placements (one a round) ``w <= 19``, ``h <= 18``.
A placement's top-left corner (its *anchor*) lies at most 2 left of and above
the box and inside it otherwise; the 8th is made on a box of ``w + h <= 19``
(``w <= 17``, ``h <= 16``), so anchors ``(x0 - 2 + i, y0 - 2 + j)`` with
``(i, j)`` in the same 19 x 18 frame hold them all.

**Deliveries** (``codec_deliveries.py``) are named by the roasting area's
*slot*: its place among the company's roasting areas in reading order of
their first squares (areas change only when a card is laid, never during the
actions phase). A company
shows at most 12 roasting squares (1 on its start card, at most 2, 2, 2, 1,
1, 1, 1, 1 on 8 plan cards), so 12 slots. A delivery's recipient is one of
19: 0 the warehouse (``"to": {}``); 1 the company's start café; 2-17 one
plan card's café (``PLAN_CAFES``, in the order of ``cards``), which takes
every cube of the area it still wants, the rest to the warehouse; 18 every
café of the company in id order (start café first), each taking what it
still wants of what is left. (The 4 start cafés are one recipient: a company
has one start card, so the other three never meant anything but the
warehouse.) These depend on the cubes, so deliveries encode and decode with
the state (or the view). Other splits of an area's cubes among several cafés
are legal in the game but not in this space (the mask leaves them out); an
area with cubes always has recipient 0.

Actions, in index order (the 48 plan cards in the order of ``cards.PLANS``):

============  ======  =====================================================
range         count   action
============  ======  =====================================================
0-239         240     take: plan card (48) x pay (none, red yellow green black)
240-1607      1,368   place: rotation 0-3 x anchor cell (top-left at x0-2+i, y0-2+j)
1608-1949     342     produce: area (its first square's cell)
1950-3317     1,368   dry: colour x area cell
3318-4685     1,368   roast: colour x area cell
4686-4913     228     deliver: roasting slot (12) x recipient (19)
4914          1       pass
============  ======  =====================================================

Observation (seats relative: the observer first): per seat 5,278 values, plus
177 for the table (solo: 5,455; 2 players: 10,733; 3: 16,011; 4: 21,289).

- table: own seat one-hot 4; phase one-hot (take place actions over) 4;
  round one-hot 8; Master and whose turn, relative one-hot 4 each; display,
  card held, discard: plan card multi-hot 48 each; deck count / 40;
  supply per colour / 35
- per seat, in that company's own frame: the board, 342 cells x 15 (icon
  one-hot: bean dry roast cup ship cafe blank; bean colour one-hot 4; cubes
  per colour / 3; a cell with no square is all 0); cafés, 20 café ids (the 4
  start cards, then the plan cards with a café) x (in play, lost, complete,
  cubes had per colour / 3); warehouse per colour / 10; cups / 10; ships /
  10; actions left / 8; score / 50
- winners multi-hot 4
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from coffeetable.engine import Action, IllegalAction, State, View
from coffeetable.games.cafe.cards import COLOURS, PLANS, ROUNDS, STARTS
from coffeetable.games.cafe.codec_deliveries import (
    CAFE_IDS,
    PLAN_CAFES,
    Delivery,
    Wants,
    company_wants,
    deliveries,
    recipient_tos,
)
from coffeetable.games.cafe.rules import CafeState
from coffeetable.interop.encoding import Codec, Features, action_key, relative, scaled

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

Pos = tuple[int, int]

#: The frame (see the module docstring): 3 + 2 x 8 columns, 2 + 2 x 8 rows.
FRAME_W = 3 + 2 * ROUNDS
FRAME_H = 2 + 2 * ROUNDS
CELLS = FRAME_W * FRAME_H
#: Anchors start this far left of and above the frame's origin.
MARGIN = 2


def _roasts(card: Any) -> int:
    return sum(row.count("o") for row in card.rows)


#: Roasting squares a company can show: its start card's and 8 plan cards' most.
ROAST_SLOTS = max(map(_roasts, STARTS)) + sum(sorted(map(_roasts, PLANS))[-ROUNDS:])
PLAN_IDS = [card.id for card in PLANS]
#: warehouse, start café, each plan café, every café
RECIPIENTS = 3 + len(PLAN_CAFES)
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
PRODUCE_BASE = PLACE_BASE + 4 * CELLS
DRY_BASE = PRODUCE_BASE + CELLS
ROAST_BASE = DRY_BASE + len(COLOURS) * CELLS
DELIVER_BASE = ROAST_BASE + len(COLOURS) * CELLS
PASS_INDEX = DELIVER_BASE + ROAST_SLOTS * RECIPIENTS
PAY_INDEX: dict[str | None, int] = {None: 0, **{colour: 1 + c for c, colour in enumerate(COLOURS)}}
COLOUR_INDEX = {colour: c for c, colour in enumerate(COLOURS)}
#: Values per café in a company's block (in play, lost, complete, cubes had per colour).
CAFE_VALUES = 3 + len(COLOURS)
#: café id -> where its values start in the cafés block.
CAFE_BASE = {cafe_id: n * CAFE_VALUES for n, cafe_id in enumerate(CAFE_IDS)}


class Frame(NamedTuple):
    """Where a company's cells start, and its roasting areas by slot."""

    x0: int
    y0: int
    #: the roasting areas' first squares, in reading order: slot -> area
    roasts: tuple[Pos, ...]

    def cell(self, x: Any, y: Any) -> int | None:
        """The cell of square (x, y), None outside the frame (or not whole numbers)."""
        if type(x) is not int or type(y) is not int:
            return None
        i, j = x - self.x0, y - self.y0
        if 0 <= i < FRAME_W and 0 <= j < FRAME_H:
            return j * FRAME_W + i
        return None

    def anchor(self, x: Any, y: Any) -> int | None:
        """The anchor cell of a card's top-left at (x, y), None outside the frame."""
        return self.cell(x + MARGIN, y + MARGIN) if type(x) is int and type(y) is int else None

    def slot(self, area: Pos) -> int | None:
        try:
            found = self.roasts.index(area)
        except ValueError:
            return None
        return found if found < ROAST_SLOTS else None


def frame_of(squares: Iterable[Pos], roasts: Iterable[Pos]) -> Frame:
    """The frame of a company's squares (x, y) and its roasting areas' first squares."""
    xs, ys = zip(*squares, strict=True)
    return Frame(min(xs), min(ys), tuple(sorted(roasts, key=lambda p: (p[1], p[0]))))


def frame_in_view(view: View) -> Frame:
    """The frame of the seat's own company, from its view (what the site sends)."""
    company = view["players"][view["seat"]]
    return frame_of(
        ((s["x"], s["y"]) for s in company["squares"]),
        (tuple(a["id"]) for a in company["areas"] if a["kind"] == "roast"),
    )


def action_table() -> list[Action]:
    """The index -> action table; positions are cells of the frame (``dx``, ``dy`` from
    its origin) and deliveries slots: ``decode`` turns them into the game's actions."""
    actions: list[Action] = []
    for card in PLAN_IDS:
        actions.append({"type": "take", "card": card})
        actions += [{"type": "take", "card": card, "pay": colour} for colour in COLOURS]
    frame = [(i, j) for j in range(FRAME_H) for i in range(FRAME_W)]
    actions += [
        {"type": "place", "rotation": r, "dx": i - MARGIN, "dy": j - MARGIN}
        for r in range(4)
        for i, j in frame
    ]
    actions += [{"type": "produce", "dx": i, "dy": j} for i, j in frame]
    for kind in ("dry", "roast"):
        actions += [
            {"type": kind, "colour": colour, "dx": i, "dy": j}
            for colour in COLOURS
            for i, j in frame
        ]
    actions += [
        {"type": "deliver", "slot": slot, "recipient": r}
        for slot in range(ROAST_SLOTS)
        for r in range(RECIPIENTS)
    ]
    actions.append({"type": "pass"})
    return actions


def position_index(action: Mapping[str, Any], frame: Frame) -> int | None:
    """The index of a place, produce, dry or roast by arithmetic (None if it names no cell
    of the frame); the caller checks that the index stands for ``action``."""
    kind = action["type"]
    if kind == "place":
        cell = frame.anchor(action["x"], action["y"])
        rotation = action["rotation"]
        if cell is None or type(rotation) is not int or not 0 <= rotation < 4:
            return None
        return PLACE_BASE + rotation * CELLS + cell
    area = action["area"]
    if type(area) is not list or len(area) != 2:
        return None
    cell = frame.cell(area[0], area[1])
    if cell is None:
        return None
    if kind == "produce":
        return PRODUCE_BASE + cell
    base = DRY_BASE if kind == "dry" else ROAST_BASE
    return base + COLOUR_INDEX[action["colour"]] * CELLS + cell


def position_action(index: int, frame: Frame) -> Action:
    """The game's action at a place, produce, dry or roast index, in ``frame``."""
    if index < PRODUCE_BASE:
        rotation, cell = divmod(index - PLACE_BASE, CELLS)
        j, i = divmod(cell, FRAME_W)
        x, y = frame.x0 - MARGIN + i, frame.y0 - MARGIN + j
        return {"type": "place", "x": x, "y": y, "rotation": rotation}
    if index < DRY_BASE:
        j, i = divmod(index - PRODUCE_BASE, FRAME_W)
        return {"type": "produce", "area": [frame.x0 + i, frame.y0 + j]}
    kind, base = ("dry", DRY_BASE) if index < ROAST_BASE else ("roast", ROAST_BASE)
    colour, cell = divmod(index - base, CELLS)
    j, i = divmod(cell, FRAME_W)
    return {"type": kind, "colour": COLOURS[colour], "area": [frame.x0 + i, frame.y0 + j]}


#: An area's 19 deliveries (one per recipient), from its first square.
Recipients = Callable[[Pos], list[Action]]


class CafeCodec(Codec):
    """Café's codec: every board action is encoded in the company's frame, deliveries by
    slot and recipient, so encode and decode take the state and seat (or the view).

    The environment's paths, ``observe_state`` (``codec_state``), and ``legal`` and
    ``legal_from`` with a state (``codec_legal``), read the state, not a view (the
    site's path, ``features``), and the tests hold them to it.
    """

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        super().__init__("cafe", players, options, action_table(), features)
        # they read this module's tables
        from coffeetable.games.cafe import codec_board, codec_legal, codec_state

        self._board = codec_board
        self._state = codec_state
        self._legal = codec_legal

    # -- deliveries --------------------------------------------------------------------

    def _recipients(self, state: State, seat: int, area_id: Pos) -> list[Action]:
        """The deliveries of the area for each recipient (a legal action each)."""
        assert isinstance(state, CafeState)
        company = state.companies[seat]
        return deliveries(list(area_id), self._tos(company, company_wants(company), area_id))

    @staticmethod
    def _tos(company: Any, wants: Wants, area_id: Pos) -> list[Delivery]:
        """Each recipient's ``to`` for the company's roasting area at ``area_id``."""
        area = company.area_at(area_id)
        if area is None or area.kind != "roast":
            raise IllegalAction(f"there is no roasting area at {list(area_id)}")
        return recipient_tos(company.cubes_on(area), wants)

    def _recipients_in_view(self, view: View, area_id: Pos) -> list[Action]:
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
        return deliveries(list(area["id"]), recipient_tos(dict(area["cubes"]), wants))

    def deliver_index(
        self, action: Mapping[str, Any], frame: Frame, tos: Callable[[Pos], list[Delivery]]
    ) -> int | None:
        """A delivery's index: its area's slot, and the first recipient whose ``to`` it
        has (compared as values; None if it is none of them). ``tos(area)``: each
        recipient's ``to`` for the area (it may raise IllegalAction: not a roasting area)."""
        area = action.get("area")
        if type(area) is not list or len(area) != 2 or action.get("type") != "deliver":
            return None
        to = action.get("to")
        if len(action) != (2 if to is None else 3):
            return None  # a field the game's deliveries do not have
        where = (area[0], area[1])
        slot = frame.slot(where)
        if slot is None:
            return None
        try:
            choices = tos(where)
        except IllegalAction:
            return None
        try:
            recipient = choices.index({} if to is None else to)
        except ValueError:
            return None
        return DELIVER_BASE + slot * RECIPIENTS + recipient

    # -- encode and decode -------------------------------------------------------------

    def encode_with(
        self, action: Any, frame: Callable[[], Frame], recipients: Recipients
    ) -> int | None:
        """The index of ``action`` (None outside the space), the frame and the deliveries
        of the seat's company given (from the state or from the view)."""
        if not isinstance(action, dict):
            return None
        kind = action.get("type")
        if kind in ("place", "produce", "dry", "roast"):
            try:
                index = position_index(action, frame())
            except (KeyError, TypeError):
                return None
            if index is None or action_key(position_action(index, frame())) != action_key(action):
                return None
            return index
        if kind == "deliver":
            return self.deliver_index(
                action, frame(), lambda area: [a["to"] for a in recipients(area)]
            )
        return self.lookup(action)  # take and pass: the table's own entries

    def decode_with(self, index: int, frame: Callable[[], Frame], recipients: Recipients) -> Action:
        index = int(index)
        if not 0 <= index < self.num_actions:
            raise IndexError(f"action index {index} outside 0..{self.num_actions - 1}")
        if index < PLACE_BASE or index == PASS_INDEX:
            return super().decode(index)
        if index < DELIVER_BASE:
            return position_action(index, frame())
        slot, recipient = divmod(index - DELIVER_BASE, RECIPIENTS)
        roasts = frame().roasts
        if slot >= len(roasts):
            raise IllegalAction(f"the company has no roasting area in slot {slot}")
        return recipients(roasts[slot])[recipient]

    def _frame(self, state: State | None, seat: int | None) -> Callable[[], Frame]:
        def find() -> Frame:
            if state is None or seat is None:
                raise ValueError("a Café action on the board is encoded with its state and seat")
            assert isinstance(state, CafeState)
            found: Frame = self._board.frame(state.companies[seat])
            return found

        return find

    def _deliveries(self, state: State | None, seat: int | None) -> Recipients:
        def find(area: Pos) -> list[Action]:
            if state is None or seat is None:
                raise ValueError("a Café delivery is encoded with its state and seat")
            return self._recipients(state, seat, area)

        return find

    def encode(
        self, action: Any, state: State | None = None, seat: int | None = None
    ) -> int | None:
        return self.encode_with(action, self._frame(state, seat), self._deliveries(state, seat))

    def decode(self, index: int, state: State | None = None, seat: int | None = None) -> Action:
        return self.decode_with(index, self._frame(state, seat), self._deliveries(state, seat))

    def encode_in_view(self, action: Any, view: View) -> int | None:
        return self.encode_with(
            action, lambda: frame_in_view(view), lambda a: self._recipients_in_view(view, a)
        )

    def decode_in_view(self, index: int, view: View) -> Action:
        return self.decode_with(
            index, lambda: frame_in_view(view), lambda a: self._recipients_in_view(view, a)
        )

    def legal_in_view(self, actions: Iterable[Any], view: View) -> dict[int, Any]:
        """``encode_in_view`` of each action, the frame and each area's deliveries worked
        out once for the list."""
        frame = frame_in_view(view)
        memo: dict[Pos, list[Action]] = {}

        def recipients(area: Pos) -> list[Action]:
            found = memo.get(area)
            if found is None:
                found = memo[area] = self._recipients_in_view(view, area)
            return found

        out: dict[int, Any] = {}
        for action in actions:
            index = self.encode_with(action, lambda: frame, recipients)
            if index is not None and index not in out:
                out[index] = action
        return out

    def legal(self, state: State, seat: int) -> Mapping[int, Action]:  # type: ignore[override]
        """As the codec's, the same items; while placing and in the actions phase
        straight from the engine's own lists, actions made when asked (``codec_legal``)."""
        assert isinstance(state, CafeState)
        return self._legal.legal(self, state, seat)

    def legal_from(
        self, actions: Iterable[Action], state: State | None = None, seat: int | None = None
    ) -> dict[int, Action]:
        """Each legal action's index, the common kinds' arithmetic inlined (``codec_legal``)."""
        if state is None or seat is None:
            raise ValueError("Café's legal actions are encoded with their state and seat")
        assert isinstance(state, CafeState)
        return self._legal.legal_from(self, actions, state, seat)

    def observe_state(self, state: State, seat: int) -> NDArray[np.float32]:
        """``observe(state.view(seat))``, read straight from the state (``codec_state``)."""
        assert isinstance(state, CafeState)
        return self._state.observe(state, seat, self.observation_size)


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
        squares = company["squares"]
        frame = frame_of(((s["x"], s["y"]) for s in squares), ())
        for square in squares:
            cell = frame.cell(square["x"], square["y"])
            if cell is None:
                raise ValueError(f"square {square['x']},{square['y']} is outside the frame")
            base = start + cell * SQUARE
            ones.append(base + ICON_INDEX[square["icon"]])
            if square["colour"] is not None:
                ones.append(base + COLOUR_OFFSET[square["colour"]])
            cubes = square["cubes"]
            if cubes and square["cube_colour"] is not None:
                scaled(ones, indices, values, base + CUBE_OFFSET[square["cube_colour"]], cubes, 3)
        f.skip(CELLS * SQUARE)
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
