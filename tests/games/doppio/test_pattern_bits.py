"""The bit-mask matchers agree with a plain reading of the cards, space by space.

``reference`` below is how patterns.py read the path before it used bit masks
(one small function per pattern over the spaces themselves), kept here as the
oracle: every card, both ways round, on thousands of random lawful paths
(full ones as in play, and partial ones as during the set-up).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from coffeetable.games.doppio.cards import CARDS, COLOURS, KINDS, SPACES, Card
from coffeetable.games.doppio.patterns import MATCHERS, Path, Space, count, piece_bits

CUP, SAUCER, SPOON = range(3)


def _windows(path: Path, width: int) -> list[Sequence[Space]]:
    return [path[start : start + width] for start in range(len(path) - width + 1)]


def _sequence(path: Path, kinds: Sequence[int], colours: Sequence[int]) -> int:
    return sum(
        any(all(space[k] == c for space, c in zip(window, colours, strict=True)) for k in kinds)
        for window in _windows(path, 3)
    )


def reference(card: Card, path: Path) -> int:
    """``card``'s matches on ``path`` as printed, read space by space."""
    p: dict[str, Any] = card.params
    col = COLOURS.index
    if card.pattern == "colour_sequence":
        return _sequence(path, range(3), [col(c) for c in p["colours"]])
    if card.pattern == "kind_sequence":
        return _sequence(path, [KINDS.index(p["kind"])], [col(c) for c in p["colours"]])
    if card.pattern == "complete_set":
        c = col(p["colour"])
        return sum(
            w[0][CUP] == c and w[1][SAUCER] == c and w[2][SPOON] == c for w in _windows(path, 3)
        )
    if card.pattern == "alone":
        k = KINDS.index(p["kind"])
        return sum(s[k] is not None and sum(e is not None for e in s) == 1 for s in path)
    if card.pattern == "exact_space":
        wanted = [None if p[n] == "any" else col(p[n]) for n in KINDS]
        return sum(
            all(e is not None and w in (None, e) for e, w in zip(s, wanted, strict=True))
            for s in path
        )
    if card.pattern == "pairs":
        return sum(
            all(s[CUP] is not None and s[SAUCER] is not None for s in w) for w in _windows(path, 2)
        )
    if card.pattern == "crossed_pairs":
        white, black = col("white"), col("black")
        return sum(
            w[0] == (white, black, None) and w[1] == (black, white, None) for w in _windows(path, 2)
        )
    assert card.pattern == "one_colour"
    return sum(any(all(c in s for s in w) for c in range(len(COLOURS))) for w in _windows(path, 3))


def random_path(rng: random.Random, pieces: int) -> list[Space]:
    """``pieces`` of the nine placed at random, keeping the law of the path."""
    spaces: list[list[int | None]] = [[None] * 3 for _ in range(SPACES)]
    every = [(kind, colour) for kind in range(3) for colour in range(len(COLOURS))]
    for kind, colour in rng.sample(every, pieces):
        free = [s for s in range(SPACES) if spaces[s][kind] is None]
        spaces[rng.choice(free)][kind] = colour
    return [(s[0], s[1], s[2]) for s in spaces]


@pytest.mark.parametrize("card", CARDS, ids=lambda card: f"card{card.id}")
def test_every_card_matches_as_the_plain_reading_both_ways(card: Card) -> None:
    rng = random.Random(card.id)
    met = 0
    for trial in range(6000):
        path = random_path(rng, 9 if trial % 3 else rng.randrange(4, 10))
        upright, turned = reference(card, path), reference(card, path[::-1])
        assert MATCHERS[card.id](piece_bits(path)) == (upright, turned), path
        assert count(card, path) == upright and count(card, path, turned=True) == turned
        met += upright + turned > 0
    assert met > 0, "the trials never met this card: they test nothing"
