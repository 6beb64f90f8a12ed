"""The quick bot: the game's own rollout policy, between random and greedy.

A search plays its rollouts with a cheap policy, the heuristics'
``rollout_action(state, seat, rng)`` (``coffeetable.bots.hooks``). As a bot it
is a fast opponent for training: it prefers what greedy prefers in the main
(Café: deliver, then roast, dry, produce; a card without a cost; the best of a
few sampled placements) without valuing every legal action, so it decides tens
of times faster than greedy and plays between random and greedy
(docs/research.md, "Vector environments", has the figures).
"""

from __future__ import annotations

import random
from types import ModuleType

from coffeetable.bots.base import Bot
from coffeetable.engine import Action, State


class QuickBot(Bot):
    """Plays the game's ``rollout_action``: only what its seat may see, as every bot."""

    name = "quick"

    def __init__(self, heuristics: ModuleType, **kwargs: object) -> None:
        super().__init__(heuristics=heuristics, **kwargs)  # type: ignore[arg-type]
        self._rollout = heuristics.rollout_action

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        action: Action = self._rollout(state, seat, rng)
        return action

    def act(self, state: State, seat: int, rng: random.Random) -> Action | None:
        return self.choose(state, seat, rng) if state.legal_actions(seat) else None
