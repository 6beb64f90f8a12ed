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
-x -C DIR``), so two engines can be compared: the loop is written here, on the
engine's public contract only, because older trees' ``sim.bench`` has no
fixed-count mode. Needs Debian's ``valgrind``.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
from typing import Any

ESPRESSO_VARIANTS: list[dict[str, Any]] = [
    {},
    {"zero": True},
    {"chaos": True},
    {"zero": True, "chaos": True},
]


def play(name: str, players: int, actions: int, variants: list[dict[str, Any]]) -> None:
    """Exactly ``actions`` random self-play actions, split over ``variants``, seed 0."""
    from coffeetable import games

    game = games.get(name)
    for options in variants:
        rng = random.Random(0)
        match_seed = 0
        state = game.new_state(players=players, seed=match_seed, **options)
        for _ in range(actions // len(variants)):
            if state.is_over:
                match_seed += 1
                state = game.new_state(players=players, seed=match_seed, **options)
            actors = state.actors()
            rng.shuffle(actors)
            for seat in actors:
                legal = state.legal_actions(seat)
                if legal:
                    state.apply(seat, rng.choice(legal))
                    break
            else:  # nobody can act: the live table's idle rule, or a new deal
                if game.realtime:
                    state.apply(None, {"type": "idle"})
                else:
                    state = game.new_state(players=players, seed=match_seed + 1, **options)


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
    variants = ESPRESSO_VARIANTS if args.game == "espresso" and not args.normalo else [{}]
    if args.play:
        play(args.game, args.players, args.actions, variants)
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
