"""Rebuild a match from its log."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from coffeetable.engine.contract import Action, Event, Game, MatchLog, State


def game_named(name: str) -> Game:
    """The registered game called ``name`` (``KeyError`` if none is)."""
    from coffeetable import games  # a name needs the registry, one level up

    return games.get(name)


def replay(
    game: Game | str,
    players: int,
    seed: int,
    actions: Iterable[tuple[int | None, Action]] = (),
    options: Mapping[str, Any] | None = None,
) -> State:
    """Deal ``game`` from ``seed`` and apply ``actions`` in order.

    The same arguments always give the identical state; an action that does
    not apply raises ``IllegalAction`` (the log is corrupt).
    """
    if isinstance(game, str):
        game = game_named(game)
    state = game.new_state(players=players, seed=seed, **dict(options or {}))
    for seat, action in actions:
        state.apply(seat, action)
    return state


def replay_log(log: MatchLog | Mapping[str, Any]) -> State:
    """Replay a ``MatchLog`` (or its JSON form)."""
    if not isinstance(log, MatchLog):
        log = MatchLog.from_json(log)
    return replay(log.game, log.players, log.seed, log.actions, log.options)


def steps(log: MatchLog) -> Iterator[tuple[State, int | None, Action, list[Event]]]:
    """Replay ``log`` one action at a time: yield ``(state, seat, action, events)``
    after each action is applied (``state`` is the live state: clone it to keep it).

    For whoever needs every step rather than the end: the server's replays and the
    table rebuilding its recent events.
    """
    from coffeetable import games  # a name needs the registry, one level up

    state = games.get(log.game).new_state(players=log.players, seed=log.seed, **log.options)
    for seat, action in log.actions:
        events = state.apply(seat, action)
        yield state, seat, action, events
