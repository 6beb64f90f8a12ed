"""Greedy bots: the best immediate action by the game's own heuristic.

The heuristic lives with the game, in ``coffeetable.games.<name>.heuristics``,
a pure module with ``action_value(state, seat, action) -> float`` (and
optionally ``action_values(state, seat, actions)`` for speed and
``FALLBACK_TYPES``). These bots know
nothing of any particular game. Like every bot they choose among
``Bot.candidates``: no undo, nothing the heuristics flag as a repeat of the
turn's position or as dominated (``coffeetable.bots.base``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from types import ModuleType

from coffeetable.bots.base import Bot
from coffeetable.bots.hooks import hook
from coffeetable.bots.reaction import Level
from coffeetable.engine import Action, State

#: Values this close count as a tie (broken by the bot's rng).
TIE = 1e-9


class GreedyBot(Bot):
    """Takes the action the heuristic values most; ties broken by the rng."""

    name = "greedy"
    prunes_dominated = True

    def __init__(self, heuristics: ModuleType, **kwargs: object) -> None:
        super().__init__(heuristics=heuristics, **kwargs)  # type: ignore[arg-type]
        self.heuristics = heuristics
        many = hook(heuristics, "action_values", None)
        one = heuristics.action_value
        self._values = many or (lambda state, seat, actions: [one(state, seat, a) for a in actions])

    def values(self, state: State, seat: int, actions: Sequence[Action]) -> list[float]:
        return list(self._values(state, seat, actions))

    def best(
        self, state: State, seat: int, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        values = self.values(state, seat, actions)
        top = max(values)
        ties = [action for action, value in zip(actions, values, strict=True) if value >= top - TIE]
        return ties[0] if len(ties) == 1 else rng.choice(ties)

    def pick(
        self, state: State, seat: int, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        return self.best(state, seat, actions, rng)


class LevelBot(GreedyBot):
    """A real-time level (easy, medium, hard): greedy, with a reaction time and lapses.

    With probability ``level.overlook``, when its best action places a card and
    the game offers a fallback (Espresso: flip or recycle, its heuristics'
    ``FALLBACK_TYPES``), it overlooks the play and takes the best fallback.
    The numbers are in ``coffeetable.bots.reaction``.
    """

    def __init__(self, heuristics: ModuleType, level: Level, **kwargs: object) -> None:
        super().__init__(heuristics, reaction=level.reaction, **kwargs)
        self.level = level
        self.name = level.name
        self.overlook = level.overlook
        self._fallback = frozenset(hook(heuristics, "FALLBACK_TYPES", ()))

    def pick(
        self, state: State, seat: int, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        action = self.best(state, seat, actions, rng)
        if self.overlook <= 0 or not self._fallback or action.get("type") in self._fallback:
            return action
        fallbacks = [a for a in actions if a.get("type") in self._fallback]
        if fallbacks and rng.random() < self.overlook:
            return self.best(state, seat, fallbacks, rng)
        return action


class SloppyBot(GreedyBot):
    """Greedy with lapses: with probability ``lapse`` it plays a random candidate instead.

    The "beginner" level of the turn-based games: it sees the good plays most of the
    time, and like every bot never wastes an action (``Bot.candidates``).
    """

    name = "sloppy"

    def __init__(self, heuristics: ModuleType, lapse: float, **kwargs: object) -> None:
        if not 0.0 <= lapse <= 1.0:
            raise ValueError(f"a lapse is a probability in [0, 1], not {lapse!r}")
        super().__init__(heuristics, **kwargs)
        self.lapse = lapse

    def pick(
        self, state: State, seat: int, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        if rng.random() < self.lapse:
            return rng.choice(list(actions))
        return self.best(state, seat, actions, rng)
