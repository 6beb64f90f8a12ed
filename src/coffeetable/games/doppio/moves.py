"""Doppio's moves and exchanges, from which kinds of piece stand on each space.

Whether a move or an exchange keeps the law of the path (never two pieces of
one kind on a space) depends only on which kinds stand where, not on their
colours: a space is a 3-bit mask of kinds (cup 1, saucer 2, spoon 4), and the
whole path's "occupancy" packs one 5-bit mask of spaces per kind
(``cups | saucers << 5 | spoons << 10``). During play each kind has its three
pieces on three of the five spaces, so there are only 10 ** 3 occupancies: the
list of legal moves of each is made once (``move_actions``) and shared, as a
chess engine keeps its move tables.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache

from coffeetable.engine import Action
from coffeetable.games.doppio.cards import KINDS, SPACES
from coffeetable.games.doppio.patterns import Space

#: kind name -> its bit in a space's mask.
KIND_BIT = {name: 1 << kind for kind, name in enumerate(KINDS)}
#: mask -> its non-empty sub-masks, smallest first.
SUBMASKS = [[sub for sub in range(1, 8) if sub & mask == sub] for mask in range(8)]
#: mask -> the kind names in it, in the order of ``KINDS``.
KIND_NAMES = [tuple(KINDS[k] for k in range(3) if mask >> k & 1) for mask in range(8)]


def space_mask(space: Space) -> int:
    """The kinds on a space as bits: cup 1, saucer 2, spoon 4."""
    return (space[0] is not None) | (space[1] is not None) << 1 | (space[2] is not None) << 2


def kinds_mask(names: Sequence[str]) -> int:
    """Kind names (distinct, as the action schema has them) as a mask."""
    mask = 0
    for name in names:
        mask |= KIND_BIT[name]
    return mask


def occupancy(occupied: Sequence[int]) -> int:
    """Pack the kind mask of each space into one number (see the module docstring)."""
    packed = 0
    for index, mask in enumerate(occupied):
        for kind in range(3):
            if mask >> kind & 1:
                packed |= 1 << (kind * SPACES + index)
    return packed


def spaces_of(packed: int) -> list[int]:
    """``occupancy`` undone: the kind mask of each space."""
    return [
        sum(1 << kind for kind in range(3) if packed >> (kind * SPACES + index) & 1)
        for index in range(SPACES)
    ]


def masks_of(occupied: Sequence[int]) -> Iterator[tuple[int, int, int, int]]:
    """Every move and exchange that keeps the law of the path, as (from, to, given,
    taken): kinds as 3-bit masks, ``taken`` 0 for a move. The order of ``legal_actions``.

    The law is a bit test: what arrives on a space must not share a kind with what
    stays there. An exchange is listed once, from the lower space.
    """
    for start, here in enumerate(occupied):
        for end, there in enumerate(occupied):
            if end == start:
                continue
            for given in SUBMASKS[here]:
                if not given & there:
                    yield start, end, given, 0
            if end < start:
                continue
            for given in SUBMASKS[here]:
                stays = here & ~given
                for taken in SUBMASKS[there]:
                    if not taken & stays and not given & there & ~taken:
                        yield start, end, given, taken


def move_masks(path: Sequence[Space]) -> Iterator[tuple[int, int, int, int]]:
    """``masks_of`` for a path of spaces."""
    return masks_of([space_mask(space) for space in path])


def fits(here: int, there: int, given: int, taken: int) -> bool:
    """Does giving ``given`` from a space holding ``here`` for ``taken`` from one holding
    ``there`` (0 for a move) keep the law of the path?"""
    return not taken & here & ~given and not given & there & ~taken


@cache
def move_action(start: int, end: int, given: int, taken: int) -> Action:
    """The action moving ``given`` from ``start`` to ``end`` (and ``taken`` back), made
    once: every occupancy's list holds the same few hundred values."""
    action: Action = {"type": "exchange" if taken else "move", "from": start, "to": end}
    action["kinds"] = list(KIND_NAMES[given])
    if taken:
        action["with"] = list(KIND_NAMES[taken])
    return action


@cache
def move_actions(packed: int) -> tuple[Action, ...]:
    """The legal moves and exchanges of an occupancy, as actions, in ``masks_of``'s order.

    Shared by every state with this occupancy: read them, never change them (no
    code changes an action it is given; a caller that wants to, copies it). All
    1,000 occupancies of play take about 1 MB.
    """
    return tuple(move_action(*move) for move in masks_of(spaces_of(packed)))
