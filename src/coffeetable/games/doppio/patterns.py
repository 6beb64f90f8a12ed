"""How a card's pattern is matched on the path: one small function per pattern kind.

A path is a tuple of 5 spaces; a space is (cup, saucer, spoon), each the index
of a colour in ``COLOURS`` or None. Every function counts the distinct matches
in the printed direction (distinct spaces, or distinct windows of adjacent
spaces); ``count`` reads the path right to left for a card turned 180 degrees.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from coffeetable.games.doppio.cards import COLOURS, KINDS, Card

Space = tuple[int | None, int | None, int | None]
Path = Sequence[Space]

CUP, SAUCER, SPOON = range(3)
EMPTY: Space = (None, None, None)


def _colour(name: str) -> int:
    return COLOURS.index(name)


def _windows(path: Path, width: int) -> list[Sequence[Space]]:
    return [path[start : start + width] for start in range(len(path) - width + 1)]


def colour_sequence(path: Path, colours: Sequence[str]) -> int:
    """Three adjacent spaces each holding an element of one same type, in these colours."""
    wanted = [_colour(c) for c in colours]
    return sum(
        any(
            all(space[kind] == colour for space, colour in zip(window, wanted, strict=True))
            for kind in range(3)
        )
        for window in _windows(path, 3)
    )


def kind_sequence(path: Path, kind: str, colours: Sequence[str]) -> int:
    """Three adjacent elements of this kind, in these colours."""
    index = KINDS.index(kind)
    wanted = [_colour(c) for c in colours]
    return sum(
        all(space[index] == colour for space, colour in zip(window, wanted, strict=True))
        for window in _windows(path, 3)
    )


def complete_set(path: Path, colour: str) -> int:
    """The cup, saucer and spoon of one colour on three adjacent spaces, in that order."""
    c = _colour(colour)
    return sum(
        window[0][CUP] == c and window[1][SAUCER] == c and window[2][SPOON] == c
        for window in _windows(path, 3)
    )


def alone(path: Path, kind: str) -> int:
    """Spaces holding exactly one element, of this kind."""
    index = KINDS.index(kind)
    return sum(
        space[index] is not None and sum(e is not None for e in space) == 1 for space in path
    )


def exact_space(path: Path, cup: str, saucer: str, spoon: str) -> int:
    """Spaces holding exactly a cup, a saucer and a spoon of these colours ("any": any colour)."""
    wanted = [None if name == "any" else _colour(name) for name in (cup, saucer, spoon)]
    return sum(
        all(
            element is not None and colour in (None, element)
            for element, colour in zip(space, wanted, strict=True)
        )
        for space in path
    )


def pairs(path: Path) -> int:
    """Two adjacent spaces, each with a cup and a saucer."""
    return sum(
        all(space[CUP] is not None and space[SAUCER] is not None for space in window)
        for window in _windows(path, 2)
    )


def crossed_pairs(path: Path) -> int:
    """White cup on black saucer, then black cup on white saucer; no spoon on either."""
    white, black = _colour("white"), _colour("black")
    return sum(
        window[0] == (white, black, None) and window[1] == (black, white, None)
        for window in _windows(path, 2)
    )


def one_colour(path: Path) -> int:
    """Three adjacent spaces each holding an element of one same colour."""
    return sum(
        any(all(colour in space for space in window) for colour in range(len(COLOURS)))
        for window in _windows(path, 3)
    )


PATTERNS: dict[str, Callable[..., int]] = {
    "colour_sequence": colour_sequence,
    "kind_sequence": kind_sequence,
    "complete_set": complete_set,
    "alone": alone,
    "exact_space": exact_space,
    "pairs": pairs,
    "crossed_pairs": crossed_pairs,
    "one_colour": one_colour,
}


def count(card: Card, path: Path, turned: bool = False) -> int:
    """How many times ``card`` is met on ``path``, read as printed or turned 180 degrees."""
    params: dict[str, Any] = card.params
    return PATTERNS[card.pattern](path[::-1] if turned else path, **params)
