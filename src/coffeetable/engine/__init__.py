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
)
from coffeetable.engine.replay import replay, replay_log
from coffeetable.engine.schema import ActionChecker, SchemaError

__all__ = [
    "Action",
    "ActionChecker",
    "Event",
    "Game",
    "IllegalAction",
    "MatchLog",
    "Option",
    "SchemaError",
    "State",
    "View",
    "action_schema",
    "replay",
    "replay_log",
]
