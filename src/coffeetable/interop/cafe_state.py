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
- a seat's block (its company's board with the cubes, cafés and counts) is
  kept by the company's revision (``Company.revision``, new at every change):
  a company that did not change since it was last observed (at 2 players,
  most steps: the other company, the whole take) is copied, not read again;
- the rest is filled in one numpy pass: ``put`` of the ones, then of the
  fractional values;
- the legal indices are ``cafe_legal``'s (they read these boards too).

The site adapter still observes through the view (``cafe.features``): the
site sends views, not states.
"""

from __future__ import annotations

from collections.abc import Hashable
from itertools import chain
from typing import TYPE_CHECKING, Any

import numpy as np

from coffeetable.games.cafe.cards import BY_ID, COLOURS, ROUNDS
from coffeetable.games.cafe.grid import faces as grid_faces
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
    FRAME_H,
    FRAME_W,
    ICON_INDEX,
    MAX_PLAYERS,
    PHASES,
    PLAN_IDS,
    PLAN_INDEX,
    SQUARE,
    Frame,
)
from coffeetable.interop.encoding import scaled

if TYPE_CHECKING:
    from numpy.typing import NDArray


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


#: Seat blocks worked out, by company revision (``Company.revision``: the same
#: revision, the same company), every value but the actions left (the state's). A
#: company that did not change since it was last observed is copied, not read again:
#: at 2 players, most steps (the other company, the whole take).
_BLOCKS: dict[object, NDArray[np.float32]] = {}
#: The most blocks kept (21 KB each): a few per seat, small enough to stay in the CPU's cache.
BLOCKS_KEPT = 16
#: Where a seat block's actions left go.
ACTIONS_LEFT_AT = COUNTS_AT + len(COLOURS) + 2


def observe(state: CafeState, seat: int, size: int) -> NDArray[np.float32]:
    """``observe(state.view(seat))``, from the state (see the module docstring).

    Written for speed (this is every step): ``ones`` collects the indices set to 1,
    ``indices`` and ``values`` the others; a count is ``value / scale`` clipped at 1.
    Each seat's block is its company's (``company_block``) with the actions left.
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
    scaled(ones, indices, values, DECK_AT, len(state.deck), 40)
    supply = state.supply
    for c, colour in COLOURS_AT:
        scaled(ones, indices, values, SUPPLY_AT + c, supply[colour], 35)
    winners_at = TABLE_VALUES + n * SEAT_VALUES
    for w in state.winners:
        ones.append(winners_at + (w - seat) % n)
    out = np.zeros(size, dtype=np.float32)
    companies = state.companies
    actions_left = state.actions_left
    for offset in range(n):
        start = TABLE_VALUES + offset * SEAT_VALUES
        other = (seat + offset) % n
        out[start : start + SEAT_VALUES] = company_block(companies[other])
        scaled(ones, indices, values, start + ACTIONS_LEFT_AT, actions_left[other], 8)
    out.put(ones, 1.0)
    if indices:
        out.put(indices, values)
    return out


def company_block(company: Any) -> NDArray[np.float32]:
    """A seat's block of the observation but its actions left, kept per revision: the
    board (its fixed ones, the cubes), the cafés and the counts. Read it, never write."""
    revision = company.revision
    found = _BLOCKS.get(revision) if revision is not None else None
    if found is None:
        found = _work_out_block(company)
        if revision is not None:
            if len(_BLOCKS) >= BLOCKS_KEPT:  # the oldest goes: only the newest are met again
                del _BLOCKS[next(iter(_BLOCKS))]
            _BLOCKS[revision] = found
    return found


def _work_out_block(company: Any) -> NDArray[np.float32]:
    """``company_block``, read from the company."""
    ones: list[int] = []
    indices: list[int] = []
    values: list[float] = []
    found = board(company)
    grid = company.grid
    shift = -found.origin
    for pos, base in found.squares.items():
        square = grid[pos]
        cubes = square.cubes
        if cubes and square.cube_colour is not None:
            where = shift + base + CUBE_OFFSET[square.cube_colour]
            scaled(ones, indices, values, where, cubes, 3)
    cafe_points = 0
    for cafe in company.cafes.values():
        base = CAFES_AT + CAFE_BASE[cafe.id]
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
            scaled(ones, indices, values, base + 3 + COLOUR_INDEX[colour], had, 3)
    at = COUNTS_AT
    warehouse = company.warehouse
    for c, colour in COLOURS_AT:
        scaled(ones, indices, values, at + c, warehouse[colour], 10)
    at += len(COLOURS)
    icons = company.layout.icons
    scaled(ones, indices, values, at, icons.get("cup", 0), 10)
    scaled(ones, indices, values, at + 1, icons.get("ship", 0), 10)
    # (at + 2: the actions left, the state's: ``observe`` writes them)
    # the score, as ``scoring.points``: complete cafés and the warehouse
    score = cafe_points + warehouse_points(warehouse)
    scaled(ones, indices, values, at + 3, score, 50)
    block = np.zeros(SEAT_VALUES, dtype=np.float32)
    block.put(found.ones, 1.0)
    if ones:
        block.put(ones, 1.0)
    if indices:
        block.put(indices, values)
    return block
