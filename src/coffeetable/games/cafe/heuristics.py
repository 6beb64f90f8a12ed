"""Café heuristics for the bots: a value of a company, a round planner, a rollout and an evaluation.

Pure, and reading only what the views show (the company areas, the display,
the supply, the round); never the deck. Everything is judged by
``company_value(company, later, now)``: the score now plus what the company
promises, given ``later`` rounds still to come after this one and ``now``
actions left this round.

The value (``company_value``, its parts and weights) lives in
``coffeetable.games.cafe.value``, re-exported here.

Actions phase (``plan``): a beam search over the rest of the round's actions
(``BEAM`` sequences kept a step, ranked by ``company_value`` with the actions
still left), so the bot sees the chain produce -> dry -> roast -> deliver
through; an action is worth the best stopping value (``now = 0``) of the
sequences it starts. The grid does not change in this phase, so the engine
part is computed once. Cost: at most ``BEAM`` x (actions left) expansions of
about 25 actions each (one company copy and one valuation each): about 10-30 ms
for a fresh plan of a late round on this machine; the values of a state already
planned are looked up (``_PLANS``), so the rest of the round costs almost
nothing. Another seat's actions change the supply, which a plan reads only through its
produces: plans are keyed by the supply each colour could still run short of
(``_supply_key``), so they are found again. A planned action copies only the squares it
changes (``_apply``).

Draft: a place is worth the change of value it makes (joined areas, more
cups, a café it can fill; covered cubes and lost cafés count against it); a
take is worth its card's best placement minus the cube it pays (the warehouse
points it loses plus ``PAY``); pass is worth ``PASS``: any useful action beats it.

No wasted actions (``dominated``, for the bots that play by value): in the actions
phase, passing is never better than a deliver that scores now, i.e. one that
completes a café, or in the last round one that adds any point (nothing is
left to keep the cubes for). Nothing can return a company to a position it had
earlier in the turn (every action moves cubes forward), so there is no
``repeats_positions``.

For ISMCTS: ``priors`` (one step ahead, no planning: the search calls them at
every new node), ``rollout_action`` (the chain's end first, a sampled
placement; ``PLANNED_ROLLOUTS`` would follow the round planner in the actions
phase instead) and ``evaluate`` (``tanh`` of the value lead, or of the solo value
around ``SOLO_CENTRE``). The ``ismcts`` bot here is not the tree search but the
rollout algorithm over greedy (``SEARCH``, ``coffeetable.bots.rollout``): it rolls
greedy out to the end of the round and judges by ``evaluate``, trying a take once per
card (``choice_group``). What that search asks of Café (its budget, its horizon) lives in
``coffeetable.games.cafe.search``, re-exported here, where the bots look it up.

Placements cost: ``Company.placements`` tries every anchor that puts a card
square on a visible square, per distinct rotation (228 anchors, 114 legal
placements on a 9-card area of 33 squares, about 1 ms); each legal one is then
valued on a copy of the company (about 0.2 ms). A take values every placement
of the cards it may take (``_PLACED``), and the place after it looks its card's
up.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from coffeetable.engine import Action
from coffeetable.games.cafe import actions
from coffeetable.games.cafe.cards import BY_ID, COLOURS, ROUNDS
from coffeetable.games.cafe.grid import Company
from coffeetable.games.cafe.rules import CafeState
from coffeetable.games.cafe.scoring import cafe_points, warehouse_points
from coffeetable.games.cafe.scoring import points as company_points
from coffeetable.games.cafe.search import MORE_ROUNDS as MORE_ROUNDS
from coffeetable.games.cafe.search import NEXT_ROUND_DEALS as NEXT_ROUND_DEALS
from coffeetable.games.cafe.search import ROLLOUT_ACTIONS as ROLLOUT_ACTIONS
from coffeetable.games.cafe.search import ROLLOUT_PLACES as ROLLOUT_PLACES
from coffeetable.games.cafe.search import SEARCH as SEARCH
from coffeetable.games.cafe.search import TAKE_DEALS_MANY as TAKE_DEALS_MANY
from coffeetable.games.cafe.search import TO_THE_END_FROM as TO_THE_END_FROM
from coffeetable.games.cafe.search import choice_group as choice_group
from coffeetable.games.cafe.search import rollout_budget as rollout_budget
from coffeetable.games.cafe.search import rollout_rounds as rollout_rounds
from coffeetable.games.cafe.search import unseen_reveals as unseen_reveals
from coffeetable.games.cafe.value import ACTION as ACTION
from coffeetable.games.cafe.value import BEAN_SQUARE as BEAN_SQUARE
from coffeetable.games.cafe.value import CAFE_CHANCE as CAFE_CHANCE
from coffeetable.games.cafe.value import CAFE_PROGRESS as CAFE_PROGRESS
from coffeetable.games.cafe.value import CHAIN as CHAIN
from coffeetable.games.cafe.value import DISCOUNT as DISCOUNT
from coffeetable.games.cafe.value import JOIN as JOIN
from coffeetable.games.cafe.value import SHIP as SHIP
from coffeetable.games.cafe.value import SPARE as SPARE
from coffeetable.games.cafe.value import STEPS as STEPS
from coffeetable.games.cafe.value import WANTED_BEAN as WANTED_BEAN
from coffeetable.games.cafe.value import _actions
from coffeetable.games.cafe.value import company_value as company_value
from coffeetable.games.cafe.value import company_values as company_values
from coffeetable.games.cafe.value import engine_value as engine_value

PAY = 0.0
PASS = -0.01
#: Sequences the round planner keeps at each step.
BEAM = 3
#: evaluate: a value lead of SCALE is worth tanh(1); solo, a value of SOLO_CENTRE is worth 0.
SCALE = 8.0
SOLO_CENTRE = 25.0


def _later(state: CafeState) -> int:
    return ROUNDS - state.round


def _placed_value(company: Company, later: int) -> float:
    """A company's value as the actions phase of this round begins."""
    return company_value(company, later, _actions(company)) + ACTION * _actions(company)


