"""The six effects of Fika's cards: every choice a player has, and applying one.

An effect is optional: "skip" is always offered beside its choices. During the
two lone plays at the end of a round, effects cannot touch the opponent's café
(1 and 6 only on one's own, 2 not at all). A choice is checked by looking it
up among the choices, so what ``apply_effect`` accepts is exactly what
``effect_choices`` offers.
"""

from __future__ import annotations

from itertools import combinations, permutations
from typing import TYPE_CHECKING

from coffeetable.engine import Action, Event, IllegalAction
from coffeetable.games.fika.cards import SPOTS, SUPPLY

if TYPE_CHECKING:
    from coffeetable.games.fika.rules import FikaState


def effect_choices(state: FikaState, seat: int, number: int, spot: int, lone: bool) -> list[Action]:
    """Every way ``seat`` may resolve the effect of the ``number`` just placed at ``spot``."""
    mine = state.cafes[seat]
    cafes = [seat] if lone else [seat, 1 - seat]
    hand = state.hands[seat]
    choices: list[Action] = []
    if number == 1:
        for cafe in cafes:
            for column in range(SPOTS):
                if state.cafes[cafe][column] is not None:
                    choices += [
                        {"type": "effect", "supply": index, "cafe": cafe, "spot": column}
                        for index in range(SUPPLY)
                    ]
    elif number == 2 and not lone:
        choices += [
            {"type": "effect", "spot": column}
            for column in range(SPOTS)
            if mine[column] is not None
        ]
    elif number == 3:
        choices += [
            {"type": "effect", "hand": card, "group": group}
            for card in sorted(hand)
            for group in range(len(state.groups))
        ]
    elif number == 4:
        others = [column for column in range(SPOTS) if column != spot and mine[column] is not None]
        for count in (1, 2):
            for columns in combinations(others, count):
                for cards in permutations(sorted(hand), count):
                    swaps = [[column, card] for column, card in zip(columns, cards, strict=True)]
                    choices.append({"type": "effect", "swaps": swaps})
    elif number == 5:
        taken = {group.column for group in state.groups}
        choices += [
            {"type": "effect", "group": group, "column": column}
            for group in range(len(state.groups))
            for column in range(SPOTS)
            if column not in taken
        ]
    elif number == 6:
        for cafe in cafes:
            spots = state.cafes[cafe]
            choices += [
                {"type": "effect", "cafe": cafe, "spots": [a, b]}
                for a, b in combinations(range(SPOTS), 2)
                if spots[a] is not None or spots[b] is not None
            ]
    return choices


def apply_effect(
    state: FikaState, seat: int, number: int, spot: int, lone: bool, action: Action
) -> Event:
    """Resolve one of ``effect_choices``; IllegalAction (nothing changed) for anything else."""
    if action not in effect_choices(state, seat, number, spot, lone):
        raise IllegalAction(f"that is not a choice of effect {number} here")
    event: Event = {"type": "effect", "seat": seat, "number": number}
    if number == 1:
        index, cafe, column = action["supply"], action["cafe"], action["spot"]
        taken = state.cafes[cafe][column]
        assert taken is not None  # only café cards are offered
        state.cafes[cafe][column] = state.supply[index]
        state.supply[index] = taken
        event.update(supply=index, cafe=cafe, spot=column)
    elif number == 2:
        column = action["spot"]
        mine, theirs = state.cafes[seat], state.cafes[1 - seat]
        mine[column], theirs[column] = theirs[column], mine[column]
        event.update(spot=column)
    elif number == 3:
        card, group = action["hand"], state.groups[action["group"]]
        state.hands[seat].remove(card)
        state.hands[seat].append(group.card)
        group.card, group.known = card, {seat}
        event.update(group=action["group"])  # which hand card went is secret
    elif number == 4:
        hand, mine = state.hands[seat], state.cafes[seat]
        for column, card in action["swaps"]:
            hand.remove(card)
            old = mine[column]
            assert old is not None
            hand.append(old)
            mine[column] = card
        event.update(spots=[column for column, _ in action["swaps"]])
    elif number == 5:
        group = state.groups[action["group"]]
        group.column, group.facing = action["column"], seat
        event.update(group=action["group"], column=action["column"])
    else:
        spots = state.cafes[action["cafe"]]
        a, b = action["spots"]
        spots[a], spots[b] = spots[b], spots[a]
        event.update(cafe=action["cafe"], spots=[a, b])
    return event
