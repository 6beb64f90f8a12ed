"""Each of Doppio's 16 cards on hand-made paths, upright and turned 180 degrees."""

from __future__ import annotations

import pytest

from coffeetable.games.doppio.cards import BY_ID, CARDS, COLOURS, KINDS
from coffeetable.games.doppio.patterns import Space, count


def P(*spaces: str) -> list[Space]:
    """A path from words: P("brown cup, white saucer", "", ...), one string per space."""
    path = []
    for words in spaces:
        space: list[int | None] = [None, None, None]
        for piece in filter(None, (w.strip() for w in words.split(","))):
            colour, kind = piece.split()
            assert space[KINDS.index(kind)] is None, "the law of the path"
            space[KINDS.index(kind)] = COLOURS.index(colour)
        path.append((space[0], space[1], space[2]))
    assert len(path) == 5
    return path


def scores(card_id: int, path: list[Space]) -> tuple[int, int]:
    """(matches upright, matches turned)."""
    card = BY_ID[card_id]
    return count(card, path), count(card, path, turned=True)


def test_there_are_sixteen_cards_with_the_rulebooks_beans() -> None:
    assert [c.id for c in CARDS] == list(range(1, 17))
    assert [c.beans for c in CARDS] == [1, 1, 1, 3, 3, 3, 2, 2, 2, 3, 3, 1, 2, 2, 1, 2]
    for card in CARDS:
        assert set(card.text) == {"en", "fr", "de", "es"}


def test_player_a_scores_the_saucer_sequence_and_three_browns() -> None:
    """Rulebook: 'Player A scores 1 point for the sequence of the 3 saucers and 1 point for
    the sequence of the 3 brown elements.'"""
    path = P(
        "black cup, brown spoon",
        "brown saucer, white spoon",
        "brown cup, white saucer",
        "black saucer",
        "white cup, black spoon",
    )
    assert scores(1, path) == (1, 0)  # saucers brown-white-black
    assert scores(15, path) == (1, 1)  # spaces 0-2 each hold a brown piece
    assert BY_ID[1].beans * 1 + BY_ID[15].beans * 1 == 2


def test_player_b_scores_three_spoons_and_two_lonely_cups_twice() -> None:
    """Rulebook: 'They gain 2 points for the sequence of the 3 spoons, then 2 x 2 points for
    the isolated cups.'"""
    path = P(
        "brown saucer, white spoon",
        "black cup, white saucer, brown spoon",
        "black saucer, black spoon",
        "white cup",
        "brown cup",
    )
    assert scores(14, path) == (1, 0)
    assert scores(7, path) == (2, 2)
    assert BY_ID[14].beans * 1 + BY_ID[7].beans * 2 == 6


@pytest.mark.parametrize(
    ("card_id", "path", "expected"),
    [
        # 1-3: colour sequences of one kind, any kind
        (1, P("brown cup", "white cup", "black cup", "", ""), (1, 0)),
        (1, P("", "", "black spoon", "white spoon", "brown spoon"), (0, 1)),
        (2, P("white saucer", "black saucer", "brown saucer", "", ""), (1, 0)),
        (3, P("", "black cup", "brown cup", "white cup", ""), (1, 0)),
        (1, P("brown cup", "white saucer", "black spoon", "", ""), (0, 0)),  # mixed kinds
        # 4-6: complete sets in the order cup, saucer, spoon; other pieces may share spaces
        (4, P("brown cup, white saucer", "brown saucer", "brown spoon", "", ""), (1, 0)),
        (4, P("", "", "brown spoon", "brown saucer, black cup", "brown cup"), (0, 1)),
        (5, P("black cup", "", "black saucer", "black spoon", ""), (0, 0)),  # not adjacent
        (6, P("", "white cup", "white saucer", "white spoon", ""), (1, 0)),
        (6, P("", "white cup", "white spoon", "white saucer", ""), (0, 0)),  # wrong order
        # 7-9: alone; repeated matches count each space
        (7, P("brown cup", "white cup, black saucer", "black cup", "", ""), (2, 2)),
        (8, P("brown saucer", "white saucer", "black saucer", "", ""), (3, 3)),
        (9, P("brown spoon, white cup", "", "", "", ""), (0, 0)),
        # 10-11: exact spaces
        (10, P("", "white cup, brown saucer, black spoon", "", "", ""), (1, 1)),
        (10, P("", "white cup, brown saucer", "black spoon", "", ""), (0, 0)),
        (11, P("", "", "brown cup, brown saucer, white spoon", "", ""), (1, 1)),
        (11, P("", "", "brown cup, brown saucer", "", ""), (0, 0)),  # the spoon is needed
        # 12: two adjacent cup-and-saucer spaces, with or without spoons
        (
            12,
            P("brown cup, white saucer", "white cup, black saucer, brown spoon", "", "", ""),
            (1, 1),
        ),
        (
            12,
            P(
                "brown cup, white saucer",
                "white cup, black saucer",
                "black cup, brown saucer",
                "",
                "",
            ),
            (2, 2),
        ),
        # 13: crossed pairs, without spoons
        (13, P("white cup, black saucer", "black cup, white saucer", "", "", ""), (1, 0)),
        (13, P("", "", "", "black cup, white saucer", "white cup, black saucer"), (0, 1)),
        (
            13,
            P("white cup, black saucer, brown spoon", "black cup, white saucer", "", "", ""),
            (0, 0),
        ),
        # 14 and 16: three spoons / cups white-brown-black
        (14, P("white spoon", "brown spoon", "black spoon", "", ""), (1, 0)),
        (14, P("", "", "black spoon", "brown spoon", "white spoon"), (0, 1)),
        (16, P("", "white cup", "brown cup", "black cup", ""), (1, 0)),
        (16, P("", "white cup", "brown spoon", "black cup", ""), (0, 0)),
        # 15: three adjacent spaces sharing a colour, counted per window
        (15, P("brown cup", "brown saucer", "brown spoon", "", ""), (1, 1)),
        (
            15,
            P(
                "white cup",
                "white saucer, black cup",
                "white spoon, black saucer",
                "black spoon",
                "",
            ),
            (2, 2),
        ),
    ],
)
def test_card_patterns(card_id: int, path: list[Space], expected: tuple[int, int]) -> None:
    assert scores(card_id, path) == expected
