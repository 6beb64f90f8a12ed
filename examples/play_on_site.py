"""Play a trained MaskablePPO policy on a Coffee Table site, as a bot account.

    python examples/train_maskable_ppo.py --game fika --opponent greedy --save fika.zip
    python examples/play_on_site.py --url http://127.0.0.1:8000 --key ctb_... \\
        --model fika.zip --game fika --games 10 --opponents greedy

The policy sees only what the site sends its seat (the view JSON and the legal
actions), encoded exactly as in training (``coffeetable.interop.site``); the
client (``coffeetable.client``) makes a table per match against the site's
bots named by ``--opponents``, and the bot's seat turns round the table.
The key is read from ``--key`` or the COFFEETABLE_BOT_KEY environment
variable (better: it stays out of the shell's history).
"""

from __future__ import annotations

import argparse
import json
import os
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="the site, e.g. http://127.0.0.1:8000")
    parser.add_argument("--key", default=None, help="the bot's API key (or COFFEETABLE_BOT_KEY)")
    parser.add_argument("--model", required=True, help="a MaskablePPO .zip")
    parser.add_argument("--game", choices=("fika", "doppio", "cafe"), default="fika")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--opponents", default="greedy", help="site bots, comma-separated")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    key = args.key or os.environ.get("COFFEETABLE_BOT_KEY")
    if not key:
        parser.error("give the bot's key: --key or COFFEETABLE_BOT_KEY")

    from sb3_contrib import MaskablePPO

    from coffeetable import client
    from coffeetable.interop.site import sb3_policy, site_policy

    model = MaskablePPO.load(args.model, device="cpu")
    policy = site_policy(args.game, sb3_policy(model))
    results = client.play(
        args.url,
        key,
        policy,
        game=args.game,
        games=args.games,
        opponents=[name for name in args.opponents.split(",") if name],
    )
    wins = sum(result.won for result in results)
    summary = {
        "game": args.game,
        "games": len(results),
        "wins": wins,
        "win_rate": wins / len(results),
        "finished": sum(result.status == "over" for result in results),
        "rejected": sum(result.rejected for result in results),
        "tables": [result.table_id for result in results],
    }
    if args.json:
        print(json.dumps(summary))
    else:
        print(
            f"{args.game}: {wins} wins in {len(results)} matches against {args.opponents} "
            f"({summary['finished']} finished, {summary['rejected']} answers refused)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
