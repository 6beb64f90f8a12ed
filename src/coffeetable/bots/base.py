"""What a bot is: a policy that picks an action for a seat, and (for real-time
games) how long it takes to react."""

from __future__ import annotations

import random
from collections.abc import Sequence

from coffeetable.bots.reaction import ReactionModel
from coffeetable.engine import Action, State


def playable(actions: list[Action]) -> list[Action]:
    """The actions a bot considers: all but "undo", which is for people who misclick."""
    return [action for action in actions if action.get("type") != "undo"]


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

    def __init__(self, *, reaction: ReactionModel | None = None) -> None:
        #: Real-time reaction model; None acts at once (turn-based games).
        self.reaction = reaction

    def pick(
        self, state: State, seat: int, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """One of ``actions`` (never empty). The default picks at random."""
        return rng.choice(list(actions))

    def act(self, state: State, seat: int, rng: random.Random) -> Action | None:
        """Like ``choose``, but None when the bot sees nothing to do."""
        actions = playable(state.legal_actions(seat))
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
    """Uniformly random among the legal actions."""

    name = "random"
