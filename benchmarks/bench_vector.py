"""Vector-environment benchmark: learner steps per second of ``vector_env`` copies.

    python benchmarks/bench_vector.py [--games fika,doppio,cafe] [--envs 8]
        [--opponents random,quick] [--seconds 10] [--json]

Each run builds ``coffeetable.interop.vector.vector_env(game, envs, opponent)``,
synchronous (one process) and asynchronous (one process a copy), and steps every
copy with a uniformly random legal index from its mask (``sample_masked``) for
``--seconds`` of wall clock; a step of the vector environment is ``envs`` learner
steps (each with the opponents' moves up to the learner's next turn). Wall clock, as
a trainer sees it: the asynchronous form uses every core it is given, and on a
machine shared with other work its figures move with the load.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

import numpy as np

from coffeetable.interop.vector import sample_masked, vector_env


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="fika,doppio,cafe")
    parser.add_argument("--opponents", default="random,quick")
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows: list[dict[str, Any]] = []
    for game in args.games.split(","):
        for opponent in args.opponents.split(","):
            if opponent == "quick" and game == "fika":
                continue  # Fika's heuristics have no rollout policy: no quick bot
            for asynchronous in (False, True):
                steps = rate(game, args.envs, opponent, asynchronous, args.seconds)
                row = {
                    "game": game,
                    "opponent": opponent,
                    "mode": "async" if asynchronous else "sync",
                    "envs": args.envs,
                    "steps_per_second": round(steps),
                    "load": round(os.getloadavg()[0], 1),
                }
                rows.append(row)
                if not args.json:
                    print(row, flush=True)
    if args.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
