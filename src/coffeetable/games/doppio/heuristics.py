"""Espresso Doppio heuristics for bots: greedy action values, a rollout policy, an evaluation.

Pure: no I/O, no clock; randomness only from the generator passed in. Every
function reads only what ``state.view(seat)`` shows: the path, the face-up
cards of both seats, the beans, the reserve and the turn's counters. The draw
piles are never read.

The unit is the bean. For a path, ``met(path, cards)`` is the beans the
``cards`` would score on it now (each card read the better way round, every
match counted). The greedy bot (``action_value``) looks one action ahead:

=================  =================================================================
action             value
=================  =================================================================
move / exchange    ``met(after, mine) - OPPONENT * met(after, theirs)``: the beans it
                   makes available to the bot's face-up cards this turn, minus a
                   share of what the path it leaves gives the opponent next turn.
                   Solo: ``met(after, mine) - MOVE_COST`` (a move costs a bean).
score              ``met(now, mine) - OPPONENT * met(now, theirs) + SCORE_EDGE``:
                   what stopping here banks (scoring ends the moves; every met
                   card can still be scored). Solo, or the Espresso Master
                   variant: ``SCORE`` plus the card's beans (banked at once).
end_turn           ``-OPPONENT * met(now, theirs) - END_EDGE``: the fallback.
place (set-up)     ``met(after, mine) - OPPONENT * met(after, theirs)``.
=================  =================================================================

So greedy moves while a move makes more beans available, then scores every
met card (best first), then ends its turn; in solo it scores whatever is met
and moves only for a score when it can (a move must still be made when
nothing is met: all moves then tie, broken by the rng).

``rollout_action`` is a cheaper greedy for search rollouts (no look at the
opponent); ``evaluate`` values a position in [-1, 1] per seat for ISMCTS.

Two rules every bot follows (``coffeetable.bots.base``), as hooks:

- ``repeats_positions``: a move or exchange that returns the path to one it
  already had earlier in the turn (since the last score) wastes actions (or,
  solo, beans): the same path was there with more left to spend. Every bot
  skips them. The turn's earlier paths are the rules' undo stack (the path
  before each move of the turn, emptied by a score), so nothing is replayed;
  the path history is public (everyone saw the moves).
- ``dominated``: ``end_turn`` while a free score is legal (``free_score``: it
  banks beans, and it does not end the round or the match, so it changes
  nothing but the beans and the card's place, refilled at the end of the
  turn). The bots that play by value (greedy, ISMCTS) skip it; the greedy
  values above rank every score above ``end_turn`` anyway. Also ``end_turn``
  that would end the match by the repetition ruling (``ends_behind``: the same
  whole position beginning a turn a third time) while the seat has fewer beans:
  a bot behind prefers progress over a repetition that loses (issue #31).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from coffeetable.engine import Action
from coffeetable.games.doppio.cards import BY_ID, CARDS_PER_PLAYER, COLOURS, FACE_UP, KINDS
from coffeetable.games.doppio.measures import Standing, matches, met, standing
from coffeetable.games.doppio.patterns import Space
from coffeetable.games.doppio.rules import (
    ACTIONS_PER_TURN,
    REPETITIONS,
    DoppioState,
    move_masks,
)

Path = tuple[Space, ...]

#: Share of the opponent's met beans counted against a path the bot leaves.
OPPONENT = 0.5
#: A score beats a move that makes no more beans available.
SCORE_EDGE = 0.01
#: Solo or Master: a score is banked at once, ahead of any move.
SCORE = 100.0
#: end_turn trails a score that banks nothing extra.
END_EDGE = 0.02
#: Solo: each move or exchange costs a bean.
MOVE_COST = 1.0
#: evaluate: weight of the met beans of the seat to move (mid-turn: it scores them).
MOVER_REACH = 1.0
#: evaluate: the moves of that greedy climb (a turn has up to three).
REACH_MOVES = 3
MOVER_MET_MID_TURN = 1.0
#: evaluate: weight of the met beans of the seat that waits (the mover may break them).
WAITER_MET = 0.25
#: evaluate, as round 2 opens: weight of the waiting seat's climb after the mover's.
NEXT_REACH = 1.0
#: evaluate: a bean lead of SCALE is worth tanh(1) (about 0.76).
SCALE = 20.0
#: evaluate, solo: beans around which the value is 0, and its scale.
SOLO_MIDDLE = 11.0
SOLO_SCALE = 6.0


_KIND = {name: index for index, name in enumerate(KINDS)}
_COLOUR = {name: index for index, name in enumerate(COLOURS)}
#: mask (cup 1, saucer 2, spoon 4) -> its non-empty sub-masks, and the kind names in it.
_BITS = [[k for k in range(3) if mask >> k & 1] for mask in range(8)]
_NAMES = [[KINDS[k] for k in bits] for bits in _BITS]


def after(path: Sequence[Space], action: Mapping[str, Any]) -> Path:
    """The path once ``action`` (place, move or exchange) is made; unchanged for the others."""
    out = list(path)
    kind = action["type"]
    if kind == "place":
        index = action["space"]
        space = list(out[index])
        space[_KIND[action["kind"]]] = _COLOUR[action["colour"]]
        out[index] = (space[0], space[1], space[2])
    elif kind == "move" or kind == "exchange":
        given = sum(1 << _KIND[name] for name in action["kinds"])
        taken = sum(1 << _KIND[name] for name in action.get("with", ()))
        return _swap(path, action["from"], action["to"], given, taken)
    return tuple(out)


def _swap_table(given: int, taken: int) -> tuple[int, ...]:
    """Where each element of the two spaces comes from, as indices into ``a + b + (None,)``."""
    a = [3 + k if taken >> k & 1 else 6 if given >> k & 1 else k for k in range(3)]
    b = [k if given >> k & 1 else 6 if taken >> k & 1 else 3 + k for k in range(3)]
    return (*a, *b)


_SWAPS = [[_swap_table(given, taken) for taken in range(8)] for given in range(8)]


def _swap(path: Sequence[Space], start: int, end: int, given: int, taken: int) -> Path:
    """``given`` kinds (a mask) go from ``start`` to ``end``, ``taken`` kinds come back."""
    ab = (*path[start], *path[end], None)
    a0, a1, a2, b0, b1, b2 = _SWAPS[given][taken]
    out = list(path)
    out[start] = (ab[a0], ab[a1], ab[a2])
    out[end] = (ab[b0], ab[b1], ab[b2])
    return tuple(out)


def _moves(path: Path) -> list[tuple[Path, int, int, int, int]]:
    """Every legal move and exchange as (path after, from, to, given, taken), without
    building the action dicts."""
    return [
        (_swap(path, start, end, given, taken), start, end, given, taken)
        for start, end, given, taken in move_masks(path)
    ]


MoveMasks = list[tuple[int, int, int, int]]


def _best_of(
    moves: list[tuple[Path, int, int, int, int]], cards: tuple[int, ...]
) -> tuple[Standing, MoveMasks]:
    values = [standing(later, cards) for later, *_ in moves]
    top = max(values)
    return top, [move[1:] for move, value in zip(moves, values, strict=True) if value == top]


@lru_cache(maxsize=1 << 15)
def _best_moves(path: Path, cards: tuple[int, ...]) -> tuple[Standing, MoveMasks]:
    """The best one move can do for ``cards`` (most beans met, then nearest to meeting the
    others: ``measures.nearness``), and the moves that do it (from, to, given, taken)."""
    return _best_of(_moves(path), cards)


def reach(path: Path, cards: tuple[int, ...], moves: int) -> int:
    """The beans ``cards`` meet after up to ``moves`` greedy moves (each the first of the
    best, while that is better: more beans met, or as many and nearer to more): what a
    player climbing greedily would score on its turn from ``path``, two- and three-move
    set-ups included where each move brings a card nearer."""
    return climb_to(path, cards, moves)[0]


@lru_cache(maxsize=1 << 15)
def climb_to(path: Path, cards: tuple[int, ...], moves: int) -> tuple[int, Path]:
    """``reach`` and the path that greedy climb ends on."""
    best = standing(path, cards)
    for _ in range(moves):
        top, found = _best_moves(path, cards)
        if top <= best:
            break
        best, path = top, _swap(path, *found[0])
    return best[0], path


def _move_action(start: int, end: int, given: int, taken: int) -> Action:
    if not taken:
        return {"type": "move", "from": start, "to": end, "kinds": _NAMES[given]}
    return {
        "type": "exchange",
        "from": start,
        "to": end,
        "kinds": _NAMES[given],
        "with": _NAMES[taken],
    }


def _opponent_cards(state: DoppioState, seat: int) -> list[int]:
    return state.face_up[1 - seat] if state.players == 2 else []


def _banks_at_once(state: DoppioState) -> bool:
    return state.players == 1 or state.master


def _value(state: DoppioState, seat: int, path: Path, action: Action) -> float:
    mine, theirs = state.face_up[seat], _opponent_cards(state, seat)
    kind = action.get("type")
    if kind == "score":
        card = int(action["card"])
        gained = BY_ID[card].beans * matches(path, card)[1 if action.get("turned") else 0]
        if _banks_at_once(state):
            return SCORE + gained
        return met(path, mine) - OPPONENT * met(path, theirs) + SCORE_EDGE + 1e-3 * gained
    if kind == "end_turn":
        return -OPPONENT * met(path, theirs) - END_EDGE
    later = after(path, action)
    if state.players == 1:
        return met(later, mine) - MOVE_COST
    return met(later, mine) - OPPONENT * met(later, theirs)


def action_values(state: DoppioState, seat: int, actions: Sequence[Action]) -> list[float]:
    """How good each of ``actions`` looks to ``seat`` (see the module's table); higher is better."""
    path = tuple(state.path)
    return [_value(state, seat, path, action) for action in actions]


def action_value(state: DoppioState, seat: int, action: Action) -> float:
    """How good ``action`` looks to ``seat`` (see the module's table); higher is better."""
    return _value(state, seat, tuple(state.path), action)


def rollout_action(state: DoppioState, seat: int, rng: random.Random) -> Action:
    """A quick greedy for search rollouts: bank what is met, else the move that meets most.

    In a two-player turn: move while a move makes more beans available than
    are met now, or as many with the other cards nearer (``measures.nearness``;
    the first move of a turn always), then score the best met card, then end
    the turn. Solo (and Master): score whatever is met first, else the move
    that meets most (then the nearest). A move never returns the path to one it had
    earlier in the turn (``repeats_positions``). Ties are broken by ``rng``; set-up places
    at random. Reads the state's counters rather than ``legal_actions``, for
    speed (tests/bots/test_doppio_bots.py checks the action is legal).
    """
    if state.phase == "setup":
        return rng.choice(state.legal_actions(seat))
    path, mine = tuple(state.path), state.face_up[seat]
    solo = state.players == 1
    may_score = solo or state.master or state.actions_taken > 0
    if solo:
        may_move = state.beans[0] > 0
    else:
        may_move = state.actions_taken < ACTIONS_PER_TURN and (
            state.master or not state.scored_this_turn
        )
    best_score: Action | None = None
    if may_score:
        beans, card = max((met(path, (card,)), card) for card in mine) if mine else (0, 0)
        if beans:
            upright, turned = matches(path, card)
            best_score = {"type": "score", "card": card, "turned": upright < turned}
    if best_score is not None and (_banks_at_once(state) or not may_move):
        return best_score
    if may_move:
        cards = tuple(mine)
        top, best = _fresh_best_moves(path, cards, _earlier(state))
        if best_score is None and (solo or state.actions_taken == 0) or top > standing(path, cards):
            return _move_action(*rng.choice(best))
    if best_score is not None:
        return best_score
    return {"type": "end_turn"}


def _earlier(state: DoppioState) -> frozenset[Path]:
    """The paths the turn had before its moves since the last score (the undo stack)."""
    return frozenset(tuple(path) for path, _ in state.undo_stack)


def _fresh_best_moves(
    path: Path, cards: tuple[int, ...], earlier: frozenset[Path]
) -> tuple[Standing, MoveMasks]:
    """``_best_moves`` without the moves back to an ``earlier`` path (all of them if every
    move goes back: a move may be due)."""
    top, best = _best_moves(path, cards)
    if not earlier:
        return top, best
    fresh = [move for move in best if _swap(path, *move) not in earlier]
    if fresh:
        return top, fresh
    moves = [move for move in _moves(path) if move[0] not in earlier]
    if not moves:
        return top, best
    return _best_of(moves, cards)


def repeats_positions(state: DoppioState, seat: int, actions: Sequence[Action]) -> list[bool]:
    """For each of ``actions``: does it return the path to one it had earlier this turn?

    Only a move or exchange can (anything else leaves the path, or changes the
    cards). Within a turn, until something is scored, the cards and beans stand
    still (solo: each move costs a bean), so the path is the position; a score
    starts afresh, as the rules' undo stack does. Quick: one move changes two
    spaces, so only the moves between the two spaces where an earlier path
    differs from this one are made.
    """
    if not state.undo_stack:
        return [False] * len(actions)
    path = tuple(state.path)
    targets: dict[tuple[int, int], set[Path]] = {}
    for earlier in _earlier(state):
        differ = [i for i, (a, b) in enumerate(zip(earlier, path, strict=True)) if a != b]
        if len(differ) == 2:
            targets.setdefault((differ[0], differ[1]), set()).add(earlier)
    if not targets:
        return [False] * len(actions)
    out = []
    for action in actions:
        kind = action.get("type")
        if kind != "move" and kind != "exchange":
            out.append(False)
            continue
        start, end = action["from"], action["to"]
        found = targets.get((start, end) if start < end else (end, start))
        out.append(found is not None and after(path, action) in found)
    return out


def repeats_position(state: DoppioState, seat: int, action: Action) -> bool:
    """Does ``action`` return the path to one it had earlier this turn? (``repeats_positions``)"""
    return repeats_positions(state, seat, [action])[0]


def free_score(state: DoppioState, seat: int, action: Action) -> bool:
    """Is ``action`` a legal score that is strictly good, whatever else the bot might do?

    Two players; the card is met that way round now and scoring is allowed; the
    reserve is not empty (it banks beans); and it is not the seat's last card
    of the round (that ends the round, handing the cards over, or the match:
    things an evaluation may weigh). Then it changes nothing but the beans and
    the card's place (refilled at the end of the turn): ending the turn instead
    is never better.
    """
    if action.get("type") != "score" or state.players != 2 or state.phase != "play":
        return False
    if seat != state.current or not state.reserve or not (state.master or state.actions_taken):
        return False
    if len(state.scored[seat]) >= CARDS_PER_PLAYER - 1:
        return False
    card = action.get("card")
    if card not in state.face_up[seat]:
        return False
    return matches(tuple(state.path), int(card))[1 if action.get("turned") else 0] > 0


def ends_behind(state: DoppioState, seat: int) -> bool:
    """Would ``end_turn`` now end the match by the repetition ruling with ``seat`` behind
    in beans? (The position the next turn begins in, after the refill, has begun a turn
    twice already.) The rules' own count (``turn_starts``) is read, nothing is applied."""
    if (
        not state.repetition_ends
        or state.players != 2
        or state.beans[seat] >= state.beans[1 - seat]
    ):
        return False
    face_up = [list(cards) for cards in state.face_up]
    piles = [list(pile) for pile in state.piles]
    while len(face_up[seat]) < FACE_UP and piles[seat]:
        face_up[seat].append(piles[seat].pop())
    position = (
        1 - seat,
        state.round_number,
        tuple(state.path),
        tuple(map(tuple, face_up)),
        tuple(map(tuple, piles)),
    )
    return state.turn_starts.get(position, 0) + 1 >= REPETITIONS


def dominated(state: DoppioState, seat: int, actions: Sequence[Action]) -> list[bool]:
    """For each of ``actions``: is it never better than another of them? ``end_turn`` while
    a free score (``free_score``) is among them, or while it would lose the match by the
    repetition ruling (``ends_behind``)."""
    out = [False] * len(actions)
    ends = [i for i, action in enumerate(actions) if action.get("type") == "end_turn"]
    if ends and (
        any(free_score(state, seat, action) for action in actions) or ends_behind(state, seat)
    ):
        for i in ends:
            out[i] = True
    return out


def _round_two_opens(state: DoppioState) -> bool:
    """Round 2 has begun and nothing is scored in it yet: both seats hold fresh cards."""
    return state.round_number == 2 and not state.scored[0] and not state.scored[1]


def evaluate(state: DoppioState) -> list[float]:
    """The position's value in [-1, 1] for each seat: beans, plus cards met on the path.

    Two players: ``tanh((projected[s] - projected[other]) / SCALE)``, where a
    seat's projection is its beans plus its met beans, weighted by who moves
    next (the mover scores them: ``MOVER_MET``, or ``MOVER_MET_MID_TURN`` once
    it has moved; the other seat's may be broken first: ``WAITER_MET``). The
    end of the match counts beans only. Solo: ``tanh((beans + met -
    SOLO_MIDDLE) / SOLO_SCALE)``.

    Until a card is scored in round 2 (``_round_two_opens``), the waiting seat
    counts its own coming climb too (``NEXT_REACH``), from where the mover's
    climb leaves the path: both hold fresh cards then, and counting only the
    opener's would make ending round 1 look like handing over a free turn. Two
    searching bots then never scored the round's last card (docs/benchmarks.md, "Bot
    levels").
    """
    path = tuple(state.path)
    over = state.is_over
    if state.players == 1:
        beans = state.beans[0] + (0 if over else met(path, state.face_up[0]))
        return [math.tanh((beans - SOLO_MIDDLE) / SOLO_SCALE)]
    projected = [float(b) for b in state.beans]
    if not over and state.phase == "play":
        mover = state.current
        waiter = 1 - mover
        mine, theirs = tuple(state.face_up[mover]), tuple(state.face_up[waiter])
        if state.actions_taken:  # the mover may score now
            projected[mover] += MOVER_MET_MID_TURN * met(path, mine)
            projected[waiter] += WAITER_MET * met(path, theirs)
        else:  # its coming turn: a greedy climb's worth
            gained, later = climb_to(path, mine, REACH_MOVES)
            projected[mover] += MOVER_REACH * gained
            if _round_two_opens(state):
                projected[waiter] += NEXT_REACH * reach(later, theirs, REACH_MOVES)
            else:
                projected[waiter] += WAITER_MET * met(path, theirs)
    lead = math.tanh((projected[0] - projected[1]) / SCALE)
    return [lead, -lead]
