"""The Café game object: 1 to 4 players, the Master option and the action schema."""

from __future__ import annotations

from typing import Any

from coffeetable.engine import Game, Option, action_schema
from coffeetable.games.cafe.cards import COLOURS, PLANS, SOLO_RANKS
from coffeetable.games.cafe.rules import CafeState

# Squares are named by unbounded coordinates: the company grows in every
# direction from its start card, and a far-off square is refused by the rules.
_INT = {"type": "integer"}
_AREA = {"type": "array", "items": _INT, "minItems": 2, "maxItems": 2}
_COLOUR = {"enum": list(COLOURS)}


ACTION_SCHEMA: dict[str, Any] = {
    "oneOf": [
        action_schema(
            "take", ("card",), card={"enum": sorted(card.id for card in PLANS)}, pay=_COLOUR
        ),
        action_schema(
            "place",
            ("x", "y", "rotation"),
            x=_INT,
            y=_INT,
            rotation={"type": "integer", "minimum": 0, "maximum": 3},
        ),
        action_schema("produce", ("area",), area=_AREA),
        action_schema("dry", ("colour", "area"), colour=_COLOUR, area=_AREA),
        action_schema("roast", ("colour", "area"), colour=_COLOUR, area=_AREA),
        action_schema(
            "deliver",
            ("area",),
            area=_AREA,
            # {café id: {colour: cubes}}; no "to" (or {}) sends every cube to the warehouse.
            # Which cafés a company has is for the rules to say.
            to={
                "type": "object",
                "additionalProperties": {
                    "type": "object",
                    "propertyNames": _COLOUR,
                    "additionalProperties": {"type": "integer", "minimum": 0},
                },
            },
        ),
        action_schema("pass"),
    ]
}


class CafeGame(Game):
    """Café: build a coffee company of overlapping cards; produce, dry, roast and deliver."""

    name = "cafe"
    title = "Café"
    min_players = 1
    max_players = 4
    options = (
        Option(
            "master", -1, "the seat holding the Master token in round 1 (-1: drawn at random)",
            None, -1, 3, seat=True,
        ),
    )  # fmt: skip
    action_schema = ACTION_SCHEMA
    public_views = True  # companies and the display lie open; the deck is a count
    max_length = 4_000
    max_cycles = 300  # greedy: 58 steps per seat at most, measured
    solo_ranks = SOLO_RANKS
    solo_max_score = 240.0  # a generous bound
    rating_groups = (("2", 2, 2), ("3-4", 3, 4))
    tutorial = "tutorial.json"
    #: The tree search only ties greedy here (coffeetable.bots.levels).
    bot_levels = {
        "casual": {"policy": "sloppy", "lapse": 0.2},
        "strong": {"policy": "greedy"},
        "expert": {"policy": "rollout"},
    }

    def new_state(self, players: int, seed: int = 0, **options: Any) -> CafeState:
        self.check_players(players)
        return CafeState(self, players, seed, self.resolve_options(options))
