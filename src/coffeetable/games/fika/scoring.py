"""Scoring a round of Fika: objectives, group multipliers, the 6's special, the tie-break.

Each player reads their café left to right from their own seat: seat 0 reads
the columns 0..4, seat 1 (across the street) reads them 4..0. Empty spots
break adjacency.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import Any

from coffeetable.games.fika.cards import COINS, SPOTS, card_json, colour_of, number_of
from coffeetable.games.fika.cards import COLOURS as COLOUR_NAMES

Cafe = Sequence[int | None]
#: A group on the street: (column, the seat its 3-cup half faces).
Placed = tuple[int, int]


def reading_order(seat: int) -> list[int]:
    """The columns of ``seat``'s café, left to right as that player sees them."""
    return list(range(SPOTS)) if seat == 0 else list(range(SPOTS - 1, -1, -1))


def _runs(row: list[int | None], width: int) -> list[list[int]]:
    """Windows of ``width`` adjacent filled positions (as positions in ``row``)."""
    return [
        list(range(start, start + width))
        for start in range(len(row) - width + 1)
        if all(row[p] is not None for p in range(start, start + width))
    ]


def objective_met(
    number: int,
    column: int,
    row: list[int | None],
    colours: list[int | None],
    street: dict[int, Placed],
) -> bool:
    """Is the objective of a card with printed ``number`` met, for a card at ``column``?

    ``row`` holds the (effective) numbers in reading order, ``colours`` the colours.
    """
    if number == 1:
        return any(row[a] == row[a + 1] for a, _ in _runs(row, 2))
    if number == 2:
        return {row[0], row[-1]} == {1, 6}
    if number == 3:
        return column in street
    if number == 4:
        return any(len({colours[p] for p in run}) == 1 for run in _runs(colours, 3))
    if number == 5:
        for a, b, c in _runs(row, 3):
            x, y, z = row[a], row[b], row[c]
            assert x is not None and y is not None and z is not None
            if (y - x, z - y) in ((1, 1), (-1, -1)):
                return True
        return False
    return any(sum(1 for c in colours if c == colour) >= 4 for colour in range(3))


def score_cafe(
    seat: int,
    cafes: Sequence[Cafe],
    street: dict[int, Placed],
) -> tuple[int, list[dict[str, Any]]]:
    """``seat``'s coins and the card-by-card breakdown.

    A 6 opposite an opponent's 1 becomes the number 2-5 that scores best for
    its owner (tried exhaustively: at most three such sixes).
    """
    cafe, other = cafes[seat], cafes[1 - seat]
    order = reading_order(seat)
    numbers = [None if card is None else number_of(card) for card in cafe]
    opposite = [None if card is None else number_of(card) for card in other]
    special = [col for col in order if numbers[col] == 6 and opposite[col] == 1]
    best: tuple[int, list[dict[str, Any]]] | None = None
    for values in product(range(2, 6), repeat=len(special)):
        chosen = dict(zip(special, values, strict=True))
        total, lines = _score_with(seat, cafe, order, street, chosen)
        if best is None or total > best[0]:
            best = (total, lines)
    assert best is not None
    return best


def _score_with(
    seat: int, cafe: Cafe, order: list[int], street: dict[int, Placed], chosen: dict[int, int]
) -> tuple[int, list[dict[str, Any]]]:
    row: list[int | None] = []
    colours: list[int | None] = []
    for col in order:
        card = cafe[col]
        row.append(None if card is None else chosen.get(col, number_of(card)))
        colours.append(None if card is None else colour_of(card))
    total, lines = 0, []
    for col in order:
        card = cafe[col]
        if card is None:
            continue
        number = number_of(card)
        met = objective_met(number, col, row, colours, street)
        multiplier = 1
        if col in street:
            multiplier = 3 if street[col][1] == seat else 2
        coins = COINS[number] * multiplier if met else 0
        total += coins
        line = {
            "column": col,
            "card": card_json(card),
            "met": met,
            "multiplier": multiplier,
            "coins": coins,
        }
        if col in chosen:
            line["as"] = chosen[col]
        lines.append(line)
    return total, lines


def tie_break(cafes: Sequence[Cafe], colour_order: Sequence[int]) -> int | None:
    """The seat that wins a tie on coins: the highest printed number in the primary
    colour, then the secondary, then the third; a café with the colour beats one without."""
    decided = tie_break_reason(cafes, colour_order)
    return None if decided is None else decided["seat"]


def tie_break_reason(cafes: Sequence[Cafe], colour_order: Sequence[int]) -> dict[str, Any] | None:
    """How a tie on coins is broken: ``{"seat", "colour", "rank", "highest"}``, the colour
    that decided (its rank in the colour order, 1-3) and each café's highest number in it
    (0: none of that colour); None if no colour decides."""
    for rank, colour in enumerate(colour_order, start=1):
        highest = [
            max((number_of(c) for c in cafe if c is not None and colour_of(c) == colour), default=0)
            for cafe in cafes
        ]
        if highest[0] != highest[1]:
            seat = 0 if highest[0] > highest[1] else 1
            return {"seat": seat, "colour": COLOUR_NAMES[colour], "rank": rank, "highest": highest}
    return None


def round_result(
    cafes: Sequence[Cafe], street: dict[int, Placed], colour_order: Sequence[int]
) -> dict[str, Any]:
    """Both cafés scored as they stand: ``coins``, ``cards`` (each seat's lines), the
    ``winner`` (None: a tie no colour breaks yet) and ``tie`` (how a tie was broken, or
    None when the coins decide)."""
    results = [score_cafe(seat, cafes, street) for seat in (0, 1)]
    coins = [total for total, _ in results]
    tie = None
    if coins[0] != coins[1]:
        winner: int | None = 0 if coins[0] > coins[1] else 1
    else:
        tie = tie_break_reason(cafes, colour_order)
        winner = None if tie is None else tie["seat"]
    return {
        "coins": coins,
        "winner": winner,
        "tie": tie,
        "cards": [lines for _, lines in results],
    }
