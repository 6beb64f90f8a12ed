"""The registry of games: ``names()`` lists them, ``get(name)`` returns one.

Adding a game is one package under ``games/`` and one line in ``_FACTORIES``.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from coffeetable.engine import Game


def _load(module: str, attribute: str) -> Callable[[], Game]:
    def factory() -> Game:
        game: Game = getattr(import_module(module), attribute)()
        return game

    return factory


_FACTORIES: dict[str, Callable[[], Game]] = {
    "espresso": _load("coffeetable.games.espresso", "EspressoGame"),
    "doppio": _load("coffeetable.games.doppio", "DoppioGame"),
    "fika": _load("coffeetable.games.fika", "FikaGame"),
    "cafe": _load("coffeetable.games.cafe", "CafeGame"),
}
_CACHE: dict[str, Game] = {}


def names() -> list[str]:
    """The names of every registered game."""
    return list(_FACTORIES)


def get(name: str) -> Game:
    """The game called ``name``; KeyError with the known names otherwise."""
    if name not in _FACTORIES:
        raise KeyError(f"no game {name!r}; the games are {', '.join(names())}")
    if name not in _CACHE:
        _CACHE[name] = _FACTORIES[name]()
    return _CACHE[name]
