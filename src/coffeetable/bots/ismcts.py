"""Information-set Monte Carlo tree search: a search bot for any turn-based game.

Single-observer ISMCTS (Cowling, Powley & Whitehouse, 2012). The tree is
grown from the bot's information set: every iteration

1. determinizes the root, ``state.determinize(seat, rng)`` (hidden cards
   re-sampled to fit what the seat sees; the search never reads the root
   otherwise);
2. descends the tree: at each node, among the children whose actions are
   legal in this determinization, it picks by UCB1 with availability counts
   (``mean + c * sqrt(ln(available) / visits)``, the mean judged by the seat
   that acted there);
3. expands one untried legal action (chosen by the rng);
4. rolls out: actions from the game's ``heuristics.rollout_action(state,
   seat, rng)`` if it has one, else random, until the end of the current
   turn plus ``turns`` more turns (a turn ends when the actor changes; the
   heuristics' ``SEARCH_TURNS`` if it has one, else ``TURNS``), at most
   ``rollout_actions`` actions;
5. evaluates the reached state, one value per seat in [-1, 1]: a finished
   match of two or more seats by ``state.returns()``; otherwise by the
   heuristics' ``evaluate(state)`` if it has one, else by the score lead
   ``tanh((score - best other score) / SCORE_SCALE)`` (solo: ``tanh((score
   - SCORE_SCALE) / SCORE_SCALE)``); a finished solo game goes the same way,
   since its ``returns()`` is always a win;
6. backs the vector up: each node adds the value of the seat that acted there.

Root pruning: a game whose heuristics set ``ROOT_TOP = k`` has the root
search only the ``k`` best actions of distinct value by its ``action_values``
(greedy's own judgement, computed once a decision), so the budget goes to
telling the few plausible actions apart. Without it every
candidate is searched.

At the root and at every node the actions are ``Bot.candidates``' (no undo,
nothing the heuristics flag as a repeat of the turn's position or as
dominated: ``coffeetable.bots.base``), so the search spends no budget on
cycles; a random rollout skips them too, and a game's ``rollout_action``
should (Doppio's does).

The bot plays the root child visited most (ties: the better mean, then the
first legal). Actions are told apart by their canonical JSON. With several
simultaneous actors (Fika's secret picks, Café's action phase) the root is
the asking seat's choice; a seat that may still act goes on (its turn), then
the others act in the order of ``actors()``; since a determinization re-samples what the seat
cannot see (another seat's secret pick among it), acting "first" reveals
nothing to the search.

Budget: ``iterations`` (deterministic: the same rng gives the same choice) or
``max_ms`` wall-clock milliseconds (not reproducible); the registry builds
``"ismcts"`` with ``DEFAULT_ITERATIONS``, ``"ismcts:800"`` with 800
iterations and ``"ismcts:250ms"`` with a 250 ms budget. A single legal action
is played without a search.

Analysis: ``ISMCTSBot.analyse(state, seat)`` runs one search (seeded, the
full iteration budget, no early stop, no reuse of an earlier tree) and returns
the root's statistics, one ``ActionValue`` per candidate action (``action``,
``visits``, ``value``: the mean value for ``seat`` mapped to [0, 1], a win
chance for a finished match of two or more seats, otherwise the normalised
evaluation), most visited first. ``include`` adds actions the bot would skip
(a person's choice) so that they are searched and valued too.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from types import ModuleType

from coffeetable.bots.base import Bot, playable, prune
from coffeetable.bots.hooks import hook
from coffeetable.bots.reaction import ReactionModel
from coffeetable.engine import Action, State, View

#: Iterations per decision when no budget is given (the "expert" level): reproducible,
#: and cheap enough for a shared machine (about 0.1-0.3 s of CPU a decision in Doppio and
#: Café, less in Fika); the judgement comes from the games' heuristics, not more time.
DEFAULT_ITERATIONS = 100
#: UCB1 exploration constant (values lie in [-1, 1]).
EXPLORATION = 0.7
#: The horizon: the end of the current turn plus this many turns (tree and rollout).
TURNS = 0
#: At most this many rollout actions (solo has no turns).
ROLLOUT_ACTIONS = 12
#: Progressive widening below the root: a node visited n times has at most
#: max(1, WIDENING * sqrt(n)) children, expanded best first by the heuristics.
WIDENING = 1.0
#: Without an ``evaluate``: a score lead of this many points is worth tanh(1).
SCORE_SCALE = 10.0

Policy = Callable[[State, int, random.Random], Action]
Evaluator = Callable[[State], Sequence[float]]
Priors = Callable[[State, int, Sequence[Action]], Sequence[float]]


@dataclass(frozen=True)
class ActionValue:
    """One root action after a search: how often it was tried and what it is worth.

    ``value`` is the mean value for the searching seat, in [0, 1] (a win chance,
    or the normalised evaluation where the horizon stops before the end); None
    when the search never tried the action.
    """

    action: Action
    visits: int
    value: float | None


def action_key(action: Action) -> str:
    """A canonical string for an action: its JSON with sorted keys."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def with_included(
    actions: list[Action], legal: list[Action], include: Iterable[Action]
) -> list[Action]:
    """``actions`` and, after them, each action of ``include`` that is legal and not among
    them yet (an analysis asked about a move the search would not look at: a review's)."""
    known = {action_key(action) for action in actions}
    legal_keys = {action_key(action) for action in legal}
    for action in include:
        key = action_key(action)
        if key in legal_keys and key not in known:
            actions.append(action)
            known.add(key)
    return actions


