"""The actions every bot skips, for any game: undo, and what the game's heuristics flag
(``coffeetable.bots.base``: ``repeats_positions`` or ``repeats_position``, and for the
bots that play by value ``dominated``)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from coffeetable import bots
from coffeetable.bots.base import prune, skip_hooks
from coffeetable.bots.ismcts import ISMCTSBot
from coffeetable.engine import Action
from tests.bots.test_ismcts import Nim


def test_any_game_may_flag_actions_one_at_a_time_and_a_bot_never_runs_out() -> None:
    class Hooks:
        @staticmethod
        def repeats_position(state: Any, seat: int, action: Action) -> bool:
            return action["n"] % 2 == 0

        @staticmethod
        def dominated(state: Any, seat: int, actions: Sequence[Action]) -> list[bool]:
            return [action["n"] == 1 for action in actions]

    actions: list[Action] = [{"n": n} for n in range(4)]
    only_repeats = skip_hooks(Hooks)  # type: ignore[arg-type]
    both = skip_hooks(Hooks, dominated=True)  # type: ignore[arg-type]
    assert prune(None, 0, actions, only_repeats) == [{"n": 1}, {"n": 3}]  # type: ignore[arg-type]
    assert prune(None, 0, actions, both) == [{"n": 3}]  # type: ignore[arg-type]
    assert prune(None, 0, [{"n": 0}, {"n": 2}], both) == [{"n": 0}, {"n": 2}]  # type: ignore[arg-type]
    assert skip_hooks(None) == []
    assert bots.make("random", "doppio").skips and len(bots.make("greedy", "doppio").skips) == 2


class _NoOnes:
    """A Nim "heuristics" that calls taking one stick a repeat (any game may flag anything)."""

    @staticmethod
    def repeats_positions(state: Any, seat: int, actions: Sequence[Action]) -> list[bool]:
        return [action["n"] == 1 for action in actions]


def test_the_search_prunes_at_every_node_and_in_random_rollouts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bot = ISMCTSBot(_NoOnes, iterations=300, turns=30, rollout_actions=60)  # type: ignore[arg-type]
    taken: list[int] = []
    real_apply = Nim.apply

    def spy(self: Nim, seat: int | None, action: Any) -> Any:
        if self.sticks > 1:  # with one stick left, taking it is all there is
            taken.append(action["n"])
        return real_apply(self, seat, action)

    monkeypatch.setattr(Nim, "apply", spy)
    action = bot.choose(Nim(9), 0, random.Random(2))
    assert action["n"] != 1
    assert len(taken) > 300 and 1 not in taken  # tree and rollouts alike
    rnd = bots.RandomBot(heuristics=_NoOnes)  # type: ignore[arg-type]
    assert {rnd.choose(Nim(9), 0, random.Random(seed))["n"] for seed in range(30)} == {2, 3}
    assert rnd.choose(Nim(1), 0, random.Random(0)) == {"type": "take", "n": 1}
