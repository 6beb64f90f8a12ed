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

from dataclasses import dataclass, field
from functools import cache

from coffeetable.games.cafe.cards import BY_ID, COLOURS, ICONS, LETTERS, Card
from coffeetable.games.cafe.layout import AREA_KINDS, FOOTPRINTS, Area, Layout, Pos

__all__ = ["AREA_KINDS", "COVER", "Area", "Cafe", "Company", "Placed", "Pos", "Square", "faces"]

#: One square of an oriented card: (dx, dy, symbol).
Cell = tuple[int, int, str]
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
        if self.lost:
            return False
        have = self.have
        # A loop, not all() over a generator: this is every score (and every deliver).
        for colour, n in self.need.items():  # noqa: SIM110
            if have.get(colour, 0) < n:
                return False
        return True

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


@cache
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


@cache
def faces(card: Card, rotation: int) -> tuple[tuple[int, int, str, str | None], ...]:
    """(dx, dy, icon, bean colour) of each square of the turned card, as ``orient`` orders them."""
    return tuple(
        (dx, dy, "bean", LETTERS[symbol]) if symbol in LETTERS else (dx, dy, ICONS[symbol], None)
        for dx, dy, symbol in orient(card, rotation)
    )


#: card id -> its squares in each of the four rotations (``faces``), worked out once for
#: every card: a placement looks its card up here by id, not through a cache keyed by the card.
TURNS: dict[str, tuple[tuple[tuple[int, int, str, str | None], ...], ...]] = {
    card_id: tuple(faces(card, rotation) for rotation in range(4))
    for card_id, card in BY_ID.items()
}


#: The layout of each start card alone at (0, 0), worked out once (a layout is never changed).
_START_LAYOUTS: dict[str, Layout] = {}


