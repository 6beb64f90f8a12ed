"""The rollout algorithm: one step of policy improvement over greedy (Bertsekas).

Where a game's search judges positions worse than its greedy planner does (Café),
a search should lean on greedy rather than replace it. At each of its decisions
this bot

1. values its candidates (``Bot.candidates``) by greedy's ``action_values`` and
   keeps the best ``top`` of distinct value; actions the heuristics'
   ``choice_group(action)`` puts in one group (Café: the ways to pay for one card)
   count once, by their best;
2. for each kept action, on ``samples`` determinizations of the root
   (``state.determinize(seat, rng)``; the same ones for every action, common random
   numbers, so that the actions are compared on the same deals), applies it and
   lets greedy play every seat to the horizon: the end of the round (``state.round``
   changes; ``rounds`` > 1 plays more rounds) or of the match;
3. values the state reached for the seat, in [-1, 1]: the heuristics'
   ``rollout_value`` if they have one, else their ``evaluate`` (Café: ``tanh`` of the
   value lead over the other company at 2 players, of its own value with more); at
   the end of a match of two or more seats, the mean of ``returns()`` (win, loss,
   tie) and that value, so that the result counts most and the value tells equal
   results apart;
4. plays the action of the best mean value (ties: greedy's order).

If the estimates were exact this would play at least as well as greedy, its base
policy (the rollout algorithm's policy improvement property); with a few samples
it does so when the differences between actions outweigh the noise. What greedy
plays in a rollout is what greedy would play: the round planner, the draft values.

Budget: ``top`` actions and ``samples`` rollouts of each (``DEFAULT_TOP``,
``DEFAULT_SAMPLES``), reproducible (the rng draws the deals); a game's heuristics
may set them per position, ``rollout_budget(state, top, samples) -> (top, samples)``
(Café: one sample where the rest of the round hides nothing, more placements and
actions kept), and the horizon, ``rollout_rounds(state, rounds) -> rounds`` (Café at 2
players: to the match's end from its seventh round). ``analyse`` has ``ISMCTSBot.analyse``'s shape
(every action it is asked about is rolled out, not only the top ones); the review
still asks the tree search (``coffeetable.bots.review``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from types import ModuleType

from coffeetable.bots.base import Bot
from coffeetable.bots.greedy import GreedyBot
from coffeetable.bots.hooks import hook
from coffeetable.bots.ismcts import ActionValue, action_key, with_included
from coffeetable.engine import Action, State

#: Actions kept for the rollouts: greedy's best of distinct value.
DEFAULT_TOP = 3
#: Determinizations (rollouts) per kept action.
DEFAULT_SAMPLES = 6
#: Rounds a rollout plays: to the end of the current one.
ROUNDS = 1
#: Guard: a rollout longer than this many actions is a bug in a game or a bot.
MAX_ROLLOUT = 10_000

Evaluator = Callable[[State], Sequence[float]]
Budget = Callable[[State, int, int], tuple[int, int]]
Rounds = Callable[[State, int], int]


class RolloutBot(Bot):
    """Greedy, improved by rollouts of greedy to the end of the round (module docstring)."""

    name = "rollout"
    prunes_dominated = True

    def __init__(
        self,
        heuristics: ModuleType,
        *,
        top: int = DEFAULT_TOP,
        samples: int = DEFAULT_SAMPLES,
        rounds: int = ROUNDS,
    ) -> None:
        if top < 1 or samples < 1 or rounds < 1:
            raise ValueError("a rollout search keeps at least one action, sample and round")
        super().__init__(heuristics=heuristics)
        self.top = top
        self.samples = samples
        #: The horizon: the end of the round plus ``rounds - 1`` more (or of the match).
        self.rounds = rounds
        self.greedy = GreedyBot(heuristics)
        self._evaluate: Evaluator = hook(heuristics, "rollout_value", None) or heuristics.evaluate
        self._group: Callable[[Action], str] = hook(heuristics, "choice_group", action_key)
        self._budget: Budget | None = hook(heuristics, "rollout_budget", None)
        self._rounds: Rounds | None = hook(heuristics, "rollout_rounds", None)

    def budget(self, state: State) -> tuple[int, int]:
        """(top, samples) for a decision in ``state``: the heuristics' if they say."""
        if self._budget is None:
            return self.top, self.samples
        return self._budget(state, self.top, self.samples)

    def horizon(self, state: State) -> int:
        """Rounds a rollout from ``state`` plays (1: to this round's end): the heuristics'
        ``rollout_rounds(state, rounds)`` if they say, else ``rounds``."""
        if self._rounds is None:
            return self.rounds
        return self._rounds(state, self.rounds)

    def kept(self, state: State, seat: int, actions: Sequence[Action]) -> list[int]:
        """The indexes of the actions to roll out, greedy's best first (step 1)."""
        top = self.budget(state)[0]
        values = self.greedy.values(state, seat, actions)
        groups: set[str] = set()
        distinct: dict[float, int] = {}
        for i in sorted(range(len(actions)), key=lambda i: -values[i]):
            group = self._group(actions[i])
            if group in groups:
                continue
            groups.add(group)
            distinct.setdefault(round(values[i], 9), i)
            if len(distinct) == top:
                break
        return list(distinct.values())

    def pick(
        self, state: State, seat: int, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        if len(actions) == 1:
            return actions[0]
        order = self.kept(state, seat, actions)
        if len(order) == 1:
            return actions[order[0]]
        means = self._means(state, seat, [actions[i] for i in order], rng)
        best = max(range(len(order)), key=lambda j: (means[j], -j))
        return actions[order[best]]

    def analyse(
        self, state: State, seat: int, *, seed: int = 0, include: Sequence[Action] = ()
    ) -> list[ActionValue]:
        """Greedy's kept actions and ``include``'s legal ones, each rolled out ``samples``
        times: best first, ``value`` the mean mapped to [0, 1]. Reproducible with
        ``seed``; leaves ``state`` alone. ValueError if ``seat`` has no legal action."""
        legal = state.legal_actions(seat)
        if not legal:
            raise ValueError(f"seat {seat} has no legal action to analyse")
        candidates = self.candidates(state, seat)
        kept = [candidates[i] for i in self.kept(state, seat, candidates)]
        actions = with_included(kept, legal, include)
        means = self._means(state, seat, actions, random.Random(seed))
        samples = self.budget(state)[1]
        result = [
            ActionValue(action, samples, (mean + 1) / 2)
            for action, mean in zip(actions, means, strict=True)
        ]
        order = sorted(range(len(result)), key=lambda i: (-(result[i].value or 0.0), i))
        return [result[i] for i in order]

    def _means(
        self, state: State, seat: int, actions: Sequence[Action], rng: random.Random
    ) -> list[float]:
        """Each action's mean value for ``seat`` over the same ``samples`` deals (steps 2-3)."""
        seeds = [rng.getrandbits(64) for _ in range(self.budget(state)[1])]
        means = []
        for action in actions:
            total = 0.0
            for sample in seeds:
                deal = random.Random(sample)
                total += self._rollout(state.determinize(seat, deal), seat, action, deal)
            means.append(total / len(seeds))
        return means

    def _rollout(self, state: State, seat: int, action: Action, rng: random.Random) -> float:
        """Apply ``action``, let greedy play every seat to the horizon; the value."""
        end = state.round + self.horizon(state)
        state.apply(seat, action)
        for _ in range(MAX_ROLLOUT):
            if state.is_over or state.round >= end:
                break
            actor = state.actors()[0]
            state.apply(actor, self.greedy.choose(state, actor, rng))
        else:
            raise RuntimeError(f"a rollout passed {MAX_ROLLOUT} actions: the round does not end")
        value = self._evaluate(state)[seat]
        if state.is_over and state.players > 1:
            return (state.returns()[seat] + value) / 2
        return value
