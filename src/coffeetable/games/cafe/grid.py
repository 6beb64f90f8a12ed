"""A company area: a grid of squares built from overlapping 3x2 cards.

The area is a dict ``(x, y) -> Square`` of the squares in view (x to the
right, y down; the start card lies at (0, 0)-(2, 1)). A card is never lifted,
so every grid position ever covered holds a visible square: the dict is the
whole area. A square knows its icon, its bean colour, the card it belongs to
and the cubes on it. Cafés live beside the grid (``Company.cafes``, by the
id of their card), since one café may span two cells.

Cubes on areas: each square holds cubes of one colour at most. Producing puts
one cube on each bean square (in reading order while the supply lasts); drying
and roasting spread the moved cubes over the target area's squares in turn, in
reading order (3 cubes on a 2-square area: 2 and 1). It matters when a later
card covers part of an area: only the cubes on covered squares go back.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache

from coffeetable.games.cafe.cards import BY_ID, COLOURS, ICONS, LETTERS, Card

Pos = tuple[int, int]
#: One square of an oriented card: (dx, dy, symbol).
Cell = tuple[int, int, str]
#: Icons whose orthogonal groups are action areas.
AREA_KINDS = ("bean", "dry", "roast")
#: Covered visible squares a placement must have.
COVER = (2, 3, 4)


@dataclass
class Square:
    """A visible square: its icon (bean dry roast cup ship cafe blank) and the cubes on it."""

    icon: str
    colour: str | None  # a bean's colour
    card: str  # the card it belongs to (a café cell's café has this id)
    cubes: int = 0
    cube_colour: str | None = None

    def copy(self) -> Square:
        return Square(self.icon, self.colour, self.card, self.cubes, self.cube_colour)


@dataclass
class Cafe:
    """A café of a placed card. Lost for good once any of its cells is covered."""

    id: str
    cells: tuple[Pos, ...]
    need: dict[str, int]
    points: int
    have: dict[str, int] = field(default_factory=dict)
    lost: bool = False

    def wants(self, colour: str) -> int:
        """Cubes of ``colour`` it still takes (0 once lost)."""
        return 0 if self.lost else max(0, self.need.get(colour, 0) - self.have.get(colour, 0))

    @property
    def complete(self) -> bool:
        return not self.lost and all(self.have.get(c, 0) >= n for c, n in self.need.items())

    def copy(self) -> Cafe:
        return Cafe(self.id, self.cells, dict(self.need), self.points, dict(self.have), self.lost)


@dataclass
class Placed:
    """What a placement covered, the cubes it sends back to the supply, the cafés it lost."""

    covered: list[Pos]
    returned: dict[str, int]
    lost: list[str]

    def to_json(self) -> dict[str, object]:
        covered = [list(pos) for pos in self.covered]
        return {"covered": covered, "returned": dict(self.returned), "lost": list(self.lost)}


@dataclass(frozen=True)
class Area:
    """A maximal orthogonally connected group of squares with one icon (beans: one colour)."""

    kind: str  # bean, dry or roast
    colour: str | None  # a bean area's colour
    squares: tuple[Pos, ...]  # reading order (y, then x); the first is the area's id

    @property
    def id(self) -> Pos:
        return self.squares[0]


def orient(card: Card, rotation: int) -> tuple[Cell, ...]:
    """The card's squares turned ``rotation`` quarter turns clockwise, from its top-left."""
    cells = []
    for r, row in enumerate(card.rows):
        for c, symbol in enumerate(row):
            dx, dy = ((c, r), (1 - r, c), (2 - c, 1 - r), (r, 2 - c))[rotation]
            cells.append((dx, dy, symbol))
    return tuple(sorted(cells, key=lambda cell: (cell[1], cell[0])))


@cache
def orientations(card_id: str) -> tuple[tuple[int, tuple[Cell, ...]], ...]:
    """(rotation, cells) for the distinct orientations of a card (a symmetric card has fewer)."""
    seen: dict[tuple[Cell, ...], int] = {}
    for rotation in range(4):
        seen.setdefault(orient(BY_ID[card_id], rotation), rotation)
    return tuple((rotation, cells) for cells, rotation in seen.items())


def _square(symbol: str, card_id: str) -> Square:
    if symbol in LETTERS:
        return Square("bean", LETTERS[symbol], card_id)
    return Square(ICONS[symbol], None, card_id)


