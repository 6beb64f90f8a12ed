"""Café's observation and legal indices read straight from the engine's state.

The environment steps millions of times: building Café's observation
through a view (dicts per square, then ``features``) cost several times the
rules. This module writes the same vector (``cafe.features`` of
``state.view(seat)``, value for value: the tests compare them over many
random positions) from the state itself:

- a company's squares change only when a card is laid, and the cards laid
  (``company.cards``, in order, from the start card) decide them. So each
  board (its frame, its icon and bean-colour ones, the squares that can hold
  cubes: the action areas' squares, cubes lie nowhere else) is worked out
  once per card list and kept (``_BOARDS``, bounded), card by card from the
  board before the last card (``Board.after``); a step then reads only the
  cubes on those squares, the cafés and a few counts;
- the vector is filled in one numpy pass: ``put`` of the ones, then of the
  fractional values;
- the legal indices come from the engine's own lists, not read back action
  by action: while placing from the layout's legal anchors (what
  ``Company.placements`` and the engine's legal placements are made from),
  their cells kept per board; in the actions phase from one look at the
  company's areas, as ``actions.choices`` looks. The actions are made only
  for the index played (``IndexedLegal``); the tests hold every index to the
  plain path (``legal_from`` of the legal actions).

The site adapter still observes through the view (``cafe.features``): the
site sends views, not states.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from itertools import chain
from typing import TYPE_CHECKING, Any

import numpy as np

from coffeetable.engine import Action
from coffeetable.games.cafe.actions import options
from coffeetable.games.cafe.cards import BY_ID, COLOURS, ROUNDS
from coffeetable.games.cafe.grid import faces as grid_faces
from coffeetable.games.cafe.grid import orientations
from coffeetable.games.cafe.layout import AREA_KINDS, Pos
from coffeetable.games.cafe.rules import CafeState
from coffeetable.games.cafe.scoring import warehouse_points
from coffeetable.interop.cafe import (
    CAFE_BASE,
    CAFE_IDS,
    CAFE_VALUES,
    CELLS,
    COLOUR_INDEX,
    COLOUR_OFFSET,
    CUBE_OFFSET,
    DELIVER_BASE,
    DRY_BASE,
    FRAME_H,
    FRAME_W,
    ICON_INDEX,
    MARGIN,
    MAX_PLAYERS,
    PASS_INDEX,
    PAY_INDEX,
    PHASES,
    PLACE_BASE,
    PLAN_IDS,
    PLAN_INDEX,
    PRODUCE_BASE,
    RECIPIENTS,
    ROAST_BASE,
    ROAST_SLOTS,
    SQUARE,
    Delivery,
    Frame,
    Wants,
    company_wants,
    position_action,
    recipient_tos,
)
from coffeetable.interop.encoding import IndexedLegal

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from coffeetable.interop.cafe import CafeCodec

#: Where the blocks of the table part start (see the layout in ``cafe``'s docstring).
PHASE_AT = MAX_PLAYERS
ROUND_AT = PHASE_AT + len(PHASES)
MASTER_AT = ROUND_AT + ROUNDS
TURN_AT = MASTER_AT + MAX_PLAYERS
DISPLAY_AT = TURN_AT + MAX_PLAYERS
HOLDING_AT = DISPLAY_AT + len(PLAN_IDS)
DISCARD_AT = HOLDING_AT + len(PLAN_IDS)
DECK_AT = DISCARD_AT + len(PLAN_IDS)
SUPPLY_AT = DECK_AT + 1
TABLE_VALUES = SUPPLY_AT + len(COLOURS)
#: A seat's block: the board, the cafés, then 8 counts.
BOARD_VALUES = CELLS * SQUARE
CAFES_AT = BOARD_VALUES
COUNTS_AT = CAFES_AT + len(CAFE_IDS) * CAFE_VALUES
SEAT_VALUES = COUNTS_AT + len(COLOURS) + 4


class Board:
    """What a company's squares decide, worked out once per card list: where its frame
    starts, the fixed ones (icons, bean colours) and the squares that can hold cubes.

    Positions are first written frame-free, ``(y * FRAME_W + x) * SQUARE``: within the
    frame that is the cell's base plus a constant (the origin's), so a board is the
    board before its last card with that card's 6 squares written over (``after``).
    """

    __slots__ = (
        "x0",
        "y0",
        "x1",
        "y1",
        "faces",
        "squares",
        "origin",
        "ones",
        "shifted",
        "anchor_cells",
        "anchor_sets",
        "_frame",
    )

    def __init__(
        self, faces: dict[Pos, tuple[int, ...]], squares: dict[Pos, int], box: tuple[int, ...]
    ) -> None:
        self.x0, self.y0, self.x1, self.y1 = box
        if self.x1 - self.x0 >= FRAME_W or self.y1 - self.y0 >= FRAME_H:
            raise ValueError(f"a company spread over {box} is outside the frame")
        #: square -> its fixed ones; action area squares (cubes lie nowhere else) -> their
        #: 15 values' base; both frame-free
        self.faces, self.squares = faces, squares
        origin = (self.y0 * FRAME_W + self.x0) * SQUARE
        #: the fixed ones within a seat's block
        self.ones = np.fromiter(chain.from_iterable(faces.values()), np.intp) - origin
        #: the same, moved to where a seat's block starts (kept per start)
        self.shifted: dict[int, NDArray[np.intp]] = {}
        #: where the frame's origin is, frame-free (a square's base is its own less this)
        self.origin = origin
        self._frame: Frame | None = None
        #: footprint -> the cells of its legal anchors, and the same as sets
        #: (``placements_legal``; worked out when first asked)
        self.anchor_cells: tuple[NDArray[np.intp], ...] | None = None
        self.anchor_sets: tuple[frozenset[int], ...] | None = None

    @classmethod
    def of(cls, company: Any) -> Board:
        """The board of a company's grid, worked out from its squares."""
        faces: dict[Pos, tuple[int, ...]] = {}
        squares: dict[Pos, int] = {}
        for (x, y), square in company.grid.items():
            _write(faces, squares, x, y, square.icon, square.colour)
        xs, ys = zip(*faces, strict=True)
        return cls(faces, squares, (min(xs), min(ys), max(xs), max(ys)))

    def after(self, card: tuple[str, int, int, int]) -> Board:
        """This board with ``card`` (id, x, y, rotation, as ``Company.cards``) laid on it."""
        card_id, x, y, rotation = card
        faces, squares = dict(self.faces), dict(self.squares)
        cells = grid_faces(BY_ID[card_id], rotation)
        for dx, dy, icon, colour in cells:
            _write(faces, squares, x + dx, y + dy, icon, colour)
        width, height = (3, 2) if rotation % 2 == 0 else (2, 3)
        box = (
            min(self.x0, x),
            min(self.y0, y),
            max(self.x1, x + width - 1),
            max(self.y1, y + height - 1),
        )
        return Board(faces, squares, box)

    def at(self, start: int) -> NDArray[np.intp]:
        """The fixed ones of a seat block starting at ``start``."""
        moved = self.shifted.get(start)
        if moved is None:
            moved = self.shifted[start] = self.ones + start
        return moved

    def frame(self, company: Any) -> Frame:
        """The frame with the roasting areas' slots (worked out when first asked, from
        the company's areas: the engine works them out by the actions phase anyway)."""
        if self._frame is None:
            areas = company.layout.areas
            roasts = tuple(area.id for area in areas if area.kind == "roast")
            self._frame = Frame(self.x0, self.y0, roasts)
        return self._frame


