"""Stored logs replay identically: every ``tests/data/logs/<game>/*.json``.

Each file was recorded by this module's ``record`` (random and greedy bots playing
a seeded match to its end) with the engine of its day. Replaying it through
``engine.replay`` must give, after every action, the same views (one sha256 over
every seat's view and the spectator's) and, at the end, the same scores and
winners. An engine made faster must leave them all unchanged.

A rule that changes play comes with a game option, so that an old log can name the
rules it was played under in its options: Doppio's empty-reserve ruling is
``reserve_ends``, and ``doppio/2p-greedy-seed5.json`` (which went on after the reserve
emptied) says ``"reserve_ends": false``.

Record a new log (never re-record an old one to make a test pass)::

    python3 -m tests.engine.test_stored_logs doppio 2 7 --bots greedy,random \\
        --options '{"master": true}' --out tests/data/logs/doppio/master-2p-seed7.json

The format is ``record``'s return value (Café's tests/games/cafe/record_logs.py writes the same).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from coffeetable import games
from coffeetable.bots.registry import make
from coffeetable.engine import replay
from coffeetable.engine.contract import State

LOGS = Path(__file__).resolve().parents[1] / "data" / "logs"
#: A match longer than this is cut short: a log should stay small (and the engine is broken).
MAX_ACTIONS = 5000


def views_digest(state: State) -> str:
    """One sha256 over every seat's view then the spectator's, as canonical JSON."""
    views = [state.view(seat) for seat in range(state.players)] + [state.view(None)]
    return hashlib.sha256(json.dumps(views, sort_keys=True).encode()).hexdigest()


def record(
    game: str, players: int, seed: int, bots: list[str], options: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Play a seeded match to its end with ``bots`` (one name per seat, cycled) and
    return the log: game, players, seed, options, bots, actions as [seat, action],
    and the expected result: scores, winners and ``digests`` (``views_digest``
    after each action, one per action)."""
    found = games.get(game)
    options = dict(options or {})
    state = found.new_state(players=players, seed=seed, **options)
    seats = [make(bots[seat % len(bots)], game) for seat in range(players)]
    rng = random.Random(seed)
    actions: list[list[Any]] = []
    digests: list[str] = []
    while not state.is_over:
        if len(actions) >= MAX_ACTIONS:
            raise RuntimeError(f"{game} seed {seed}: no end after {MAX_ACTIONS} actions")
        actors = state.actors()
        rng.shuffle(actors)
        chosen: tuple[int | None, Any] | None = None
        for seat in actors:
            action = seats[seat].act(state, seat, rng)
            if action is not None:
                chosen = (seat, action)
                break
        if chosen is None:  # nobody can act: a real-time table's idle rule
            if not found.realtime:
                raise RuntimeError(f"{game} seed {seed}: nobody can act")
            chosen = (None, {"type": "idle"})
        state.apply(*chosen)
        actions.append([chosen[0], chosen[1]])
        digests.append(views_digest(state))
    return {
        "game": found.name,
        "players": players,
        "seed": seed,
        "options": options,
        "bots": bots,
        "actions": actions,
        "scores": list(state.scores),
        "winners": list(state.winners),
        "digests": digests,
    }


def _logs() -> list[Path]:
    return sorted(LOGS.glob("*/*.json"))


def test_there_are_stored_logs() -> None:
    found = {path.parent.name for path in _logs()}
    assert {"doppio", "espresso", "fika"} <= found


@pytest.mark.parametrize("path", _logs(), ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_stored_log_replays_identically(path: Path) -> None:
    log = json.loads(path.read_text())
    expected = log
    assert len(expected["digests"]) == len(log["actions"])
    state = games.get(log["game"]).new_state(
        players=log["players"], seed=log["seed"], **log["options"]
    )
    for index, ((seat, action), digest) in enumerate(
        zip(log["actions"], expected["digests"], strict=True)
    ):
        state.apply(seat, action)
        assert views_digest(state) == digest, f"views differ after action {index}: {action}"
    assert state.is_over
    assert list(state.scores) == expected["scores"]
    assert list(state.winners) == expected["winners"]
    # engine.replay, the store's own door, reaches the same end state.
    again = replay(
        log["game"],
        log["players"],
        log["seed"],
        [(seat, action) for seat, action in log["actions"]],
        log["options"],
    )
    assert views_digest(again) == expected["digests"][-1]
    assert list(again.scores) == expected["scores"]


def test_a_changed_log_is_caught() -> None:
    """The check can fail: one action of a stored log swapped for another legal one."""
    path = _logs()[0]
    log = json.loads(path.read_text())
    state = games.get(log["game"]).new_state(
        players=log["players"], seed=log["seed"], **log["options"]
    )
    seat, action = log["actions"][0]
    others = [other for other in state.legal_actions(seat) if other != action]
    assert others, "the first action had no alternative"
    state.apply(seat, others[0])
    assert views_digest(state) != log["digests"][0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Record a stored log for this test.")
    parser.add_argument("game")
    parser.add_argument("players", type=int)
    parser.add_argument("seed", type=int)
    parser.add_argument("--bots", default="greedy,random", help="one name per seat, cycled")
    parser.add_argument("--options", default="{}", help="game options as JSON")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    log = record(args.game, args.players, args.seed, args.bots.split(","), json.loads(args.options))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(log, separators=(",", ":")) + "\n")
    print(f"{args.out}: {len(log['actions'])} actions, scores {log['scores']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
