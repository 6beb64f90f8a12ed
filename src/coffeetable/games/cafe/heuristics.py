"""Café heuristics for a greedy bot: one action ahead, judged by ``company_value``.

Pure, and reading only what the views show (the company areas, the display,
the supply, the round); never the deck. Each action is tried on a copy of the
seat's company and valued as the change of ``company_value``, given the
outlook: ``later`` rounds still to come after this one and ``now`` actions
left this round.

================  =================================================================
part              value
================  =================================================================
score now         complete cafés' points + the warehouse's ``2a + b``
a live café       while it can still be fed: points x (``CAFE_PROGRESS`` x share
                  of its need met + ``CAFE_CHANCE`` while rounds are to come)
a cube in the     its worth (where it would go: a café that wants the colour,
chain             points / cubes it needs, else ``SPARE``) x ``DISCOUNT`` per step
                  still to go (beans 3, drying 2, roasting 1), if those steps fit
                  in the actions left this round or rounds are to come
the engine        for each round to come: actions (``ACTION`` each), ships up to
                  2, bean squares, a first drying and roasting area (``CHAIN``)
================  =================================================================

So the bot builds early and cashes in late: in the last actions it delivers
to the cafés that complete and balances its warehouse (an incomplete café is
then worth nothing). A place is worth the change it makes (joined areas, more
cups, a café it can fill; covered cubes and lost cafés count against it); a
take is worth its card's best placement minus the cube it pays (the warehouse
points it loses plus ``PAY``); pass is worth ``PASS``: any useful action beats it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from coffeetable.engine import Action
from coffeetable.games.cafe import actions
from coffeetable.games.cafe.cards import BY_ID, MAX_ACTIONS, MIN_ACTIONS, ROUNDS
from coffeetable.games.cafe.grid import Company
from coffeetable.games.cafe.rules import CafeState
from coffeetable.games.cafe.scoring import cafe_points, warehouse_points

STEPS = {"roast": 1, "dry": 2, "bean": 3}
DISCOUNT = 0.65
SPARE = 0.3
CAFE_PROGRESS = 1.0
CAFE_CHANCE = 0.5
ACTION = 0.8
SHIP = 0.4
BEAN_SQUARE = 0.15
CHAIN = 1.5
PAY = 0.3
PASS = -0.01
# Tuned on solo games (40 seeds): the greedy bot averages about 14 points, random play 0.


def _actions(company: Company) -> int:
    return min(MAX_ACTIONS, max(MIN_ACTIONS, company.count("cup")))


def _chain_value(company: Company, later: int, now: int) -> float:
    """The worth of the cubes on squares: each goes to the best café slot left, else spare."""
    steps_by_colour: dict[str, list[int]] = {}
    for square in company.grid.values():
        if square.cubes and square.cube_colour is not None:
            steps_by_colour.setdefault(square.cube_colour, []).extend(
                [STEPS[square.icon]] * square.cubes
            )
    value = 0.0
    for colour, cubes in steps_by_colour.items():
        slots = sorted(
            (
                cafe.points / sum(cafe.need.values())
                for cafe in company.cafes.values()
                for _ in range(cafe.wants(colour))
            ),
            reverse=True,
        )
        for i, steps in enumerate(sorted(cubes)):
            if later or now >= steps:
                value += (slots[i] if i < len(slots) else SPARE) * DISCOUNT**steps
    return value


def company_value(company: Company, later: int, now: int) -> float:
    """The score now plus what the company promises (``later`` rounds, ``now`` actions left)."""
    value = float(cafe_points(company) + warehouse_points(company.warehouse))
    if later or now:
        for cafe in company.cafes.values():
            if not (cafe.lost or cafe.complete):
                share = sum(cafe.have.values()) / sum(cafe.need.values())
                value += cafe.points * (CAFE_PROGRESS * share + CAFE_CHANCE * min(1, later / 3))
        value += _chain_value(company, later, now)
    if later:
        icons = [square.icon for square in company.grid.values()]
        kinds, beans = set(icons), icons.count("bean")
        value += later * (
            ACTION * _actions(company)
            + SHIP * min(2, company.count("ship"))
            + BEAN_SQUARE * beans
            + CHAIN * (("dry" in kinds) + ("roast" in kinds)) / 3
        )
    return value


def _later(state: CafeState) -> int:
    return ROUNDS - state.round


def _placed_value(company: Company, later: int) -> float:
    """A company's value as the actions phase of this round begins."""
    return company_value(company, later, _actions(company)) + ACTION * _actions(company)


def _best_place(state: CafeState, seat: int, card_id: str) -> float:
    company, later = state.companies[seat], _later(state)
    now = _placed_value(company, later)
    best = -math.inf
    for x, y, rotation in company.placements(card_id):
        trial = company.copy()
        trial.place(BY_ID[card_id], x, y, rotation)
        best = max(best, _placed_value(trial, later) - now)
    return best


def action_value(state: CafeState, seat: int, action: Action) -> float:
    """How much ``action`` improves ``seat``'s company (see the module docstring)."""
    return action_values(state, seat, [action])[0]


def action_values(state: CafeState, seat: int, candidates: Sequence[Action]) -> list[float]:
    """``action_value`` for many actions at once (a take's best placement computed once)."""
    company, later = state.companies[seat], _later(state)
    best: dict[str, float] = {}
    base: float | None = None
    out = []
    for action in candidates:
        kind = action["type"]
        if kind == "take":
            card_id = action["card"]
            if card_id not in best:
                best[card_id] = _best_place(state, seat, card_id)
            value = best[card_id]
            if action.get("pay") is not None:
                after = dict(company.warehouse)
                after[action["pay"]] -= 1
                value -= warehouse_points(company.warehouse) - warehouse_points(after) + PAY
        elif kind == "place":
            assert state.holding is not None
            if base is None:
                base = _placed_value(company, later)
            trial = company.copy()
            trial.place(BY_ID[state.holding], action["x"], action["y"], action["rotation"])
            value = _placed_value(trial, later) - base
        elif kind == "pass":
            value = PASS
        else:
            now = state.actions_left[seat] - 1
            if base is None:
                base = company_value(company, later, now)
            trial, supply = company.copy(), dict(state.supply)
            actions.perform(trial, supply, actions.resolve(trial, supply, action))
            value = company_value(trial, later, now) - base
        out.append(value)
    return out
