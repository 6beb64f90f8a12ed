"""What a Doppio path gives a card: how often it is met, and how far it is from being met.

``matches`` and ``met`` count a card's matches quickly (each piece is unique, so a
pattern is a few comparisons of the pieces' spaces; tests/bots/test_doppio_bots.py
checks them against ``patterns.count``). ``shortfall`` is the fewest pieces that
would have to change space for the card to be met, over every place it could be,
either way round: 0 exactly when it is met (tests/bots/test_doppio_measures.py).

The shortfall gives the bots' greedy climbs (``heuristics.reach`` and
``rollout_action``) a gradient. They used to move only while a move met more beans,
so a card that needs two or three moves (two spoons to clear off crossed pairs, a
sequence one piece short) looked no nearer after the first of them. It is an
estimate: it ignores the law of the path and that one action may carry several
pieces of a space together.

Pure and quick: a few comparisons per window over ``features``, cached per path.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from coffeetable.games.doppio.cards import BY_ID, CARDS, COLOURS, KINDS, SPACES, Card
from coffeetable.games.doppio.patterns import Space, count

Path = tuple[Space, ...]
#: ``at[kind][colour]``: the space holding that piece (-1: not placed).
Where = list[list[int]]
#: (path, where each piece lies, pieces per space, colour bits per space) -> the fewest
#: pieces to move. The features are ``features(path)``'s, shared with the heuristics.
Shortfall = Callable[[Path, Where, list[int], list[int]], int]

#: What a climb ranks a path by (``standing``): the beans met, then the nearness.
Standing = tuple[int, float]

_COLOUR = {name: index for index, name in enumerate(COLOURS)}
_CUP, _SAUCER, _SPOON = range(3)
_WINDOWS_2 = range(SPACES - 1)
_WINDOWS_3 = range(SPACES - 2)
_LAST_START = SPACES - 3


@lru_cache(maxsize=1 << 16)
def features(path: Path) -> tuple[Where, list[int], list[int]]:
    """Where each piece lies (``at[kind][colour]``, -1: unplaced); pieces, colours per space."""
    at = [[-1, -1, -1], [-1, -1, -1], [-1, -1, -1]]
    occ = [0] * len(path)
    cm = [0] * len(path)
    for i, space in enumerate(path):
        for k, c in enumerate(space):
            if c is not None:
                at[k][c] = i
                occ[i] += 1
                cm[i] |= 1 << c
    return at, occ, cm


#: A card's counter: (path, where, pieces per space, colour bits per space) -> matches (as
#: printed, turned).
Counter = Callable[[Path, Where, list[int], list[int]], tuple[int, int]]


_BIT_COUNT = [bin(mask).count("1") for mask in range(32)]


def _counter(card: Card) -> Counter:
    """A quick counter of ``card``'s matches, both ways round; the same answers as ``count``.

    Each piece is unique, so a sequence is a few comparisons of the pieces'
    spaces. A pattern kind not known here falls back to ``patterns.count``
    (tests/bots/test_doppio_bots.py checks they agree on every card).
    """
    p = card.params
    col = {name: index for index, name in enumerate(COLOURS)}
    if card.pattern == "alone":
        k = KINDS.index(p["kind"])

        def alone(path: Path, at: Where, occ: list[int], cm: list[int]) -> tuple[int, int]:
            n = 0
            for space in at[k]:
                if space >= 0 and occ[space] == 1:
                    n += 1
            return n, n

        return alone
    if card.pattern == "exact_space":
        cup, saucer, spoon = (None if p[name] == "any" else col[p[name]] for name in KINDS)

        def exact(path: Path, at: Where, occ: list[int], cm: list[int]) -> tuple[int, int]:
            n = 0
            for i, (c0, c1, c2) in enumerate(path):
                if (
                    occ[i] == 3
                    and cup in (None, c0)
                    and saucer in (None, c1)
                    and spoon in (None, c2)
                ):
                    n += 1
            return n, n

        return exact
    if card.pattern in ("complete_set", "kind_sequence", "colour_sequence"):
        if card.pattern == "complete_set":  # (kind, colour) in reading order
            c = col[p["colour"]]
            chains = [(0, c, 1, c, 2, c)]
        else:
            kinds = range(3) if card.pattern == "colour_sequence" else [KINDS.index(p["kind"])]
            x, y, z = (col[name] for name in p["colours"])
            chains = [(k, x, k, y, k, z) for k in kinds]

        def sequence(path: Path, at: Where, occ: list[int], cm: list[int]) -> tuple[int, int]:
            up = down = 0  # start spaces, as bits (a window counts once)
            for k0, c0, k1, c1, k2, c2 in chains:
                s = at[k0][c0]
                if s >= 0:
                    middle, last = at[k1][c1], at[k2][c2]
                    if middle == s + 1 and last == s + 2:
                        up |= 1 << s
                    elif middle == s - 1 and last == s - 2 and s >= 2:
                        down |= 1 << s
            return _BIT_COUNT[up], _BIT_COUNT[down]

        return sequence
    if card.pattern == "pairs":

        def pairs(path: Path, at: Where, occ: list[int], cm: list[int]) -> tuple[int, int]:
            n, before = 0, False
            for space in path:
                here = space[0] is not None and space[1] is not None
                n += before and here
                before = here
            return n, n

        return pairs
    if card.pattern == "crossed_pairs":
        w, b = col["white"], col["black"]
        left, right = (w, b, None), (b, w, None)

        def crossed(path: Path, at: Where, occ: list[int], cm: list[int]) -> tuple[int, int]:
            up = down = 0
            for i in range(len(path) - 1):
                x, y = path[i], path[i + 1]
                up += x == left and y == right
                down += x == right and y == left
            return up, down

        return crossed
    if card.pattern == "one_colour":

        def one(path: Path, at: Where, occ: list[int], cm: list[int]) -> tuple[int, int]:
            n = 0
            for i in range(len(path) - 2):
                if cm[i] & cm[i + 1] & cm[i + 2]:
                    n += 1
            return n, n

        return one

    def fallback(path: Path, at: Where, occ: list[int], cm: list[int]) -> tuple[int, int]:
        return count(card, path), count(card, path, turned=True)

    return fallback


_COUNTERS: dict[int, tuple[int, Counter]] = {
    card.id: (card.beans, _counter(card)) for card in CARDS
}


@lru_cache(maxsize=1 << 16)
def matches(path: Path, card: int) -> tuple[int, int]:
    """How many times ``card`` is met on ``path``: (as printed, turned 180 degrees)."""
    return _COUNTERS[card][1](path, *features(path))


@lru_cache(maxsize=1 << 18)
def _met(path: Path, cards: tuple[int, ...]) -> int:
    at, occ, cm = features(path)
    total = 0
    for card in cards:
        beans, counter = _COUNTERS[card]
        up, down = counter(path, at, occ, cm)
        total += beans * (up if up > down else down)
    return total


def met(path: Path, cards: Sequence[int]) -> int:
    """The beans ``cards`` would score on ``path`` now, each read the better way round."""
    return _met(path, tuple(cards))


def _most_in_place(first: int, second: int, third: int, low: int, high: int) -> int:
    """How many of three window starts agree on one start in ``low..high``."""
    best = 0
    for start in (first, second, third):
        if low <= start <= high:
            best = max(best, (first == start) + (second == start) + (third == start))
    return best


def _chain_shortfall(chains: list[tuple[int, int, int, int, int, int]]) -> Shortfall:
    """Three given pieces on three adjacent spaces in order, either way round: the pieces
    not in place for the window that has most of them."""

    def shortfall(path: Path, at: Where, occ: list[int], cm: list[int]) -> int:
        best = 0
        for k0, c0, k1, c1, k2, c2 in chains:
            s0, s1, s2 = at[k0][c0], at[k1][c1], at[k2][c2]
            # the window start each piece asks for, read as printed and turned
            up = _most_in_place(s0, s1 - 1, s2 - 2, 0, _LAST_START)
            down = _most_in_place(s0, s1 + 1, s2 + 2, 2, SPACES - 1)
            best = max(best, up, down)
        return 3 - best

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

        def alone(path: Path, at: Where, occ: list[int], cm: list[int]) -> int:
            for space in at[kind]:  # alone: no other piece on its space
                if space >= 0 and occ[space] == 1:
                    return 0
            return 1  # move it to an empty space, or the others off it

        return alone
    if card.pattern == "exact_space":
        wanted = [None if p[name] == "any" else _COLOUR[p[name]] for name in KINDS]

        def exact(path: Path, at: Where, occ: list[int], cm: list[int]) -> int:
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

        def pairs(path: Path, at: Where, occ: list[int], cm: list[int]) -> int:
            lacking = [(s[_CUP] is None) + (s[_SAUCER] is None) for s in path]
            return min(lacking[i] + lacking[i + 1] for i in _WINDOWS_2)

        return pairs
    if card.pattern == "crossed_pairs":
        white, black = _COLOUR["white"], _COLOUR["black"]

        def crossed(path: Path, at: Where, occ: list[int], cm: list[int]) -> int:
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

        def one(path: Path, at: Where, occ: list[int], cm: list[int]) -> int:
            best = 0
            for bit in (1, 2, 4):
                has = [mask & bit != 0 for mask in cm]
                for i in _WINDOWS_3:
                    best = max(best, has[i] + has[i + 1] + has[i + 2])
            return 3 - best

        return one
    raise ValueError(f"no shortfall for the pattern kind {card.pattern!r}")


#: card id -> its shortfall function.
SHORTFALLS: dict[int, Shortfall] = {card_id: _for(card) for card_id, card in BY_ID.items()}


def shortfall(path: Path, card: int) -> int:
    """The fewest pieces that must change space for ``card`` to be met on ``path`` (0: met)."""
    return SHORTFALLS[card](path, *features(path))


#: What a card counts for by its shortfall, as a share of its beans: met counts whole, one
#: piece short a quarter, two a twentieth, further nothing (a turn has three actions).
NEAR = (1.0, 0.25, 0.05)


def nearness(path: Path, cards: tuple[int, ...]) -> float:
    """The beans of ``cards`` weighted by how near each is to being met (``NEAR``): a
    gradient for a climb that no single move makes meet more."""
    return standing(path, cards)[1]


@lru_cache(maxsize=1 << 18)
def standing(path: Path, cards: tuple[int, ...]) -> Standing:
    """What a climb ranks a path by: the beans ``cards`` meet (``met``), then how near
    they are (``nearness``), in one pass (a met card is not short of anything)."""
    at, occ, cm = features(path)
    beans, near = 0, 0.0
    for card in cards:
        value, counter = _COUNTERS[card]
        up, down = counter(path, at, occ, cm)
        if up or down:
            beans += value * (up if up > down else down)
            near += value
        else:
            short = SHORTFALLS[card](path, at, occ, cm)
            if short < len(NEAR):
                near += NEAR[short] * value
    return beans, near
