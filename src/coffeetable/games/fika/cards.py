"""Fika's 18 café cards, as data.

A card is one int 0..17: ``colour * 6 + number - 1``. Cards of one number share
their effect and objective; only the colour differs. The texts are in the four
languages of our rulebooks.
"""

from __future__ import annotations

from typing import Any

COLOURS = ("brown", "green", "pink")
NUMBERS = (1, 2, 3, 4, 5, 6)
CARD_COUNT = len(COLOURS) * len(NUMBERS)  # 18
SPOTS = 5  # spots in a café, one per street card
SUPPLY = 4
HAND = 6
GROUPS = 2
TIPS_TO_WIN = 2

#: Coins for each number's objective.
COINS = {1: 5, 2: 6, 3: 7, 4: 7, 5: 8, 6: 9}

EFFECTS: dict[int, dict[str, str]] = {
    1: {
        "en": "Swap a supply card with a card of your café or your opponent's",
        "fr": "Échangez une carte de la réserve avec une carte de votre café ou de celui de l'adversaire",
        "de": "Tausche eine Vorratskarte mit einer Karte deines oder des gegnerischen Cafés",
        "es": "Cambia una carta de la reserva por una de tu café o del café rival",
    },
    2: {
        "en": "Swap one of your café cards with the opponent's card opposite",
        "fr": "Échangez une carte de votre café avec la carte adverse d'en face",
        "de": "Tausche eine deiner Café-Karten mit der gegenüberliegenden Karte des Gegners",
        "es": "Cambia una carta de tu café por la carta rival de enfrente",
    },
    3: {
        "en": "Swap a hand card with a customer group, beside or on the street",
        "fr": "Échangez une carte de votre main avec un groupe de clients, à côté ou sur la rue",
        "de": "Tausche eine Handkarte mit einer Gruppe an oder auf der Straße",
        "es": "Cambia una carta de tu mano por un grupo de clientes, junto a la calle o en ella",
    },
    4: {
        "en": "Swap 1 or 2 other cards of your café with cards from your hand",
        "fr": "Échangez 1 ou 2 autres cartes de votre café avec des cartes de votre main",
        "de": "Tausche 1 oder 2 andere Karten deines Cafés mit Handkarten",
        "es": "Cambia 1 o 2 cartas más de tu café por cartas de tu mano",
    },
    5: {
        "en": "Move a group onto an empty street card, its 3-cup half towards you",
        "fr": "Déplacez un groupe sur une carte rue libre, la moitié à 3 tasses vers vous",
        "de": "Lege eine Gruppe auf eine freie Straßenkarte, die 3-Tassen-Hälfte zu dir",
        "es": "Mueve un grupo a una carta de calle libre, con la mitad de 3 tazas hacia ti",
    },
    6: {
        "en": "Swap two spots within one café, yours or your opponent's",
        "fr": "Échangez deux emplacements d'un même café, le vôtre ou celui de l'adversaire",
        "de": "Vertausche zwei Plätze in einem Café, deinem oder dem des Gegners",
        "es": "Intercambia dos sitios de un mismo café, el tuyo o el del rival",
    },
}

OBJECTIVES: dict[int, dict[str, str]] = {
    1: {
        "en": "5 coins: two adjacent cards with the same number",
        "fr": "5 pièces : deux cartes adjacentes de même nombre",
        "de": "5 Münzen: zwei benachbarte Karten mit gleicher Zahl",
        "es": "5 monedas: dos cartas adyacentes con el mismo número",
    },
    2: {
        "en": "6 coins: a 1 and a 6 on the two end spots",
        "fr": "6 pièces : un 1 et un 6 aux deux extrémités",
        "de": "6 Münzen: eine 1 und eine 6 auf den äußeren Plätzen",
        "es": "6 monedas: un 1 y un 6 en los dos extremos",
    },
    3: {
        "en": "7 coins: a group on the street card in front of this card",
        "fr": "7 pièces : un groupe sur la carte rue en face de cette carte",
        "de": "7 Münzen: eine Gruppe auf der Straßenkarte vor dieser Karte",
        "es": "7 monedas: un grupo en la carta de calle frente a esta carta",
    },
    4: {
        "en": "7 coins: three adjacent cards of one colour",
        "fr": "7 pièces : trois cartes adjacentes d'une même couleur",
        "de": "7 Münzen: drei benachbarte Karten derselben Farbe",
        "es": "7 monedas: tres cartas adyacentes del mismo color",
    },
    5: {
        "en": "8 coins: three adjacent cards with consecutive numbers",
        "fr": "8 pièces : trois cartes adjacentes aux nombres consécutifs",
        "de": "8 Münzen: drei benachbarte Karten mit aufeinanderfolgenden Zahlen",
        "es": "8 monedas: tres cartas adyacentes con números consecutivos",
    },
    6: {
        "en": "9 coins: four cards of one colour anywhere in your café",
        "fr": "9 pièces : quatre cartes d'une même couleur dans votre café",
        "de": "9 Münzen: vier Karten derselben Farbe irgendwo in deinem Café",
        "es": "9 monedas: cuatro cartas del mismo color en tu café",
    },
}


def make_card(colour: int, number: int) -> int:
    return colour * len(NUMBERS) + number - 1


def colour_of(card: int) -> int:
    return card // len(NUMBERS)


def number_of(card: int) -> int:
    return card % len(NUMBERS) + 1


def card_json(card: int) -> dict[str, Any]:
    return {"id": card, "colour": COLOURS[colour_of(card)], "number": number_of(card)}
