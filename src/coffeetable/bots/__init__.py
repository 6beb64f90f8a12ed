"""Bots for every game: ``make(name, game)`` builds one, ``available(game)`` lists them.

- ``random``: any legal action.
- ``greedy``: the best immediate action by the game's own heuristic
  (``coffeetable.games.<name>.heuristics``), ties broken by the rng.
- ``beginner``, ``casual``, ``strong``, ``expert``: the levels for people of the
  turn-based games, weakest first (``coffeetable.bots.levels``; ``levels(game)``).
- ``easy``, ``medium``, ``hard``: real-time levels (Espresso): the greedy
  policy with a human-like reaction time drawn per action, and (easy, medium)
  a chance to overlook a play; numbers in ``coffeetable.bots.reaction``.

A bot's ``choose(state, seat, rng)`` reads only what ``seat`` may see;
``reaction_time(rng)`` is its time for a play, ``reaction_time_for(action,
rng)`` the time for a given action (flips are quicker).
"""

from __future__ import annotations

from coffeetable.bots.base import Bot, RandomBot
from coffeetable.bots.greedy import GreedyBot, LevelBot, SloppyBot
from coffeetable.bots.levels import LEVEL_NAMES
from coffeetable.bots.reaction import LEVELS, Level, ReactionModel

__all__ = [
    "LEVELS",
    "LEVEL_NAMES",
    "Bot",
    "GreedyBot",
    "Level",
    "LevelBot",
    "RandomBot",
    "SloppyBot",
    "ReactionModel",
    "available",
    "levels",
    "make",
]


def available(game: str) -> list[str]:
    """The bot names that can play ``game``."""
    from coffeetable.bots.registry import available as _available

    return _available(game)


def levels(game: str) -> list[str]:
    """The plain levels for people ``game`` offers, weakest first (turn-based games)."""
    from coffeetable.bots.registry import levels as _levels

    return _levels(game)


def make(name: str, game: str) -> Bot:
    """A new bot called ``name`` for ``game``; ValueError for an unknown name."""
    from coffeetable.bots.registry import make as _make

    return _make(name, game)
