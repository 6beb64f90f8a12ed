"""Environment benchmark: PettingZoo steps per second of every game, beside the engine alone.

    python benchmarks/bench_env.py [--games fika,doppio,cafe,espresso] [--seconds 5] [--json]
    python benchmarks/bench_env.py --pettingzoo     # PettingZoo's own performance_benchmark

The loop is PettingZoo's ``performance_benchmark`` (``pettingzoo.test``): each
agent in turn takes ``env.last()`` (its observation and mask) and steps a
uniformly random legal index (None once done), a new match when all are done;
a turn is one such step. ``--mask-dtype bool`` measures the environments with
bool masks, whose ``np.flatnonzero`` costs numpy far less than int8's (about
2 ns an index for int8: Café's 4,915-long mask, some 11 us a step). Here it is
seeded, and times ``--seconds`` per game in CPU seconds of this process
(``time.process_time``), so that a machine shared with other work still gives
the figure of one free core.
The engine figure is ``coffeetable bench``'s loop (``coffeetable.sim.bench``): a
random actor's random legal action, ``legal_actions`` plus ``apply``, with no
encoding, timed the same way. Both
on one core, one after the other: the ratio is what the encoding costs.

This machine's speed drifts by tens of percent within an hour (all four games move
together), so each run first times ``sum(range(1000))`` (the calibration, as
``bench_server.py`` does): figures are comparable only at similar calibrations.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import timeit
from typing import Any

GAMES = ("fika", "doppio", "cafe", "espresso")


def env_turns_per_second(
    name: str, seconds: float, seed: int, mask_dtype: str = "int8"
) -> dict[str, Any]:
    """PettingZoo's performance_benchmark loop on ``env(name, mask_dtype=...)``, seeded."""
    import numpy as np

    from coffeetable.interop import pettingzoo as pz

    env = pz.env(name, mask_dtype=mask_dtype)
    rng = random.Random(seed)
    env.reset(seed=seed)
    turns = matches = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for _agent in env.agent_iter(env.num_agents):
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                action = None
            else:
                action = rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
            env.step(action)
            turns += 1
            if all(env.terminations.values()) or all(env.truncations.values()):
                env.reset()
                matches += 1
    elapsed = time.process_time() - start
    return {"turns": turns, "matches": matches, "seconds": elapsed, "per_second": turns / elapsed}


def engine_actions_per_second(name: str, seconds: float, seed: int) -> float:
    """``coffeetable bench``'s figure on the environment's table size, in CPU seconds."""
    from coffeetable.interop.pettingzoo import DEFAULT_PLAYERS
    from coffeetable.sim.bench import run_bench

    result = run_bench(
        name, players=DEFAULT_PLAYERS[name], seconds=seconds, seed=seed, clock=time.process_time
    )
    return float(result["total"]["actions_per_second"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--seconds", type=float, default=5.0, help="per game and per measure")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-engine", action="store_true", help="skip the engine-alone figure")
    parser.add_argument("--pettingzoo", action="store_true", help="run PettingZoo's own bench")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--mask-dtype",
        default="int8",
        choices=("int8", "bool"),
        help="the environments' mask dtype (int8, the default, is what Discrete.sample wants)",
    )
    args = parser.parse_args(argv)
    names = [name for name in args.games.split(",") if name]
    unknown = sorted(set(names) - set(GAMES))
    if unknown:
        parser.error(f"unknown games {unknown}; the games are {', '.join(GAMES)}")
    if args.pettingzoo:
        from pettingzoo.test import performance_benchmark

        from coffeetable.interop import pettingzoo as pz

        for name in names:
            print(name)
            performance_benchmark(pz.env(name))
        return 0
    calibration_us = round(timeit.timeit("sum(range(1000))", number=20000) / 0.02, 1)
    results: dict[str, Any] = {}
    for name in names:
        results[name] = env_turns_per_second(name, args.seconds, args.seed, args.mask_dtype)
        if not args.no_engine:
            results[name]["engine_per_second"] = engine_actions_per_second(
                name, args.seconds, args.seed
            )
    if args.json:
        print(json.dumps({"calibration_us": calibration_us, "games": results}))
        return 0
    print(f"calibration: sum(range(1000)) {calibration_us} us")
    print(f"{'game':10s} {'env steps/s':>12s} {'engine actions/s':>17s}")
    for name, result in results.items():
        engine = result.get("engine_per_second")
        engine_text = "" if engine is None else f"{engine:17,.0f}"
        print(f"{name:10s} {result['per_second']:12,.0f} {engine_text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
