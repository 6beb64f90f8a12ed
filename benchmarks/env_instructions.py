"""An environment step's cost in instructions, beside the engine's action (cachegrind).

    python benchmarks/env_instructions.py --game fika --steps 5000

The environment loop is PettingZoo's ``performance_benchmark``'s, seeded: each agent in
turn takes ``env.last()`` (its observation and mask) and steps a uniformly random legal
index, a new match when all are done (``coffeetable.interop.pettingzoo.env``, the
game's default table). The engine loop is ``benchmarks/engine_instructions.py``'s (a
random actor's random legal action, ``legal_actions`` plus ``apply``). Each runs for
exactly ``--steps`` steps and again for none under ``valgrind --tool=cachegrind`` with
``PYTHONHASHSEED=0``; the differences are the two costs, and their ratio is what the
encoding adds (the issue's aim: at most 2). ``--mask-dtype bool`` runs the environment
with bool masks (the loop's ``np.flatnonzero`` of an int8 mask is a large part of a
step). ``--parts`` also counts the loop's choice (the agent's part: the legal indices
read from the mask, ``tolist`` and ``random.choice``), by running the environment loop
again with each choice made twice (the second from the same mask with its own
generator, then dropped: the same match), and gives the environment's own step (the
step less its choice) against the engine's action (whose own choice, ``random.choice``
of a list, is about 1,000 instructions and left in). Needs Debian's ``valgrind``.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def play_env(name: str, steps: int, mask_dtype: str = "int8", choices: int = 1) -> None:
    """Exactly ``steps`` environment steps (seed 0), masks of ``mask_dtype``; each step's
    choice made ``choices`` times (the others dropped: ``--parts``)."""
    import numpy as np

    from coffeetable.interop import pettingzoo as pz

    rng, spare = random.Random(0), random.Random(1)
    env = pz.env(name, mask_dtype=mask_dtype)
    env.reset(seed=0)
    done = 0
    while done < steps:
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.reset(seed=rng.randrange(2**31))
            continue
        mask = observation["action_mask"]
        for _ in range(choices - 1):
            spare.choice(np.flatnonzero(mask).tolist())
        env.step(rng.choice(np.flatnonzero(mask).tolist()))
        done += 1


def play_engine(name: str, steps: int) -> None:
    """``engine_instructions.py``'s loop, ``steps`` actions (seed 0, the default table)."""
    spec = importlib.util.spec_from_file_location("engine_bench", HERE / "engine_instructions.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    from coffeetable import games

    module.play(name, games.get(name).preferred_players(), steps, True)


def instructions(
    kind: str, name: str, steps: int, mask_dtype: str = "int8", choices: int = 1
) -> int:
    """Instructions of this script running ``steps`` of ``kind``, under cachegrind."""
    env = dict(os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1")
    command = [
        "valgrind",
        "--tool=cachegrind",
        "--cache-sim=no",
        "--cachegrind-out-file=/dev/null",
        sys.executable,
        __file__,
        "--play",
        kind,
        "--game",
        name,
        "--steps",
        str(steps),
        "--mask-dtype",
        mask_dtype,
        "--choices",
        str(choices),
    ]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise SystemExit(f"no instruction count in valgrind's output:\n{done.stderr}")
    return int(found.group(1).replace(",", ""))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="fika")
    parser.add_argument("--steps", type=int, default=5_000)
    parser.add_argument(
        "--mask-dtype",
        choices=("int8", "bool"),
        default="int8",
        help="the environment's mask_dtype (bool: numpy finds a mask's indices faster)",
    )
    parser.add_argument(
        "--parts",
        action="store_true",
        help="also count the loop's choice and give the environment's own step",
    )
    parser.add_argument("--play", choices=("env", "engine"), help=argparse.SUPPRESS)
    parser.add_argument("--choices", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.play == "env":
        play_env(args.game, args.steps, args.mask_dtype, args.choices)
        return 0
    if args.play == "engine":
        play_engine(args.game, args.steps)
        return 0
    costs = {
        kind: (
            instructions(kind, args.game, args.steps, args.mask_dtype)
            - instructions(kind, args.game, 0, args.mask_dtype)
        )
        / args.steps
        for kind in ("env", "engine")
    }
    print(
        f"{args.game}: {args.steps:,} steps, {args.mask_dtype} masks; an environment step "
        f"{costs['env']:,.0f} instructions, an engine action {costs['engine']:,.0f}: "
        f"x{costs['env'] / costs['engine']:.2f}"
    )
    if args.parts:
        twice = (
            instructions("env", args.game, args.steps, args.mask_dtype, choices=2)
            - instructions("env", args.game, 0, args.mask_dtype, choices=2)
        ) / args.steps
        choice = twice - costs["env"]
        own = costs["env"] - choice
        print(
            f"  the loop's choice {choice:,.0f}; the environment's own step {own:,.0f}: "
            f"x{own / costs['engine']:.2f} the engine's action"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
