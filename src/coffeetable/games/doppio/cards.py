"""Espresso Doppio's pieces and its 16 objective cards, as data.

A card is a pattern kind (matched by one small function in patterns.py), the
parameters of that pattern, its beans, and a readable description in the four
languages of our rulebooks. A printed card can replace one here without
touching the rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

KINDS = ("cup", "saucer", "spoon")
COLOURS = ("brown", "white", "black")
SPACES = 5
CARDS_PER_PLAYER = 8
FACE_UP = 3
BEAN_RESERVE = 60
SOLO_START_BEANS = 3
#: The set-up places the saucers, then the cups, then the spoons.
SETUP_ORDER = ("saucer", "cup", "spoon")
#: Solo ranking: (fewest beans for the rank, its id), best last.
SOLO_RANKS = (
    (0, "tea"),
    (7, "filter"),
    (11, "french_press"),
    (14, "espresso_machine"),
    (16, "barista"),
)


@dataclass(frozen=True)
class Card:
    """One objective card."""

    id: int
    pattern: str
    beans: int
    params: dict[str, Any] = field(default_factory=dict)
    #: language code -> what the card asks for
    text: dict[str, str] = field(default_factory=dict)


def _card(
    id: int, pattern: str, beans: int, en: str, fr: str, de: str, es: str, **params: Any
) -> Card:
    return Card(id, pattern, beans, params, {"en": en, "fr": fr, "de": de, "es": es})


CARDS: tuple[Card, ...] = (
    _card(
        1,
        "colour_sequence",
        1,
        "Three adjacent elements of one type, coloured brown-white-black",
        "Trois éléments adjacents d'un même type, de couleurs marron-blanc-noir",
        "Drei benachbarte Teile einer Art in Braun-Weiß-Schwarz",
        "Tres elementos adyacentes de un mismo tipo, en marrón-blanco-negro",
        colours=("brown", "white", "black"),
    ),
    _card(
        2,
        "colour_sequence",
        1,
        "Three adjacent elements of one type, coloured white-black-brown",
        "Trois éléments adjacents d'un même type, de couleurs blanc-noir-marron",
        "Drei benachbarte Teile einer Art in Weiß-Schwarz-Braun",
        "Tres elementos adyacentes de un mismo tipo, en blanco-negro-marrón",
        colours=("white", "black", "brown"),
    ),
    _card(
        3,
        "colour_sequence",
        1,
        "Three adjacent elements of one type, coloured black-brown-white",
        "Trois éléments adjacents d'un même type, de couleurs noir-marron-blanc",
        "Drei benachbarte Teile einer Art in Schwarz-Braun-Weiß",
        "Tres elementos adyacentes de un mismo tipo, en negro-marrón-blanco",
        colours=("black", "brown", "white"),
    ),
    _card(
        4,
        "complete_set",
        3,
        "The brown cup, saucer and spoon on three adjacent spaces, in that order",
        "La tasse, la soucoupe et la cuillère marron sur trois cases adjacentes, dans cet ordre",
        "Braune Tasse, Untertasse und Löffel auf drei benachbarten Feldern, in dieser Reihenfolge",
        "La taza, el platillo y la cucharilla marrones en tres casillas seguidas, en ese orden",
        colour="brown",
    ),
    _card(
        5,
        "complete_set",
        3,
        "The black cup, saucer and spoon on three adjacent spaces, in that order",
        "La tasse, la soucoupe et la cuillère noires sur trois cases adjacentes, dans cet ordre",
        "Schwarze Tasse, Untertasse und Löffel auf drei benachbarten Feldern, in dieser Reihenfolge",
        "La taza, el platillo y la cucharilla negros en tres casillas seguidas, en ese orden",
        colour="black",
    ),
    _card(
        6,
        "complete_set",
        3,
        "The white cup, saucer and spoon on three adjacent spaces, in that order",
        "La tasse, la soucoupe et la cuillère blanches sur trois cases adjacentes, dans cet ordre",
        "Weiße Tasse, Untertasse und Löffel auf drei benachbarten Feldern, in dieser Reihenfolge",
        "La taza, el platillo y la cucharilla blancos en tres casillas seguidas, en ese orden",
        colour="white",
    ),
    _card(
        7,
        "alone",
        2,
        "A cup alone on its space",
        "Une tasse seule sur sa case",
        "Eine Tasse allein auf ihrem Feld",
        "Una taza sola en su casilla",
        kind="cup",
    ),
    _card(
        8,
        "alone",
        2,
        "A saucer alone on its space",
        "Une soucoupe seule sur sa case",
        "Eine Untertasse allein auf ihrem Feld",
        "Un platillo solo en su casilla",
        kind="saucer",
    ),
    _card(
        9,
        "alone",
        2,
        "A spoon alone on its space",
        "Une cuillère seule sur sa case",
        "Ein Löffel allein auf seinem Feld",
        "Una cucharilla sola en su casilla",
        kind="spoon",
    ),
    _card(
        10,
        "exact_space",
        3,
        "One space with exactly a white cup, a brown saucer and a black spoon",
        "Une case avec exactement une tasse blanche, une soucoupe marron et une cuillère noire",
        "Ein Feld mit genau weißer Tasse, brauner Untertasse und schwarzem Löffel",
        "Una casilla con exactamente taza blanca, platillo marrón y cucharilla negra",
        cup="white",
        saucer="brown",
        spoon="black",
    ),
    _card(
        11,
        "exact_space",
        3,
        "One space with a brown cup, a brown saucer and a spoon of any colour",
        "Une case avec une tasse marron, une soucoupe marron et une cuillère de toute couleur",
        "Ein Feld mit brauner Tasse, brauner Untertasse und einem Löffel beliebiger Farbe",
        "Una casilla con taza marrón, platillo marrón y una cucharilla de cualquier color",
        cup="brown",
        saucer="brown",
        spoon="any",
    ),
    _card(
        12,
        "pairs",
        1,
        "Two adjacent spaces, each with a cup and a saucer (any colours)",
        "Deux cases adjacentes, chacune avec une tasse et une soucoupe (toutes couleurs)",
        "Zwei benachbarte Felder, jedes mit Tasse und Untertasse (beliebige Farben)",
        "Dos casillas seguidas, cada una con taza y platillo (cualquier color)",
    ),
    _card(
        13,
        "crossed_pairs",
        2,
        "White cup on black saucer beside black cup on white saucer, no spoons",
        "Tasse blanche sur soucoupe noire à côté de tasse noire sur soucoupe blanche, sans cuillère",
        "Weiße Tasse auf schwarzer Untertasse neben schwarzer Tasse auf weißer, ohne Löffel",
        "Taza blanca sobre platillo negro junto a taza negra sobre platillo blanco, sin cucharillas",
    ),
    _card(
        14,
        "kind_sequence",
        2,
        "Three adjacent spoons coloured white-brown-black",
        "Trois cuillères adjacentes de couleurs blanc-marron-noir",
        "Drei benachbarte Löffel in Weiß-Braun-Schwarz",
        "Tres cucharillas seguidas en blanco-marrón-negro",
        kind="spoon",
        colours=("white", "brown", "black"),
    ),
    _card(
        15,
        "one_colour",
        1,
        "Three adjacent spaces each holding an element of one same colour",
        "Trois cases adjacentes contenant chacune un élément d'une même couleur",
        "Drei benachbarte Felder mit je einem Teil derselben Farbe",
        "Tres casillas seguidas con un elemento del mismo color cada una",
    ),
    _card(
        16,
        "kind_sequence",
        2,
        "Three adjacent cups coloured white-brown-black",
        "Trois tasses adjacentes de couleurs blanc-marron-noir",
        "Drei benachbarte Tassen in Weiß-Braun-Schwarz",
        "Tres tazas seguidas en blanco-marrón-negro",
        kind="cup",
        colours=("white", "brown", "black"),
    ),
)

BY_ID = {card.id: card for card in CARDS}


def solo_rank(beans: int) -> str:
    """The solo ranking's id for a final bean count."""
    rank = SOLO_RANKS[0][1]
    for least, name in SOLO_RANKS:
        if beans >= least:
            rank = name
    return rank
