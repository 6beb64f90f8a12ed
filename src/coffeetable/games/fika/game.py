"""The Fika game object: two players, no options beyond the rules."""

from __future__ import annotations

from typing import Any

from coffeetable.engine import Game, action_schema
from coffeetable.games.fika.cards import CARD_COUNT, COLOURS, GROUPS, SPOTS, SUPPLY
from coffeetable.games.fika.rules import FikaState

_SPOT = {"type": "integer", "minimum": 0, "maximum": SPOTS - 1}
_CARD = {"type": "integer", "minimum": 0, "maximum": CARD_COUNT - 1}
_SEAT = {"type": "integer", "minimum": 0, "maximum": 1}


ACTION_SCHEMA: dict[str, Any] = {
    "oneOf": [
        action_schema("colour", ("colour",), colour={"enum": list(COLOURS)}),
        action_schema("pick", ("card",), card=_CARD),
        action_schema("stop"),
        action_schema("place", ("spot",), spot=_SPOT),
        action_schema("skip"),
        action_schema(
            "effect",
            (),  # the fields depend on the card's number
            supply={"type": "integer", "minimum": 0, "maximum": SUPPLY - 1},
            cafe=_SEAT,
            spot=_SPOT,
            hand=_CARD,
            group={"type": "integer", "minimum": 0, "maximum": GROUPS - 1},
            column=_SPOT,
            spots={
                "type": "array",
                "items": _SPOT,
                "minItems": 2,
                "maxItems": 2,
                "uniqueItems": True,
            },
            swaps={
                "type": "array",
                "minItems": 1,
                "maxItems": 2,
                # [spot, hand card]: exactly two items
                "items": {
                    "type": "array",
                    "prefixItems": [_SPOT, _CARD],
                    "minItems": 2,
                    "items": False,
                },
            },
        ),
    ]
}


class FikaGame(Game):
    """Fika: a 2-player café card game of simultaneous secret picks, effects and groups."""

    name = "fika"
    title = "Fika"
    min_players = 2
    max_players = 2
    action_schema = ACTION_SCHEMA
    max_length = 2_000
    max_cycles = 200  # 48 steps per seat at most, measured
    simultaneous = True  # both players pick a card in secret, then reveal
    zero_sum = True
    rating_groups = (("2", 2, 2),)
    tutorial = "tutorial.json"

    def new_state(self, players: int = 2, seed: int = 0, **options: Any) -> FikaState:
        self.check_players(players)
        return FikaState(self, players, seed, self.resolve_options(options))