#: Placement values already computed: (company signature, card, later) -> {(x, y, r): value}.
_PLACED: dict[tuple[object, ...], dict[tuple[int, int, int], float]] = {}


def _placements(company: Company, card_id: str, later: int) -> dict[tuple[int, int, int], float]:
    """Every legal placement of the card and its value (as the actions begin) over now's.

    Cached: the take values every placement of the card it may take, the place after it
    then looks them up.
    """
    key = (_signature(company, {}, later, 0), card_id)
    known = _PLACED.get(key)
    if known is None:
        card, base = BY_ID[card_id], _placed_value(company, later)
        known = {}
        for x, y, rotation in company.placements(card_id):
            trial = company.copy()
            trial.place(card, x, y, rotation)
            known[(x, y, rotation)] = _placed_value(trial, later) - base
        if len(_PLACED) >= _PLANS_MAX:
            _PLACED.clear()
        _PLACED[key] = known
    return known


def _best_place(state: CafeState, seat: int, card_id: str) -> float:
    return max(_placements(state.companies[seat], card_id, _later(state)).values())


# -- the actions phase: a beam search over the rest of the round ------------------------------

#: Planned states: signature -> {action key: value}. Cleared when it grows large.
_PLANS: dict[tuple[object, ...], dict[str, float]] = {}
_PLANS_MAX = 4096


def _signature(
    company: Company, supply: dict[str, int], later: int, now: int
) -> tuple[object, ...]:
    cubes = tuple(
        sorted((pos, s.cubes, s.cube_colour) for pos, s in company.grid.items() if s.cubes)
    )
    cafes = tuple(
        sorted((k, c.lost, tuple(sorted(c.have.items()))) for k, c in company.cafes.items())
    )
    return (
        tuple(company.cards),
        cubes,
        cafes,
        tuple(company.warehouse.values()),
        tuple(supply.values()),
        later,
        now,
    )