class Company:
    """One player's company: the grid, its cafés and the warehouse."""

    def __init__(self, start: Card) -> None:
        self.grid: dict[Pos, Square] = {}
        self.cafes: dict[str, Cafe] = {}
        self.warehouse: dict[str, int] = dict.fromkeys(COLOURS, 0)
        #: (card, x, y, rotation) in the order the cards were placed
        self.cards: list[tuple[str, int, int, int]] = []
        self._areas: list[Area] | None = None
        self.place(start, 0, 0, 0)

    def copy(self) -> Company:
        other = object.__new__(Company)
        other.grid = {pos: square.copy() for pos, square in self.grid.items()}
        other.cafes = {key: cafe.copy() for key, cafe in self.cafes.items()}
        other.warehouse = dict(self.warehouse)
        other.cards = list(self.cards)
        other._areas = self._areas  # areas are immutable; they change only with the grid
        return other

    # -- reading the area -----------------------------------------------------

    def count(self, icon: str) -> int:
        return sum(1 for square in self.grid.values() if square.icon == icon)

    def areas(self) -> list[Area]:
        """The action areas, in reading order of their first square (cached until a placement)."""
        if self._areas is None:
            self._areas = _find_areas(self.grid)
        return self._areas

    def area_at(self, pos: Pos) -> Area | None:
        return next((area for area in self.areas() if pos in area.squares), None)

    def cubes_on(self, area: Area) -> dict[str, int]:
        """colour -> cubes on the area's squares."""
        out: dict[str, int] = {}
        for pos in area.squares:
            square = self.grid[pos]
            if square.cubes and square.cube_colour is not None:
                out[square.cube_colour] = out.get(square.cube_colour, 0) + square.cubes
        return out

    def is_empty(self, area: Area) -> bool:
        return all(self.grid[pos].cubes == 0 for pos in area.squares)

    def cubes_by_icon(self, icon: str, colour: str) -> int:
        """Cubes of ``colour`` on every square with ``icon``."""
        return sum(
            s.cubes for s in self.grid.values() if s.icon == icon and s.cube_colour == colour
        )

    # -- placing a card -------------------------------------------------------

    def placements(self, card_id: str) -> list[tuple[int, int, int]]:
        """Every legal (x, y, rotation) of the card: it covers 2, 3 or 4 visible squares.

        (x, y) is the top-left of the turned card. The candidates are the anchors
        that put some square of the card on some visible square: at most
        visible squares x 6 card squares x 4 rotations (about 1,300 on a
        9-card area), each checked with 6 dict look-ups.
        """
        grid = self.grid
        found: list[tuple[int, int, int]] = []
        for rotation, cells in orientations(card_id):
            anchors = {(x - dx, y - dy) for x, y in grid for dx, dy, _ in cells}
            for ax, ay in anchors:
                covered = sum(1 for dx, dy, _ in cells if (ax + dx, ay + dy) in grid)
                if covered in COVER:
                    found.append((ax, ay, rotation))
        found.sort(key=lambda p: (p[2], p[1], p[0]))
        return found

    def covered_by(self, card_id: str, x: int, y: int, rotation: int) -> list[Pos]:
        return [(x + dx, y + dy) for dx, dy, _ in orient(BY_ID[card_id], rotation)]

    def place(self, card: Card, x: int, y: int, rotation: int) -> Placed:
        """Lay ``card`` (no legality check); the caller gives ``returned`` back to the supply."""
        cells = orient(card, rotation)
        returned: dict[str, int] = {}
        lost: list[str] = []
        covered: list[Pos] = []
        for dx, dy, _ in cells:
            pos = (x + dx, y + dy)
            old = self.grid.get(pos)
            if old is None:
                continue
            covered.append(pos)
            if old.cubes and old.cube_colour is not None:
                returned[old.cube_colour] = returned.get(old.cube_colour, 0) + old.cubes
            if old.icon == "cafe":
                cafe = self.cafes[old.card]
                if not cafe.lost:
                    cafe.lost = True
                    lost.append(cafe.id)
                    for colour, n in cafe.have.items():
                        returned[colour] = returned.get(colour, 0) + n
                    cafe.have = {}
        cafe_cells: list[Pos] = []
        for dx, dy, symbol in cells:
            pos = (x + dx, y + dy)
            self.grid[pos] = _square(symbol, card.id)
            if symbol == "C":
                cafe_cells.append(pos)
        if cafe_cells:
            self.cafes[card.id] = Cafe(card.id, tuple(cafe_cells), dict(card.need), card.points)
        self.cards.append((card.id, x, y, rotation))
        self._areas = None
        return Placed(covered, returned, lost)

    # -- moving cubes ---------------------------------------------------------

    def take(self, icon: str, colour: str) -> int:
        """Lift every cube of ``colour`` off the squares with ``icon``; how many."""
        taken = 0
        for square in self.grid.values():
            if square.icon == icon and square.cube_colour == colour and square.cubes:
                taken += square.cubes
                square.cubes, square.cube_colour = 0, None
        return taken

    def spread(self, area: Area, colour: str, cubes: int) -> None:
        """Put ``cubes`` of ``colour`` on the area's squares in turn, in reading order."""
        size = len(area.squares)
        for i, pos in enumerate(area.squares):
            n = cubes // size + (1 if i < cubes % size else 0)
            if n:
                self.grid[pos].cubes, self.grid[pos].cube_colour = n, colour

    def clear(self, area: Area) -> None:
        for pos in area.squares:
            self.grid[pos].cubes, self.grid[pos].cube_colour = 0, None

    def cube_total(self) -> dict[str, int]:
        """colour -> cubes on squares, cafés and in the warehouse (for conservation checks)."""
        out = dict(self.warehouse)
        for square in self.grid.values():
            if square.cube_colour is not None:
                out[square.cube_colour] += square.cubes
        for cafe in self.cafes.values():
            for colour, n in cafe.have.items():
                out[colour] += n
        return out


def _neighbours(pos: Pos) -> Iterator[Pos]:
    x, y = pos
    yield from ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))


def _find_areas(grid: dict[Pos, Square]) -> list[Area]:
    """Flood-fill the grid into action areas (cups, ships, cafés and blanks make none)."""
    seen: set[Pos] = set()
    areas: list[Area] = []
    for start in sorted(grid, key=lambda p: (p[1], p[0])):
        square = grid[start]
        if start in seen or square.icon not in AREA_KINDS:
            continue
        key = (square.icon, square.colour)
        group, todo = [start], [start]
        seen.add(start)
        while todo:
            for near in _neighbours(todo.pop()):
                other = grid.get(near)
                if other is not None and near not in seen and (other.icon, other.colour) == key:
                    seen.add(near)
                    group.append(near)
                    todo.append(near)
        squares = tuple(sorted(group, key=lambda p: (p[1], p[0])))
        areas.append(Area(square.icon, square.colour, squares))
    return areas
