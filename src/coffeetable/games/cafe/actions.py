"""The actions phase: produce, dry, roast, deliver and pass, as JSON actions.

An area is named by any of its squares, ``"area": [x, y]``; legal_actions
names it by its first square in reading order (its id)::

    {"type": "produce", "area": [x, y]}
    {"type": "dry", "colour": "red", "area": [x, y]}
    {"type": "roast", "colour": "red", "area": [x, y]}
    {"type": "deliver", "area": [x, y], "to": {"C01": {"red": 1}}}
    {"type": "pass"}

A deliver's ``to`` says how many cubes of each colour go to each café (a
café id is its card's id); every other cube of the area goes to the
warehouse, so ``"to": {}`` (or no ``to``) warehouses them all. A roasting
area holds one colour unless two roasted areas were later joined by a card.

The contract has already checked an action against the game's schema (its
fields and their types). ``resolve`` checks the rules and returns the action
in canonical form, ``perform`` then applies it: a state validates before it
mutates. An action
that would move nothing (an empty supply, no cube of that colour to move) is
not legal: it would only burn an action.
"""

from __future__ import annotations

from itertools import product
from typing import NamedTuple

from coffeetable.engine import Action, Event, IllegalAction
from coffeetable.games.cafe.cards import COLOURS
from coffeetable.games.cafe.grid import Area, Company, Pos

#: What each action moves: its target area's icon and where the cubes come from.
SOURCE = {"dry": "bean", "roast": "dry"}
#: The action types of the phase.
KINDS = ("produce", "dry", "roast", "deliver", "pass")
Delivery = dict[str, dict[str, int]]


class Options(NamedTuple):
    """What the phase offers a company, area by area (areas in reading order): the
    empty bean areas it can produce on, the empty drying and roasting areas with the
    colours a dry or a roast would move there (in ``COLOURS`` order; none: no such
    action), and the roasting areas with cubes to deliver. ``choices`` writes them as
    actions; the environments (``games.cafe.codec_state``) as indices."""

    produce: list[Area]
    dry: list[Area]
    dry_colours: list[str]
    roast: list[Area]
    roast_colours: list[str]
    loaded: list[Area]


def options(company: Company, supply: dict[str, int]) -> Options:
    """One look at the cubes of every area (cubes lie on area squares only): which areas
    are empty, which colours lie on bean and on drying squares."""
    grid = company.grid
    produce: list[Area] = []
    on_beans: set[str | None] = set()  # colours a dry would move
    on_drying: set[str | None] = set()  # colours a roast would move
    dry_targets: list[Area] = []
    roast_targets: list[Area] = []
    loaded: list[Area] = []  # roasting areas with cubes to deliver
    for area in company.layout.areas:
        kind, colour, squares = area
        held: set[str | None] | None = None  # colours on the area, None if it is empty
        for pos in squares:
            square = grid[pos]
            if square.cubes:
                if held is None:
                    held = set()
                held.add(square.cube_colour)
        if held is None:
            if kind == "bean":
                if colour and supply[colour] > 0:
                    produce.append(area)
            elif kind == "dry":
                dry_targets.append(area)
            else:
                roast_targets.append(area)
        elif kind == "bean":
            on_beans |= held
        elif kind == "dry":
            on_drying |= held
        else:
            loaded.append(area)
    dry_colours = [c for c in COLOURS if c in on_beans] if dry_targets and on_beans else []
    roast_colours = [c for c in COLOURS if c in on_drying] if roast_targets and on_drying else []
    return Options(produce, dry_targets, dry_colours, roast_targets, roast_colours, loaded)


def choices(company: Company, supply: dict[str, int]) -> list[Action]:
    """Every action of the phase, without duplicates, in this order: produce, dry, roast
    (areas in reading order, then colours), deliver, and pass last (``options``)."""
    found = options(company, supply)
    out: list[Action] = []
    for area in found.produce:
        x, y = area.squares[0]
        out.append({"type": "produce", "area": [x, y]})
    for kind, targets, ready in (
        ("dry", found.dry, found.dry_colours),
        ("roast", found.roast, found.roast_colours),
    ):
        for area in targets if ready else ():
            x, y = area.squares[0]
            out += [{"type": kind, "colour": c, "area": [x, y]} for c in ready]
    for area in found.loaded:
        x, y = area.squares[0]
        out += [{"type": "deliver", "area": [x, y], "to": to} for to in deliveries(company, area)]
    out.append({"type": "pass"})
    return out


def deliveries(company: Company, area: Area) -> list[Delivery]:
    """Every way to share a roasting area's cubes among the cafés that want them.

    Per colour (in ``COLOURS`` order), each café that still needs it takes 0..its need
    (within the cubes there are); the options are the product over the area's colours.
    """
    cubes = company.cubes_on(area)
    cafes = [company.cafes[cafe_id] for cafe_id in sorted(company.cafes)]
    per_colour: list[list[tuple[str, list[tuple[str, int]]]]] = []
    for colour in COLOURS:
        n = cubes.get(colour, 0)
        if n:
            takers = [(cafe.id, min(want, n)) for cafe in cafes if (want := cafe.wants(colour))]
            if takers:  # (a colour nobody takes goes to the warehouse: one way only)
                per_colour.append([(colour, split) for split in _splits(takers, n)])
    out: list[Delivery] = []
    for combo in product(*per_colour):
        to: Delivery = {}
        for colour, split in combo:
            for cafe_id, k in split:
                to.setdefault(cafe_id, {})[colour] = k
        out.append({cafe_id: to[cafe_id] for cafe_id in sorted(to)})
    return out