class Company:
    """One player's company: the grid, its cafés and the warehouse."""

    #: The squares' layout, worked out on first use (None: not yet, or the grid was redrawn).
    #: A class default, so that a company assembled without ``__init__`` works it out too.
    _layout: Layout | None = None
    #: A token that every change to the company replaces (``changed``): two companies
    #: with the same token are equal (a copy keeps its original's until either changes),
    #: so a reader may keep what it worked out from one (the environments' observation).
    #: None (a company assembled without ``__init__``): no token, nothing may be kept.
    revision: object | None = None

    def __init__(self, start: Card) -> None:
        self.grid: dict[Pos, Square] = {}
        self.cafes: dict[str, Cafe] = {}
        self.warehouse: dict[str, int] = dict.fromkeys(COLOURS, 0)
        #: (card, x, y, rotation) in the order the cards were placed
        self.cards: list[tuple[str, int, int, int]] = []
        self._lay(start, 0, 0, 0)
        self._layout = _START_LAYOUTS.get(start.id)
        if self._layout is None:  # the same for every company that starts with this card
            self._layout = _START_LAYOUTS[start.id] = Layout.of(self.grid)
        self.changed()

    def changed(self) -> None:
        """Say that the company changed (its squares, cubes, cafés or warehouse): a new
        ``revision``. Every change the rules make calls it."""
        self.revision = object()

    def copy(self) -> Company:
        other = object.__new__(Company)
        # Only action squares ever change (their cubes): the others are shared, as is the
        # layout, which a placement replaces rather than changes.
        other.grid = {
            pos: square.copy() if square.icon in AREA_KINDS else square
            for pos, square in self.grid.items()
        }
        other.cafes = {key: cafe.copy() for key, cafe in self.cafes.items()}
        other.warehouse = dict(self.warehouse)
        other.cards = list(self.cards)
        other._layout = self._layout
        other.revision = self.revision
        return other

    @property
    def layout(self) -> Layout:
        """Areas, icon counts and placement counts of the grid as it is (see layout.py)."""
        if self._layout is None:
            self._layout = Layout.of(self.grid)
        return self._layout

    @property
    def _areas(self) -> list[Area] | None:
        """The areas if the layout is worked out: the old cache's name, still honoured."""
        return None if self._layout is None else self._layout.areas

    @_areas.setter
    def _areas(self, areas: list[Area] | None) -> None:
        # None (a grid drawn by hand) or another company's areas: work the layout out anew,
        # unless they are this layout's own.
        if self._layout is None or areas is not self._layout.areas:
            self._layout = None
            self.changed()

    # -- reading the area -----------------------------------------------------

    def count(self, icon: str) -> int:
        return self.layout.count(icon)

    def areas(self) -> list[Area]:
        """The action areas, in reading order of their first square (new after a placement)."""
        return self.layout.areas

    def area_at(self, pos: Pos) -> Area | None:
        return self.layout.area_of.get(pos)

    def cubes_on(self, area: Area) -> dict[str, int]:
        """colour -> cubes on the area's squares."""
        out: dict[str, int] = {}
        grid = self.grid
        for pos in area.squares:
            square = grid[pos]
            if square.cubes and square.cube_colour is not None:
                out[square.cube_colour] = out.get(square.cube_colour, 0) + square.cubes
        return out

    def is_empty(self, area: Area) -> bool:
        grid = self.grid
        # A loop, not all() over a generator: this is every produce, dry and roast.
        for pos in area.squares:  # noqa: SIM110
            if grid[pos].cubes:
                return False
        return True

    def cubes_by_icon(self, icon: str, colour: str) -> int:
        """Cubes of ``colour`` on every square with ``icon`` (cubes lie on area squares only)."""
        grid = self.grid
        total = 0
        for pos in self.layout.squares_of(icon):
            square = grid[pos]
            if square.cube_colour == colour:
                total += square.cubes
        return total

    # -- placing a card -------------------------------------------------------

    def placements(self, card_id: str) -> list[tuple[int, int, int]]:
        """Every legal (x, y, rotation) of the card: it covers 2, 3 or 4 visible squares.

        (x, y) is the top-left of the turned card; sorted by rotation, then
        reading order. The layout keeps the legal anchors of each footprint.
        """
        layout = self.layout
        return [
            (x, y, rotation)
            for rotation, _ in orientations(card_id)
            for y, x in layout.anchors(rotation % 2)
        ]

    def covers(self, x: int, y: int, rotation: int) -> int:
        """Visible squares a card turned ``rotation`` with its top-left at (x, y) would cover.

        Counted on the grid (six look-ups), not read from the layout's counts: a placement
        checks its one rectangle, and working out the counts of every anchor (what the
        legal placements need) would cost a placement several times that when nobody
        lists them (the environments find them their own way)."""
        grid = self.grid
        found = 0
        for dx, dy in FOOTPRINTS[rotation % 2]:
            if (x + dx, y + dy) in grid:
                found += 1
        return found

    def covered_by(self, card_id: str, x: int, y: int, rotation: int) -> list[Pos]:
        return [(x + dx, y + dy) for dx, dy, _ in orient(BY_ID[card_id], rotation)]

    def place(self, card: Card, x: int, y: int, rotation: int) -> Placed:
        """Lay ``card`` (no legality check); the caller gives ``returned`` back to the supply."""
        layout = self.layout  # of the grid before the card
        squares, covered, placed = self._lay(card, x, y, rotation)
        self._layout = layout.after(squares, TURNS[card.id][rotation], covered)
        self.changed()
        return placed

    def _lay(
        self, card: Card, x: int, y: int, rotation: int
    ) -> tuple[list[Pos], dict[Pos, str], Placed]:
        """Put the card's squares, café and record down (not the layout); the card's
        squares, those it covered with the icons they showed, and what ``place`` reports."""
        cells = TURNS[card.id][rotation]
        squares = [(x + dx, y + dy) for dx, dy, _, _ in cells]
        returned: dict[str, int] = {}
        lost: list[str] = []
        covered: dict[Pos, str] = {}  # square -> the icon it showed
        cafe_cells: list[Pos] = []
        grid = self.grid
        card_id = card.id
        for pos, (_, _, icon, bean) in zip(squares, cells, strict=True):
            old = grid.get(pos)
            if old is not None:
                covered[pos] = old.icon
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
            grid[pos] = Square(icon, bean, card_id)
            if icon == "cafe":
                cafe_cells.append(pos)
        if card.has_cafe:
            self.cafes[card_id] = Cafe(card_id, tuple(cafe_cells), dict(card.need), card.points)
        self.cards.append((card_id, x, y, rotation))
        return squares, covered, Placed(list(covered), returned, lost)

    # -- moving cubes ---------------------------------------------------------

    def take(self, icon: str, colour: str) -> int:
        """Lift every cube of ``colour`` off the squares with ``icon``; how many."""
        taken = 0
        grid = self.grid
        for pos in self.layout.squares_of(icon):
            square = grid[pos]
            if square.cube_colour == colour and square.cubes:
                taken += square.cubes
                square.cubes, square.cube_colour = 0, None
        self.changed()
        return taken

    def spread(self, area: Area, colour: str, cubes: int) -> None:
        """Put ``cubes`` of ``colour`` on the area's squares in turn, in reading order."""
        grid = self.grid
        each, more = divmod(cubes, len(area.squares))  # the first ``more`` squares: one more
        for i, pos in enumerate(area.squares):
            n = each + 1 if i < more else each
            if n:
                square = grid[pos]
                square.cubes, square.cube_colour = n, colour
        self.changed()

    def clear(self, area: Area) -> None:
        for pos in area.squares:
            self.grid[pos].cubes, self.grid[pos].cube_colour = 0, None
        self.changed()

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
