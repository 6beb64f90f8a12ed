"""Replays of finished matches: the views come from the engine, replaying the log.

A replay is exactly the match: the server replays the stored log and hands the
browser the view of the seat it chose at each step, the way the seat saw it
then (``state.view(seat)``). Once a match is over its secrets are no longer
secret (the log endpoint serves the seed), so any seat's eyes may be chosen,
or a spectator's.

Frame 0 is the deal; frame ``k`` is the table after the ``k``-th action. A
request asks for a window of frames, so a long Espresso match is never sent
whole. The first request for a match replays it once and keeps a copy of the
state every ``CHECKPOINT_EVERY`` actions (and where its rounds start); a window
then replays from the copy just before it, at most ``CHECKPOINT_EVERY`` actions
more than it shows, whatever its place in the match (replaying the whole log
for every window took 70 ms of CPU a request for 22,664 actions). The last
``Limits.replay_cache`` matches replayed are kept (``ReplayCache``), for every
seat's eyes alike.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from coffeetable.engine import MatchLog, State

#: Most frames one request returns.
MAX_FRAMES = 100
#: Actions between two states kept of a replayed match.
CHECKPOINT_EVERY = 500


@dataclass
class Replayed:
    """A finished match replayed once: states kept along it, and its rounds."""

    log: MatchLog
    #: ``checkpoints[i]``: the state after ``i * CHECKPOINT_EVERY`` actions (0: the deal).
    checkpoints: list[State]
    every: int
    #: The frame where each round starts.
    rounds: list[int]
    #: The table's summary when it was replayed.
    summary: dict[str, Any]

    @property
    def players(self) -> int:
        return self.log.players

    def window(self, seat: int | None, start: int, count: int) -> dict[str, Any]:
        """Frames ``start .. start + count - 1`` seen by ``seat`` (see ``replay_window``)."""
        actions = self.log.actions
        total = len(actions) + 1
        stop = min(total, start + max(0, min(count, MAX_FRAMES)))
        window: list[dict[str, Any]] = []
        if start == 0 and stop > 0:
            window.append(_frame(0, None, None, [], self.checkpoints[0], seat))
        first = max(start, 1)
        if first < stop:  # from the state kept just before the first frame's action
            kept = (first - 1) // self.every
            state = self.checkpoints[kept].clone()
            for frame in range(kept * self.every + 1, stop):
                actor, action = actions[frame - 1]
                events = state.apply(actor, action)
                if frame >= first:
                    window.append(_frame(frame, actor, action, events, state, seat))
        return {"frames": total, "rounds": self.rounds, "window": window}


def prepare(log: MatchLog, summary: dict[str, Any] | None = None) -> Replayed:
    """Replay ``log`` once, keeping a state every ``CHECKPOINT_EVERY`` actions."""
    from coffeetable import games

    every = max(1, CHECKPOINT_EVERY)
    state = games.get(log.game).new_state(players=log.players, seed=log.seed, **log.options)
    checkpoints, rounds, last_round = [state.clone()], [0], state.round
    for frame, (actor, action) in enumerate(log.actions, start=1):
        state.apply(actor, action)
        if state.round != last_round:
            rounds.append(frame)
            last_round = state.round
        if frame % every == 0:
            checkpoints.append(state.clone())
    return Replayed(log, checkpoints, every, rounds, summary or {})


def replay_window(log: MatchLog, seat: int | None, start: int, count: int) -> dict[str, Any]:
    """Frames ``start .. start + count - 1`` of the match in ``log``, seen by ``seat``.

    Returns ``{"frames": total, "rounds": [frame where each round starts], "window":
    [{"frame", "seat", "action", "events", "round", "view"}, ...]}``. ``seat`` and
    ``action`` are None for frame 0 (the deal).
    """
    return prepare(log).window(seat, start, count)


class ReplayCache:
    """The last ``size`` finished matches replayed (least recently asked go first)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.kept: OrderedDict[str, Replayed] = OrderedDict()

    def get(self, table_id: str) -> Replayed | None:
        replayed = self.kept.get(table_id)
        if replayed is not None:
            self.kept.move_to_end(table_id)
        return replayed

    def put(self, table_id: str, replayed: Replayed) -> Replayed:
        """Keep ``replayed`` (a finished match's: it never changes)."""
        if self.size > 0:
            self.kept[table_id] = replayed
            self.kept.move_to_end(table_id)
            while len(self.kept) > self.size:
                self.kept.popitem(last=False)
        return replayed


def _frame(
    frame: int, actor: int | None, action: Any, events: list[Any], state: Any, seat: int | None
) -> dict[str, Any]:
    return {
        "frame": frame,
        "seat": actor,
        "action": action,
        "events": events,
        "round": state.round,
        "view": state.view(seat),
    }
