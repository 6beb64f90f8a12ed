"""Engine benchmark, for the record: random self-play speed of a game on one core.

    python benchmarks/bench_engine.py [--game espresso] [--players 4] [--seconds 20] [--json]

The same measure as ``coffeetable bench`` (``coffeetable.sim.bench``): a
seeded loop picks a random actor and a random legal action and applies it;
one action is one ``legal_actions`` plus one ``apply``. Espresso is measured
per variant (normalo, zero, chaos, zero+chaos), the time split evenly.
"""

from __future__ import annotations

import argparse
import json
import sys

from coffeetable.sim.bench import render, run_bench


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="espresso")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    result = run_bench(args.game, players=args.players, seconds=args.seconds, seed=args.seed)
    if args.json:
        print(json.dumps(result))
    else:
        render(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
