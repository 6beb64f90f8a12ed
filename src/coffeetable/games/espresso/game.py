"""The Espresso game object: its options and the schema of its actions."""

from __future__ import annotations

from typing import Any

from coffeetable.engine import Game, Option, action_schema
from coffeetable.games.espresso.actions import SOURCES
from coffeetable.games.espresso.cards import HELP_SLOTS, MAX_PLAYERS, MAX_STACKS
from coffeetable.games.espresso.rules import EspressoState

_SOURCE = {"enum": list(SOURCES)}
_SLOT = {"type": "integer", "minimum": 0, "maximum": HELP_SLOTS - 1}
_SEAT = {"type": "integer", "minimum": 0, "maximum": MAX_PLAYERS - 1}
_TARGET = {
    "oneOf": [{"type": "integer", "minimum": 0, "maximum": MAX_STACKS - 1}, {"const": "new"}]
}
_FOLLOW = {
    "type": "object",
    "properties": {"source": _SOURCE, "slot": _SLOT, "owner": _SEAT},
    "required": ["source"],
    "additionalProperties": False,
}

# "slot" (a help card's) and "owner" (another seat's card, with Chaos) are
# optional: whether one is needed depends on the source and the variant, which
# the rules check.
ACTION_SCHEMA: dict[str, Any] = {
    "oneOf": [
        action_schema("ready"),
        action_schema(
            "play", ("source", "target"), source=_SOURCE, slot=_SLOT, owner=_SEAT, target=_TARGET
        ),
        action_schema(
            "joker",
            ("source", "follow", "target"),
            source=_SOURCE,
            slot=_SLOT,
            owner=_SEAT,
            follow=_FOLLOW,
            target=_TARGET,
        ),
        action_schema("flip", (), count={"type": "integer", "enum": [2, 3]}),
        action_schema("recycle"),
    ]
}
#: The table's own action: a live table's idle rule ends a stalled round.
TABLE_ACTION_SCHEMA: dict[str, Any] = {"oneOf": [action_schema("idle")]}


class EspressoGame(Game):
    """Espresso: a real-time card race for 2-6 players, played in rounds to a target score."""

    name = "espresso"
    title = "Espresso"
    min_players = 2
    max_players = MAX_PLAYERS
    realtime = True
    public_views = True  # hands are counts; help cards lie face up
    options = (
        Option("zero", False, "Zero: stacks may start with a 1, and every 0 is a joker"),
        Option("chaos", False, "Chaos: take another player's face-up card and play it"),
        Option(
            "target",
            100,
            "the match ends after the round in which someone reaches this",
            minimum=1,
            maximum=1000,
        ),
        # The server reads a falsy value as "no idle rule", but 0 is refused: the
        # simulator would read it as "idle at once". A second is the least a live
        # table (and its tests) use; an hour is more than any stalled round needs.
        Option(
            "idle_seconds",
            60,
            "live tables: a round with no action for this long ends with no FINITO",
            minimum=1,
            maximum=3600,
        ),
    )
    action_schema = ACTION_SCHEMA
    table_action_schema = TABLE_ACTION_SCHEMA
    default_players = 4
    bench_variants = {
        "normalo": {},
        "zero": {"zero": True},
        "chaos": {"chaos": True},
        "zero+chaos": {"zero": True, "chaos": True},
    }
    #: Rounds to 10 points rather than 100: one or two rounds.
    quick_options = {"target": 10}
    tutorial = "tutorial.json"
    #: Steps are ticks, every seat acting each one: four random seats took 572 at most.
    max_cycles = 10_000
    rating_groups = (("2", 2, 2), ("3-4", 3, 4), ("5-6", 5, 6))

    def new_state(self, players: int, seed: int = 0, **options: Any) -> EspressoState:
        self.check_players(players)
        return EspressoState(self, players, seed, self.resolve_options(options))
