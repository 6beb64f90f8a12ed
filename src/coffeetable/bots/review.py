"""Review a finished match with the bot: for each of a person's decisions, the move
the search prefers and what the person's choice cost by its estimate.

Game-agnostic and pure (no I/O, no clock): the server runs it in worker processes
(``coffeetable.server.api.review_jobs``), tests call it directly.

A decision is one action of a reviewed seat in the log, taken where the seat had
a real choice (at least two actions the bot would weigh, the person's own among
them; ``undo`` is a correction, not a decision, and is never judged). It is
judged from the seat's information set, as the seat saw it then: the search
(``ISMCTSBot.analyse``) determinizes the hidden cards from what the seat could
see, never from the cards the log reveals, since judging a person by cards they
could not see would be unfair. The person's action is searched too
(``include``) even where the bot would skip it (a dominated move).

``best`` is the action the search visits most (what the bot would play) and
``cost`` is ``best's value - played's value`` (clamped at 0; exactly 0 when the
person played ``best``): the drop in the bot's estimate, a win chance in [0, 1]
where the search reaches the end of the match, its normalised evaluation of the
position otherwise. ``played_events`` and ``best_events`` are the public events
each move causes from that position (what the game's log tells of it), so that a
page can say the moves in the board's own words, as its log does. Every decision
is searched with its own seed, drawn from the review's seed and the decision's
place in the log, so a review is reproducible and its parts may run in any order,
in any process.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from coffeetable.bots.ismcts import ISMCTSBot, action_key
from coffeetable.bots.registry import heuristics
from coffeetable.engine import Action, Event, MatchLog, State

#: Search iterations per decision when none is given.
ITERATIONS = 300


@dataclass(frozen=True)
class Judgement:
    """One decision judged: where it was, what was played, what the bot prefers."""

    #: The action's place in the log (0: the first action); the position it was
    #: taken in is replay frame ``index``, the one it led to frame ``index + 1``.
    index: int
    seat: int
    round: int
    played: Action
    best: Action
    #: The search's estimates for the seat, in [0, 1] (None: never searched).
    played_value: float | None
    best_value: float | None
    #: ``best_value - played_value``, at least 0; None when the played action was
    #: never searched (a budget smaller than the choices).
    cost: float | None
    #: How many actions the search weighed.
    choices: int
    #: The public events the played and the best move cause from that position:
    #: what the game's log would tell of each (empty when a move tells nothing).
    played_events: list[Event] = field(default_factory=list)
    best_events: list[Event] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def review_bot(game: str, iterations: int = ITERATIONS) -> ISMCTSBot:
    """The searching bot a review asks: ISMCTS with the game's heuristics."""
    return ISMCTSBot(heuristics(game), iterations=iterations)


def decision_seed(seed: int, index: int) -> int:
    """The search seed of the decision at ``index`` (independent of the others)."""
    return random.Random(f"review:{seed}:{index}").getrandbits(63)


def judge(
    bot: ISMCTSBot, state: State, seat: int, played: Action, *, seed: int = 0, index: int = 0
) -> Judgement | None:
    """Judge ``seat`` playing ``played`` in ``state`` (which is left untouched).

    None when it was no decision (``undo``, or a single action to weigh), or when
    ``played`` is not one of the legal actions as the engine spells them (the
    engine accepted another spelling of one: there is nothing to compare).
    """
    if played.get("type") == "undo":
        return None
    values = bot.analyse(state, seat, seed=seed, include=[played])
    if len(values) < 2:
        return None
    best = values[0]
    key = action_key(played)
    mine = next((value for value in values if action_key(value.action) == key), None)
    if mine is None:  # the engine took another spelling of a legal action: not judged
        return None
    if action_key(best.action) == key:
        cost: float | None = 0.0
    elif mine.value is None or best.value is None:
        cost = None
    else:
        cost = max(0.0, best.value - mine.value)
    return Judgement(
        index=index,
        seat=seat,
        round=state.round,
        played=played,
        best=best.action,
        played_value=mine.value,
        best_value=best.value,
        cost=cost,
        choices=len(values),
    )


def decisions(log: MatchLog, seats: Collection[int]) -> list[int]:
    """The places in ``log`` of the actions of ``seats`` that may be decisions
    (``judge`` drops those without a choice).

    Not ``undo``, and not an action its seat took back with ``undo``: that was not
    the decision the person kept. An undo takes back its seat's last action still
    standing (Doppio's undo reverts the turn's last move, and nothing past a score).
    """
    kept: dict[int, list[int]] = {}
    for index, (seat, action) in enumerate(log.actions):
        if seat is None or seat not in seats:
            continue
        mine = kept.setdefault(seat, [])
        if action.get("type") == "undo":
            if mine:
                mine.pop()
        else:
            mine.append(index)
    return sorted(index for indices in kept.values() for index in indices)


def judge_many(
    log: MatchLog,
    indices: Iterable[int],
    *,
    iterations: int = ITERATIONS,
    seed: int = 0,
    on_each: Callable[[int], None] | None = None,
) -> list[Judgement]:
    """Judge the actions of ``log`` at ``indices`` (replaying the log once, in order).

    ``on_each(index)`` is called after each one (progress). The same log, indices,
    iterations and seed always give the same judgements.
    """
    from coffeetable import games

    wanted = sorted(set(indices))
    if wanted and not 0 <= wanted[0] <= wanted[-1] < len(log.actions):
        raise ValueError(f"the log has {len(log.actions)} actions; no action {wanted[-1]}")
    bot = review_bot(log.game, iterations)
    state = games.get(log.game).new_state(players=log.players, seed=log.seed, **log.options)
    out: list[Judgement] = []
    done = 0
    for index, (seat, action) in enumerate(log.actions):
        if done == len(wanted):
            break
        if index == wanted[done]:
            if seat is None:
                raise ValueError(f"action {index} is the table's, not a seat's")
            found = judge(bot, state, seat, action, seed=decision_seed(seed, index), index=index)
            if found is not None:
                same = action_key(found.best) == action_key(action)
                best_events = None if same else state.clone().apply(seat, found.best)
                played_events = state.apply(seat, action)
                out.append(
                    replace(
                        found,
                        played_events=played_events,
                        best_events=played_events if best_events is None else best_events,
                    )
                )
            else:
                state.apply(seat, action)
            done += 1
            if on_each is not None:
                on_each(index)
            continue
        state.apply(seat, action)
    return out


def mistakes_first(judgements: Iterable[Judgement]) -> list[Judgement]:
    """Biggest cost first (unknown costs last), then in the order they were played."""
    return sorted(judgements, key=lambda j: (j.cost is None, -(j.cost or 0.0), j.index))


def judge_chunk(
    log_json: Mapping[str, Any], indices: list[int], iterations: int, seed: int
) -> list[dict[str, Any]]:
    """``judge_many`` on plain JSON in and out (what a worker process is handed)."""
    log = MatchLog.from_json(log_json)
    return [j.to_json() for j in judge_many(log, indices, iterations=iterations, seed=seed)]
