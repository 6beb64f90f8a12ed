"""Café card balance: how each start card and plan card moves a greedy player's final score.

``python benchmarks/cafe_balance.py --games 120 --players 1 2 4 --seed 1 [--json FILE]``

Plays greedy self-play games (``games`` at each player count; game ``i`` is dealt
from seed ``seed + i``) and, per seat, records its start card, the plan cards
it was offered (in the display when it took) and took, and its final score.
Then, per card:

- start cards are dealt at random, so the mean score by start card (95 % CI)
  is their effect, with no selection bias;
- plan cards: ``offered`` (seat-turns it was in the display), ``pick rate``
  (taken / offered: a card greedy always takes when it shows is a suspect),
  and the mean final score of the seats that took it minus that of the seats
  of the same player count that were offered it and did not (95 % Welch
  interval). This last one is biased by choice (greedy takes what suits its
  area), so it flags, it does not prove: a card whose takers beat the others by
  several points at every player count, with a high pick rate, is dominant.
- solo only: the mean score of the games in which the card was dealt into the
  24-card deck minus the others (the deal is random: an unbiased, noisier view).

A card is flagged when the interval of its takers' lead lies wholly above
``FLAG`` points (dominant) or wholly below ``-FLAG`` (useless).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import sys
from typing import Any

from coffeetable import bots
from coffeetable.games.cafe import CafeGame
from coffeetable.games.cafe.cards import PLANS, STARTS

#: Points of takers' lead (whole 95 % interval beyond it) that flag a card.
FLAG = 2.0
Z95 = 1.959963984540054


def play(job: tuple[int, int]) -> dict[str, Any]:
    """One greedy self-play game; per seat its start card, offers, takes and score."""
    players, seed = job
    state = CafeGame().new_state(players=players, seed=seed)
    greedy = bots.make("greedy", "cafe")
    rngs = [random.Random(seed * 31 + seat) for seat in range(players)]
    starts = [company.cards[0][0] for company in state.companies]
    dealt = set(state.deck)
    offered: list[list[str]] = [[] for _ in range(players)]
    taken: list[list[str]] = [[] for _ in range(players)]
    while not state.is_over:
        for seat in state.actors():
            if state.is_over or seat not in state.actors():
                continue
            if state.phase == "take":
                offered[seat] += state.display
            action = greedy.choose(state, seat, rngs[seat])
            if action["type"] == "take":
                taken[seat].append(action["card"])
            state.apply(seat, action)
    return {
        "players": players,
        "seed": seed,
        "dealt": sorted(dealt),
        "seats": [
            {"start": starts[s], "offered": offered[s], "taken": taken[s], "score": state.scores[s]}
            for s in range(players)
        ],
    }


def mean_ci(values: list[float]) -> tuple[float, float]:
    """Mean and half-width of its 95 % interval."""
    if not values:
        return (math.nan, math.nan)
    mean = statistics.fmean(values)
    if len(values) < 2:
        return (mean, math.inf)
    return (mean, Z95 * statistics.stdev(values) / math.sqrt(len(values)))


def diff_ci(a: list[float], b: list[float]) -> tuple[float, float]:
    """mean(a) - mean(b) and the half-width of its 95 % Welch interval."""
    if len(a) < 2 or len(b) < 2:
        return (math.nan, math.inf)
    d = statistics.fmean(a) - statistics.fmean(b)
    se = math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b))
    return (d, Z95 * se)


def analyse(games: list[dict[str, Any]]) -> dict[str, Any]:
    counts = sorted({g["players"] for g in games})
    out: dict[str, Any] = {"games": {str(p): sum(g["players"] == p for g in games) for p in counts}}
    starts: dict[str, Any] = {}
    for card in STARTS:
        row = {}
        for p in counts:
            scores = [s["score"] for g in games if g["players"] == p for s in g["seats"]
                      if s["start"] == card.id]  # fmt: skip
            row[str(p)] = mean_ci(scores) + (len(scores),)
        starts[card.id] = row
    out["starts"] = starts
    plans: dict[str, Any] = {}
    for card in PLANS:
        row: dict[str, Any] = {}
        for p in counts:
            seats = [s for g in games if g["players"] == p for s in g["seats"]]
            offers = sum(s["offered"].count(card.id) for s in seats)
            takers = [s["score"] for s in seats if card.id in s["taken"]]
            passed = [s["score"] for s in seats
                      if card.id in s["offered"] and card.id not in s["taken"]]  # fmt: skip
            lead = diff_ci(takers, passed)
            row[str(p)] = {
                "offered": offers,
                "taken": len(takers),
                "pick_rate": len(takers) / offers if offers else math.nan,
                "takers_mean": statistics.fmean(takers) if takers else math.nan,
                "lead": lead[0],
                "lead_ci": lead[1],
            }
            if p == 1:
                solo = [g for g in games if g["players"] == 1]
                inside = [g["seats"][0]["score"] for g in solo if card.id in g["dealt"]]
                outside = [g["seats"][0]["score"] for g in solo if card.id not in g["dealt"]]
                dealt = diff_ci(inside, outside)
                row[str(p)] |= {"dealt_effect": dealt[0], "dealt_ci": dealt[1]}
        flags = [
            "dominant" if r["lead"] - r["lead_ci"] > FLAG else "useless"
            for r in row.values()
            if not math.isnan(r["lead"])
            and (r["lead"] - r["lead_ci"] > FLAG or r["lead"] + r["lead_ci"] < -FLAG)
        ]
        row["flag"] = ",".join(sorted(set(flags)))
        plans[card.id] = row
    out["plans"] = plans
    out["scores"] = {
        str(p): mean_ci([s["score"] for g in games if g["players"] == p for s in g["seats"]])
        for p in counts
    }
    return out


def render(result: dict[str, Any]) -> None:
    counts = list(result["games"])
    print("games:", ", ".join(f"{n} at {p}p" for p, n in result["games"].items()))
    print(
        "mean score:",
        ", ".join(f"{p}p {m:.2f} ± {h:.2f}" for p, (m, h) in result["scores"].items()),
    )
    print("\nstart card: mean final score ± 95% CI (seats)")
    for card, row in result["starts"].items():
        cells = [f"{p}p {m:6.2f} ± {h:4.2f} ({n})" for p, (m, h, n) in row.items()]
        print(f"  {card}  " + "   ".join(cells))
    print("\nplan card: pick rate when offered; takers' lead over those who passed it ± 95% CI")
    head = "   ".join(f"{p}p pick  lead ± ci    " for p in counts)
    print(f"  card  {head}  solo dealt effect   flag")
    for card, row in result["plans"].items():
        cells = [
            f"{row[p]['pick_rate']:5.0%} {row[p]['lead']:+5.1f} ± {row[p]['lead_ci']:4.1f}"
            for p in counts
        ]
        solo = row.get("1", {})
        dealt = (
            f"{solo['dealt_effect']:+5.1f} ± {solo['dealt_ci']:4.1f}"
            if "dealt_effect" in solo
            else ""
        )
        print(f"  {card}   " + "     ".join(cells) + f"   {dealt:>14}   {row['flag']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games at each player count")
    parser.add_argument("--players", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", help="write the games and the analysis to this file")
    args = parser.parse_args(argv)
    jobs = [(p, args.seed + i) for p in args.players for i in range(args.games)]
    if args.workers > 1:
        with multiprocessing.Pool(args.workers) as pool:
            games = pool.map(play, jobs, chunksize=4)
    else:
        games = [play(job) for job in jobs]
    result = analyse(games)
    render(result)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"analysis": result, "games": games}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
