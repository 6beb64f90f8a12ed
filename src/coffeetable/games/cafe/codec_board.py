"""Café's boards: what a company's squares decide, for the environment's fast paths.

A company's squares change only when a card is laid, and the cards laid
(``company.cards``, in order, from the start card) decide them. So each board
(``Board``: its frame, its icon and bean-colour ones, the squares that can hold
cubes, and the counts its legal placements are read from) is worked out once
per card list and kept (``_BOARDS``, bounded), card by card from the board
before the last card (``Board.after``). ``codec_state`` observes with them,
``codec_legal`` lists the legal placements and indices with them.
"""

from __future__ import annotations

from collections.abc import Hashable
from itertools import chain
from typing import TYPE_CHECKING, Any

import numpy as np

from coffeetable.games.cafe.cards import COLOURS
from coffeetable.games.cafe.codec import (
    CAFE_VALUES,
    CELLS,
    COLOUR_OFFSET,
    FRAME_H,
    FRAME_W,
    ICON_INDEX,
    MARGIN,
    SQUARE,
    Frame,
)
from coffeetable.games.cafe.codec_deliveries import CAFE_IDS
from coffeetable.games.cafe.grid import TURNS
from coffeetable.games.cafe.layout import AREA_KINDS, LEAST_COVER, MOST_COVER, Pos

if TYPE_CHECKING:
    from numpy.typing import NDArray

#: A seat's block: the board, the cafés, then 8 counts.
BOARD_VALUES = CELLS * SQUARE
CAFES_AT = BOARD_VALUES
COUNTS_AT = CAFES_AT + len(CAFE_IDS) * CAFE_VALUES
SEAT_VALUES = COUNTS_AT + len(COLOURS) + 4


