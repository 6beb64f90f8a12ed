"""Café: 1-4 players build a coffee company of overlapping plan cards over 8 rounds.

cards.py holds the cards as data, grid.py the company area (placement, areas,
cubes), actions.py the actions phase, scoring.py the final count, rules.py
the rounds and the draft.
"""

from coffeetable.games.cafe.game import CafeGame
from coffeetable.games.cafe.rules import CafeState

__all__ = ["CafeGame", "CafeState"]
