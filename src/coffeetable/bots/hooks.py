"""What a game's heuristics module may offer the bots: ``Heuristics``, every hook optional.

A game's heuristics are a module beside its ``Game`` (``Game.heuristics()``:
``<package>.heuristics``). The bots read each hook by name through ``hook``,
which refuses a name that this Protocol does not list, so every hook a bot
reads is documented here, with what it is for and what happens without it.

A game with no heuristics module at all plays with ``random`` and (turn-based,
when it can ``determinize``) ``ismcts`` with random rollouts. ``greedy``, the
plain levels (``beginner`` ... ``expert``) and the real-time levels
(``easy``, ``medium``, ``hard``) need at least ``action_value``.

========================  =====================================================================
hook                      without it
========================  =====================================================================
``action_value``          no greedy bot, no levels (the one hook they all need)
``action_values``         ``action_value`` is called once per action
``evaluate``              ISMCTS rolls out to the match's end and reads ``returns()``;
                          the rollout search needs ``evaluate`` or ``rollout_value``
``priors``                ISMCTS expands in ``action_values``' order, else the rng's
``rollout_action``        ISMCTS's rollouts play random legal actions
``repeats_positions``     (or ``repeats_position``, one action at a time) nothing is skipped
``dominated``             greedy and ISMCTS consider every playable action
``action_key``            a real-time table never refuses a queued action as "too slow"
                          because what it names changed (only when it is no longer legal)
``FALLBACK_TYPES``        the real-time levels never overlook a play
``SEARCH``                ``"ismcts"``: the bot ``ismcts`` is the tree search; ``"rollout"``:
                          the rollout algorithm over greedy
``SEARCH_TURNS``          ISMCTS searches ``coffeetable.bots.ismcts.TURNS`` turns deep
``ROOT_TOP``              ISMCTS does not prune its root to greedy's best
``rollout_value``         the rollout search judges by ``evaluate``
``choice_group``          the rollout search tries every action, grouped by none
``rollout_budget``        the rollout search's own (top, samples)
``rollout_rounds``        the rollout search plays to the end of the round (its ``rounds``)
========================  =====================================================================
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any, Protocol

from coffeetable.engine import Action, State


class Heuristics(Protocol):
    """A game's heuristics module. Every member is optional (see the module's table)."""

    #: Action types a real-time level may fall back on when it overlooks a play
    #: (Espresso: flip, recycle).
    FALLBACK_TYPES: frozenset[str]
    #: Which search the bot ``ismcts`` runs: "ismcts" (the tree) or "rollout".
    SEARCH: str
    #: ISMCTS's horizon in turns.
    SEARCH_TURNS: int
    #: ISMCTS keeps only greedy's best ``ROOT_TOP`` actions at its root.
    ROOT_TOP: int

    def action_value(self, state: State, seat: int, action: Action) -> float:
        """How good ``action`` is for ``seat`` now, for greedy (higher is better)."""

    def action_values(self, state: State, seat: int, actions: Sequence[Action]) -> list[float]:
        """``action_value`` of each action at once (faster when they share work)."""

    def evaluate(self, state: State) -> Sequence[float]:
        """Each seat's expected result (-1 .. 1) where a search stops short of the end."""

    def priors(self, state: State, seat: int, actions: Sequence[Action]) -> Sequence[float]:
        """Cheap values ordering ISMCTS's expansion (best first)."""

    def rollout_action(self, state: State, seat: int, rng: random.Random) -> Action:
        """The action a rollout plays for ``seat`` (cheaper than greedy, better than random)."""

    def repeats_positions(self, state: State, seat: int, actions: Sequence[Action]) -> list[bool]:
        """Per action: it returns the position to one it had earlier this turn (skipped)."""

    def repeats_position(self, state: State, seat: int, action: Action) -> bool:
        """``repeats_positions`` for one action."""

    def dominated(self, state: State, seat: int, actions: Sequence[Action]) -> list[bool]:
        """Per action: never better than another legal one (greedy and ISMCTS skip it)."""

    def action_key(self, state: State, seat: int, action: Action) -> Hashable:
        """What a real-time action means now (the cards it moves): a queued action whose key
        changed before its turn is refused as too slow."""

    def rollout_value(self, state: State) -> Sequence[float]:
        """The rollout search's judge at its horizon (else ``evaluate``)."""

    def choice_group(self, action: Action) -> str:
        """Actions the rollout search tries once, by the best of them."""

    def rollout_budget(self, state: State, top: int, samples: int) -> tuple[int, int]:
        """The rollout search's (top actions, samples) for this decision."""

    def rollout_rounds(self, state: State, rounds: int) -> int:
        """Rounds the rollout search plays from ``state``."""


#: Every hook's name: what ``hook`` may read.
HOOKS = frozenset(
    name for name in (*Heuristics.__annotations__, *vars(Heuristics)) if not name.startswith("_")
)


def hook(heuristics: object, name: str, default: Any = None) -> Any:
    """The heuristics' hook ``name`` (one of ``Heuristics``), or ``default`` without it."""
    if name not in HOOKS:
        raise AttributeError(f"{name!r} is not a hook of coffeetable.bots.hooks.Heuristics")
    return getattr(heuristics, name, default)
