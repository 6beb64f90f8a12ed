"""Hand-made Espresso positions and random ones, for the bot tests."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from coffeetable import games
from coffeetable.games.espresso.cards import COLOURS, TOP_VALUE, face_of, make_card, value_of
from coffeetable.games.espresso.rules import EspressoState

GAME = games.get("espresso")
VARIANTS = [{}, {"zero": True}, {"chaos": True}, {"zero": True, "chaos": True}]


def card(owner: int, colour: str, value: int) -> int:
    return make_card(owner, COLOURS.index(colour), value)


def table(
    players: int = 2,
    areas: Mapping[int, Mapping[str, Any]] | None = None,
    centre: Iterable[Sequence[int]] = (),
    **options: Any,
) -> EspressoState:
    """A position in play: each area's espresso/help/hand/pile as given (bottom first)."""
    state = GAME.new_state(players=players, seed=0, **options)
    state.phase = "play"
    for area in state.areas:
        area.ready = True
    for seat, spec in (areas or {}).items():
        area = state.areas[seat]
        area.espresso = list(spec.get("espresso", area.espresso))
        area.help = list(spec.get("help", area.help))
        area.hand = list(spec.get("hand", area.hand))
        area.pile = list(spec.get("pile", area.pile))
        area.stuck = bool(spec.get("stuck", False))
    state.centre = [list(stack) for stack in centre]
    state.wanted = {}
    for index, stack in enumerate(state.centre):
        if value_of(stack[-1]) != TOP_VALUE:
            state.wanted.setdefault(face_of(stack[-1]) + 1, []).append(index)
    return state


def random_state(seed: int, options: Mapping[str, Any], players: int, steps: int) -> EspressoState:
    """A match after ``steps`` random actions (ready checks included)."""
    rng = random.Random(seed)
    state = GAME.new_state(players=players, seed=seed, **options)
    for _ in range(steps):
        if state.is_over:
            break
        actors = state.actors()
        rng.shuffle(actors)
        for seat in actors:
            legal = state.legal_actions(seat)
            if legal:
                state.apply(seat, rng.choice(legal))
                break
        else:
            state.apply(None, {"type": "idle"})
    return state