def _key(action: Action) -> str:
    return repr(sorted(action.items()))


def _apply(
    company: Company, supply: dict[str, int], action: Action
) -> tuple[Company, dict[str, int]]:
    """The company and supply after ``action``, on copies of only what it changes: the
    squares of the area it names, and for a dry or a roast the squares it lifts the colour
    off (``actions.perform`` touches no other square). The other squares are shared with
    ``company``: nothing changes a planned company but ``_apply``, which copies first."""
    trial = object.__new__(Company)
    grid = company.grid
    trial.grid = changed = dict(grid)
    if action["type"] != "pass":
        area = company.area_at((action["area"][0], action["area"][1]))
        assert area is not None
        for pos in area.squares:
            changed[pos] = grid[pos].copy()
        source = actions.SOURCE.get(action["type"])
        if source is not None:
            colour = action["colour"]
            for pos in company.layout.squares_of(source):
                if grid[pos].cube_colour == colour:
                    changed[pos] = grid[pos].copy()
    trial.cafes = {key: cafe.copy() for key, cafe in company.cafes.items()}
    trial.warehouse = dict(company.warehouse)
    trial.cards = company.cards
    trial._layout = company._layout  # the squares are the same: so is their layout
    after = dict(supply)
    actions.perform(trial, after, action)
    return trial, after


def plan(
    company: Company, supply: dict[str, int], later: int, now: int, candidates: Sequence[Action]
) -> list[float]:
    """Each candidate's worth: the best value at which a sequence it starts may stop.

    A beam search of ``BEAM`` sequences over the ``now`` actions left this round;
    the values are relative to stopping now (passing).
    """
    engine = engine_value(company) if later else 0.0
    base = company_value(company, later, 0, engine)
    best: list[float] = []
    frontier: list[tuple[float, int, Company, dict[str, int]]] = []
    for i, action in enumerate(candidates):
        if action["type"] == "pass":
            best.append(PASS)
            continue
        trial, after = _apply(company, supply, action)
        stop, promise = company_values(trial, later, (0, now - 1), engine)
        best.append(stop - base)
        if now > 1:
            frontier.append((promise, i, trial, after))
    for left in range(now - 1, 0, -1):
        frontier.sort(key=lambda node: -node[0])
        grown: list[tuple[float, int, Company, dict[str, int]]] = []
        for _, first, node, node_supply in frontier[:BEAM]:
            for action in actions.choices(node, node_supply):
                if action["type"] == "pass":
                    continue
                trial, after = _apply(node, node_supply, action)
                stop, promise = company_values(trial, later, (0, left - 1), engine)
                best[first] = max(best[first], stop - base)
                if left > 1:
                    grown.append((promise, first, trial, after))
        frontier = grown
    return best


def _supply_key(company: Company, supply: dict[str, int], now: int) -> dict[str, int]:
    """The supply as far as a plan of ``now`` actions can tell: each colour's cubes up to
    ``now`` times the company's biggest bean area of that colour (0 without one). The supply
    reaches a plan only through produces (``actions.choices`` offers one while the colour
    is left; ``perform`` takes up to the area's size), and ``now`` produces never take more
    than that: every supply at or above it plans alike. So the plan of one seat is found
    again after another seat's actions changed the supply of colours it cannot run out of."""
    biggest: dict[str, int] = {}
    for kind, colour, squares in company.layout.areas:
        if kind == "bean" and colour is not None:
            biggest[colour] = max(biggest.get(colour, 0), len(squares))
    return {colour: min(n, now * biggest.get(colour, 0)) for colour, n in supply.items()}


