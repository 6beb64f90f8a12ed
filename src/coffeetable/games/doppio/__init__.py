"""Espresso Doppio: a 2-player abstract game of cups, saucers and spoons, with a solo mode.

``coffeetable.games.get("doppio")``; cards.py holds the 16 objective cards as
data, patterns.py how each is matched, rules.py the turns and rounds.
"""

from coffeetable.games.doppio.game import DoppioGame
from coffeetable.games.doppio.rules import DoppioState

__all__ = ["DoppioGame", "DoppioState"]
