"""The Espresso game object: its options and the schema of its actions."""

from __future__ import annotations

from typing import Any

from coffeetable.engine import Game, Option
from coffeetable.games.espresso.rules import EspressoState

_SOURCE = {"enum": ["espresso", "help", "pile"]}
_SLOT = {"type": "integer", "minimum": 0, "maximum": 2}
_SEAT = {"type": "integer", "minimum": 0, "maximum": 5}
_TARGET = {"oneOf": [{"type": "integer", "minimum": 0}, {"const": "new"}]}
_FOLLOW = {
    "type": "object",
    "properties": {"source": _SOURCE, "slot": _SLOT, "owner": _SEAT},
    "required": ["source"],
    "additionalProperties": False,
}

ACTION_SCHEMA: dict[str, Any] = {
    "oneOf": [
        {
            "type": "object",
            "properties": {"type": {"const": "ready"}},
            "required": ["type"],
            "additionalProperties": False,
        },
        {
            "type": "object",
            "properties": {
                "type": {"const": "play"},
                "source": _SOURCE,
                "slot": _SLOT,
                "owner": _SEAT,
                "target": _TARGET,
            },
            "required": ["type", "source", "target"],
            "additionalProperties": False,
        },
        {
            "type": "object",
            "properties": {
                "type": {"const": "joker"},
                "source": _SOURCE,
                "slot": _SLOT,
                "owner": _SEAT,
                "follow": _FOLLOW,
                "target": _TARGET,
            },
            "required": ["type", "source", "follow", "target"],
            "additionalProperties": False,
        },
        {
            "type": "object",
            "properties": {"type": {"const": "flip"}, "count": {"enum": [2, 3]}},
            "required": ["type"],
            "additionalProperties": False,
        },
        {
            "type": "object",
            "properties": {"type": {"const": "recycle"}},
            "required": ["type"],
            "additionalProperties": False,
        },
    ]
}


class EspressoGame(Game):
    """Espresso: a real-time card race for 2-6 players, played in rounds to a target score."""

    name = "espresso"
    title = "Espresso"
    min_players = 2
    max_players = 6
    realtime = True
    options = (
        Option("zero", False, "Zero: stacks may start with a 1, and every 0 is a joker"),
        Option("chaos", False, "Chaos: take another player's face-up card and play it"),
        Option(
            "target", 100, "the match ends after the round in which someone reaches this", None, 1
        ),
        Option(
            "idle_seconds",
            60,
            "live tables: a round with no action for this long ends with no FINITO",
            None,
            1,
        ),
    )
    action_schema = ACTION_SCHEMA

    def new_state(self, players: int, seed: int = 0, **options: Any) -> EspressoState:
        self.check_players(players)
        return EspressoState(self, players, seed, self.resolve_options(options))
