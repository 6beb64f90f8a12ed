"""Café's observation and legal indices read straight from the engine's state.

The environment steps millions of times, and Café's observation is 36,173
values at two players: building it through a view (dicts per square, then
``features``) cost several times the rules. This module writes the same
vector (``cafe.features`` of ``state.view(seat)``, value for value: the
tests compare them over many random positions) from the state itself:

- a company's squares change only when a card is laid, and the cards laid
  (``company.cards``, in order, from the start card) decide them. So each
  board's icon and bean-colour ones, and the squares that can hold cubes
  (the action areas' squares: cubes lie nowhere else), are worked out once
  per card list and kept (``_BOARDS``, bounded); a step then reads only the
  cubes on those squares, the cafés and a few counts;
- the vector is filled in one numpy pass: ``put`` of the ones, then of the
  fractional values.

The site adapter still observes through the view (``cafe.features``): the
site sends views, not states.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import TYPE_CHECKING, Any

import numpy as np

from coffeetable.engine import Action
from coffeetable.games.cafe.cards import COLOURS, ROUNDS
from coffeetable.games.cafe.layout import AREA_KINDS, Pos
from coffeetable.games.cafe.rules import CafeState
from coffeetable.games.cafe.scoring import warehouse_points
from coffeetable.interop.cafe import (
    CAFE_BASE,
    CAFE_IDS,
    CAFE_VALUES,
    COLOUR_INDEX,
    COLOUR_OFFSET,
    CUBE_OFFSET,
    DRY_BASE,
    ICON_INDEX,
    MAX_PLAYERS,
    PASS_INDEX,
    PAY_INDEX,
    PHASES,
    PLACE_BASE,
    PLAN_IDS,
    PLAN_INDEX,
    POSITIONS,
    PRODUCE_BASE,
    ROAST_BASE,
    SQUARE,
    SQUARE_BASE,
)
from coffeetable.interop.encoding import scaled

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
BOARD_VALUES = POSITIONS * SQUARE
CAFES_AT = BOARD_VALUES
COUNTS_AT = CAFES_AT + len(CAFE_IDS) * CAFE_VALUES
SEAT_VALUES = COUNTS_AT + len(COLOURS) + 4

#: Boards worked out, by card list: (ones within the board, (square position, its base)).
_BOARDS: dict[Hashable, tuple[dict[int, NDArray[np.intp]], tuple[tuple[Pos, int], ...]]] = {}
#: The most boards kept (a few kilobytes each); past it the store starts again.
BOARDS_KEPT = 20_000
PHASE_INDEX = {phase: p for p, phase in enumerate(PHASES)}
COLOURS_AT = tuple(enumerate(COLOURS))


def _board(company: Any) -> tuple[dict[int, NDArray[np.intp]], tuple[tuple[Pos, int], ...]]:
    """The board's fixed ones (by where a seat's block starts, -1 for the board alone:
    ``_shifted``) and its cube squares, worked out once per card list."""
    key = tuple(company.cards)
    found = _BOARDS.get(key)
    if found is not None:
        return found
    ones: list[int] = []
    cube_squares = []
    for pos, square in company.grid.items():
        base = SQUARE_BASE.get(pos)
        if base is None:
            raise ValueError(f"square {pos[0]},{pos[1]} is off the board")
        ones.append(base + ICON_INDEX[square.icon])
        if square.colour is not None:
            ones.append(base + COLOUR_OFFSET[square.colour])
        if square.icon in AREA_KINDS:
            cube_squares.append((pos, base))
    if len(_BOARDS) >= BOARDS_KEPT:
        _BOARDS.clear()
    found = _BOARDS[key] = ({-1: np.asarray(ones, dtype=np.intp)}, tuple(cube_squares))
    return found


def _shifted(fixed: dict[int, NDArray[np.intp]], start: int) -> NDArray[np.intp]:
    """A board's fixed ones moved to the seat block at ``start`` (kept: -1 is unmoved)."""
    moved = fixed.get(start)
    if moved is None:
        moved = fixed[start] = fixed[-1] + start
    return moved