def _write(
    faces: dict[Pos, tuple[int, ...]],
    squares: dict[Pos, int],
    x: int,
    y: int,
    icon: str,
    colour: str | None,
) -> None:
    """Put a square showing ``icon`` (and bean ``colour``) at (x, y) on a board's dicts."""
    base = (y * FRAME_W + x) * SQUARE
    at = base + ICON_INDEX[icon]
    faces[x, y] = (at,) if colour is None else (at, base + COLOUR_OFFSET[colour])
    if icon in AREA_KINDS:
        squares[x, y] = base
    else:
        squares.pop((x, y), None)


#: Boards worked out, by card list.
_BOARDS: dict[Hashable, Board] = {}
#: The most boards kept (about 9 KB each, so ~18 MB at most; a match needs at most 36,
#: one per card list of each company); past it the store starts again.
BOARDS_KEPT = 2_000
PHASE_INDEX = {phase: p for p, phase in enumerate(PHASES)}
COLOURS_AT = tuple(enumerate(COLOURS))
CUBE_AT = tuple((colour, CUBE_OFFSET[colour]) for colour in COLOURS)


def board(company: Any) -> Board:
    """The company's board (kept per card list: the cards laid decide the squares)."""
    key = tuple(company.cards)
    found = _BOARDS.get(key)
    if found is None:
        if len(_BOARDS) >= BOARDS_KEPT:
            _BOARDS.clear()
        before = _BOARDS.get(key[:-1]) if len(key) > 1 else None
        found = Board.of(company) if before is None else before.after(key[-1])
        _BOARDS[key] = found
    return found


