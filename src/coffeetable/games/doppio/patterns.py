"""How a card's pattern is matched on the path: one small function per pattern kind.

A path is a tuple of 5 spaces; a space is (cup, saucer, spoon), each the index
of a colour in ``COLOURS`` or None. For matching, the path is read as nine bit
masks, one per piece (``piece_bits``): bit ``s`` of ``bits[piece(kind, colour)]``
is set when that piece stands on space ``s``. A pattern is then a few ANDs and
shifts: "a brown cup with a white cup right after it" is
``bits[brown cup] & bits[white cup] >> 1``, whose set bits are the spaces where
such a window starts.

Each card is compiled once into a matcher (``MATCHERS[card.id]``) that gives its
count both ways round: as printed, and turned 180 degrees (the path read right
to left). Every count is of distinct matches (distinct spaces, or distinct
windows of adjacent spaces). ``count`` is the one-card, one-path door.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from coffeetable.games.doppio.cards import BY_ID, CARDS, COLOURS, KINDS, Card

Space = tuple[int | None, int | None, int | None]
Path = Sequence[Space]
#: One bit mask per piece, indexed by ``piece(kind, colour)``.
Bits = Sequence[int]
#: A card's (matches as printed, matches turned) on a path's ``Bits``.
Matcher = Callable[[Bits], tuple[int, int]]

CUP, SAUCER, SPOON = range(3)
EMPTY: Space = (None, None, None)


def piece(kind: int, colour: int) -> int:
    """The index of the piece of this kind and colour in a path's ``Bits``."""
    return kind * 3 + colour  # three colours


def piece_bits(path: Path) -> list[int]:
    """The path as one bit mask per piece (bit ``s``: the piece is on space ``s``)."""
    bits = [0] * (len(KINDS) * len(COLOURS))
    for index, space in enumerate(path):
        for kind, colour in enumerate(space):
            if colour is not None:
                bits[piece(kind, colour)] |= 1 << index
    return bits


def kind_bits(bits: Bits, kind: int) -> int:
    """The spaces holding a piece of ``kind``, any colour."""
    first = kind * 3  # piece(kind, 0)
    return bits[first] | bits[first + 1] | bits[first + 2]


def _colour(name: str) -> int:
    return COLOURS.index(name)


def _chains(chains: Sequence[tuple[int, int, int]]) -> Matcher:
    """Three adjacent spaces holding these pieces, in order, for any one of ``chains``.

    Turned, the path is read right to left: the same chain reversed, read as printed.
    """
    backwards = [chain[::-1] for chain in chains]

    def starts(bits: Bits, chains: Sequence[tuple[int, int, int]]) -> int:
        found = 0
        for first, second, third in chains:
            found |= bits[first] & bits[second] >> 1 & bits[third] >> 2
        return found.bit_count()

    def match(bits: Bits) -> tuple[int, int]:
        return starts(bits, chains), starts(bits, backwards)

    return match


def colour_sequence(colours: Sequence[str]) -> Matcher:
    """Three adjacent spaces each holding an element of one same type, in these colours."""
    first, second, third = (_colour(c) for c in colours)
    return _chains(
        [(piece(kind, first), piece(kind, second), piece(kind, third)) for kind in range(3)]
    )


def kind_sequence(kind: str, colours: Sequence[str]) -> Matcher:
    """Three adjacent elements of this kind, in these colours."""
    index = KINDS.index(kind)
    first, second, third = (piece(index, _colour(c)) for c in colours)
    return _chains([(first, second, third)])


def complete_set(colour: str) -> Matcher:
    """The cup, saucer and spoon of one colour on three adjacent spaces, in that order."""
    c = _colour(colour)
    return _chains([(piece(CUP, c), piece(SAUCER, c), piece(SPOON, c))])


def alone(kind: str) -> Matcher:
    """Spaces holding exactly one element, of this kind."""
    index = KINDS.index(kind)
    others = [k for k in range(3) if k != index]

    def match(bits: Bits) -> tuple[int, int]:
        found = kind_bits(bits, index) & ~(kind_bits(bits, others[0]) | kind_bits(bits, others[1]))
        n = found.bit_count()
        return n, n

    return match


def exact_space(cup: str, saucer: str, spoon: str) -> Matcher:
    """Spaces holding exactly a cup, a saucer and a spoon of these colours ("any": any colour)."""
    wanted = [None if name == "any" else _colour(name) for name in (cup, saucer, spoon)]
    pieces = [None if colour is None else piece(kind, colour) for kind, colour in enumerate(wanted)]

    def match(bits: Bits) -> tuple[int, int]:
        found = -1  # every space, narrowed kind by kind
        for kind, index in enumerate(pieces):
            found &= kind_bits(bits, kind) if index is None else bits[index]
        n = found.bit_count()
        return n, n

    return match


def pairs() -> Matcher:
    """Two adjacent spaces, each with a cup and a saucer."""

    def match(bits: Bits) -> tuple[int, int]:
        both = kind_bits(bits, CUP) & kind_bits(bits, SAUCER)
        n = (both & both >> 1).bit_count()
        return n, n

    return match


def crossed_pairs() -> Matcher:
    """White cup on black saucer, then black cup on white saucer; no spoon on either."""
    white, black = _colour("white"), _colour("black")

    white_cup, black_cup = piece(CUP, white), piece(CUP, black)
    white_saucer, black_saucer = piece(SAUCER, white), piece(SAUCER, black)

    def match(bits: Bits) -> tuple[int, int]:
        no_spoon = ~kind_bits(bits, SPOON)
        white_on_black = bits[white_cup] & bits[black_saucer] & no_spoon
        black_on_white = bits[black_cup] & bits[white_saucer] & no_spoon
        return (
            (white_on_black & black_on_white >> 1).bit_count(),
            (black_on_white & white_on_black >> 1).bit_count(),  # right to left
        )

    return match


def one_colour() -> Matcher:
    """Three adjacent spaces each holding an element of one same colour."""

    by_colour = [(piece(CUP, c), piece(SAUCER, c), piece(SPOON, c)) for c in range(len(COLOURS))]

    def match(bits: Bits) -> tuple[int, int]:
        found = 0
        for cup, saucer, spoon in by_colour:
            spaces = bits[cup] | bits[saucer] | bits[spoon]
            found |= spaces & spaces >> 1 & spaces >> 2
        n = found.bit_count()  # a window read backwards is the same window
        return n, n

    return match


PATTERNS: dict[str, Callable[..., Matcher]] = {
    "colour_sequence": colour_sequence,
    "kind_sequence": kind_sequence,
    "complete_set": complete_set,
    "alone": alone,
    "exact_space": exact_space,
    "pairs": pairs,
    "crossed_pairs": crossed_pairs,
    "one_colour": one_colour,
}


def matcher(card: Card) -> Matcher:
    """``card``'s pattern with its parameters, compiled."""
    params: dict[str, Any] = card.params
    return PATTERNS[card.pattern](**params)


#: card id -> its matcher, compiled once.
MATCHERS: dict[int, Matcher] = {card.id: matcher(card) for card in CARDS}


def count(card: Card, path: Path, turned: bool = False) -> int:
    """How many times ``card`` is met on ``path``, read as printed or turned 180 degrees."""
    match = MATCHERS.get(card.id)
    if match is None or BY_ID.get(card.id) is not card:  # a card made elsewhere: compile it
        match = matcher(card)
    return match(piece_bits(path))[1 if turned else 0]
