"""Café's observation and legal indices read straight from the engine's state.

The environment steps millions of times: building Café's observation
through a view (dicts per square, then ``features``) cost several times the
rules. This module writes the same vector (``cafe.features`` of
``state.view(seat)``, value for value: the tests compare them over many
random positions) from the state itself:

- each board (``cafe_board.Board``: its frame, its icon and bean-colour ones,
  the squares that can hold cubes: the action areas' squares, cubes lie
  nowhere else) is worked out once per card list and kept: a step reads only
  the cubes on those squares, the cafés and a few counts;
- a seat's block (its company's board with the cubes, cafés and counts) is
  kept by the company's revision (``Company.revision``, new at every change):
  a company that did not change since it was last observed (at 2 players,
  most steps: the other company, the whole take) is copied, not read again;
- the rest is filled in one numpy pass: ``put`` of the ones, then of the
  fractional values (the blocks are copied in whole, so only the table part
  and the winners are zeroed);
- the legal indices are ``codec_legal``'s (they read these boards too).

The site adapter still observes through the view (``cafe.features``): the
site sends views, not states.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from coffeetable.games.cafe.cards import COLOURS, ROUNDS
from coffeetable.games.cafe.codec import (
    CAFE_BASE,
    COLOUR_INDEX,
    CUBE_OFFSET,
    MAX_PLAYERS,
    PHASES,
    PLAN_IDS,
    PLAN_INDEX,
)
from coffeetable.games.cafe.codec_board import CAFES_AT, COUNTS_AT, SEAT_VALUES, board
from coffeetable.games.cafe.rules import CafeState
from coffeetable.games.cafe.scoring import warehouse_points
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
PHASE_INDEX = {phase: p for p, phase in enumerate(PHASES)}
SUPPLY_COLOURS = tuple((SUPPLY_AT + c, colour) for c, colour in enumerate(COLOURS))


#: Seat blocks worked out, by company revision (``Company.revision``: the same
#: revision, the same company), every value but the actions left (the state's). A
#: company that did not change since it was last observed is copied, not read again:
#: at 2 players, most steps (the other company, the whole take).
_BLOCKS: dict[object, NDArray[np.float32]] = {}
#: The most blocks kept (21 KB each): a few per seat, small enough to stay in the CPU's cache.
BLOCKS_KEPT = 16
#: Where a seat block's counts go: warehouse per colour, then cups, ships, actions left, score.
WAREHOUSE_AT = tuple((COUNTS_AT + c, colour) for c, colour in enumerate(COLOURS))
CUPS_AT = COUNTS_AT + len(COLOURS)
ACTIONS_LEFT_AT = CUPS_AT + 2


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
    for at, colour in SUPPLY_COLOURS:
        scaled(ones, indices, values, at, supply[colour], 35)
    winners_at = TABLE_VALUES + n * SEAT_VALUES
    for w in state.winners:
        ones.append(winners_at + (w - seat) % n)
    # Not zeros: all but the table part and the winners are the seats' blocks, copied in
    # (zeroing them first would write the observation twice).
    out = np.empty(size, dtype=np.float32)
    out[:TABLE_VALUES] = 0.0
    out[winners_at:] = 0.0
    companies = state.companies
    actions_left = state.actions_left
    for offset in range(n):
        start = TABLE_VALUES + offset * SEAT_VALUES
        other = (seat + offset) % n
        out[start : start + SEAT_VALUES] = company_block(companies[other])
        scaled(ones, indices, values, start + ACTIONS_LEFT_AT, actions_left[other], 8)
    # one ``put``: the ones, then the other values
    out.put(ones + indices, [1.0] * len(ones) + values)
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
    """``company_block``, read from the company (``ones`` and ``indices``/``values`` as in
    ``observe``)."""
    ones: list[int] = []
    indices: list[int] = []
    values: list[float] = []
    found = board(company)
    grid = company.grid
    for pos, at in found.cube_bases():
        square = grid[pos]
        cubes = square.cubes
        if cubes > 0 and square.cube_colour is not None:  # ``scaled``, inlined (/ 3)
            if cubes >= 3:
                ones.append(at + CUBE_OFFSET[square.cube_colour])
            else:
                indices.append(at + CUBE_OFFSET[square.cube_colour])
                values.append(cubes / 3)
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
    warehouse = company.warehouse
    for at, colour in WAREHOUSE_AT:
        scaled(ones, indices, values, at, warehouse[colour], 10)
    icons = company.layout.icons
    scaled(ones, indices, values, CUPS_AT, icons.get("cup", 0), 10)
    scaled(ones, indices, values, CUPS_AT + 1, icons.get("ship", 0), 10)
    # (CUPS_AT + 2: the actions left, the state's: ``observe`` writes them)
    # the score, as ``scoring.points``: complete cafés and the warehouse
    score = cafe_points + warehouse_points(warehouse)
    scaled(ones, indices, values, CUPS_AT + 3, score, 50)
    block = np.zeros(SEAT_VALUES, dtype=np.float32)
    # one ``put``: the board's fixed ones, then the other ones, then the other values
    fixed = found.ones()
    block.put(fixed, 1.0)
    block.put(ones + indices, [1.0] * len(ones) + values)
    return block
