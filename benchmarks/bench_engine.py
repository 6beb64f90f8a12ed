"""Engine benchmark, for the record: random self-play speed of a game on one core.

    python benchmarks/bench_engine.py [--game espresso|all] [--players 4] [--seconds 20] [--json]

The same measure as ``coffeetable bench`` (``coffeetable.sim.bench``): a
seeded loop picks a random actor and a random legal action and applies it;
one action is one ``legal_actions`` plus one ``apply``. Espresso is measured
per variant (normalo, zero, chaos, zero+chaos), the time split evenly.

Here the clock is CPU time (``time.process_time``), and OpenSpiel's
``python_tic_tac_toe`` is run in the same process as the yardstick (half of its
time before the game, half after, the same loop: ``legal_actions`` plus
``apply_action`` of a random one), so the ratio game/yardstick says how fast an
engine is whatever the load on the machine. Without OpenSpiel (the ``rl``
extra) the ratio is left out.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from coffeetable import games
from coffeetable.sim.bench import CHECK_EVERY, render, run_bench

YARDSTICK = "python_tic_tac_toe"


def yardstick(seconds: float, seed: int = 0) -> dict[str, Any] | None:
    """OpenSpiel's python_tic_tac_toe in random self-play for ``seconds`` of CPU time,
    or None if OpenSpiel is not installed."""
    try:
        import pyspiel
        from open_spiel.python.games import tic_tac_toe  # noqa: F401 - registers the game
    except ImportError:
        return None
    game = pyspiel.load_game(YARDSTICK)
    rng = random.Random(seed)
    state = game.new_initial_state()
    actions = matches = 0
    start = time.process_time()
    elapsed = 0.0
    while True:
        if actions % CHECK_EVERY == 0:
            elapsed = time.process_time() - start
            if elapsed >= seconds:
                break
        if state.is_terminal():
            matches += 1
            state = game.new_initial_state()
        state.apply_action(rng.choice(state.legal_actions()))
        actions += 1
    return {"actions": actions, "matches": matches, "seconds": elapsed}


def bench(game: str, players: int | None, seconds: float, seed: int) -> dict[str, Any]:
    """One game's benchmark (``run_bench``'s dict, CPU time) with the yardstick and ratio."""
    before = yardstick(seconds / 2, seed)
    result = run_bench(game, players=players, seconds=seconds, seed=seed, clock=time.process_time)
    after = yardstick(seconds / 2, seed + 1)
    result["clock"] = "cpu"
    if before is not None and after is not None:
        actions = before["actions"] + after["actions"]
        elapsed = before["seconds"] + after["seconds"]
        per_second = actions / elapsed if elapsed else 0.0
        result["yardstick"] = {
            "game": f"openspiel {YARDSTICK}",
            "actions": actions,
            "seconds": elapsed,
            "actions_per_second": per_second,
        }
        total = result["total"]["actions_per_second"]
        result["ratio"] = total / per_second if per_second else 0.0
    return result


def render_with_ratio(result: dict[str, Any]) -> None:
    """The game's table, then the yardstick and the ratio on one line."""
    render(result)
    stick = result.get("yardstick")
    if stick is None:
        print("OpenSpiel is not installed (the rl extra): no yardstick, no ratio")
        return
    print(
        f"{stick['game']}: {stick['actions_per_second']:,.0f} actions/s (CPU time, same process)"
        f"; {result['game']} / yardstick = {result['ratio']:.2f}x"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="espresso", help="a game, or 'all'")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print one JSON object per game")
    args = parser.parse_args(argv)
    names = games.names() if args.game == "all" else [args.game]
    for name in names:
        try:
            result = bench(name, args.players, args.seconds, args.seed)
        except ValueError as error:
            print(f"bench_engine: {error}", file=sys.stderr)
            return 2
        if args.json:
            print(json.dumps(result))
        else:
            render_with_ratio(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
