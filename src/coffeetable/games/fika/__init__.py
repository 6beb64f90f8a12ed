"""Fika: a 2-player café card game of simultaneous secret picks, card effects,
objectives and customer groups.

cards.py holds the 18 cards as data, effects.py the six effects, scoring.py
the objectives and multipliers, rules.py the rounds.
"""

from coffeetable.games.fika.game import FikaGame
from coffeetable.games.fika.rules import FikaState

__all__ = ["FikaGame", "FikaState"]
