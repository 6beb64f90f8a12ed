"""Record Café's stored logs (tests/data/logs/cafe/*.json) with today's engine.

    python3 tests/games/cafe/record_logs.py

Seeded matches of 1 to 4 players (random and greedy bots, the Master option
drawn or set) played to the end. Each file holds the game, players, seed,
options, the actions, the result (scores, winners) and, after every action, the
sha256 of every seat's view and the spectator's (the format of
/work/briefs/stored-logs-format.md). Run it only to record a new set: the point
of the files is that a later engine replays them to the same digests.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from coffeetable import games
from coffeetable.bots.registry import make
from coffeetable.engine import State

OUT = Path(__file__).resolve().parents[2] / "data" / "logs" / "cafe"

#: (file name, players, seed, options, bot per seat)
MATCHES: list[tuple[str, int, int, dict[str, Any], list[str]]] = [
    ("solo-greedy", 1, 11, {}, ["greedy"]),
    ("solo-random-master0", 1, 12, {"master": 0}, ["random"]),
    ("2p-random", 2, 21, {}, ["random", "random"]),
    ("2p-greedy-random-master1", 2, 22, {"master": 1}, ["greedy", "random"]),
    ("3p-random-master2", 3, 31, {"master": 2}, ["random", "random", "random"]),
    ("3p-greedy", 3, 32, {}, ["greedy", "random", "greedy"]),
    ("4p-random", 4, 41, {}, ["random"] * 4),
    ("4p-mixed-master3", 4, 42, {"master": 3}, ["greedy", "random", "random", "greedy"]),
]


def digest(state: State) -> str:
    """sha256 of every seat's view and the spectator's, as stored-logs-format.md says."""
    views = [state.view(seat) for seat in range(state.players)] + [state.view(None)]
    return hashlib.sha256(json.dumps(views, sort_keys=True).encode()).hexdigest()


def record(players: int, seed: int, options: dict[str, Any], bots: list[str]) -> dict[str, Any]:
    """Play one seeded match to the end; its stored-log JSON."""
    game = games.get("cafe")
    state = game.new_state(players=players, seed=seed, **options)
    seats = [make(name, "cafe") for name in bots]
    rng = random.Random(seed)
    played: list[list[Any]] = []
    digests: list[str] = []
    while not state.is_over:
        seat = rng.choice(state.actors())
        action = seats[seat].choose(state, seat, rng)
        state.apply(seat, action)
        played.append([seat, action])
        digests.append(digest(state))
    return {
        "game": "cafe",
        "players": players,
        "seed": seed,
        "options": options,
        "bots": bots,
        "actions": played,
        "scores": state.scores,
        "winners": state.winners,
        "digests": digests,
    }


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, players, seed, options, bots in MATCHES:
        log = record(players, seed, options, bots)
        path = OUT / f"{name}.json"
        path.write_text(json.dumps(log, separators=(",", ":")) + "\n")
        print(f"{path.name}: {len(log['actions'])} actions, scores {log['scores']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
