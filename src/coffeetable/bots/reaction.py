"""How fast a bot acts in a real-time game: a human-like reaction time per action.

A reaction time is the time between looking at the table and the action
landing on it. It is drawn from a lognormal distribution (right-skewed, like
human reaction times): ``median * exp(sigma * N(0, 1))``, never below
``floor``. Flips and recycles are mechanical (no card to search for), so they
have their own, shorter median; the ready check has a third one.

The levels (see ``LEVELS``), in seconds:

======  ===========  ===========  =====  ===========  ========
level   play median  flip median  sigma  ready median overlook
======  ===========  ===========  =====  ===========  ========
easy    1.6          0.8          0.45   2.0          25 %
medium  1.0          0.5          0.40   1.5          10 %
hard    0.6          0.3          0.35   1.0           0 %
======  ===========  ===========  =====  ===========  ========

``overlook`` is the chance that a level bot, having found a play, misses it
and flips (or recycles) instead; see ``coffeetable.bots.greedy.LevelBot``.
The floor is 0.15 s for every level (no human answers faster).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

#: No reaction is faster than this (seconds).
FLOOR = 0.15
#: Action types that need no search: they get the flip median.
QUICK_TYPES = frozenset({"flip", "recycle"})


@dataclass(frozen=True)
class ReactionModel:
    """Lognormal reaction times (seconds) for plays, quick actions and the ready check."""

    play_median: float
    flip_median: float
    sigma: float
    ready_median: float = 1.5
    floor: float = FLOOR

    def median_for(self, action: dict[str, Any] | None) -> float:
        kind = None if action is None else action.get("type")
        if kind in QUICK_TYPES:
            return self.flip_median
        if kind == "ready":
            return self.ready_median
        return self.play_median

    def draw(self, rng: random.Random, action: dict[str, Any] | None = None) -> float:
        """One reaction time for ``action`` (None: a play)."""
        median = self.median_for(action)
        return max(self.floor, median * math.exp(self.sigma * rng.gauss(0.0, 1.0)))


@dataclass(frozen=True)
class Level:
    """A real-time level: the greedy policy, a reaction model and a chance to overlook a play."""

    name: str
    reaction: ReactionModel
    overlook: float


EASY = Level("easy", ReactionModel(1.6, 0.8, 0.45, ready_median=2.0), overlook=0.25)
MEDIUM = Level("medium", ReactionModel(1.0, 0.5, 0.40, ready_median=1.5), overlook=0.10)
HARD = Level("hard", ReactionModel(0.6, 0.3, 0.35, ready_median=1.0), overlook=0.0)
LEVELS: dict[str, Level] = {level.name: level for level in (EASY, MEDIUM, HARD)}