def _phase_values(state: CafeState, seat: int, candidates: Sequence[Action]) -> list[float]:
    company, supply = state.companies[seat], state.supply
    later, now = _later(state), state.actions_left[seat]
    signature = _signature(company, _supply_key(company, supply, now), later, now)
    known = _PLANS.get(signature)
    keys = [_key(action) for action in candidates]
    if known is None or any(key not in known for key in keys):
        legal = actions.choices(company, supply)
        resolved = [actions.resolve(company, supply, a) for a in candidates]
        everything = legal + [a for a in resolved if _key(a) not in {_key(b) for b in legal}]
        values = plan(company, supply, later, now, everything)
        known = dict(zip((_key(a) for a in everything), values, strict=True))
        if len(_PLANS) >= _PLANS_MAX:
            _PLANS.clear()
        _PLANS[signature] = known
        for key, action in zip(keys, resolved, strict=True):
            known.setdefault(key, known[_key(action)])
    return [known[key] for key in keys]


def action_value(state: CafeState, seat: int, action: Action) -> float:
    """How much ``action`` improves ``seat``'s company (see the module docstring)."""
    return action_values(state, seat, [action])[0]


def action_values(state: CafeState, seat: int, candidates: Sequence[Action]) -> list[float]:
    """``action_value`` for many actions at once (a take's best placement computed once)."""
    if state.phase == "actions":
        return _phase_values(state, seat, candidates)
    company = state.companies[seat]
    best: dict[str, float] = {}
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
            out.append(0.0)  # valued below, all placements together
            continue
        else:
            value = PASS
        out.append(value)
    places = [i for i, action in enumerate(candidates) if action["type"] == "place"]
    if places:
        values = _place_values(state, seat, [candidates[i] for i in places])
        for i, value in zip(places, values, strict=True):
            out[i] = value
    return out


def _place_values(state: CafeState, seat: int, candidates: Sequence[Action]) -> list[float]:
    """Each placement by its value as the actions begin."""
    assert state.holding is not None
    known = _placements(state.companies[seat], state.holding, _later(state))
    return [known[(a["x"], a["y"], a["rotation"])] for a in candidates]


def free_scores(state: CafeState, seat: int, candidates: Sequence[Action]) -> list[bool]:
    """Which of ``candidates`` score now at no cost: a deliver that completes a café, or
    in the last round one that adds any point (see the module docstring)."""
    if state.phase != "actions":
        return [False] * len(candidates)
    company, supply = state.companies[seat], state.supply
    last = _later(state) == 0
    before_cafes, before = cafe_points(company), company_points(company)
    out = []
    for action in candidates:
        if action["type"] != "deliver":
            out.append(False)
            continue
        trial, _ = _apply(company, supply, actions.resolve(company, supply, action))
        out.append(cafe_points(trial) > before_cafes or (last and company_points(trial) > before))
    return out


def dominated(state: CafeState, seat: int, candidates: Sequence[Action]) -> list[bool]:
    """Flags ``pass`` while a free score is legal (``free_scores``); nothing else."""
    passes = [action["type"] == "pass" for action in candidates]
    if not any(passes) or state.phase != "actions":
        return [False] * len(candidates)
    delivers = [action for action in state.legal_actions(seat) if action["type"] == "deliver"]
    free = any(free_scores(state, seat, delivers))
    return [free and is_pass for is_pass in passes]


# -- for search: cheap priors, a rollout policy and an evaluation ------------------------------


def priors(state: CafeState, seat: int, candidates: Sequence[Action]) -> list[float]:
    """Cheap values to order a search's expansions (no planning, no placement search).

    Actions: the change of ``company_value`` one step ahead; a place: its value as the
    actions begin; a take: its café's points a cube, less the cube it pays.
    """
    company, later = state.companies[seat], _later(state)
    if state.phase == "actions":
        now = state.actions_left[seat] - 1
        base = company_value(company, later, now)
        out = []
        for action in candidates:
            if action["type"] == "pass":
                out.append(PASS)
                continue
            trial, _ = _apply(company, state.supply, actions.resolve(company, state.supply, action))
            out.append(company_value(trial, later, now) - base)
        return out
    if state.phase == "place":
        return _place_values(state, seat, candidates)
    out = []
    for action in candidates:
        card = BY_ID[action.get("card", "")] if action.get("card") in BY_ID else None
        value = 0.0 if card is None else card.points / max(1, sum(n for _, n in card.need))
        out.append(value - (PAY + 1 if action.get("pay") is not None else 0))
    return out