class Board:
    """What a company's squares decide, worked out once per card list: where its frame
    starts, the fixed ones (icons, bean colours) and the squares that can hold cubes.

    Positions are first written frame-free, ``(y * FRAME_W + x) * SQUARE``: within the
    frame that is the cell's base plus a constant (the origin's), so a board is the
    board before its last card with that card's 6 squares written over (``after``).
    """

    __slots__ = (
        "x0",
        "y0",
        "x1",
        "y1",
        "faces",
        "squares",
        "origin",
        "cover",
        "anchor_cells",
        "anchor_flags",
        "_frame",
        "_cube_bases",
        "_ones",
    )

    def __init__(
        self,
        faces: dict[Pos, tuple[int, ...]],
        squares: dict[Pos, int],
        box: tuple[int, ...],
        cover: NDArray[np.int8] | None,
    ) -> None:
        self.x0, self.y0, self.x1, self.y1 = box
        if self.x1 - self.x0 >= FRAME_W or self.y1 - self.y0 >= FRAME_H:
            raise ValueError(f"a company spread over {box} is outside the frame")
        #: square -> its fixed ones; action area squares (cubes lie nowhere else) -> their
        #: 15 values' base; both frame-free
        self.faces, self.squares = faces, squares
        origin = (self.y0 * FRAME_W + self.x0) * SQUARE
        #: where the frame's origin is, frame-free (a square's base is its own less this)
        self.origin = origin
        self._frame: Frame | None = None
        #: footprint -> visible squares under each anchor (``count_cover``), or None
        self.cover = cover
        #: footprint -> the cells of its legal anchors, and whether each cell is one
        #: (footprint 0's cells, then footprint 1's): ``anchors``, worked out when asked
        self.anchor_cells: tuple[NDArray[np.intp], NDArray[np.intp]] | None = None
        self.anchor_flags: NDArray[np.bool_] | None = None
        self._cube_bases: tuple[tuple[Pos, int], ...] | None = None
        self._ones: NDArray[np.intp] | None = None

    def cube_bases(self) -> tuple[tuple[Pos, int], ...]:
        """(square, where its 15 values start in a seat's block) of every square that can
        hold cubes (worked out when first asked)."""
        if self._cube_bases is None:
            origin = self.origin
            self._cube_bases = tuple((pos, base - origin) for pos, base in self.squares.items())
        return self._cube_bases

    def ones(self) -> NDArray[np.intp]:
        """Where the board's fixed ones (its icons and bean colours) lie within a seat's
        block (worked out when first asked; a small array, not a block: boards are many)."""
        if self._ones is None:
            faces = chain.from_iterable(self.faces.values())
            self._ones = np.fromiter(faces, np.intp) - self.origin
        return self._ones

    @classmethod
    def of(cls, company: Any) -> Board:
        """The board of a company's grid, worked out from its squares."""
        faces: dict[Pos, tuple[int, ...]] = {}
        squares: dict[Pos, int] = {}
        cover: NDArray[np.int8] | None = np.zeros((2, COVER_SIZE, COVER_SIZE), np.int8)
        for (x, y), square in company.grid.items():
            _write(faces, squares, x, y, square.icon, square.colour)
            cover = count_cover(cover, x, y)
        xs, ys = zip(*faces, strict=True)
        return cls(faces, squares, (min(xs), min(ys), max(xs), max(ys)), cover)

    def after(self, card: tuple[str, int, int, int]) -> Board:
        """This board with ``card`` (id, x, y, rotation, as ``Company.cards``) laid on it."""
        card_id, x, y, rotation = card
        before = self.faces
        faces, squares = dict(before), dict(self.squares)
        cells = TURNS[card_id][rotation]
        new = tuple((dx, dy) for dx, dy, _, _ in cells if (x + dx, y + dy) not in before)
        for dx, dy, icon, colour in cells:
            _write(faces, squares, x + dx, y + dy, icon, colour)
        width, height = (3, 2) if rotation % 2 == 0 else (2, 3)
        cover = self.cover
        sx, sy = x - MARGIN + COVER_SHIFT, y - MARGIN + COVER_SHIFT
        if cover is not None:
            if 0 <= sx <= COVER_SIZE - width - MARGIN and 0 <= sy <= COVER_SIZE - height - MARGIN:
                # the anchors over the card's new squares cover one more each: one stamp
                cover = cover.copy()
                under = cover[:, sy : sy + height + MARGIN, sx : sx + width + MARGIN]
                np.add(under, _stamp(width, height, new), out=under)
            else:
                cover = None
        box = (
            min(self.x0, x),
            min(self.y0, y),
            max(self.x1, x + width - 1),
            max(self.y1, y + height - 1),
        )
        return Board(faces, squares, box, cover)

    def anchors(
        self, company: Any
    ) -> tuple[tuple[NDArray[np.intp], NDArray[np.intp]], NDArray[np.bool_]]:
        """The cells of each footprint's legal anchors, in reading order (the layout's
        ``legal``), and whether each cell is one (footprint 0's 342, then footprint 1's):
        read off the counts in the frame's window (anchors covering 2 to 4 visible
        squares, the rule), or from the company's layout when the counts are not kept."""
        if self.anchor_flags is None:
            ax, ay = self.x0 - MARGIN + COVER_SHIFT, self.y0 - MARGIN + COVER_SHIFT
            cover = self.cover
            if (
                cover is not None
                and 0 <= ax <= COVER_SIZE - FRAME_W
                and 0 <= ay <= COVER_SIZE - FRAME_H
            ):
                legal = _LEGAL_COUNT[cover[:, ay : ay + FRAME_H, ax : ax + FRAME_W]]
                cells = (np.flatnonzero(legal[0]), np.flatnonzero(legal[1]))
                flags = legal.ravel()
            else:
                cells = _layout_anchors(self, company)
                flags = np.zeros(2 * CELLS, np.bool_)
                flags[cells[0]] = True
                flags[CELLS + cells[1]] = True
            self.anchor_cells, self.anchor_flags = cells, flags
        assert self.anchor_cells is not None
        return self.anchor_cells, self.anchor_flags

    def frame(self, company: Any) -> Frame:
        """The frame with the roasting areas' slots (worked out when first asked, from
        the company's areas: the engine works them out by the actions phase anyway)."""
        if self._frame is None:
            areas = company.layout.areas
            roasts = tuple(area.id for area in areas if area.kind == "roast")
            self._frame = Frame(self.x0, self.y0, roasts)
        return self._frame


