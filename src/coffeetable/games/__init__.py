"""The registry of games: ``names()`` lists them, ``get(name)`` returns one.

A game is found through the entry point group ``coffeetable.games``: the entry
point's name is the game's name, its object a callable with no arguments that
returns the ``Game`` (the Game class itself will do). Our four games register
that way in pyproject.toml, and so may a game installed as its own package::

    [project.entry-points."coffeetable.games"]
    nim = "coffee_nim:NimGame"

The four built-in games are also known without their entry points, so that a
source checkout whose install predates them still has them. A game's name is
lowercase letters, digits and underscores (it is used in URLs and file names).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from importlib import import_module
from importlib.metadata import entry_points

from coffeetable.engine import Game

#: The entry point group games register in.
GROUP = "coffeetable.games"
#: What a game's name may be: it becomes part of URLs, routes and file names.
NAME = re.compile(r"^[a-z][a-z0-9_]{0,31}$")


def _load(module: str, attribute: str) -> Callable[[], Game]:
    def factory() -> Game:
        game: Game = getattr(import_module(module), attribute)()
        return game

    return factory


#: Our own games, in the order the site lists them (the same as their entry points).
_BUILT_IN: dict[str, Callable[[], Game]] = {
    "espresso": _load("coffeetable.games.espresso", "EspressoGame"),
    "doppio": _load("coffeetable.games.doppio", "DoppioGame"),
    "fika": _load("coffeetable.games.fika", "FikaGame"),
    "cafe": _load("coffeetable.games.cafe", "CafeGame"),
}
_CACHE: dict[str, Game] = {}


def _installed() -> dict[str, Callable[[], Game]]:
    """The entry points of ``GROUP``, by name (loaded only when a game is asked for)."""
    found: dict[str, Callable[[], Game]] = {}
    for point in sorted(entry_points(group=GROUP), key=lambda point: point.name):
        if point.name in _BUILT_IN or point.name in found or not NAME.match(point.name):
            continue  # ours stay ours; a name no URL could carry is not a game
        found[point.name] = lambda point=point: point.load()()  # type: ignore[misc]
    return found


#: Every game by name: read once, at import (a process sees the games installed then).
_FACTORIES: dict[str, Callable[[], Game]] = {**_BUILT_IN, **_installed()}


def refresh() -> None:
    """Read the entry points again (after installing a game in a running process)."""
    _FACTORIES.clear()
    _FACTORIES.update({**_BUILT_IN, **_installed()})


def _factories() -> dict[str, Callable[[], Game]]:
    return _FACTORIES


def names() -> list[str]:
    """The names of every registered game: ours first, then the installed ones by name."""
    return list(_factories())


def get(name: str) -> Game:
    """The game called ``name``; KeyError with the known names otherwise.

    ValueError if an installed entry point gives something that is not a ``Game``
    named ``name``.
    """
    factories = _factories()
    if name not in factories:
        raise KeyError(f"no game {name!r}; the games are {', '.join(names())}")
    if name not in _CACHE:
        game = factories[name]()
        if not isinstance(game, Game) or game.name != name:
            raise ValueError(
                f"the entry point {name!r} of {GROUP} gave {game!r}, not a Game named {name!r}"
            )
        _CACHE[name] = game
    return _CACHE[name]