class Node:
    """A node of the tree: the action that led here and its statistics."""

    __slots__ = (
        "action",
        "actor",
        "available",
        "children",
        "keys",
        "legal",
        "prior",
        "total",
        "visits",
    )

    def __init__(self, action: Action | None = None, actor: int = -1) -> None:
        self.action = action
        #: The seat that took ``action`` (whose value ``total`` sums).
        self.actor = actor
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.available = 0
        self.total = 0.0
        #: The legal actions last seen here and their keys (most determinizations agree).
        self.legal: list[Action] = []
        self.keys: list[str] = []
        #: Heuristic values of the actions seen here (the order of expansion).
        self.prior: dict[str, float] = {}

    def legal_keys(self, legal: list[Action]) -> list[str]:
        """The keys of ``legal``, reusing the last ones when the actions are the same."""
        if legal != self.legal:
            self.legal, self.keys = legal, [action_key(action) for action in legal]
        return self.keys

    def ucb(self, exploration: float) -> float:
        mean = self.total / self.visits
        return mean + exploration * math.sqrt(math.log(self.available) / self.visits)


class _Horizon:
    """The search looks to the end of the current turn plus ``turns`` more turns.

    A turn ends when the actor changes; ``actor`` is None past the horizon, at
    the end of the match, or when nobody may act.
    """

    def __init__(self, turns: int) -> None:
        self.left = turns
        self.last: int | None = None

    def actor(self, state: State, first: int | None = None) -> int | None:
        """Who acts next: ``first`` if it may (the seat searching at the root), else the
        last actor while it still may (several actions of one seat in a simultaneous
        phase are one turn), else the first of ``state.actors()``."""
        actors = [] if state.is_over else state.actors()
        if not actors:
            return None
        if first in actors:
            actor = first
        elif self.last in actors:
            actor = self.last
        else:
            actor = actors[0]
        if self.last is not None and actor != self.last:
            self.left -= 1
            if self.left < 0:
                return None
        self.last = actor
        return actor


def _settled(root: Node, remaining: int) -> bool:
    """True when no other child can catch the most visited one in ``remaining`` iterations."""
    first = second = 0
    for child in root.children.values():
        if child.visits > first:
            first, second = child.visits, first
        elif child.visits > second:
            second = child.visits
    return first - second > remaining


