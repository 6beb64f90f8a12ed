"""What a bot is: a policy that picks an action for a seat, and (for real-time
games) how long it takes to react.

The actions a bot considers (``Bot.candidates``) are the legal ones but:

- ``undo``, which is for people who misclick (``playable``);
- those the game's heuristics flag with ``repeats_positions(state, seat,
  actions) -> list[bool]`` (or one at a time, ``repeats_position(state, seat,
  action) -> bool``): an action that returns the position to one it already
  had earlier in the same turn wastes the turn's actions (Doppio: exchanging
  two cups and back). Every bot skips them, the random one too;
- for the bots that play by value (``prunes_dominated``: greedy, ISMCTS),
  those flagged by ``dominated(state, seat, actions) -> list[bool]``: never
  better than another legal action (Doppio: ending the turn while a free
  score is legal).

If the hooks flag every playable action, the bot considers them all. A game
without the hooks loses only ``undo``. The hooks read the state alone (its
own record of the turn so far, Doppio's undo stack), so a bot remembers
nothing between calls, and a search applies the same rule at every node.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from types import ModuleType

from coffeetable.bots.hooks import hook
from coffeetable.bots.reaction import ReactionModel
from coffeetable.engine import Action, State

#: A hook that flags actions: (state, seat, actions) -> one bool per action.
Flags = Callable[[State, int, Sequence[Action]], Sequence[bool]]


def playable(actions: list[Action]) -> list[Action]:
    """The actions a bot considers: all but "undo", which is for people who misclick."""
    return [action for action in actions if action.get("type") != "undo"]


def _one_at_a_time(one: Callable[[State, int, Action], bool]) -> Flags:
    return lambda state, seat, actions: [one(state, seat, action) for action in actions]


def skip_hooks(heuristics: ModuleType | None, *, dominated: bool = False) -> list[Flags]:
    """The heuristics' hooks that flag actions a bot skips: ``repeats_positions`` (or
    ``repeats_position``), and with ``dominated`` its ``dominated``."""
    hooks: list[Flags] = []
    repeats = hook(heuristics, "repeats_positions", None)
    if repeats is None and (one := hook(heuristics, "repeats_position", None)) is not None:
        repeats = _one_at_a_time(one)
    if repeats is not None:
        hooks.append(repeats)
    if dominated and (never := hook(heuristics, "dominated", None)) is not None:
        hooks.append(never)
    return hooks


def prune(state: State, seat: int, actions: list[Action], hooks: Sequence[Flags]) -> list[Action]:
    """``actions`` without those any of ``hooks`` flags (all of them if that leaves none)."""
    kept = actions
    for flags in hooks:
        if not kept:
            break
        kept = [
            action for action, skip in zip(kept, flags(state, seat, kept), strict=True) if not skip
        ]
    return kept or actions


class Bot:
    """A player that is a program.

    ``choose`` may read the state, but only what ``seat`` may see: its view,
    its legal actions, or a ``determinize``d copy. Bots never look at hidden
    cards.

    Subclasses override ``pick`` (choose among the legal actions), or
    ``choose`` itself.
    """

    #: The name it is made by, e.g. "greedy" or "hard".
    name: str = "bot"
    #: Does it skip the heuristics' ``dominated`` actions too (a bot that plays by value)?
    prunes_dominated: bool = False

    def __init__(
        self, *, reaction: ReactionModel | None = None, heuristics: ModuleType | None = None
    ) -> None:
        #: Real-time reaction model; None acts at once (turn-based games).
        self.reaction = reaction
        #: The heuristics' hooks that flag actions to skip (see the module docstring).
        self.skips = skip_hooks(heuristics, dominated=self.prunes_dominated)

    def candidates(self, state: State, seat: int) -> list[Action]:
        """The legal actions this bot considers (see the module docstring)."""
        return prune(state, seat, playable(state.legal_actions(seat)), self.skips)

    def pick(
        self, state: State, seat: int, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """One of ``actions`` (never empty). The default picks at random."""
        return rng.choice(list(actions))

    def act(self, state: State, seat: int, rng: random.Random) -> Action | None:
        """Like ``choose``, but None when the bot sees nothing to do."""
        actions = self.candidates(state, seat)
        return self.pick(state, seat, actions, rng) if actions else None

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        """One of ``state.legal_actions(seat)`` (which must not be empty)."""
        action = self.act(state, seat, rng)
        if action is None:
            raise ValueError(f"seat {seat} has no legal action to choose from")
        return action

    def reaction_time(self, rng: random.Random) -> float:
        """Seconds between seeing the table and a play landing (real time); 0 without a model."""
        return 0.0 if self.reaction is None else self.reaction.draw(rng)

    def reaction_time_for(self, action: Action, rng: random.Random) -> float:
        """Seconds before ``action`` lands: flips are quicker than plays (see ``reaction``)."""
        return 0.0 if self.reaction is None else self.reaction.draw(rng, action)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class RandomBot(Bot):
    """Uniformly random among the legal actions (but undo and repeats: ``candidates``)."""

    name = "random"
