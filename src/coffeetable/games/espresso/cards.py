"""Espresso's cards, as data.

Each player owns a deck of 36 cards: 4 colours x the values 0..8; the back of a
card tells whose it is. A card is one small int, ``owner * 36 + colour * 9 +
value``, so a deck, a stack or a pile is a plain list of ints that copies fast.
"""

from __future__ import annotations

from typing import Any

COLOURS = ("red", "green", "blue", "yellow")
#: The backs that tell decks apart, seat 0 to 5.
BACKS = ("coffee", "wine glass", "ice cream", "pizza", "croissant", "cake")
VALUES_PER_COLOUR = 9
DECK_SIZE = len(COLOURS) * VALUES_PER_COLOUR  # 36
TOP_VALUE = VALUES_PER_COLOUR - 1  # 8 completes a stack
ESPRESSO_SIZE = 9
HELP_SLOTS = 3
MAX_PLAYERS = len(BACKS)
#: The most stacks a centre can hold: every stack starts with a 0 (with Zero,
#: a 1 or a joker, which is a 0), so at most two per colour and deck.
MAX_STACKS = MAX_PLAYERS * len(COLOURS) * 2


def make_card(owner: int, colour: int, value: int) -> int:
    return owner * DECK_SIZE + colour * VALUES_PER_COLOUR + value


def owner_of(card: int) -> int:
    return card // DECK_SIZE


def colour_of(card: int) -> int:
    return card % DECK_SIZE // VALUES_PER_COLOUR


def value_of(card: int) -> int:
    return card % VALUES_PER_COLOUR


def face_of(card: int) -> int:
    """Colour and value without the owner: two cards with one face play alike."""
    return card % DECK_SIZE


def deck(owner: int) -> list[int]:
    """The 36 cards of ``owner``, in a fixed order (shuffle before dealing)."""
    return list(range(owner * DECK_SIZE, (owner + 1) * DECK_SIZE))


def card_json(card: int, stands_for: int | None = None) -> dict[str, Any]:
    """The wire form of a visible card (a fresh dict); ``stands_for`` marks a Zero joker."""
    out = _CARD_JSON[card].copy()  # views are built often: copy a prepared dict
    if stands_for is not None:
        out["as"] = stands_for
    return out


def describe(card: int) -> str:
    """A short name for messages: 'red 5 (seat 2)'."""
    return f"{COLOURS[colour_of(card)]} {value_of(card)} (seat {owner_of(card)})"


_CARD_JSON: list[dict[str, Any]] = [
    {"colour": COLOURS[colour_of(card)], "value": value_of(card), "owner": owner_of(card)}
    for card in range(len(BACKS) * DECK_SIZE)
]
