"""Review benchmark, for the record: how long "Review with the bot" takes for a whole match.

    python benchmarks/bench_review.py [--game fika] [--actions 96] [--workers 1 2]

A seeded match of at least ``--actions`` actions is played at random by two people
(every decision of both is judged: the worst case, a match between two accounts),
then reviewed as the server does (``coffeetable.server.api.review_jobs``):
the site's default iterations per decision, parts of a few decisions handed to a
pool of ``review_workers`` processes. Printed per worker count: the wall time of the
whole review, the decisions judged, and the time per decision. Wall time, so run it
on an idle machine (the load average is printed beside it).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import random
import time
from types import SimpleNamespace
from typing import Any

from coffeetable import games
from coffeetable.bots.review import decisions
from coffeetable.engine import Action, MatchLog
from coffeetable.server.api.review_jobs import Reviews
from coffeetable.server.limits import Limits


def random_match(game: str, actions: int) -> MatchLog:
    """The first seeded random match of ``game`` at least ``actions`` long (its whole log)."""
    for seed in range(1, 1000):
        state, rng = games.get(game).new_state(players=2, seed=seed), random.Random(seed)
        log: list[tuple[int | None, Action]] = []
        while not state.is_over:
            seat = state.actors()[0]
            action = rng.choice(state.legal_actions(seat))
            state.apply(seat, action)
            log.append((seat, action))
        if len(log) >= actions:
            return MatchLog(game, 2, seed, {}, log)
    raise SystemExit(f"no random {game} match of {actions} actions in 1000 seeds")


@dataclasses.dataclass
class OneTable:
    """What ``Reviews`` reads of a finished table whose every seat is a person."""

    log: MatchLog
    id: str = "bench"
    live: bool = False

    @property
    def game(self) -> Any:
        return games.get(self.log.game)

    @property
    def seats(self) -> list[SimpleNamespace]:
        return [SimpleNamespace(index=seat, bot=None) for seat in range(self.log.players)]

    def match_log(self) -> MatchLog:
        return self.log


class OneLobby:
    def __init__(self, table: OneTable) -> None:
        self.table = table

    async def peek(self, table_id: str) -> OneTable:
        return self.table


def review_seconds(log: MatchLog, workers: int) -> tuple[float, int]:
    limits = dataclasses.replace(Limits(), review_workers=workers, reviews_per_client=9)

    async def run() -> tuple[float, int]:
        reviews = Reviews(OneLobby(OneTable(log)), limits)  # type: ignore[arg-type]
        began = time.perf_counter()
        review = await reviews.start("bench")
        assert review.task is not None
        await review.task
        seconds = time.perf_counter() - began
        assert review.status == "done", review.error
        await reviews.close()
        return seconds, review.total

    return asyncio.run(run())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="fika", help="a turn-based game (default fika)")
    parser.add_argument("--actions", type=int, default=96, help="the match's length at least")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="review_workers")
    args = parser.parse_args()
    log = random_match(args.game, args.actions)
    print(
        f"{args.game}: a random match of {len(log.actions)} actions (seed {log.seed}), "
        f"{len(decisions(log, {0, 1}))} possible decisions of two people, "
        f"{Limits().review_iterations} iterations each"
    )
    for workers in args.workers:
        load = os.getloadavg()[0]
        seconds, total = review_seconds(log, workers)
        print(
            f"  review_workers={workers}: {seconds:.1f} s for {total} decisions "
            f"({seconds / max(1, total):.2f} s each; load average {load:.1f} before)"
        )


if __name__ == "__main__":
    main()
