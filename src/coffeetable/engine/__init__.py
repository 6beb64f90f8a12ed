"""The game-agnostic engine: the contract every game follows, and replay.

Pure: nothing here does I/O, uses a clock or imports a web framework.
"""

from coffeetable.engine.contract import (
    Action,
    Event,
    Game,
    IllegalAction,
    MatchLog,
    Option,
    State,
    View,
    action_schema,
    check_fields,
)
from coffeetable.engine.replay import replay, replay_log

__all__ = [
    "Action",
    "Event",
    "Game",
    "IllegalAction",
    "MatchLog",
    "Option",
    "State",
    "View",
    "action_schema",
    "check_fields",
    "replay",
    "replay_log",
]
