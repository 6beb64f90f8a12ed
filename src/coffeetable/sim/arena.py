"""The arena: many bot matches on all cores, and a results table per bot.

``coffeetable arena espresso --players 4 --bots hard,medium,easy,greedy --games 200 --seed 1``

- Match ``i`` is dealt from seed ``seed + i`` (bots' generators derive from it).
- Seats rotate: in match ``i`` seat ``s`` is played by entry ``(s + i) % E``
  of the ``E`` bots given, so over any ``E`` consecutive matches (with
  ``players == E``) every bot sits in every seat once and no bot always sits
  in seat 0. With fewer bots than seats, the list is cycled to fill the
  seats; with more, some bots sit out some matches.
- Per bot (per entry of ``--bots``; the same name twice is two rows):
  ``matches`` (seats played), ``wins`` (a shared win counts for each sharer),
  ``win_rate`` with a 95 % Wilson interval, ``points_per_round`` (the mean
  of the points it scored per round), ``finito_rate`` (share of the rounds
  it played in which it called FINITO) and, in JSON only, ``too_slow`` (its
  actions refused because another landed first; real time only), ``mean_score``
  (its mean final score, e.g. beans, with ``mean_score_ci95``, a normal 95 %
  interval) and ``ranks`` (how often it ended on each
  ranking a game's spectator view names at the end, e.g. Doppio solo's; empty
  for a game without one; shown as a column when there are any). The table
  shows points per round and FINITO for real-time games only, and no win
  columns for a solo game.
- Matches run in a ``multiprocessing`` pool (``workers``, default all cores);
  results are gathered in match order, so the totals do not depend on it.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from coffeetable import games
from coffeetable.sim.logs import save_log
from coffeetable.sim.match import play_match
from coffeetable.sim.remote import RemoteError, make_seat

#: z for a two-sided 95 % interval.
Z95 = 1.959963984540054

Job = tuple[int, str, list[str], int, dict[str, Any], str | None]


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion ((0, 1) with no trials)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes <= 0 else min(p, centre - half)  # exact at the ends, despite rounding
    high = 1.0 if successes >= trials else max(p, centre + half)
    return (low, high)


def seating(index: int, entries: int, players: int) -> list[int]:
    """Which entry of the bot list plays each seat in match ``index``."""
    return [(seat + index) % entries for seat in range(players)]


def _job(job: Job) -> tuple[int, dict[str, Any]]:
    index, game, names, seed, options, log_dir = job
    summary, log = play_match(game, names, seed, options)
    if log_dir is not None:
        save_log(log, Path(log_dir) / f"{game}-{index:05d}-seed{seed}.json")
    return index, summary


def _results(jobs: list[Job], workers: int) -> Iterator[tuple[int, dict[str, Any]]]:
    if workers <= 1 or len(jobs) <= 1:
        yield from map(_job, jobs)
        return
    with multiprocessing.Pool(processes=workers) as pool:
        yield from pool.imap_unordered(_job, jobs, chunksize=1)


def run_arena(
    game: str,
    bots: Sequence[str],
    games: int,
    seed: int,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    workers: int | None = None,
    progress: bool = False,
    save_logs: str | Path | None = None,
) -> dict[str, Any]:
    """Play ``games`` matches of ``game`` between ``bots`` and return the totals (JSON-able).

    Raises ValueError for an unknown game, bot, option or player count.
    ``save_logs``: a folder to write each match's log to (``coffeetable replay`` reads them).
    """
    found = _get_game(game)
    names = list(bots)
    if not names:
        raise ValueError("name at least one bot")
    for name in dict.fromkeys(names):
        make_seat(name, game)  # ValueError for an unknown bot (remote:URL connects later)
    seats = len(names) if players is None else players
    found.check_players(seats)
    resolved = found.resolve_options(options)
    if games < 1:
        raise ValueError("play at least one match")
    entries = len(names)
    jobs: list[Job] = []
    for index in range(games):
        lineup = [names[entry] for entry in seating(index, entries, seats)]
        log_dir = None if save_logs is None else str(save_logs)
        jobs.append((index, game, lineup, seed + index, resolved, log_dir))
    workers = max(1, min(workers or os.cpu_count() or 1, games))
    summaries: list[dict[str, Any]] = [{} for _ in range(games)]
    results = _results(jobs, workers)
    if progress:
        results = _with_progress(results, games, f"{game}: {', '.join(names)}")
    for index, summary in results:
        summaries[index] = summary
    totals = _totals(found.name, names, seats, games, seed, resolved, workers, summaries)
    totals["realtime"] = found.realtime
    return totals


def _get_game(name: str) -> Any:
    try:
        return games.get(name)
    except KeyError as error:
        raise ValueError(error.args[0]) from None


def _with_progress(
    results: Iterator[tuple[int, dict[str, Any]]], total: int, title: str
) -> Iterator[tuple[int, dict[str, Any]]]:
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(title, total=total)
        for item in results:
            bar.advance(task)
            yield item


def _totals(
    game: str,
    names: list[str],
    players: int,
    games: int,
    seed: int,
    options: dict[str, Any],
    workers: int,
    summaries: list[dict[str, Any]],
) -> dict[str, Any]:
    entries = len(names)
    rows = [
        {
            "matches": 0,
            "wins": 0,
            "rounds": 0,
            "points": 0,
            "finito": 0,
            "refused": 0,
            "score": 0,
            "score_sq": 0,
        }
        for _ in range(entries)
    ]
    ranks: list[dict[str, int]] = [{} for _ in range(entries)]
    rounds = actions = shared = 0
    for index, summary in enumerate(summaries):
        won = set(summary["winners"])
        shared += len(won) > 1
        rounds += summary["rounds"]
        actions += summary["actions"]
        for seat, entry in enumerate(seating(index, entries, players)):
            row = rows[entry]
            row["matches"] += 1
            row["wins"] += seat in won
            row["rounds"] += summary["rounds"]
            row["points"] += sum(points[seat] for points in summary["round_points"])
            row["finito"] += sum(1 for caller in summary["finito"] if caller == seat)
            row["refused"] += summary.get("refused", [0] * players)[seat]
            row["score"] += summary["scores"][seat]
            row["score_sq"] += summary["scores"][seat] ** 2
            if "rank" in summary:
                rank = str(summary["rank"])
                ranks[entry][rank] = ranks[entry].get(rank, 0) + 1
    labels = _labels(names)
    table = []
    for label, name, row, rank_counts in zip(labels, names, rows, ranks, strict=True):
        low, high = wilson(row["wins"], row["matches"])
        table.append(
            {
                "bot": label,
                "name": name,
                "matches": row["matches"],
                "wins": row["wins"],
                "win_rate": row["wins"] / row["matches"] if row["matches"] else 0.0,
                "win_rate_ci95": [low, high],
                "rounds": row["rounds"],
                "points": row["points"],
                "points_per_round": row["points"] / row["rounds"] if row["rounds"] else 0.0,
                "finito": row["finito"],
                "finito_rate": row["finito"] / row["rounds"] if row["rounds"] else 0.0,
                "too_slow": row["refused"],
                "mean_score": row["score"] / row["matches"] if row["matches"] else 0.0,
                "mean_score_ci95": _mean_ci(row["score"], row["score_sq"], row["matches"]),
                "ranks": dict(sorted(rank_counts.items(), key=lambda item: -item[1])),
            }
        )
    return {
        "game": game,
        "players": players,
        "games": games,
        "seed": seed,
        "options": options,
        "workers": workers,
        "matches": len(summaries),
        "rounds": rounds,
        "actions": actions,
        "shared_wins": shared,
        "bots": table,
    }


def _mean_ci(total: float, total_sq: float, n: int) -> list[float]:
    """A normal 95 % interval for a mean, from the sum and the sum of squares of n values."""
    if n == 0:
        return [0.0, 0.0]
    mean = total / n
    variance = max(0.0, (total_sq - n * mean * mean) / (n - 1)) if n > 1 else 0.0
    half = Z95 * math.sqrt(variance / n)
    return [mean - half, mean + half]


def _labels(names: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    labels = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        labels.append(name if names.count(name) == 1 else f"{name} #{seen[name]}")
    return labels


def readable_console() -> Any:
    """A rich console for a results table: the terminal's width, or, when the output is
    piped or redirected, as wide as the table needs (rich would squeeze it into 80
    columns and cut the cells)."""
    from rich.console import Console

    console = Console()
    return console if console.is_terminal else Console(width=1000)


def render(result: Mapping[str, Any], console: Any = None) -> None:
    """Print the results as a rich table."""
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    # Points per round and FINITO are Espresso's (rounds to a target); a turn-based
    # match is one result, so its table shows the mean final score instead.
    realtime = result.get("realtime", True)
    options = ", ".join(f"{k}={v}" for k, v in result["options"].items()) or "no options"
    played = f"{result['rounds']} rounds · " if realtime else ""
    solo = result["players"] == 1  # always a "win": the score and ranking are what count
    seats = "solo" if solo else f"{result['players']} players"
    table = Table(
        title=f"{result['game']}: {result['matches']} matches, {seats}, seed {result['seed']}",
        caption=f"{played}{options} · seats rotate every match",
    )
    with_ranks = any(row.get("ranks") for row in result["bots"])
    columns = ["bot", "matches"] + ([] if solo else ["wins", "win rate", "95% CI"])
    columns += ["pts/round", "FINITO", "score"] if realtime else ["mean score"]
    for column in columns + (["ranks"] if with_ranks else []):
        left = column in ("bot", "ranks")
        table.add_column(column, justify="left" if left else "right", no_wrap=column != "ranks")
    for row in sorted(result["bots"], key=lambda row: -row["win_rate"]):
        low, high = row["win_rate_ci95"]
        cells = [row["bot"], str(row["matches"])]
        if not solo:
            cells += [
                str(row["wins"]),
                f"{row['win_rate']:.1%}",
                f"{100 * low:.1f}–{100 * high:.1f}%",
            ]
        if realtime:
            cells += [f"{row['points_per_round']:.2f}", f"{row['finito_rate']:.1%}"]
        score = f"{row['mean_score']:.2f}"
        if not realtime and "mean_score_ci95" in row:
            score += f" ± {(row['mean_score_ci95'][1] - row['mean_score_ci95'][0]) / 2:.2f}"
        cells.append(score)
        if with_ranks:
            cells.append(", ".join(f"{k} {v}" for k, v in row["ranks"].items()))
        table.add_row(*cells)
    console.print(table)


def _parse_options(args: argparse.Namespace) -> dict[str, Any]:
    options: dict[str, Any] = {}
    if getattr(args, "zero", False):
        options["zero"] = True
    if getattr(args, "chaos", False):
        options["chaos"] = True
    for item in getattr(args, "option", None) or []:
        name, sep, text = item.partition("=")
        if not sep:
            raise ValueError(f"--option takes NAME=VALUE, not {item!r}")
        try:
            options[name.strip()] = json.loads(text)
        except json.JSONDecodeError:
            options[name.strip()] = text
    return options


def run_from_cli(args: argparse.Namespace) -> int:
    """``coffeetable arena``: 0 on success, 2 for a bad argument."""
    try:
        options = _parse_options(args)
        names = [name.strip() for name in str(args.bots).split(",") if name.strip()]
        result = run_arena(
            args.game,
            names,
            games=args.games,
            seed=args.seed,
            players=args.players,
            options=options,
            workers=getattr(args, "workers", None),
            progress=sys.stderr.isatty(),
            save_logs=getattr(args, "save_log", None),
        )
    except (ValueError, RemoteError) as error:
        print(f"coffeetable arena: {error}", file=sys.stderr)
        return 2
    if getattr(args, "json", False):
        print(json.dumps(result))
    else:
        render(result, readable_console())
    return 0