def frame(company: Any) -> Frame:
    """The company's frame (``cafe.Frame``)."""
    return board(company).frame(company)


def observe(state: CafeState, seat: int, size: int) -> NDArray[np.float32]:
    """``observe(state.view(seat))``, from the state (see the module docstring).

    Written for speed (this is every step): ``ones`` collects the indices set to 1,
    ``indices`` and ``values`` the others; a count is ``value / scale`` clipped at 1.
    """
    n = state.players
    phase = state.phase
    ones = [seat, PHASE_AT + PHASE_INDEX[phase], ROUND_AT + state.round_number - 1]
    indices: list[int] = []
    values: list[float] = []
    if state.master is not None:
        ones.append(MASTER_AT + (state.master - seat) % n)
    if phase == "take" or phase == "place":
        ones.append(TURN_AT + (state.order[state.turn] - seat) % n)
    for card in state.display:
        ones.append(DISPLAY_AT + PLAN_INDEX[card])
    if state.holding is not None:
        ones.append(HOLDING_AT + PLAN_INDEX[state.holding])
    for card in state.discard:
        ones.append(DISCARD_AT + PLAN_INDEX[card])
    # (where, value, scale) of the counts, each scaled below
    counts = [(DECK_AT, len(state.deck), 40)]
    supply = state.supply
    for c, colour in COLOURS_AT:
        counts.append((SUPPLY_AT + c, supply[colour], 35))
    boards = []
    companies = state.companies
    actions_left = state.actions_left
    for offset in range(n):
        start = TABLE_VALUES + offset * SEAT_VALUES
        other = (seat + offset) % n
        company = companies[other]
        found = board(company)
        boards.append(found.at(start))
        grid = company.grid
        shift = start - found.origin
        for pos, base in found.squares.items():
            square = grid[pos]
            cubes = square.cubes
            if cubes and square.cube_colour is not None:
                where = shift + base + CUBE_OFFSET[square.cube_colour]
                if cubes >= 3:
                    ones.append(where)
                else:
                    indices.append(where)
                    values.append(cubes / 3)
        cafe_points = 0
        cafes_at = start + CAFES_AT
        for cafe in company.cafes.values():
            base = cafes_at + CAFE_BASE[cafe.id]
            ones.append(base)
            have = cafe.have
            if cafe.lost:
                ones.append(base + 1)
            else:
                for colour, need in cafe.need.items():
                    if have.get(colour, 0) < need:
                        break
                else:  # complete (``Cafe.complete``)
                    ones.append(base + 2)
                    cafe_points += cafe.points
            for colour, had in have.items():
                if had:
                    where = base + 3 + COLOUR_INDEX[colour]
                    if had >= 3:
                        ones.append(where)
                    else:
                        indices.append(where)
                        values.append(had / 3)
        at = start + COUNTS_AT
        warehouse = company.warehouse
        for c, colour in COLOURS_AT:
            counts.append((at + c, warehouse[colour], 10))
        at += len(COLOURS)
        icons = company.layout.icons
        counts.append((at, icons.get("cup", 0), 10))
        counts.append((at + 1, icons.get("ship", 0), 10))
        counts.append((at + 2, actions_left[other], 8))
        # the score, as ``scoring.points``: complete cafés and the warehouse
        counts.append((at + 3, cafe_points + warehouse_points(warehouse), 50))
    winners_at = TABLE_VALUES + n * SEAT_VALUES
    for w in state.winners:
        ones.append(winners_at + (w - seat) % n)
    for where, value, scale in counts:
        if value >= scale:
            ones.append(where)
        elif value > 0:
            indices.append(where)
            values.append(value / scale)
    out = np.zeros(size, dtype=np.float32)
    out.put(ones, 1.0)
    for fixed in boards:
        out.put(fixed, 1.0)
    if indices:
        out.put(indices, values)
    return out


