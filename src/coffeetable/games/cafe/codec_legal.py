"""Café's legal indices read straight from the engine's state (the environment's path).

The legal indices come from the engine's own lists, not read back action by
action: while placing from the layout's legal anchors (what
``Company.placements`` and the engine's legal placements are made from), their
cells kept per board (``cafe_board.Board``); in the actions phase from the look
``actions.choices`` makes (``actions.options``). The actions are made only for
the index played (``IndexedLegal``); the tests hold every index to the plain
path (``legal_from`` of the legal actions, each encoded as ``encode`` would).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from coffeetable.engine import Action
from coffeetable.games.cafe.actions import options
from coffeetable.games.cafe.codec import (
    CELLS,
    COLOUR_INDEX,
    DELIVER_BASE,
    DRY_BASE,
    FRAME_H,
    FRAME_W,
    MARGIN,
    PASS_INDEX,
    PAY_INDEX,
    PLACE_BASE,
    PLAN_IDS,
    PLAN_INDEX,
    PRODUCE_BASE,
    RECIPIENTS,
    ROAST_BASE,
    ROAST_SLOTS,
    Frame,
    position_action,
)
from coffeetable.games.cafe.codec_board import board, frame
from coffeetable.games.cafe.codec_deliveries import (
    Delivery,
    Wants,
    company_wants,
    live_recipients,
    recipient_tos,
)
from coffeetable.games.cafe.grid import orientations
from coffeetable.games.cafe.layout import Area, Pos
from coffeetable.games.cafe.rules import CafeState
from coffeetable.interop.encoding import IndexedLegal

if TYPE_CHECKING:
    from coffeetable.games.cafe.codec import CafeCodec


def legal(table: CafeCodec, state: CafeState, seat: int) -> Mapping[int, Action]:
    """``legal_from(state.legal_actions(seat))``, the same items; in every phase but the
    last the indices come straight from the engine's own lists (below), the actions
    made only when asked for (``IndexedLegal``)."""
    phase = state.phase
    if phase == "actions":
        if state.actions_left[seat] > 0:
            return actions_legal(state.companies[seat], state.supply)
        return {}
    if phase == "take" and seat == state.order[state.turn]:
        return takes_legal(state, seat)
    if phase != "place" or state.holding is None or seat not in state.actors():
        return legal_from(table, state.legal_actions(seat), state, seat)
    return placements_legal(state.companies[seat], state.holding)


#: index % 5 -> what a take pays (``PAY_INDEX`` turned round).
PAYS: list[str | None] = sorted(PAY_INDEX, key=PAY_INDEX.__getitem__)


def takes_legal(state: CafeState, seat: int) -> IndexedLegal:
    """The takes of the seat to take, as ``legal_actions`` lists them: each card of the
    display, each way to pay for it (``CafeState.payments``, the engine's own)."""
    indices = [
        PLAN_INDEX[card_id] * 5 + PAY_INDEX[pay]
        for card_id in state.display
        for pay in state.payments(seat, card_id)
    ]

    def make(index: int) -> Action:
        card_id, pay = PLAN_IDS[index // 5], PAYS[index % 5]
        if pay is None:
            return {"type": "take", "card": card_id}
        return {"type": "take", "card": card_id, "pay": pay}

    return IndexedLegal(indices, frozenset(indices), make)


#: card id -> its distinct rotations (``grid.orientations``), kept once asked.
ROTATIONS: dict[str, list[int]] = {}


def placements_legal(company: Any, card_id: str) -> IndexedLegal:
    """The legal placements of ``card_id``, as ``Company.placements`` lists them (the
    engine's own list, which its legal actions are made from: the tests hold the two
    equal): each distinct rotation, then the legal anchors of its footprint, which the
    board keeps (``Board.anchors``: once per board, the squares decide them)."""
    found = board(company)
    cells, flags = found.anchors(company)
    rotations = ROTATIONS.get(card_id)
    if rotations is None:  # a card's distinct turns never change
        rotations = ROTATIONS[card_id] = [rotation for rotation, _ in orientations(card_id)]
    array = np.concatenate([cells[r % 2] + (PLACE_BASE + r * CELLS) for r in rotations])
    place_frame = Frame(found.x0, found.y0, ())

    def members(index: int) -> bool:
        rotation, cell = divmod(index - PLACE_BASE, CELLS)
        return rotation in rotations and bool(flags[(rotation % 2) * CELLS + cell])

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

    def cell(area: Area) -> int:
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
        live = live_recipients(wants)
        roasts = company_frame.roasts
        for area in found.loaded:
            where = area.squares[0]
            slot = roasts.index(where)
            if slot >= ROAST_SLOTS:  # never (cafe's docstring): as deliver_index, not in the space
                continue
            tos = recipient_tos(company.cubes_on(area), wants)
            tos_of[slot] = (where, tos)
            at = DELIVER_BASE + slot * RECIPIENTS
            indices.append(at)  # the warehouse: recipient 0
            seen: list[Delivery] = [tos[0]]
            for recipient in live:  # the rest give the warehouse's ``to``: seen
                to = tos[recipient]
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
