"""Café: 1-4 players build a coffee company of overlapping plan cards over 8 rounds.

cards.py holds the cards as data, grid.py the company area (placement, cubes),
layout.py what follows from its squares alone (areas, legal anchors, icon
counts, kept up to date at each placement), actions.py the actions phase,
scoring.py the final count, rules.py the rounds and the draft.
"""

from coffeetable.games.cafe.game import CafeGame
from coffeetable.games.cafe.rules import CafeState

__all__ = ["CafeGame", "CafeState"]
