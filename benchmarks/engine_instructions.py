"""Engine cost in instructions: a fixed number of random self-play actions under cachegrind.

    python benchmarks/engine_instructions.py --game espresso --players 4 --actions 40000
    python benchmarks/engine_instructions.py --game fika --actions 20000 --src /tmp/old/src

CPU-time figures swing with the load of a shared machine; an instruction count
does not. This runs the same seeded loop as ``coffeetable bench`` (a random
actor's random legal action, ``legal_actions`` plus ``apply``; Espresso's
actions split evenly over its four variants unless ``--normalo``) for exactly
``--actions`` actions, and again for none, each under ``valgrind
--tool=cachegrind`` with ``PYTHONHASHSEED=0``; the difference is the engine's
cost. ``--src`` measures another tree's ``src/`` (``git archive REV src | tar
-x -C DIR``), so two engines can be compared: the loop is always this
checkout's ``sim/bench.py`` (``random_selfplay`` with ``max_actions``; it uses
the engine's public contract only), loaded by its path, so an older tree's
engines run under the same loop. Needs Debian's ``valgrind``.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

#: This checkout's benchmark loop, whatever tree the engines come from.
BENCH = Path(__file__).resolve().parent.parent / "src" / "coffeetable" / "sim" / "bench.py"


def bench_loop() -> ModuleType:
    """This checkout's ``coffeetable.sim.bench``, loaded by its path (its imports of
    ``coffeetable`` resolve to the tree on ``PYTHONPATH``)."""
    spec = importlib.util.spec_from_file_location("bench_loop", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def play(name: str, players: int, actions: int, normalo: bool) -> None:
    """Exactly ``actions`` random self-play actions, split over the game's benchmark
    variants (Espresso's four, unless ``normalo``), seed 0."""
    from coffeetable import games

    loop = bench_loop()
    game = games.get(name)
    if normalo:
        variants: list[Mapping[str, Any]] = [{}]
    elif hasattr(game, "bench_variants"):
        variants = list(loop.variants(game).values())
    else:  # a tree from before games declared their variants: Espresso's four were these
        variants = [{}, {"zero": True}, {"chaos": True}, {"zero": True, "chaos": True}]
        variants = variants if name == "espresso" else [{}]
    for options in variants:
        loop.random_selfplay(
            game, players, float("inf"), 0, options, max_actions=actions // len(variants)
        )


def instructions(args: argparse.Namespace, actions: int) -> int:
    """Instructions of this script playing ``actions`` actions, under cachegrind."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    if args.src:
        env["PYTHONPATH"] = args.src
    command = [
        "valgrind",
        "--tool=cachegrind",
        "--cache-sim=no",
        "--cachegrind-out-file=/dev/null",
        sys.executable,
        __file__,
        "--play",
        "--game",
        args.game,
        "--players",
        str(args.players),
        "--actions",
        str(actions),
    ] + (["--normalo"] if args.normalo else [])
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise SystemExit(f"no instruction count in valgrind's output:\n{done.stderr}")
    return int(found.group(1).replace(",", ""))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="espresso")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--actions", type=int, default=20_000)
    parser.add_argument("--normalo", action="store_true", help="Espresso: Normalo alone")
    parser.add_argument("--src", default=None, help="the src/ folder of the tree to measure")
    parser.add_argument("--play", action="store_true", help=argparse.SUPPRESS)  # the child
    args = parser.parse_args(argv)
    if args.play:
        play(args.game, args.players, args.actions, args.normalo)
        return 0
    total = instructions(args, args.actions) - instructions(args, 0)
    print(
        f"{args.game} ({args.players} players{', Normalo' if args.normalo else ''}): "
        f"{args.actions:,} actions, {total / 1e6:,.1f} M instructions, "
        f"{total / args.actions:,.0f} an action"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
