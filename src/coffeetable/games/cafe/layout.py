"""What follows from a company's squares alone, not from its cubes: areas, placements, icons.

A ``Layout`` is worked out for one grid of squares and never changed after:
a placement makes the next one from it (``after``), and copies of a company
share theirs until one of them places a card. Cubes move all the time, the
squares only when a card is laid, so everything the rules ask of the squares
is looked up here instead of searched for:

- the action areas, in reading order, the area of each square, and what
  joins squares into areas (``keys``: icon and bean colour). A card changes
  only the areas it lies on (they shrink or split) and those it joins: only
  those are flooded again;
- how many squares show each icon (cups give actions, ships make cup cards
  free), and the squares of each kind of area;
- the legal anchors of a card. A turned card covers a 3x2 rectangle
  (rotations 0 and 2, "landscape") or a 2x3 one (1 and 3, "portrait"), and
  whether a placement is legal depends on that rectangle alone: it must cover
  2, 3 or 4 visible squares. ``cover[footprint]`` counts, for every anchor
  (the rectangle's top-left) that covers at least one visible square, how
  many it covers, and ``legal[footprint]`` holds those at 2 to 4, in reading
  order (kept so: an anchor is put in its place as it reaches 2, taken out as
  it passes 4, rather than the list sorted again). A new visible square adds
  one to the 6 anchors of each footprint that cover it; a square is never
  lifted, so counts only grow.

Positions inside ``cover`` and ``legal`` are written (y, x), so that sorting
them is reading order; everywhere else a position is (x, y).
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Callable, Iterable, Mapping
from operator import itemgetter
from typing import NamedTuple, Protocol

Pos = tuple[int, int]
#: Icons whose orthogonal groups are action areas.
AREA_KINDS = ("bean", "dry", "roast")
#: How many visible squares a placement must cover, at least and at most.
LEAST_COVER, MOST_COVER = 2, 4
#: The count at which an anchor stops being legal (counts only grow).
PAST_COVER = MOST_COVER + 1
#: The squares (dx, dy) of a turned card's rectangle, by footprint (rotation % 2).
FOOTPRINTS: tuple[tuple[Pos, ...], tuple[Pos, ...]] = (
    tuple((dx, dy) for dy in range(2) for dx in range(3)),  # landscape, 3 wide
    tuple((dx, dy) for dy in range(3) for dx in range(2)),  # portrait, 2 wide
)


class Table(dict[Pos, tuple[Pos, ...]]):
    """Squares that stand in a fixed relation to a square, worked out the first time a
    square is asked for and kept: python-chess's precomputed tables, for a grid with no
    edge (the squares a company reaches are few, and the same from game to game)."""

    def __init__(self, related: Callable[[Pos], tuple[Pos, ...]]) -> None:
        super().__init__()
        self.related = related

    def __missing__(self, pos: Pos) -> tuple[Pos, ...]:
        found = self[pos] = self.related(pos)
        return found


def _neighbours(pos: Pos) -> tuple[Pos, ...]:
    x, y = pos
    return ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))


def _covering(footprint: tuple[Pos, ...]) -> Callable[[Pos], tuple[Pos, ...]]:
    def anchors(pos: Pos) -> tuple[Pos, ...]:
        x, y = pos
        return tuple((y - dy, x - dx) for dx, dy in footprint)

    return anchors


#: square (x, y) -> its four orthogonal neighbours (x, y)
NEIGHBOURS = Table(_neighbours)
#: footprint -> square (x, y) -> the anchors (y, x) of the rectangles that cover it
COVERING = (Table(_covering(FOOTPRINTS[0])), Table(_covering(FOOTPRINTS[1])))


class SquareLike(Protocol):
    """What a layout reads of a square (grid.Square)."""

    icon: str
    colour: str | None


class Area(NamedTuple):
    """A maximal orthogonally connected group of squares with one icon (beans: one colour).

    A named tuple: made many times over (each placement), compared and hashed by value.
    """

    kind: str  # bean, dry or roast
    colour: str | None  # a bean area's colour
    squares: tuple[Pos, ...]  # reading order (y, then x); the first is the area's id

    @property
    def id(self) -> Pos:
        return self.squares[0]


#: Sort key of reading order: row, then column (pos[1], pos[0]).
reading = itemgetter(1, 0)


def _area_id(area: Area) -> tuple[int, int]:
    """Sort key of areas: reading order of their first squares."""
    x, y = area.squares[0]
    return y, x


#: What joins two touching squares into one area: icon and bean colour.
Key = tuple[str, str | None]


def area_keys(grid: Mapping[Pos, SquareLike]) -> dict[Pos, Key]:
    """The key of every square that belongs to an area (bean, drying, roasting)."""
    return {pos: (s.icon, s.colour) for pos, s in grid.items() if s.icon in AREA_KINDS}


def find_areas(grid: Mapping[Pos, SquareLike]) -> list[Area]:
    """Flood-fill the grid into action areas (cups, ships, cafés and blanks make none),
    in reading order of their first squares."""
    areas = flood(area_keys(grid), None)
    areas.sort(key=_area_id)
    return areas


def flood(keys: Mapping[Pos, Key], within: Iterable[Pos] | None) -> list[Area]:
    """The areas of the squares ``keys`` names (those of ``within`` only, if given: then
    they must hold every square of the areas they reach), in no particular order."""
    # Squares not yet in an area.
    left = dict(keys) if within is None else {p: keys[p] for p in within if p in keys}
    areas: list[Area] = []
    while left:
        start, key = left.popitem()
        group, todo = [start], [start]
        while todo:
            for near in NEIGHBOURS[todo.pop()]:
                if near in left and left[near] == key:
                    del left[near]
                    group.append(near)
                    todo.append(near)
        if len(group) > 1:
            group.sort(key=reading)
        areas.append(Area(key[0], key[1], tuple(group)))
    return areas


def _count_cover(
    cover: dict[Pos, int], legal: list[Pos], covering: Table, new: Iterable[Pos]
) -> None:
    """Add each new visible square to the anchors (y, x) that cover it (``covering``, of
    one footprint); ``legal`` (kept in reading order) gains the anchors that reach 2
    squares and loses those that pass 4."""
    for pos in new:
        for anchor in covering[pos]:
            n = cover.get(anchor, 0) + 1
            cover[anchor] = n
            if n == LEAST_COVER:
                insort(legal, anchor)
            elif n == PAST_COVER:
                del legal[bisect_left(legal, anchor)]


#: The areas in reading order, the area of each square, and the areas' first squares
#: written (y, x), in the same order (sorted: where a new area goes is a bisection).
_Areas = tuple[list[Area], dict[Pos, Area], list[Pos]]
#: Visible squares under each anchor (y, x) of the two footprints (no entry: none).
Cover = tuple[dict[Pos, int], dict[Pos, int]]
#: The anchors of each footprint that cover 2 to 4 visible squares, in reading order.
Legal = tuple[list[Pos], list[Pos]]


class Layout:
    """Areas, icons and placement counts of one grid of squares (see the module docstring).

    The keys and icon counts are made with the layout. The areas and the
    placement counts are worked out when first asked for, from the layout
    before the card (``base``): a trial placement that only reads icons (a
    bot valuing a spot) pays for nothing else.
    """

    def __init__(
        self,
        keys: dict[Pos, Key],
        icons: dict[str, int],
        base: Layout | None = None,
        card: tuple[Pos, ...] = (),
        new: tuple[Pos, ...] = (),
    ) -> None:
        #: square -> its key (icon, bean colour), for the squares of areas
        self.keys = keys
        #: icon -> how many squares show it
        self.icons = icons
        # The layout before the card, the card's squares and those new to the view: what
        # the areas and counts not yet worked out are worked out from (then let go).
        self._base, self._card, self._new = base, card, new
        self._areas: _Areas | None = None
        self._cover: tuple[Cover, Legal] | None = None
        self._squares_of: dict[str, tuple[Pos, ...]] = {}

    @classmethod
    def of(cls, grid: Mapping[Pos, SquareLike]) -> Layout:
        """The layout of a grid, worked out from scratch."""
        icons: dict[str, int] = {}
        for square in grid.values():
            icons[square.icon] = icons.get(square.icon, 0) + 1
        layout = cls(area_keys(grid), icons)
        areas = flood(layout.keys, None)
        areas.sort(key=_area_id)
        layout._areas = (
            areas,
            {pos: area for area in areas for pos in area.squares},
            [_area_id(area) for area in areas],
        )
        cover: Cover = ({}, {})
        legal: Legal = ([], [])
        for f, covering in enumerate(COVERING):
            _count_cover(cover[f], legal[f], covering, grid)
        layout._cover = cover, legal
        return layout

    def after(
        self,
        card: list[Pos],
        faces: Iterable[tuple[int, int, str, str | None]],
        before: Mapping[Pos, str],
    ) -> Layout:
        """The layout once a card is down: ``card`` its squares, ``faces`` what each shows
        (dx, dy, icon, bean colour: grid.faces), ``before`` the icons that those it covered
        showed (the others are new to the view)."""
        keys = dict(self.keys)
        icons = dict(self.icons)
        for icon in before.values():
            icons[icon] -= 1
        new: list[Pos] = []
        for pos, (_, _, icon, colour) in zip(card, faces, strict=True):
            icons[icon] = icons.get(icon, 0) + 1
            if icon in AREA_KINDS:
                keys[pos] = (icon, colour)
            else:
                keys.pop(pos, None)
            if pos not in before:
                new.append(pos)
        return Layout(keys, icons, self, tuple(card), tuple(new))

    @property
    def areas(self) -> list[Area]:
        """The action areas, in reading order of their first square."""
        return (self._areas or self._work_out_areas())[0]

    @property
    def area_of(self) -> dict[Pos, Area]:
        """square -> its area (squares of no area are not in it)."""
        return (self._areas or self._work_out_areas())[1]

    @property
    def cover(self) -> Cover:
        """footprint -> {anchor (y, x): visible squares the rectangle covers}."""
        return (self._cover or self._work_out_cover())[0]

    @property
    def legal(self) -> Legal:
        """footprint -> the legal anchors (y, x): those covering 2 to 4 visible squares."""
        return (self._cover or self._work_out_cover())[1]

    def _work_out_areas(self) -> _Areas:
        """The base's areas with the card's changes.

        Only two kinds of area can change: one the card lies on (it shrinks or splits)
        and one beside a card square that joins it (same icon and colour). Those are
        flooded again, over their squares and the card's; the others are kept.
        """
        assert self._base is not None
        areas, area_of, ids = self._base._areas or self._base._work_out_areas()
        keys = self.keys
        redo = set(self._card)  # the squares to flood again
        gone: set[Pos] = set()  # the ids of the base areas among them
        for pos in self._card:
            area = area_of.get(pos)
            if area is not None and area.squares[0] not in gone:
                gone.add(area.squares[0])
                redo.update(area.squares)
            key = keys.get(pos)
            if key is not None:
                for near in NEIGHBOURS[pos]:
                    # Not under the card, so as it was: in an area of the base.
                    if near not in redo and keys.get(near) == key:
                        area = area_of[near]
                        gone.add(area.squares[0])
                        redo.update(area.squares)
        found = flood(keys, redo)
        areas, ids, area_of = list(areas), list(ids), dict(area_of)
        for x, y in gone:
            i = bisect_left(ids, (y, x))
            del areas[i], ids[i]
        for pos in self._card:  # a card square in no area now (the others are found again)
            if pos not in keys:
                area_of.pop(pos, None)
        for area in found:
            x, y = area.squares[0]
            i = bisect_left(ids, (y, x))
            areas.insert(i, area)
            ids.insert(i, (y, x))
            for pos in area.squares:
                area_of[pos] = area
        self._areas = areas, area_of, ids
        self._let_go()
        return self._areas

    def _work_out_cover(self) -> tuple[Cover, Legal]:
        """The base's placement counts with the card's new squares added."""
        assert self._base is not None
        (base_cover, base_legal) = self._base._cover or self._base._work_out_cover()
        cover = (dict(base_cover[0]), dict(base_cover[1]))
        legal = (list(base_legal[0]), list(base_legal[1]))
        new = self._new
        _count_cover(cover[0], legal[0], COVERING[0], new)
        _count_cover(cover[1], legal[1], COVERING[1], new)
        self._cover = cover, legal
        self._let_go()
        return self._cover

    def _let_go(self) -> None:
        """Drop the base once nothing is left to work out from it."""
        if self._areas is not None and self._cover is not None:
            self._base = None

    def count(self, icon: str) -> int:
        """How many squares show ``icon``."""
        return self.icons.get(icon, 0)

    def squares_of(self, kind: str) -> tuple[Pos, ...]:
        """The squares of every area of ``kind`` (bean, dry or roast), area by area."""
        found = self._squares_of.get(kind)
        if found is None:
            squares: list[Pos] = []
            for area in self.areas:
                if area.kind == kind:
                    squares += area.squares
            found = self._squares_of[kind] = tuple(squares)
        return found

    def anchors(self, footprint: int) -> list[Pos]:
        """The legal anchors (y, x) of a footprint, in reading order."""
        return self.legal[footprint]