#: Kinds of action in the order the rollout prefers them (the chain's end first).
_ROLLOUT_ORDER = {"deliver": 0, "roast": 1, "dry": 2, "produce": 3, "pass": 9}
#: Placements a rollout samples (the best of them by ``engine_value``).
ROLLOUT_SAMPLES = 6
#: Rollouts in the actions phase follow the round planner (its plans are cached). Off:
#: with it and ``ROOT_TOP = 4`` (the root searching greedy's 4 best actions only) ISMCTS
#: won 10 of 30 two-player games against greedy and 1 of 20 four-player tables (docs/benchmarks.md).
PLANNED_ROLLOUTS = False


def rollout_action(state: CafeState, seat: int, rng: random.Random) -> Action:
    """A cheap policy for search rollouts: the chain's end first, a sampled placement.

    Actions: a deliver that completes the most café points, else the furthest step of
    the chain (roast, dry, produce), the colour wanted most; draft: a card without a
    cost when one shows, placed at the best of ``ROLLOUT_SAMPLES`` sampled spots.
    """
    legal = state.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    company = state.companies[seat]
    if state.phase == "take":
        free = [a for a in legal if "pay" not in a]
        return rng.choice(free or legal)
    if state.phase == "place":
        assert state.holding is not None
        card = BY_ID[state.holding]
        best, best_value = legal[0], -math.inf
        for action in rng.sample(legal, min(ROLLOUT_SAMPLES, len(legal))):
            trial = company.copy()
            trial.place(card, action["x"], action["y"], action["rotation"])
            value = engine_value(trial) + cafe_points(trial)
            if value > best_value:
                best, best_value = action, value
        return best
    if PLANNED_ROLLOUTS:
        values = _phase_values(state, seat, legal)
        return legal[values.index(max(values))]
    wanted = {c: sum(cafe.wants(c) for cafe in company.cafes.values()) for c in COLOURS}

    def rank(action: Action) -> tuple[float, float, float]:
        kind = action["type"]
        if kind == "deliver":
            cafes = sum(sum(v.values()) for v in action["to"].values())
            return (0, -cafes, rng.random())
        colour = action.get("colour")
        if colour is None and kind == "produce":
            area = company.area_at((action["area"][0], action["area"][1]))
            colour = area.colour if area is not None else None
        return (_ROLLOUT_ORDER[kind], -wanted.get(colour or "", 0), rng.random())

    return min(legal, key=rank)


def rollout_value(state: CafeState) -> list[float]:
    """The rollout search's judgement at its horizon: ``evaluate`` (the lead over the other
    company) at 2 players; with more, each company's own value as solo judges it. Against
    several others the best other's value is mostly noise from their draws (the first
    4-player tables judged by the lead: 0 wins in 6), and what one take denies one of
    three others is small."""
    if state.players <= 2:
        return evaluate(state)
    return [
        math.tanh((_outlook(state, seat) - SOLO_CENTRE) / SCALE) for seat in range(state.players)
    ]


def _outlook(state: CafeState, seat: int) -> float:
    company, later = state.companies[seat], _later(state)
    if state.is_over:
        return float(cafe_points(company) + warehouse_points(company.warehouse))
    now = state.actions_left[seat] if state.phase == "actions" else _actions(company)
    return company_value(company, later, now)


def evaluate(state: CafeState) -> list[float]:
    """Each seat's value in [-1, 1]: ``tanh`` of its ``company_value`` lead over the best other
    (solo: of its value around ``SOLO_CENTRE``), the actions left this round counted."""
    values = [_outlook(state, seat) for seat in range(state.players)]
    if state.players == 1:
        return [math.tanh((values[0] - SOLO_CENTRE) / SCALE)]
    return [
        math.tanh((value - max(v for i, v in enumerate(values) if i != seat)) / SCALE)
        for seat, value in enumerate(values)
    ]
