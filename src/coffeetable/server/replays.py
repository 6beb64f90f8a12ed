"""Replays of finished matches: the views come from the engine, replaying the log.

A replay is exactly the match: the server replays the stored log and hands the
browser the view of the seat it chose at each step, the way the seat saw it
then (``state.view(seat)``). Once a match is over its secrets are no longer
secret (the log endpoint serves the seed), so any seat's eyes may be chosen,
or a spectator's.

Frame 0 is the deal; frame ``k`` is the table after the ``k``-th action. A
request asks for a window of frames, so a long Espresso match is never sent
whole; replaying is cheap (the engines do tens of thousands of actions a
second), so each window replays from the deal.
"""

from __future__ import annotations

from typing import Any

from coffeetable.engine import MatchLog
from coffeetable.engine.replay import steps

#: Most frames one request returns.
MAX_FRAMES = 100


def replay_window(log: MatchLog, seat: int | None, start: int, count: int) -> dict[str, Any]:
    """Frames ``start .. start + count - 1`` of the match in ``log``, seen by ``seat``.

    Returns ``{"frames": total, "rounds": [frame where each round starts], "window":
    [{"frame", "seat", "action", "events", "round", "view"}, ...]}``. ``seat`` and
    ``action`` are None for frame 0 (the deal).
    """
    total = len(log.actions) + 1
    stop = min(total, start + max(0, min(count, MAX_FRAMES)))
    from coffeetable import games

    deal = games.get(log.game).new_state(players=log.players, seed=log.seed, **log.options)
    rounds = [0]
    last_round = deal.round
    window: list[dict[str, Any]] = []
    if start == 0 and stop > 0:
        window.append(_frame(0, None, None, [], deal, seat))
    for frame, (state, actor, action, events) in enumerate(steps(log), start=1):
        if state.round != last_round:
            rounds.append(frame)
            last_round = state.round
        if start <= frame < stop:
            window.append(_frame(frame, actor, action, events, state, seat))
    return {"frames": total, "rounds": rounds, "window": window}


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
