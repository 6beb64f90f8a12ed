"""ISMCTS orders its expansions by a game's cheap ``priors`` when the heuristics have them."""

from __future__ import annotations

import random
from collections.abc import Sequence
from types import SimpleNamespace

from coffeetable.bots.ismcts import ISMCTSBot
from coffeetable.engine import Action, State
from tests.bots.test_ismcts import Nim


def test_priors_come_before_action_values() -> None:
    calls: list[str] = []

    def priors(state: State, seat: int, actions: Sequence[Action]) -> list[float]:
        calls.append("priors")
        return [0.0] * len(actions)

    def action_values(state: State, seat: int, actions: Sequence[Action]) -> list[float]:
        raise AssertionError("a greedy's action_values are not the search's priors here")

    both = SimpleNamespace(priors=priors, action_values=action_values)
    bot = ISMCTSBot(both, iterations=30, turns=30, rollout_actions=20)  # type: ignore[arg-type]
    assert bot.choose(Nim(5), 0, random.Random(1)) in Nim(5).legal_actions(0)
    assert calls
    only_values = SimpleNamespace(action_values=priors)
    assert ISMCTSBot(only_values)._priors is priors  # type: ignore[arg-type]