def legal(table: CafeCodec, state: CafeState, seat: int) -> Mapping[int, Action]:
    """``legal_from(state.legal_actions(seat))``, the same items; while placing and in
    the actions phase the indices come straight from the engine's own lists (below),
    the actions made only when asked for (``IndexedLegal``)."""
    phase = state.phase
    if phase == "actions":
        if state.actions_left[seat] > 0:
            return actions_legal(state.companies[seat], state.supply)
        return {}
    if phase != "place" or state.holding is None or seat not in state.actors():
        return legal_from(table, state.legal_actions(seat), state, seat)
    return placements_legal(state.companies[seat], state.holding)


#: card id -> its distinct rotations (``grid.orientations``), kept once asked.
ROTATIONS: dict[str, list[int]] = {}


def placements_legal(company: Any, card_id: str) -> IndexedLegal:
    """The legal placements of ``card_id``, as ``Company.placements`` lists them (the
    engine's own list, which its legal actions are made from: the tests hold the two
    equal): each distinct rotation, then the layout's legal anchors of its footprint.
    The anchors' cells are worked out once per board (the squares decide them)."""
    found = board(company)
    cells = found.anchor_cells
    if cells is None:
        ax, ay = found.x0 - MARGIN, found.y0 - MARGIN
        legal = company.layout.legal
        cells = found.anchor_cells = tuple(
            np.array(
                [
                    (y - ay) * FRAME_W + x - ax
                    for y, x in legal[footprint]
                    if 0 <= x - ax < FRAME_W and 0 <= y - ay < FRAME_H  # always (cafe's docstring)
                ],
                dtype=np.intp,
            )
            for footprint in (0, 1)
        )
    rotations = ROTATIONS.get(card_id)
    if rotations is None:  # a card's distinct turns never change
        rotations = ROTATIONS[card_id] = [rotation for rotation, _ in orientations(card_id)]
    array = np.concatenate([cells[r % 2] + (PLACE_BASE + r * CELLS) for r in rotations])
    place_frame = Frame(found.x0, found.y0, ())
    sets = found.anchor_sets

    def members(index: int) -> bool:
        rotation, cell = divmod(index - PLACE_BASE, CELLS)
        if rotation not in rotations:
            return False
        nonlocal sets
        if sets is None:
            sets = found.anchor_sets = (frozenset(cells[0].tolist()), frozenset(cells[1].tolist()))
        return cell in sets[rotation % 2]

    def make(index: int) -> Action:
        return position_action(index, place_frame)

    return IndexedLegal(array.tolist(), _Test(members), make, array)


class _Test:
    """``in`` by a function (a placement's index: its rotation and its anchor's cell)."""

    __slots__ = ("test",)

    def __init__(self, test: Callable[[int], bool]) -> None:
        self.test = test

    def __contains__(self, index: object) -> bool:
        if not isinstance(index, int | np.integer):
            return False
        index = int(index)
        return PLACE_BASE <= index < PRODUCE_BASE and self.test(index)


