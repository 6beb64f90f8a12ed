"""Moved to ``coffeetable.games.espresso.codec``:
a game's research codec lives in its folder. This old path is the same module,
kept for one release."""

import sys
from importlib import import_module

sys.modules[__name__] = import_module("coffeetable.games.espresso.codec")
