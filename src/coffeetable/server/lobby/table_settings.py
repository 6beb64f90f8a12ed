"""Table settings: what a table has beside its game's options (``bot_speed``, the clock,
the reconnection grace), their bounds and defaults, and how a request's options split."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from coffeetable.engine import Game
from coffeetable.server.tables.stand_ins import grace_default

#: Table-level settings (not game options): name -> (default, minimum, maximum);
#: ``_GAME_DEFAULTS`` may give a setting a default that depends on the game.
TABLE_SETTINGS: dict[str, tuple[float, float, float]] = {
    "bot_speed": (1.0, 0.1, 10_000.0),
    "clock_minutes": (0.0, 0.0, 600.0),
    # Tables that wait for you (``tables/turn_days.py``): days for each move, and a reserve.
    "days_per_move": (0.0, 0.0, 7.0),
    "reserve_days": (0.0, 0.0, 14.0),
    "grace_seconds": (60.0, 0.0, 3600.0),
    # Who may join: players who finish at least this share of their games, a percent.
    "min_reliability": (0.0, 0.0, 100.0),
    # Real-time games: a program's action waits this long after the state it answers;
    # below the default only at a table of programs alone (``tables/reaction.py``).
    "min_reaction": (0.3, 0.0, 2.0),
}
#: Defaults that depend on the game: setting -> function of the game.
_GAME_DEFAULTS: dict[str, Callable[[Game], float]] = {"grace_seconds": grace_default}
#: What each setting does, for ``GET /api/games``.
_SETTING_HELP = {
    "bot_speed": "bots react (and the countdown runs) this many times faster",
    "clock_minutes": "turn-based games: each seat's thinking time in minutes (0: no clock);"
    " a seat out of time is played by the greedy bot for the rest of the match",
    "days_per_move": "turn-based games: each move within this many days (0: a live table;"
    " else 0.5, 1, 2, 3 or 7); the table waits for its players with nobody connected, and"
    " a player out of time may be expelled by the others (instead of clock_minutes)",
    "reserve_days": "with days_per_move: each player's reserve for the match, in days, that"
    " pays for moves that take longer",
    "min_reliability": "only players who finished at least this percent of their last 50"
    " started matches (without leaving or being expelled) may join; 0: anyone",
    "grace_seconds": "seconds a disconnected player keeps their seat to themselves; then a"
    " stand-in bot plays for them until they come back",
    "min_reaction": "real-time games: a program's (bot account's) action counts no sooner than"
    " this many seconds after the state it answers; below 0.3 only at a table of programs"
    " alone (no person sits, no seat open)",
}
#: Settings that only turn-based games have, and those only real-time games have.
_TURN_BASED_ONLY = {"clock_minutes", "days_per_move", "reserve_days"}
#: Settings that take only some values in their range.
_CHOICES = {"days_per_move": (0.0, 0.5, 1.0, 2.0, 3.0, 7.0)}
_REALTIME_ONLY = {"min_reaction"}


def _settings_for(game: Game) -> list[str]:
    """The table settings that apply to ``game`` (the clock: turn-based games only; the
    programs' reaction: real-time games only)."""
    left_out = _TURN_BASED_ONLY if game.realtime else _REALTIME_ONLY
    return [name for name in TABLE_SETTINGS if name not in left_out]


def setting_default(game: Game, name: str) -> float:
    """The default of table setting ``name`` at ``game``."""
    by_game = _GAME_DEFAULTS.get(name)
    return TABLE_SETTINGS[name][0] if by_game is None else by_game(game)


def table_settings_json(game: Game) -> list[dict[str, Any]]:
    """The table-level settings of ``game`` as ``GET /api/games`` lists them."""
    return [
        {
            "name": name,
            "default": setting_default(game, name),
            "type": "float",
            "minimum": TABLE_SETTINGS[name][1],
            "maximum": TABLE_SETTINGS[name][2],
            "description": _SETTING_HELP[name],
        }
        for name in _settings_for(game)
    ]


def split_options(game: Game, given: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Separate table settings from game options; check and complete both (ValueError
    says what is wrong)."""
    settings: dict[str, Any] = {}
    options = dict(given)
    for name in _settings_for(game):
        _, low, high = TABLE_SETTINGS[name]
        value = options.pop(name, setting_default(game, name))
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"{name} takes a number, not {value!r}")
        if not low <= value <= high:
            raise ValueError(f"{name} is between {low:g} and {high:g}")
        choices = _CHOICES.get(name)
        if choices is not None and value not in choices:
            raise ValueError(f"{name} is one of {', '.join(f'{c:g}' for c in choices)}")
        settings[name] = value
    _check_days(settings)
    return game.resolve_options(options), settings


def _check_days(settings: Mapping[str, Any]) -> None:
    """A table has live clocks or days per move, not both; a reserve needs days."""
    days = settings.get("days_per_move", 0)
    if days and settings.get("clock_minutes", 0):
        raise ValueError("choose clock_minutes (a live table) or days_per_move, not both")
    if settings.get("reserve_days", 0) and not days:
        raise ValueError("reserve_days needs days_per_move")
