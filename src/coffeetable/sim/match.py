"""One bot match, real-time or turn-based, summed up as a small JSON-able dict.

``play_match`` is what the arena's worker processes run. A real-time game
(``game.realtime``) goes through the discrete-event simulator
(``coffeetable.sim.realtime``); any other game through the turn loop
(``coffeetable.sim.turns``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from coffeetable import games
from coffeetable.engine import MatchLog
from coffeetable.sim.realtime import bot_rngs, simulate
from coffeetable.sim.remote import make_seat
from coffeetable.sim.turns import play_turns


def play_match(
    game_name: str,
    bot_names: Sequence[str],
    seed: int,
    options: Mapping[str, Any] | None = None,
) -> tuple[dict[str, Any], MatchLog]:
    """Play one match, one bot per seat (``bot_names[seat]``); returns (summary, log).

    The summary: ``seed``, ``bots`` (per seat), ``scores``, ``winners``,
    ``rounds`` (number), ``round_points`` (one list per round), ``finito``
    (the caller per round, or None), ``actions`` (applied), ``refused`` (per
    seat, real time only), ``seconds`` (virtual, real time only) and ``rank``
    (the spectator view's ``"rank"`` at the end, e.g. a solo ranking, if any).
    Round events without ``points`` (Doppio's) are not counted: such a match
    is one "round" of its final scores.
    """
    game = games.get(game_name)
    players = len(bot_names)
    seats = [make_seat(name, game_name) for name in bot_names]  # remote:URL too
    resolved = game.resolve_options(options)
    summary: dict[str, Any] = {"seed": seed, "bots": list(bot_names)}
    if game.realtime:
        result = simulate(game, seats, seed=seed, options=resolved)
        state, log = result.state, result.log
        summary["round_points"] = [record.points for record in result.rounds]
        summary["finito"] = [record.finito for record in result.rounds]
        summary["refused"] = result.refused
        summary["seconds"] = round(result.seconds, 3)
    else:
        state = game.new_state(players=players, seed=seed, **resolved)
        actions, rounds = play_turns(state, seats, bot_rngs(seed, players))
        log = MatchLog(game_name, players, seed, resolved, actions)
        scored = [event for event in rounds if "points" in event]
        summary["round_points"] = [list(event["points"]) for event in scored]
        summary["finito"] = [event.get("finito") for event in scored]
    if not summary["round_points"]:  # no round events with points: one round, its scores
        summary["round_points"] = [state.scores]
        summary["finito"] = [None]
    rank = state.view(None).get("rank")  # a solo game's final ranking, if it has one
    if rank is not None:
        summary["rank"] = rank
    summary.update(
        scores=state.scores,
        winners=state.winners,
        rounds=len(summary["round_points"]),
        actions=len(log.actions),
    )
    return summary, log
