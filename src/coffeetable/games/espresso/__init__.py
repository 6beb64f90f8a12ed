"""Espresso: a real-time card race (Ligretto-like) for 2-6 players.

``coffeetable.games.get("espresso")`` returns the game; see rules.py for the
rules and docs/espresso-wire.md for the JSON of views, actions and events.
"""

from coffeetable.games.espresso.game import EspressoGame
from coffeetable.games.espresso.rules import EspressoState

__all__ = ["EspressoGame", "EspressoState"]
