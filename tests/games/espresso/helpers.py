"""Hand-made Espresso positions for rules tests."""

from __future__ import annotations

import copy
import json
from typing import Any

from coffeetable import games
from coffeetable.games.espresso.cards import COLOURS, make_card
from coffeetable.games.espresso.rules import Area, EspressoState


def card(owner: int, colour: str, value: int) -> int:
    return make_card(owner, COLOURS.index(colour), value)


def new_match(players: int = 2, seed: int = 0, **options: Any) -> EspressoState:
    state = games.get("espresso").new_state(players=players, seed=seed, **options)
    assert isinstance(state, EspressoState)
    return state


def started(players: int = 2, seed: int = 0, **options: Any) -> EspressoState:
    """A match whose first round is under way (every seat ready)."""
    state = new_match(players, seed, **options)
    for seat in range(players):
        state.apply(seat, {"type": "ready"})
    return state


def set_area(
    state: EspressoState,
    seat: int,
    espresso: list[int],
    help: list[int | None],
    hand: list[int] | None = None,
    pile: list[int] | None = None,
) -> None:
    """Give ``seat`` exactly these cards; the rest of its deck goes to the hand deck's bottom.

    Keeping all 36 cards somewhere keeps the conservation check meaningful.
    """
    placed = set(espresso) | {c for c in help if c is not None} | set(pile or [])
    placed |= set(hand or [])
    for stack in state.centre:
        placed |= set(stack)
    rest = [c for c in range(seat * 36, seat * 36 + 36) if c not in placed]
    area = state.areas[seat]
    area.espresso = list(espresso)
    area.help = list(help)
    area.hand = rest + list(hand or []) if hand is not None else rest
    area.pile = list(pile or [])


def set_centre(state: EspressoState, stacks: list[list[int]]) -> None:
    """Put these stacks in the centre, taking their cards out of the owners' hand decks."""
    used = {c for stack in stacks for c in stack}
    for area in state.areas:
        area.hand = [c for c in area.hand if c not in used]
    state.centre = [list(stack) for stack in stacks]
    state.reindex_centre()


def fingerprint(state: EspressoState) -> str:
    """Everything a state holds, as text: equal fingerprints mean equal states."""
    data = {
        "phase": state.phase,
        "round": state.round_number,
        "totals": state.totals,
        "centre": state.centre,
        "wanted": state.wanted,
        "areas": [copy.deepcopy(vars(area)) for area in state.areas],
        "last_round": state.last_round,
        "winners": state.winners,
        "rng": state.rng.getstate(),
    }
    return json.dumps(data, sort_keys=True, default=str)


def all_cards(state: EspressoState) -> list[int]:
    cards = [c for stack in state.centre for c in stack]
    for area in state.areas:
        cards += area.cards()
    return sorted(cards)


def area(state: EspressoState, seat: int) -> Area:
    return state.areas[seat]
