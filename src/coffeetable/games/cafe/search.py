"""What Café asks of the rollout search (``coffeetable.bots.rollout``): which search its
``ismcts`` is, which candidates it keeps, how many deals it rolls out and how far its
rollouts play.

The heuristics module (``coffeetable.games.cafe.heuristics``) re-exports every name here:
the bots look the hooks up on it. Pure, like the heuristics: these read the round, the
phase and the seats, never a hidden card.

At 2 players a rollout may play past the round's end (``rollout_rounds``: ``MORE_ROUNDS``
more, or to the match's end from round ``TO_THE_END_FROM``), on ``NEXT_ROUND_DEALS`` deals
where the rest of this round hides nothing but a later round's cards are still to come;
3-4 players play as before.
"""

from __future__ import annotations

from coffeetable.engine import Action
from coffeetable.games.cafe.cards import ROUNDS
from coffeetable.games.cafe.rules import CafeState

#: The search the ``ismcts`` bot runs here (``coffeetable.bots.registry``): the rollout
#: algorithm over greedy (``coffeetable.bots.rollout``). The tree search, judging leaves by
#: ``evaluate`` after cheap rollouts, only tied greedy (docs/benchmarks.md); rolling greedy
#: itself out to the end of the round lets the round planner judge.
SEARCH = "rollout"


def choice_group(action: Action) -> str:
    """Actions a search tries once, by the best of them: a take's ways to pay for one card
    (greedy already values the payment; the rollouts are for telling cards apart)."""
    if action["type"] == "take":
        return f"take {action['card']}"
    return repr(sorted(action.items()))


#: The rollout search's placements and actions-phase actions kept (more than its default
#: ``top``: their rollouts need one deal each, as the rest of the round hides nothing).
ROLLOUT_PLACES = 8
ROLLOUT_ACTIONS = 5
#: Deals for a take with cards still to be revealed this round at 3-4 players (at 2: the
#: search's ``samples``).
TAKE_DEALS_MANY = 1


def unseen_reveals(state: CafeState) -> int:
    """Cards still to be revealed this round that the seat deciding cannot see yet: the
    refills after its own take (if any) and after each take still to come; none in the
    actions phase. Where it is 0 the rest of the round hides nothing: one deal is exact."""
    takers_after = state.players - 1 - state.turn
    if state.phase == "take":
        return max(0, takers_after)
    if state.phase == "place":
        return max(0, takers_after - 1)
    return 0


#: 2 players: rounds a rollout plays past the end of this one (0: it stops there), at most to
#: the match's end (where the result judges).
MORE_ROUNDS = 0
#: 2 players: from this round on a rollout plays to the match's end (9: never). 7: the last two
#: rounds judged by the result (100 matches paired with 4e0ef4c: 68 wins against 66).
TO_THE_END_FROM = 7
#: Deals for a place or an action (or a round's last take) whose rollouts play into a round
#: not dealt yet.
NEXT_ROUND_DEALS = 3


def rollout_rounds(state: CafeState, rounds: int) -> int:
    """Rounds the rollout search plays from ``state`` (``rounds``: the bot's own, 1 = to
    this round's end): at 2 players ``MORE_ROUNDS`` more, or to the match's end from round
    ``TO_THE_END_FROM``; at 3-4 players ``rounds``, as before."""
    if state.players != 2:
        return rounds
    left = ROUNDS - state.round + 1  # this round and those after it
    if state.round >= TO_THE_END_FROM:
        return left
    return min(left, rounds + MORE_ROUNDS)


def rollout_budget(state: CafeState, top: int, samples: int) -> tuple[int, int]:
    """(top, samples) for the rollout search. One deal wherever the rest of the round hides
    nothing (``unseen_reveals`` is 0: the last take of a round, every place at 2 players,
    the actions phase), and for a place (``ROLLOUT_PLACES`` placements, each rollout dearer
    than a take's); a take before others' reveals gets ``samples`` deals at 2 players (the
    cards revealed after it decide what the other takes, which the lead counts) and
    ``TAKE_DEALS_MANY`` at 3-4."""
    crosses = state.round < ROUNDS and rollout_rounds(state, 1) > 1
    if state.phase == "take":
        if unseen_reveals(state) == 0:
            return top, NEXT_ROUND_DEALS if crosses else 1
        return top, samples if state.players <= 2 else TAKE_DEALS_MANY
    deals = NEXT_ROUND_DEALS if crosses else 1
    if state.phase == "place":
        return max(top, ROLLOUT_PLACES), deals
    return max(top, ROLLOUT_ACTIONS), deals