def _splits(takers: list[tuple[str, int]], left: int) -> list[list[tuple[str, int]]]:
    """Each way to give at most ``left`` cubes to ``takers`` (id, most it takes); zeros left
    out; the first taker's share grows slowest."""
    if not takers:
        return [[]]
    (cafe_id, most), rest = takers[0], takers[1:]
    out: list[list[tuple[str, int]]] = []
    for k in range(min(most, left) + 1):
        head = [(cafe_id, k)] if k else []
        out += [head + tail for tail in _splits(rest, left - k)]
    return out


# -- checking ----------------------------------------------------------------------------


def resolve(company: Company, supply: dict[str, int], action: Action) -> Action:
    """The action (one of ``KINDS``, fitting the schema) checked against the rules,
    in canonical form; IllegalAction if it is not."""
    kind = action["type"]
    if kind == "pass":
        return {"type": "pass"}
    area = _area(company, action["area"])
    if kind == "deliver":
        return _resolve_deliver(company, area, action.get("to", {}))
    target = "bean" if kind == "produce" else kind
    if area.kind != target:
        raise IllegalAction(f"a {kind} needs a {_AREA_NAMES[target]}, not a {area.kind} area")
    if not company.is_empty(area):
        raise IllegalAction(f"that {_AREA_NAMES[target]} is not empty")
    if kind == "produce":
        assert area.colour is not None
        if supply[area.colour] == 0:
            raise IllegalAction(f"the supply has no {area.colour} cube left")
        return {"type": "produce", "area": list(area.id)}
    colour: str = action["colour"]
    source = SOURCE[kind]
    if company.cubes_by_icon(source, colour) == 0:
        raise IllegalAction(f"no {colour} cube on any {_AREA_NAMES[source]} square to {kind}")
    return {"type": kind, "colour": colour, "area": list(area.id)}


_DONE = {"dry": "dried", "roast": "roasted"}
_AREA_NAMES = {"bean": "bean area", "dry": "drying area", "roast": "roasting area"}


def _area(company: Company, where: list[int]) -> Area:
    pos: Pos = (where[0], where[1])
    area = company.area_at(pos)
    if area is None:
        raise IllegalAction(f"there is no bean, drying or roasting area at {list(pos)}")
    return area


def _resolve_deliver(company: Company, area: Area, to: Delivery) -> Action:
    if area.kind != "roast":
        raise IllegalAction(f"a deliver takes the cubes of a roasting area, not a {area.kind} area")
    cubes = company.cubes_on(area)
    if not cubes:
        raise IllegalAction("that roasting area has no cube to deliver")
    canonical: Delivery = {}
    sent = dict.fromkeys(COLOURS, 0)
    for cafe_id, amounts in to.items():
        cafe = company.cafes.get(cafe_id)
        if cafe is None:
            raise IllegalAction(f"you have no café {cafe_id!r}")
        if cafe.lost:
            raise IllegalAction(f"café {cafe_id} is partly covered: it takes no more cubes")
        for colour, n in amounts.items():
            if n > cafe.wants(colour):
                raise IllegalAction(f"café {cafe_id} needs {cafe.wants(colour)} {colour} more")
            sent[colour] += n
            if n:
                canonical.setdefault(cafe_id, {})[colour] = n
    for colour, n in sent.items():
        if n > cubes.get(colour, 0):
            raise IllegalAction(f"the area holds {cubes.get(colour, 0)} {colour}, not {n}")
    ordered = {
        cafe_id: {c: canonical[cafe_id][c] for c in COLOURS if c in canonical[cafe_id]}
        for cafe_id in sorted(canonical)
    }
    return {"type": "deliver", "area": list(area.id), "to": ordered}


# -- doing -------------------------------------------------------------------------------


def perform(company: Company, supply: dict[str, int], action: Action) -> Event:
    """Apply a resolved action; the public event."""
    kind = action["type"]
    if kind == "pass":
        return {"type": "passed"}
    area = company.area_at((action["area"][0], action["area"][1]))
    assert area is not None
    if kind == "produce":
        colour = area.colour
        assert colour is not None
        # One cube on each bean square in reading order, while the supply lasts.
        made = min(len(area.squares), supply[colour])
        grid = company.grid
        for pos in area.squares[:made]:
            square = grid[pos]
            square.cubes, square.cube_colour = 1, colour
        company.changed()
        supply[colour] -= made
        return {"type": "produced", "area": list(area.id), "colour": colour, "cubes": made}
    if kind in SOURCE:
        colour = action["colour"]
        moved = company.take(SOURCE[kind], colour)
        company.spread(area, colour, moved)
        return {"type": _DONE[kind], "area": list(area.id), "colour": colour, "cubes": moved}
    cubes = company.cubes_on(area)
    company.clear(area)
    completed = []
    for cafe_id, amounts in action["to"].items():
        cafe = company.cafes[cafe_id]
        for colour, n in amounts.items():
            cafe.have[colour] = cafe.have.get(colour, 0) + n
            cubes[colour] -= n
        if cafe.complete:
            completed.append(cafe_id)
    warehouse = {c: n for c, n in cubes.items() if n}
    for colour, n in warehouse.items():
        company.warehouse[colour] += n
    company.changed()
    return {
        "type": "delivered",
        "area": list(area.id),
        "to": action["to"],
        "warehouse": warehouse,
        "completed": completed,
    }
