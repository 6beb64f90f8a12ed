"""The ``coffeetable`` command: serve · arena · bench · replay.

Each sub-command imports what it needs only when it runs, so ``coffeetable
replay`` never loads the web server.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path


def _serve(args: argparse.Namespace) -> int:
    from coffeetable.server import serve

    serve(host=args.host, port=args.port, database_url=args.database, redis_url=args.redis)
    return 0


def _arena(args: argparse.Namespace) -> int:
    from coffeetable.sim.arena import run_from_cli

    return run_from_cli(args)


def _bench(args: argparse.Namespace) -> int:
    from coffeetable.sim.bench import run_from_cli

    return run_from_cli(args)


def _replay(args: argparse.Namespace) -> int:
    from coffeetable.engine import replay_log

    data = json.loads(Path(args.file).read_text(encoding="utf-8"))
    state = replay_log(data)
    result = {
        "game": data["game"],
        "actions": len(data.get("actions", [])),
        "round": state.round,
        "over": state.is_over,
        "scores": state.scores,
        "winners": state.winners,
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['game']}: {result['actions']} actions, round {state.round}")
        for seat, score in enumerate(state.scores):
            crown = "  (winner)" if seat in state.winners else ""
            print(f"  seat {seat}: {score}{crown}")
        if not state.is_over:
            print("  the match is not over")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="coffeetable", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="run the site on http://127.0.0.1:8000")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument(
        "--database",
        default=None,
        help="SQLAlchemy URL (default: $COFFEETABLE_DATABASE_URL, else SQLite in the data folder)",
    )
    serve.add_argument(
        "--redis",
        default=None,
        help="Redis URL: run as one of several processes on one database and this Redis"
        " (default: $COFFEETABLE_REDIS_URL; none: a single process; docs/deploy.md)",
    )
    serve.set_defaults(run=_serve)

    arena = commands.add_parser("arena", help="bots against bots, many matches, a results table")
    arena.add_argument("game")
    arena.add_argument("--players", type=int, default=None, help="seats (default: one per bot)")
    arena.add_argument(
        "--bots",
        default="greedy,random",
        help="comma-separated, one per seat; remote:ws://HOST:PORT seats a served policy",
    )
    arena.add_argument("--games", type=int, default=100)
    arena.add_argument("--seed", type=int, default=0)
    arena.add_argument("--zero", action="store_true", help="Espresso: the Zero variant")
    arena.add_argument("--chaos", action="store_true", help="Espresso: the Chaos variant")
    arena.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    arena.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    arena.add_argument("--json", action="store_true", help="print one JSON object")
    arena.add_argument(
        "--save-log", metavar="DIR", help="write each match's log there (for `coffeetable replay`)"
    )
    arena.set_defaults(run=_arena)

    bench = commands.add_parser("bench", help="random self-play speed of the engine")
    bench.add_argument("game")
    bench.add_argument("--players", type=int, default=None)
    bench.add_argument("--seconds", type=float, default=3.0)
    bench.add_argument("--seed", type=int, default=0)
    bench.add_argument("--json", action="store_true")
    bench.set_defaults(run=_bench)

    replay = commands.add_parser("replay", help="replay a saved match log, print the scores")
    replay.add_argument("file")
    replay.add_argument("--json", action="store_true")
    replay.set_defaults(run=_replay)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    result: int = args.run(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
