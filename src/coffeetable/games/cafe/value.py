"""Café's value of a company, which every heuristic judges by.

``company_value(company, later, now)``: the score now plus what the company
promises, given ``later`` rounds still to come after this one and ``now``
actions left this round. Pure, and reading only what the views show (the company
areas, the warehouse, the cafés); ``coffeetable.games.cafe.heuristics`` re-exports
every public name here.

================  =================================================================
part              value
================  =================================================================
score now         complete cafés' points + the warehouse's ``2a + b``
a live café       while it can still be fed: points x (``CAFE_PROGRESS`` x share
                  of its need met + ``CAFE_CHANCE`` x the share of its missing
                  cubes whose colour the company grows, while rounds are to come)
a cube in the     its worth (where it would go: a café that wants the colour,
chain             points / cubes it needs, else what it adds to the warehouse's
                  ``2a + b``, at least ``SPARE``) x ``DISCOUNT`` per step still to
                  go (beans 3, drying 2, roasting 1), if those steps fit in the
                  actions left this round or rounds are to come
the engine        for each round to come: actions (``ACTION`` each), ships up to
                  2, bean squares (more for a colour a live café wants), squares
                  joined into bigger bean areas (``JOIN``: a produce makes more
                  cubes), a drying and a roasting area (``CHAIN``)
================  =================================================================
"""

from __future__ import annotations

from collections.abc import Sequence

from coffeetable.games.cafe.cards import COLOURS, MAX_ACTIONS, MIN_ACTIONS
from coffeetable.games.cafe.grid import Company
from coffeetable.games.cafe.scoring import warehouse_points

STEPS = {"roast": 1, "dry": 2, "bean": 3}
DISCOUNT = 0.65
SPARE = 0.3
CAFE_PROGRESS = 1.0
CAFE_CHANCE = 0.25
ACTION = 0.8
SHIP = 0.8
BEAN_SQUARE = 0.15
WANTED_BEAN = 0.1
JOIN = 0.1
CHAIN = 0.8


def _actions(company: Company) -> int:
    return min(MAX_ACTIONS, max(MIN_ACTIONS, company.count("cup")))


def _spare_values(warehouse: dict[str, int], colour: str, cubes: int) -> list[float]:
    """What each of ``cubes`` more cubes of ``colour`` adds to the warehouse's points."""
    key = (*warehouse.items(), colour, cubes)  # the colours named: any key order is safe
    known = _SPARE.get(key)
    if known is None:
        after = dict(warehouse)
        out = []
        for _ in range(cubes):
            before = warehouse_points(after)
            after[colour] += 1
            out.append(max(SPARE, float(warehouse_points(after) - before)))
        if len(_SPARE) >= _SPARE_MAX:
            _SPARE.clear()
        known = _SPARE[key] = tuple(out)
    return list(known)


#: ``_spare_values`` already computed: the round planner asks about the same few warehouses
#: again and again (the computation was a fifth of a late-round rollout's time).
_SPARE: dict[tuple[object, ...], tuple[float, ...]] = {}
_SPARE_MAX = 65536


def engine_value(company: Company) -> float:
    """What the area promises for one round to come (see the module docstring)."""
    wanted = {c for cafe in company.cafes.values() for c in COLOURS if cafe.wants(c)}
    grid = company.grid
    beans = wanted_beans = joined = cups = ships = dries = roasts = 0
    for (x, y), square in grid.items():
        icon = square.icon
        if icon == "bean":
            beans += 1
            wanted_beans += square.colour in wanted
            for near in ((x + 1, y), (x, y + 1)):
                other = grid.get(near)
                joined += other is not None and other.colour == square.colour
        elif icon == "cup":
            cups += 1
        elif icon == "ship":
            ships += 1
        elif icon == "dry":
            dries += 1
        elif icon == "roast":
            roasts += 1
    chain = (dries > 0) + (roasts > 0)
    return (
        ACTION * min(MAX_ACTIONS, max(MIN_ACTIONS, cups))
        + SHIP * min(2, ships)
        + BEAN_SQUARE * beans
        + WANTED_BEAN * wanted_beans
        + JOIN * joined
        + CHAIN * chain / 3
    )


def company_values(
    company: Company, later: int, nows: Sequence[int], engine: float | None = None
) -> list[float]:
    """``company_value`` for each count of actions left in ``nows`` (one pass over the grid)."""
    score = warehouse_points(company.warehouse)
    live: list[tuple[int, int, dict[str, int]]] = []  # points, cubes needed, still missing
    for cafe in company.cafes.values():
        if cafe.lost:
            continue
        have = cafe.have
        missing = {c: n - have.get(c, 0) for c, n in cafe.need.items() if n > have.get(c, 0)}
        if missing:
            live.append((cafe.points, sum(cafe.need.values()), missing))
        else:
            score += cafe.points
    values = [float(score)] * len(nows)
    if not later and not any(nows):
        return values
    steps_by_colour: dict[str, list[int]] = {}
    grown: set[str] = set()
    for square in company.grid.values():
        colour = square.cube_colour
        if square.cubes and colour is not None:
            steps_by_colour.setdefault(colour, []).extend([STEPS[square.icon]] * square.cubes)
            grown.add(colour)
        if square.colour is not None:
            grown.add(square.colour)
    promised = 0.0
    for points, need, missing in live:
        left = sum(missing.values())
        chance = 0.0
        if later:
            reachable = sum(n for c, n in missing.items() if c in grown)
            chance = CAFE_CHANCE * min(1, later / 3) * reachable / left
        promised += points * (CAFE_PROGRESS * (need - left) / need + chance)
    # The cubes on squares: each goes to the best café slot left for its colour, else to the
    # warehouse, worth DISCOUNT a step still to go if the steps fit in the actions left.
    chain = [0.0] * len(nows)
    for colour, cubes in steps_by_colour.items():
        slots = sorted(
            (
                points / need
                for points, need, missing in live
                for _ in range(missing.get(colour, 0))
            ),
            reverse=True,
        )
        slots += _spare_values(company.warehouse, colour, max(0, len(cubes) - len(slots)))
        for i, steps in enumerate(sorted(cubes)):
            worth = slots[i] * DISCOUNT**steps
            for j, now in enumerate(nows):
                if later or now >= steps:
                    chain[j] += worth
    score_engine = later * (engine_value(company) if engine is None else engine) if later else 0.0
    for j, now in enumerate(nows):
        if later or now:
            values[j] += promised + chain[j] + score_engine
    return values


def company_value(company: Company, later: int, now: int, engine: float | None = None) -> float:
    """The score now plus what the company promises (``later`` rounds, ``now`` actions left).

    ``engine``: ``engine_value(company)`` when the caller knows it (the grid is unchanged).
    """
    return company_values(company, later, (now,), engine)[0]