def actions_legal(company: Any, supply: dict[str, int]) -> IndexedLegal:
    """The actions phase's legal indices, from the look ``actions.choices`` makes
    (``actions.options``), in its order: produce, dry, roast, deliver, pass.

    Deliveries: each roasting area with cubes, for each recipient the first of equal
    ``to``s (what ``deliver_index`` gives the engine's deliveries: every recipient's
    ``to`` is one of them, each cafe taking no more than it wants of what there is),
    recipients in order (the engine lists its deliveries in another order; the mask
    and the environment read none). The tests hold it to ``legal_from``.
    """
    found = options(company, supply)
    company_frame = frame(company)
    x0, y0 = company_frame.x0, company_frame.y0

    def cell(area: Any) -> int:
        x, y = area.squares[0]
        return (y - y0) * FRAME_W + x - x0

    indices = [PRODUCE_BASE + cell(area) for area in found.produce]
    for base, targets, colours in (
        (DRY_BASE, found.dry, found.dry_colours),
        (ROAST_BASE, found.roast, found.roast_colours),
    ):
        ready = [base + COLOUR_INDEX[colour] * CELLS for colour in colours]
        for area in targets if ready else ():
            area_cell = cell(area)
            indices += [colour_base + area_cell for colour_base in ready]
    tos_of: dict[int, tuple[Pos, list[Delivery]]] = {}
    if found.loaded:
        wants = company_wants(company)
        roasts = company_frame.roasts
        for area in found.loaded:
            where = area.squares[0]
            slot = roasts.index(where)
            if slot >= ROAST_SLOTS:  # never (cafe's docstring): as deliver_index, not in the space
                continue
            tos = recipient_tos(company.cubes_on(area), wants)
            tos_of[slot] = (where, tos)
            at = DELIVER_BASE + slot * RECIPIENTS
            seen: list[Delivery] = []
            for recipient, to in enumerate(tos):
                if to not in seen:
                    seen.append(to)
                    indices.append(at + recipient)
    indices.append(PASS_INDEX)

    def make(index: int) -> Action:
        if index == PASS_INDEX:
            return {"type": "pass"}
        if index >= DELIVER_BASE:
            slot, recipient = divmod(index - DELIVER_BASE, RECIPIENTS)
            (x, y), tos = tos_of[slot]
            to = tos[recipient]
            return {"type": "deliver", "area": [x, y], "to": {k: dict(v) for k, v in to.items()}}
        return position_action(index, company_frame)

    return IndexedLegal(indices, frozenset(indices), make)


def legal_from(
    table: CafeCodec, actions: Iterable[Action], state: CafeState, seat: int
) -> dict[int, Action]:
    """``CafeCodec.legal_from`` with the state, the common kinds' arithmetic inlined.

    An action takes the short way only when its fields are whole numbers in the
    frame and exactly the game's (what ``encode`` would check); anything else goes
    ``encode``'s way. Deliveries are worked out once per area.
    """
    memo: dict[Pos, list[Delivery]] = {}
    company = state.companies[seat]
    company_frame = frame(company)
    wants: Wants | None = None
    x0, y0 = company_frame.x0, company_frame.y0
    ax, ay = x0 - MARGIN, y0 - MARGIN
    out: dict[int, Action] = {}
    entries = table.actions

    def tos(area: Pos) -> list[Delivery]:
        nonlocal wants
        found = memo.get(area)
        if found is None:
            if wants is None:
                wants = company_wants(company)
            found = memo[area] = table._tos(company, wants, area)
        return found

    for action in actions:
        index: int | None = None
        try:
            kind = action["type"]
            if kind == "place":
                x, y, rotation = action["x"], action["y"], action["rotation"]
                if (
                    type(x) is int
                    and type(y) is int
                    and type(rotation) is int
                    and len(action) == 4
                    and 0 <= rotation < 4
                    and 0 <= (i := x - ax) < FRAME_W
                    and 0 <= (j := y - ay) < FRAME_H
                ):
                    index = PLACE_BASE + rotation * CELLS + j * FRAME_W + i
            elif kind == "deliver":
                index = table.deliver_index(action, company_frame, tos)
                if index is not None and index not in out:
                    out[index] = action
                continue
            elif kind == "pass":
                index = PASS_INDEX if action == entries[PASS_INDEX] else None
            elif kind == "take":
                index = PLAN_INDEX[action["card"]] * 5 + PAY_INDEX[action.get("pay")]
                if entries[index] != action:
                    index = None
            else:
                area = action["area"]
                if type(area) is list and len(area) == 2:
                    x, y = area
                    if (
                        type(x) is int
                        and type(y) is int
                        and 0 <= (i := x - x0) < FRAME_W
                        and 0 <= (j := y - y0) < FRAME_H
                    ):
                        cell = j * FRAME_W + i
                        if kind == "produce" and len(action) == 2:
                            index = PRODUCE_BASE + cell
                        elif (kind == "dry" or kind == "roast") and len(action) == 3:
                            index = (
                                (DRY_BASE if kind == "dry" else ROAST_BASE)
                                + COLOUR_INDEX[action["colour"]] * CELLS
                                + cell
                            )
        except (KeyError, TypeError, ValueError, IndexError):
            index = None
        if index is None:
            index = table.encode(action, state, seat)  # the slow way, which checks everything
        if index is not None and index not in out:
            out[index] = action
    return out
