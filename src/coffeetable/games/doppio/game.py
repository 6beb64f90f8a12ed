"""The Espresso Doppio game object: options and action schema."""

from __future__ import annotations

from typing import Any

from coffeetable.engine import Game, Option, action_schema
from coffeetable.games.doppio.cards import BY_ID, COLOURS, KINDS, SOLO_RANKS, SPACES
from coffeetable.games.doppio.rules import DoppioState

_SPACE = {"type": "integer", "minimum": 0, "maximum": SPACES - 1}
_KINDS = {
    "type": "array",
    "items": {"enum": list(KINDS)},
    "minItems": 1,
    "maxItems": 3,
    "uniqueItems": True,
}


ACTION_SCHEMA: dict[str, Any] = {
    "oneOf": [
        action_schema(
            "place", kind={"enum": list(KINDS)}, colour={"enum": list(COLOURS)}, space=_SPACE
        ),
        action_schema("move", **{"from": _SPACE, "to": _SPACE, "kinds": _KINDS}),
        action_schema(
            "exchange", **{"from": _SPACE, "to": _SPACE, "kinds": _KINDS, "with": _KINDS}
        ),
        action_schema(
            "score",
            ("card",),  # "turned" defaults to false: the card read upright
            card={"type": "integer", "minimum": min(BY_ID), "maximum": max(BY_ID)},
            turned={"type": "boolean"},
        ),
        action_schema("end_turn"),
        action_schema("undo"),
    ]
}


class DoppioGame(Game):
    """Espresso Doppio: cups, saucers and spoons on a path of five spaces; 2 players or solo."""

    name = "doppio"
    title = "Espresso Doppio"
    min_players = 1
    max_players = 2
    options = (
        Option("master", False, "Espresso Master: score before and between actions too"),
        Option(
            "first_player",
            -1,
            "the seat that places first (-1: drawn at random)",
            None,
            -1,
            1,
            seat=True,
        ),
        # Our ruling (games/doppio/RULES.md); off: the rulebook as printed, as tables and logs
        # made before the ruling were played (migration 0005 turns it off for them).
        Option("reserve_ends", True, "two players: the match ends when the bean reserve is empty"),
        # Our ruling too (games/doppio/RULES.md); off for tables stored before it (migration 0009).
        Option(
            "repetition_ends",
            True,
            "two players: the match ends when the same whole position begins a turn a third time",
        ),
    )
    action_schema = ACTION_SCHEMA
    public_views = True  # an open board: nothing is hidden
    max_length = 100_000
    #: Steps per seat, most seen: greedy 45, random 1,038 (random play rarely scores).
    max_cycles = 2_000
    zero_sum = True
    solo_ranks = SOLO_RANKS
    solo_max_score = 60.0  # the bean reserve
    rating_groups = (("2", 2, 2),)
    #: 100 iterations play no better than strong's 25 here (coffeetable.bots.levels).
    bot_levels = {"expert": {"policy": "ismcts", "iterations": 400}}
    undo_action = {"type": "undo"}
    tutorial = "tutorial.json"

    def new_state(self, players: int, seed: int = 0, **options: Any) -> DoppioState:
        self.check_players(players)
        return DoppioState(self, players, seed, self.resolve_options(options))