def observe(state: CafeState, seat: int, size: int) -> NDArray[np.float32]:
    """``observe(state.view(seat))``, from the state (see the module docstring)."""
    n = state.players
    phase = state.phase
    ones = [seat, PHASE_AT + PHASE_INDEX[phase], ROUND_AT + state.round_number - 1]
    indices: list[int] = []
    values: list[float] = []
    if state.master is not None:
        ones.append(MASTER_AT + (state.master - seat) % n)
    if phase in ("take", "place"):
        ones.append(TURN_AT + (state.order[state.turn] - seat) % n)
    ones += [DISPLAY_AT + PLAN_INDEX[card] for card in state.display]
    if state.holding is not None:
        ones.append(HOLDING_AT + PLAN_INDEX[state.holding])
    ones += [DISCARD_AT + PLAN_INDEX[card] for card in state.discard]
    counts = [(DECK_AT, len(state.deck), 40)]  # (where, value, scale), scaled at the end
    supply = state.supply
    counts += [(SUPPLY_AT + c, supply[colour], 35) for c, colour in COLOURS_AT]
    boards = []
    for offset in range(n):
        start = TABLE_VALUES + offset * SEAT_VALUES
        other = (seat + offset) % n
        company = state.companies[other]
        fixed, cube_squares = _board(company)
        boards.append(_shifted(fixed, start))
        grid = company.grid
        for base, square in [(b, s) for pos, b in cube_squares if (s := grid[pos]).cubes]:
            if square.cube_colour is not None:
                where = start + base + CUBE_OFFSET[square.cube_colour]
                scaled(ones, indices, values, where, square.cubes, 3)
        cafe_points = 0
        for cafe in company.cafes.values():
            base = start + CAFES_AT + CAFE_BASE[cafe.id]
            ones.append(base)
            have = cafe.have
            if cafe.lost:
                ones.append(base + 1)
            elif all(have.get(colour, 0) >= need for colour, need in cafe.need.items()):
                ones.append(base + 2)  # complete (``Cafe.complete``)
                cafe_points += cafe.points
            for colour, had in have.items():
                scaled(ones, indices, values, base + 3 + COLOUR_INDEX[colour], had, 3)
        at = start + COUNTS_AT
        warehouse = company.warehouse
        counts += [(at + c, warehouse[colour], 10) for c, colour in COLOURS_AT]
        layout = company.layout
        at += len(COLOURS)
        counts.append((at, layout.count("cup"), 10))
        counts.append((at + 1, layout.count("ship"), 10))
        counts.append((at + 2, state.actions_left[other], 8))
        # the score, as ``scoring.points``: complete cafés and the warehouse
        counts.append((at + 3, cafe_points + warehouse_points(warehouse), 50))
    winners_at = TABLE_VALUES + n * SEAT_VALUES
    ones += [winners_at + (w - seat) % n for w in state.winners]
    for where, value, scale in counts:
        scaled(ones, indices, values, where, value, scale)
    out = np.zeros(size, dtype=np.float32)
    out.put(ones, 1.0)
    for board in boards:
        out.put(board, 1.0)
    if indices:
        out.put(indices, values)
    return out


def legal_from(
    table: CafeCodec, actions: Iterable[Action], state: CafeState, seat: int
) -> dict[int, Action]:
    """``CafeCodec.legal_from`` with the state, the common kinds' arithmetic inlined.

    Every index is checked against the codec's table (a placement by its fields'
    count and range, which says the same); a miss goes the codec's slow way,
    ``lookup``. Deliveries are worked out per area as there.
    """
    memo: dict[tuple[int, int], list[Action]] = {}
    out: dict[int, Action] = {}
    entries = table.actions
    lookup = table.lookup
    for action in actions:
        kind = action["type"]
        index: int | None
        try:
            if kind == "place":
                rotation = action["rotation"]
                index = (
                    PLACE_BASE
                    + rotation * POSITIONS
                    + SQUARE_BASE[action["x"], action["y"]] // SQUARE
                )
                if len(action) == 4 and type(rotation) is int and 0 <= rotation < 4:
                    # four fields, each found and in range: what comparing with the table's
                    # entry would say, for less
                    if index not in out:
                        out[index] = action
                    continue
            elif kind == "produce":
                x, y = action["area"]
                index = PRODUCE_BASE + SQUARE_BASE[x, y] // SQUARE
            elif kind == "dry" or kind == "roast":
                x, y = action["area"]
                index = (
                    (DRY_BASE if kind == "dry" else ROAST_BASE)
                    + COLOUR_INDEX[action["colour"]] * POSITIONS
                    + SQUARE_BASE[x, y] // SQUARE
                )
            elif kind == "take":
                index = PLAN_INDEX[action["card"]] * 5 + PAY_INDEX[action.get("pay")]
            elif kind == "pass":
                index = PASS_INDEX
            elif kind == "deliver":
                index = table.deliver_index(action, state, seat, memo)
                if index is not None and index not in out:
                    out[index] = action
                continue
            else:
                index = lookup(action)
            if index is not None and entries[index] != action:
                index = lookup(action)
        except (KeyError, TypeError, ValueError, IndexError):
            index = lookup(action)
        if index is not None and index not in out:
            out[index] = action
    return out
