"""How far a Doppio card is from being met: the pieces that would have to change space.

The search's greedy climbs (``heuristics.reach`` and ``rollout_action``) used to
move only while a move met more beans, so a card that needs two or three moves
(two spoons to clear off crossed pairs, a sequence one piece short) looked no
nearer after the first of them. Two searching bots then blocked each other's
last card of the round for ever (README, "Bot levels"). ``shortfall`` gives the
climbs a gradient: the fewest pieces that must move for the card to be met,
counted over every place the card could be met, either way round.

It is an estimate: it ignores the law of the path and that one action may carry
several pieces of a space together. It is 0 exactly when the card is met
(tests/bots/test_doppio_progress.py checks this against ``patterns.count``).
Pure and quick: a few comparisons per window over ``heuristics``' features.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from coffeetable.games.doppio.cards import BY_ID, COLOURS, KINDS, SPACES, Card

Space = tuple[int | None, int | None, int | None]
Path = tuple[Space, ...]
#: ``at[kind][colour]``: the space holding that piece (-1: not placed).
Where = Sequence[Sequence[int]]
#: (path, where each piece lies) -> the fewest pieces to move.
Shortfall = Callable[[Path, Where], int]

_COLOUR = {name: index for index, name in enumerate(COLOURS)}
_CUP, _SAUCER, _SPOON = range(3)
_WINDOWS_3 = range(SPACES - 2)
_WINDOWS_2 = range(SPACES - 1)


def _chain_shortfall(chains: list[tuple[int, int, int, int, int, int]]) -> Shortfall:
    """Three given pieces on three adjacent spaces in order, either way round."""

    def shortfall(path: Path, at: Where) -> int:
        best = 3
        for k0, c0, k1, c1, k2, c2 in chains:
            spaces = (at[k0][c0], at[k1][c1], at[k2][c2])
            for start in _WINDOWS_3:
                up = (spaces[0] != start) + (spaces[1] != start + 1) + (spaces[2] != start + 2)
                down = (spaces[0] != start + 2) + (spaces[1] != start + 1) + (spaces[2] != start)
                best = min(best, up, down)
        return best

    return shortfall


def _for(card: Card) -> Shortfall:
    """The shortfall of ``card``'s pattern kind."""
    p = card.params
    if card.pattern in ("complete_set", "kind_sequence", "colour_sequence"):
        if card.pattern == "complete_set":
            c = _COLOUR[p["colour"]]
            return _chain_shortfall([(_CUP, c, _SAUCER, c, _SPOON, c)])
        kinds = range(3) if card.pattern == "colour_sequence" else [KINDS.index(p["kind"])]
        x, y, z = (_COLOUR[name] for name in p["colours"])
        return _chain_shortfall([(k, x, k, y, k, z) for k in kinds])
    if card.pattern == "alone":
        kind = KINDS.index(p["kind"])

        def alone(path: Path, at: Where) -> int:
            for space in at[kind]:  # alone: no other piece on its space
                if space >= 0 and sum(c is not None for c in path[space]) == 1:
                    return 0
            return 1  # move it to an empty space, or the others off it

        return alone
    if card.pattern == "exact_space":
        wanted = [None if p[name] == "any" else _COLOUR[p[name]] for name in KINDS]

        def exact(path: Path, at: Where) -> int:
            best = 3
            for space in path:
                missing = 0
                for kind, colour in enumerate(wanted):
                    here = space[kind]
                    missing += here is None or (colour is not None and here != colour)
                best = min(best, missing)
            return best

        return exact
    if card.pattern == "pairs":

        def pairs(path: Path, at: Where) -> int:
            lacking = [(s[_CUP] is None) + (s[_SAUCER] is None) for s in path]
            return min(lacking[i] + lacking[i + 1] for i in _WINDOWS_2)

        return pairs
    if card.pattern == "crossed_pairs":
        white, black = _COLOUR["white"], _COLOUR["black"]

        def crossed(path: Path, at: Where) -> int:
            cups, saucers = at[_CUP], at[_SAUCER]
            best = 6
            for i in _WINDOWS_2:
                spoons = (path[i][_SPOON] is not None) + (path[i + 1][_SPOON] is not None)
                for left, right in ((white, black), (black, white)):
                    out = (
                        (cups[left] != i)
                        + (saucers[right] != i)
                        + (cups[right] != i + 1)
                        + (saucers[left] != i + 1)
                    )
                    best = min(best, out + spoons)
            return best

        return crossed
    if card.pattern == "one_colour":

        def one(path: Path, at: Where) -> int:
            best = 3
            for colour in range(3):
                has = [colour in space for space in path]
                for i in _WINDOWS_3:
                    best = min(best, 3 - has[i] - has[i + 1] - has[i + 2])
            return best

        return one
    raise ValueError(f"no shortfall for the pattern kind {card.pattern!r}")


_SHORTFALLS: dict[int, Shortfall] = {card_id: _for(card) for card_id, card in BY_ID.items()}


@lru_cache(maxsize=1 << 16)
def _where(path: Path) -> tuple[tuple[int, ...], ...]:
    at = [[-1, -1, -1], [-1, -1, -1], [-1, -1, -1]]
    for index, space in enumerate(path):
        for kind, colour in enumerate(space):
            if colour is not None:
                at[kind][colour] = index
    return tuple(tuple(row) for row in at)


def shortfall(path: Path, card: int) -> int:
    """The fewest pieces that must change space for ``card`` to be met on ``path`` (0: met)."""
    return _SHORTFALLS[card](path, _where(path))


#: What a card counts for by its shortfall, as a share of its beans: met counts whole (it is
#: ``met``'s), one piece short a little, further nothing (a turn has three actions).
NEAR = (1.0, 0.25, 0.05)


@lru_cache(maxsize=1 << 17)
def nearness(path: Path, cards: tuple[int, ...]) -> float:
    """The beans of ``cards`` weighted by how near each is to being met (``NEAR``): a
    gradient for a climb that no single move makes meet more."""
    total = 0.0
    for card in cards:
        short = shortfall(path, card)
        if short < len(NEAR):
            total += NEAR[short] * BY_ID[card].beans
    return total