#: Each board counts the visible squares under every anchor (a rectangle's top-left)
#: of both footprints, as the layout does (``Layout.cover``), in an array over absolute
#: positions shifted by COVER_SHIFT: a company's squares lie within 16 of its start
#: card (at most 2 more a card, 8 cards), so a match's anchors and frames all fit. A
#: company drawn by hand further out has no counts (``cover`` None): its legal anchors
#: are read from its layout instead.
COVER_SHIFT = 20
COVER_SIZE = 2 * COVER_SHIFT


def count_cover(cover: NDArray[np.int8] | None, x: int, y: int) -> NDArray[np.int8] | None:
    """``cover`` with square (x, y) visible: one more under every anchor of each
    footprint whose rectangle holds it (landscape 3 x 2, portrait 2 x 3); None if
    it lies outside the array (or ``cover`` is None already)."""
    sx, sy = x + COVER_SHIFT, y + COVER_SHIFT
    if cover is None or not (MARGIN <= sx < COVER_SIZE and MARGIN <= sy < COVER_SIZE):
        return None
    cover[0, sy - 1 : sy + 1, sx - 2 : sx + 1] += 1
    cover[1, sy - 2 : sy + 1, sx - 1 : sx + 1] += 1
    return cover


#: count of visible squares -> whether an anchor covering that many is legal (2 to 4)
_LEGAL_COUNT = np.array([LEAST_COVER <= n <= MOST_COVER for n in range(7)], np.bool_)
#: (width, height, new squares) -> ``_stamp``
_STAMPS: dict[tuple[int, int, tuple[Pos, ...]], NDArray[np.int8]] = {}


def _stamp(width: int, height: int, new: tuple[Pos, ...]) -> NDArray[np.int8]:
    """What a card ``width`` x ``height`` adds to the counts when the squares ``new``
    (dx, dy from its top-left) are new to the view: per footprint, over the anchors
    from 2 left of and 2 above its top-left (kept: a handful of shapes)."""
    found = _STAMPS.get((width, height, new))
    if found is None:
        found = np.zeros((2, height + MARGIN, width + MARGIN), np.int8)
        for dx, dy in new:
            count_cover(found, dx - COVER_SHIFT + MARGIN, dy - COVER_SHIFT + MARGIN)
        _STAMPS[width, height, new] = found
    return found


def _layout_anchors(found: Board, company: Any) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """The cells of each footprint's legal anchors, from the company's layout."""
    ax, ay = found.x0 - MARGIN, found.y0 - MARGIN
    legal = company.layout.legal

    def cells(footprint: int) -> NDArray[np.intp]:
        return np.array(
            [
                (y - ay) * FRAME_W + x - ax
                for y, x in legal[footprint]
                if 0 <= x - ax < FRAME_W and 0 <= y - ay < FRAME_H  # always (cafe's docstring)
            ],
            dtype=np.intp,
        )

    return cells(0), cells(1)


def _write(
    faces: dict[Pos, tuple[int, ...]],
    squares: dict[Pos, int],
    x: int,
    y: int,
    icon: str,
    colour: str | None,
) -> None:
    """Put a square showing ``icon`` (and bean ``colour``) at (x, y) on a board's dicts."""
    base = (y * FRAME_W + x) * SQUARE
    at = base + ICON_INDEX[icon]
    faces[x, y] = (at,) if colour is None else (at, base + COLOUR_OFFSET[colour])
    if icon in AREA_KINDS:
        squares[x, y] = base
    else:
        squares.pop((x, y), None)


#: Boards worked out, by card list.
_BOARDS: dict[Hashable, Board] = {}
#: The most boards kept (about 12 KB each, some 6 MB in all; a match needs at most 36,
#: one per card list of each company, and boards are rarely met again but in the match
#: that made them): past it the oldest go first.
BOARDS_KEPT = 512


def board(company: Any) -> Board:
    """The company's board (kept per card list: the cards laid decide the squares)."""
    key = tuple(company.cards)
    found = _BOARDS.get(key)
    if found is None:
        if len(_BOARDS) >= BOARDS_KEPT:
            del _BOARDS[next(iter(_BOARDS))]
        before = _BOARDS.get(key[:-1]) if len(key) > 1 else None
        found = Board.of(company) if before is None else before.after(key[-1])
        _BOARDS[key] = found
    return found


def frame(company: Any) -> Frame:
    """The company's frame (``cafe.Frame``)."""
    return board(company).frame(company)