class ISMCTSBot(Bot):
    """Plays by single-observer ISMCTS over ``determinize`` (see the module docstring)."""

    name = "ismcts"
    prunes_dominated = True

    def __init__(
        self,
        heuristics: ModuleType | None = None,
        *,
        iterations: int | None = None,
        max_ms: float | None = None,
        exploration: float = EXPLORATION,
        turns: int | None = None,
        rollout_actions: int = ROLLOUT_ACTIONS,
        widening: float | None = WIDENING,
        reuse: bool = True,
        reaction: ReactionModel | None = None,
    ) -> None:
        super().__init__(reaction=reaction, heuristics=heuristics)
        if iterations is None and max_ms is None:
            iterations = DEFAULT_ITERATIONS
        if (iterations is not None and iterations < 1) or (max_ms is not None and max_ms <= 0):
            raise ValueError("an ISMCTS budget is at least one iteration or a positive time")
        self.iterations = iterations
        self.max_ms = max_ms
        self.exploration = exploration
        #: A game's heuristics may set its own horizon (``SEARCH_TURNS``).
        self.turns = turns if turns is not None else hook(heuristics, "SEARCH_TURNS", TURNS)
        self.rollout_actions = rollout_actions
        self.widening = widening
        self.reuse = reuse
        #: (seat, the view expected after our last action, its subtree)
        self._kept: tuple[int, View | None, Node] | None = None
        #: Expansion order: the heuristics' cheap ``priors`` if it has them (a greedy's
        #: ``action_values`` may search, too slow to call at every new node), else those.
        self._priors: Priors | None = hook(heuristics, "priors", None) or getattr(
            heuristics, "action_values", None
        )
        self._policy: Policy | None = hook(heuristics, "rollout_action", None)
        self._evaluate: Evaluator | None = hook(heuristics, "evaluate", None)
        #: Root pruning (see the module docstring): k and greedy's values, if the game sets k.
        self.root_top: int | None = hook(heuristics, "ROOT_TOP", None)
        self._values: Priors | None = hook(heuristics, "action_values", None)

    def pick(
        self, state: State, seat: int, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        if len(actions) == 1:
            return actions[0]
        root, done = Node(), 0
        view = state.view(seat) if self.reuse else None
        if self._kept is not None and self._kept[:2] == (seat, view):
            root = self._kept[2]  # the subtree of our last action: nothing new was seen
            done = min(root.visits, (self.iterations or 0) // 2)
        self._kept = None
        searched = self._top(state, seat, list(actions))
        if len(searched) == 1:
            return searched[0]
        pruned = searched if len(searched) < len(actions) else None  # else as the root sees them
        self._search(root, state, seat, rng, done=done, settle=True, root_actions=pruned)
        keys = [action_key(action) for action in actions]
        tried = [(root.children[k], i) for i, k in enumerate(keys) if k in root.children]
        if not tried:
            return rng.choice(searched)
        child, index = max(tried, key=lambda pair: (pair[0].visits, pair[0].total / pair[0].visits))
        if self.reuse:  # keep the subtree if our action reveals nothing (same view after it)
            after = state.determinize(seat, rng)
            after.apply(seat, actions[index])
            self._kept = (seat, after.view(seat), child)
        return actions[index]

    def _top(self, state: State, seat: int, actions: list[Action]) -> list[Action]:
        """The root's actions: all of ``actions``, or with ``ROOT_TOP`` the best k of
        distinct value by ``action_values`` (of equal values the first: Café's ways to pay
        for a card are alike to it), in legal order."""
        k = self.root_top
        if k is None or self._values is None or len(actions) <= k:
            return actions
        values = self._values(state, seat, actions)
        kept: dict[float, int] = {}
        for i in sorted(range(len(actions)), key=lambda i: -values[i]):
            kept.setdefault(round(values[i], 9), i)
            if len(kept) == k:
                break
        return [actions[i] for i in sorted(kept.values())]

    def analyse(
        self,
        state: State,
        seat: int,
        *,
        seed: int = 0,
        include: Sequence[Action] = (),
    ) -> list[ActionValue]:
        """The root statistics of one search for ``seat``: one ``ActionValue`` per action.

        The actions are ``candidates`` plus any of ``include`` that are legal (a
        person's choice the bot would skip); most visited first, then the better
        value. Reproducible with an iteration budget: the same state and ``seed``
        give the same figures (``random.Random(seed)``). Runs the whole budget (no
        early stop) and leaves the bot's kept tree alone. ValueError if ``seat``
        has no legal action.
        """
        legal = state.legal_actions(seat)
        if not legal:
            raise ValueError(f"seat {seat} has no legal action to analyse")
        actions = with_included(self.candidates(state, seat), legal, include)
        root = Node()
        if len(actions) > 1:
            self._search(root, state, seat, random.Random(seed), root_actions=actions)
        result = []
        for action in actions:
            child = root.children.get(action_key(action))
            if child is None or child.visits == 0:
                result.append(ActionValue(action, 0, None))
            else:
                mean = child.total / child.visits
                result.append(ActionValue(action, child.visits, (mean + 1) / 2))
        order = sorted(
            range(len(result)),
            key=lambda i: (-result[i].visits, -(result[i].value or 0.0), i),
        )
        return [result[i] for i in order]

    def _search(
        self,
        root: Node,
        state: State,
        seat: int,
        rng: random.Random,
        *,
        done: int = 0,
        settle: bool = False,
        root_actions: list[Action] | None = None,
    ) -> None:
        """Grow ``root`` for the budget (``done`` iterations already in it); with
        ``settle``, stop once no other root child can catch the most visited."""
        deadline = None if self.max_ms is None else time.perf_counter() + self.max_ms / 1000
        while (self.iterations is None or done < self.iterations) and (
            deadline is None or time.perf_counter() < deadline
        ):
            self._iterate(root, state.determinize(seat, rng), seat, rng, root_actions)
            done += 1
            if settle and self.iterations is not None and _settled(root, self.iterations - done):
                break

    def _iterate(
        self,
        root: Node,
        state: State,
        seat: int,
        rng: random.Random,
        root_actions: list[Action] | None = None,
    ) -> None:
        """One iteration on a determinization: select, expand, roll out, back up.

        The root's actions are ``seat``'s even when others may act too (a secret
        simultaneous choice), ``root_actions`` if given; deeper nodes follow
        ``_Horizon.actor``."""
        node, visited, horizon = root, [], _Horizon(self.turns)
        first: int | None = seat
        while (actor := horizon.actor(state, first)) is not None:
            if first is not None and actor == seat and root_actions is not None:
                actions = root_actions
            else:
                actions = prune(state, actor, playable(state.legal_actions(actor)), self.skips)
            first = None
            legal = dict(zip(node.legal_keys(actions), actions, strict=True))
            if not legal:
                break
            for key in legal.keys() & node.children.keys():
                node.children[key].available += 1
            untried = [key for key in legal if key not in node.children]
            if untried and node is not root and self.widening is not None:
                allowed = max(1, int(self.widening * math.sqrt(node.visits)))
                if len(legal) - len(untried) >= allowed:
                    untried = []
            if untried:
                key = self._next(node, state, actor, legal, untried, rng)
                child = node.children[key] = Node(legal[key], actor)
                child.available = 1
            else:
                exploration = self.exploration
                tried = [key for key in legal if key in node.children]
                key = max(tried, key=lambda k: node.children[k].ucb(exploration))
                child = node.children[key]
            state.apply(actor, legal[key])
            visited.append(child)
            node = child
            if untried:
                break
        values = self._rollout(state, rng, horizon)
        for child in visited:
            child.visits += 1
            child.total += values[child.actor]

    def _next(
        self,
        node: Node,
        state: State,
        actor: int,
        legal: dict[str, Action],
        untried: list[str],
        rng: random.Random,
    ) -> str:
        """The untried action to expand: the best by the heuristics, else one at random."""
        if self._priors is None:
            return rng.choice(untried)
        if any(key not in node.prior for key in untried):
            values = self._priors(state, actor, list(legal.values()))
            node.prior.update(zip(legal, values, strict=True))
        return max(untried, key=node.prior.__getitem__)

    def _rollout(self, state: State, rng: random.Random, horizon: _Horizon) -> Sequence[float]:
        """Play on to the search's horizon (at most ``rollout_actions``); the value per seat."""
        for _ in range(self.rollout_actions):
            actor = horizon.actor(state)
            if actor is None:
                break
            if self._policy is not None:
                action = self._policy(state, actor, rng)
            else:
                actions = playable(state.legal_actions(actor))
                action = rng.choice(prune(state, actor, actions, self.skips))
            state.apply(actor, action)
        return self.value(state)

    def value(self, state: State) -> Sequence[float]:
        """The state's value per seat in [-1, 1] (see step 5 of the module docstring)."""
        if state.is_over and state.players > 1:
            return state.returns()
        if self._evaluate is not None:
            return self._evaluate(state)
        scores = state.scores
        if state.players == 1:
            return [math.tanh((scores[0] - SCORE_SCALE) / SCORE_SCALE)]
        return [
            math.tanh((score - max(s for i, s in enumerate(scores) if i != seat)) / SCORE_SCALE)
            for seat, score in enumerate(scores)
        ]
