"""The Espresso Doppio game object: options and action schema."""

from __future__ import annotations

from typing import Any

from coffeetable.engine import Game, Option
from coffeetable.games.doppio.cards import COLOURS, KINDS
from coffeetable.games.doppio.rules import DoppioState

_SPACE = {"type": "integer", "minimum": 0, "maximum": 4}
_KINDS = {
    "type": "array",
    "items": {"enum": list(KINDS)},
    "minItems": 1,
    "maxItems": 3,
    "uniqueItems": True,
}


def _action(action_type: str, **properties: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"type": {"const": action_type}, **properties},
        "required": ["type", *properties],
        "additionalProperties": False,
    }


ACTION_SCHEMA: dict[str, Any] = {
    "oneOf": [
        _action("place", kind={"enum": list(KINDS)}, colour={"enum": list(COLOURS)}, space=_SPACE),
        _action("move", **{"from": _SPACE, "to": _SPACE, "kinds": _KINDS}),
        _action("exchange", **{"from": _SPACE, "to": _SPACE, "kinds": _KINDS, "with": _KINDS}),
        _action(
            "score",
            card={"type": "integer", "minimum": 1, "maximum": 16},
            turned={"type": "boolean"},
        ),
        _action("end_turn"),
        _action("undo"),
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
        Option("first_player", -1, "the seat that places first (-1: drawn at random)", None, -1, 1),
    )
    action_schema = ACTION_SCHEMA

    def new_state(self, players: int, seed: int = 0, **options: Any) -> DoppioState:
        self.check_players(players)
        return DoppioState(self, players, seed, self.resolve_options(options))
