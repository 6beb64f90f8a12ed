"""Engine speed: random self-play on one core.

A seeded loop picks a random actor and a random legal action and applies it;
one counted action is one ``legal_actions`` plus one ``apply``. A finished
match is dealt again from the next seed. For Espresso the time is split
evenly over the variants normalo, zero, chaos and zero+chaos, each reported
on its own and in total.

``coffeetable bench espresso [--players N] [--seconds S] [--json]``
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Callable, Mapping
from typing import Any

from coffeetable import games
from coffeetable.engine import Game


def variants(game: Game) -> dict[str, Mapping[str, Any]]:
    """The option sets benchmarked for ``game``: its ``bench_variants``, else its defaults."""
    return dict(game.bench_variants) or {"default": {}}


#: Actions between two looks at the clock.
CHECK_EVERY = 256


def random_selfplay(
    game: Game,
    players: int,
    seconds: float,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    clock: Callable[[], float] = time.perf_counter,
    max_actions: int | None = None,
) -> dict[str, Any]:
    """Random self-play for about ``seconds`` of ``clock``; counts actions, rounds and
    matches (benchmarks/bench_engine.py passes ``time.process_time``: CPU time).
    ``max_actions``: stop after exactly that many (benchmarks/engine_instructions.py)."""
    rng = random.Random(seed)
    match_seed = seed
    state = game.new_state(players=players, seed=match_seed, **dict(options or {}))
    actions = rounds = matches = 0
    start = clock()
    elapsed = 0.0
    while actions != max_actions:
        if actions % CHECK_EVERY == 0:
            elapsed = clock() - start
            if elapsed >= seconds:
                break
        if state.is_over:
            matches += 1
            match_seed += 1
            state = game.new_state(players=players, seed=match_seed, **dict(options or {}))
        round_before = state.round
        actors = state.actors()
        rng.shuffle(actors)
        for seat in actors:
            legal = state.legal_actions(seat)
            if legal:
                state.apply(seat, rng.choice(legal))
                break
        else:  # nobody can act: the live table's idle rule (real time) or a new deal
            if game.realtime:
                state.apply(None, {"type": "idle"})
            else:
                state = game.new_state(players=players, seed=match_seed + 1, **dict(options or {}))
        actions += 1
        if state.round != round_before or state.is_over:
            rounds += 1
    elapsed = clock() - start
    return {
        "actions": actions,
        "rounds": rounds,
        "matches": matches,
        "seconds": elapsed,
        "actions_per_second": actions / elapsed if elapsed else 0.0,
        "rounds_per_second": rounds / elapsed if elapsed else 0.0,
    }


def run_bench(
    game: str,
    players: int | None = None,
    seconds: float = 3.0,
    seed: int = 0,
    clock: Callable[[], float] = time.perf_counter,
) -> dict[str, Any]:
    """Benchmark ``game``'s engine for about ``seconds`` in all; a JSON-able dict."""
    try:
        found = games.get(game)
    except KeyError as error:
        raise ValueError(error.args[0]) from None
    seats = players if players is not None else min(max(4, found.min_players), found.max_players)
    found.check_players(seats)
    sets = variants(found)
    share = seconds / len(sets)
    results = {
        name: random_selfplay(found, seats, share, seed, options, clock)
        for name, options in sets.items()
    }
    actions = sum(result["actions"] for result in results.values())
    rounds = sum(result["rounds"] for result in results.values())
    elapsed = sum(result["seconds"] for result in results.values())
    return {
        "game": found.name,
        "players": seats,
        "seed": seed,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "variants": results,
        "total": {
            "actions": actions,
            "rounds": rounds,
            "seconds": elapsed,
            "actions_per_second": actions / elapsed if elapsed else 0.0,
            "rounds_per_second": rounds / elapsed if elapsed else 0.0,
        },
    }


def render(result: Mapping[str, Any], console: Any = None) -> None:
    """Print the benchmark as a small rich table."""
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    table = Table(
        title=f"{result['game']} random self-play, {result['players']} players, one core",
        caption=f"Python {result['python']} · one action = legal_actions + apply",
    )
    for column in ("variant", "actions", "rounds", "seconds", "actions/s", "rounds/s"):
        table.add_column(column, justify="left" if column == "variant" else "right")
    rows = list(result["variants"].items()) + [("total", result["total"])]
    for name, row in rows:
        table.add_row(
            name,
            f"{row['actions']:,}",
            f"{row['rounds']:,}",
            f"{row['seconds']:.2f}",
            f"{row['actions_per_second']:,.0f}",
            f"{row['rounds_per_second']:,.1f}",
            style="bold" if name == "total" else None,
        )
    console.print(table)


def run_from_cli(args: argparse.Namespace) -> int:
    """``coffeetable bench``: 0 on success, 2 for a bad argument."""
    try:
        result = run_bench(
            args.game,
            players=args.players,
            seconds=float(args.seconds),
            seed=int(getattr(args, "seed", 0) or 0),
        )
    except ValueError as error:
        print(f"coffeetable bench: {error}", file=sys.stderr)
        return 2
    if getattr(args, "json", False):
        print(json.dumps(result))
    else:
        from coffeetable.sim.arena import readable_console

        render(result, readable_console())
    return 0
