"""Vector-environment benchmark: learner steps per second of ``vector_env`` copies,
and their ratio to the engine's own random play measured beside them.

    python benchmarks/bench_vector.py [--games fika,doppio,cafe] [--envs 8]
        [--opponents random,quick] [--seconds 10] [--rounds 3] [--json]

Each run builds ``coffeetable.interop.vector.vector_env(game, envs, opponent)``,
synchronous (one process) and asynchronous (one process a copy), and steps every
copy with a uniformly random legal index from its mask (``sample_masked``) for
``--seconds`` of wall clock; a step of the vector environment is ``envs`` learner
steps (each with the opponents' moves up to the learner's next turn). Wall clock, as
a trainer sees it: the asynchronous form uses every core it is given, and on a
machine shared with other work its figures move with the load.

So every vector run is measured against a yardstick taken in the same minute: the
engine's own random self-play (``coffeetable.sim.bench.random_selfplay``, the loop of
``benchmarks/engine_instructions.py``, the same game and seats, wall clock, one
process) for ``--yardstick`` seconds before and after it. A run's ratio is its rate
over the mean of the two yardsticks around it; runs alternate with yardsticks for
``--rounds`` rounds and the summary gives each row's median ratio (a machine's load
moves both alike, so the ratio holds where the rates do not).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from typing import Any

import numpy as np

from coffeetable import games
from coffeetable.interop.vector import sample_masked, vector_env
from coffeetable.sim.bench import random_selfplay


def rate(game: str, envs: int, opponent: str, asynchronous: bool, seconds: float) -> float:
    """Learner steps per second of wall clock (every copy's)."""
    vector = vector_env(game, envs, opponent=opponent, asynchronous=asynchronous)
    try:
        observations, _ = vector.reset(seed=0)
        rng = np.random.default_rng(0)
        steps, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            observations, *_ = vector.step(sample_masked(observations["action_mask"], rng))
            steps += envs
        return steps / (time.perf_counter() - start)
    finally:
        vector.close()


def yardstick(game: str, seconds: float) -> float:
    """The engine's random self-play, actions per second of wall clock (the game's
    preferred seats, as the environments' default table)."""
    found = games.get(game)
    done = random_selfplay(found, found.preferred_players(), seconds, seed=0)
    return float(done["actions_per_second"])


def runs(args: argparse.Namespace) -> list[tuple[str, str, bool]]:
    """(game, opponent, asynchronous) of every vector run, in order."""
    out = []
    for game in args.games.split(","):
        for opponent in args.opponents.split(","):
            if opponent == "quick" and game == "fika":
                continue  # Fika's heuristics have no rollout policy: no quick bot
            out += [(game, opponent, False), (game, opponent, True)]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="fika,doppio,cafe")
    parser.add_argument("--opponents", default="random,quick")
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--yardstick", type=float, default=3.0, help="seconds of engine play")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows: list[dict[str, Any]] = []
    for round_number in range(args.rounds):
        before: dict[str, float] = {}
        for game, opponent, asynchronous in runs(args):
            if game not in before:
                before[game] = yardstick(game, args.yardstick)
            steps = rate(game, args.envs, opponent, asynchronous, args.seconds)
            after = yardstick(game, args.yardstick)
            engine = (before[game] + after) / 2
            before[game] = after
            row = {
                "round": round_number,
                "game": game,
                "opponent": opponent,
                "mode": "async" if asynchronous else "sync",
                "envs": args.envs,
                "steps_per_second": round(steps),
                "engine_actions_per_second": round(engine),
                "ratio": round(steps / engine, 4),
                "load": round(os.getloadavg()[0], 1),
            }
            rows.append(row)
            if not args.json:
                print(row, flush=True)
    summary = []
    for game, opponent, asynchronous in runs(args):
        mode = "async" if asynchronous else "sync"
        mine = [r for r in rows if (r["game"], r["opponent"], r["mode"]) == (game, opponent, mode)]
        summary.append(
            {
                "game": game,
                "opponent": opponent,
                "mode": mode,
                "median_ratio": round(statistics.median(r["ratio"] for r in mine), 4),
                "ratios": [r["ratio"] for r in mine],
                "median_steps_per_second": round(
                    statistics.median(r["steps_per_second"] for r in mine)
                ),
                "loads": [r["load"] for r in mine],
            }
        )
    if args.json:
        print(json.dumps({"runs": rows, "summary": summary}, indent=1))
    else:
        for line in summary:
            print(line, flush=True)


if __name__ == "__main__":
    main()
