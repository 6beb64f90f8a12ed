"""Which bots play which game.

- ``random`` plays every game.
- ``greedy`` plays every game with a heuristics module
  (``coffeetable.games.<name>.heuristics``).
- ``easy``, ``medium``, ``hard`` play the real-time games with a heuristics
  module (Espresso).

In a real-time game ``random`` and ``greedy`` get medium's reaction times (and
never overlook a play); in a turn-based game bots act at once. Turn-based
search bots (ISMCTS) will register here too.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from coffeetable.bots.base import Bot, RandomBot
from coffeetable.bots.greedy import GreedyBot, LevelBot
from coffeetable.bots.reaction import LEVELS, MEDIUM
from coffeetable.engine import Game


def _game(name: str) -> Game | None:
    from coffeetable import games

    try:
        return games.get(name)
    except KeyError:
        return None


def heuristics(game: str) -> ModuleType | None:
    """The game's heuristics module, or None if it has none."""
    module = f"coffeetable.games.{game}.heuristics"
    try:
        return import_module(module)
    except ModuleNotFoundError as error:
        if error.name in (module, f"coffeetable.games.{game}"):
            return None
        raise


def available(game: str) -> list[str]:
    names = ["random"]
    found = _game(game)
    if found is None or heuristics(game) is None:
        return names
    names.append("greedy")
    if found.realtime:
        names += list(LEVELS)
    return names


def make(name: str, game: str) -> Bot:
    if name not in available(game):
        raise ValueError(f"no bot {name!r} for {game}; choose from {', '.join(available(game))}")
    found = _game(game)
    module = heuristics(game)
    realtime = found is not None and found.realtime
    reaction = MEDIUM.reaction if realtime else None
    if name == "random":
        return RandomBot(reaction=reaction)
    assert module is not None
    if name == "greedy":
        return GreedyBot(module, reaction=reaction)
    return LevelBot(module, LEVELS[name])
