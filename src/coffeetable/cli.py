"""The ``coffeetable`` command: serve · arena · bench · replay · export · moderators.

Each sub-command imports what it needs only when it runs, so ``coffeetable
replay`` never loads the web server. A mistake in what a person typed (a port
out of range, a missing file, a database URL of no known kind) ends with one
line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from coffeetable import games


class UsageError(Exception):
    """What the person asked for cannot be done: said in one line, exit status 2."""


def _port(text: str) -> int:
    """A TCP port, 1-65535 (argparse's type for ``--port``)."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 1-65535, not {port}")
    return port


def _at_least(low: float, kind: type[int] | type[float] = int) -> Any:
    """An argparse type: a number of ``kind`` no smaller than ``low``."""

    def parse(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if value < low or value != value:  # NaN compares false to everything
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {text}")
        return value

    parse.__name__ = kind.__name__  # argparse names the type in its messages
    return parse


def _positive_seconds(text: str) -> float:
    """Seconds above zero (``bench --seconds``)."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < seconds < float("inf"):
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, not {text}")
    return seconds


def _check_database_url(url: str) -> None:
    """Refuse, in one line, a URL SQLAlchemy cannot parse or has no dialect or driver for."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    try:
        parsed = make_url(url)
    except ArgumentError:
        raise UsageError(
            f"--database: not a database URL: {url!r} (e.g. sqlite:///path/to/file.sqlite3"
            " or postgresql+psycopg://user:password@host/name)"
        ) from None
    try:
        parsed.get_dialect()
    except NoSuchModuleError:
        raise UsageError(
            f"--database: no database of the kind {parsed.drivername!r}"
            " (sqlite:///... or postgresql+psycopg://...)"
        ) from None
    except ImportError as error:
        raise UsageError(
            f"--database: the driver for {parsed.drivername!r} is not installed ({error.name});"
            " for PostgreSQL: pip install 'coffeetable[postgres]'"
        ) from None


def _serve(args: argparse.Namespace) -> int:
    from coffeetable.server import serve

    if args.database is not None:
        _check_database_url(args.database)
    if args.redis is not None and not args.redis.startswith(("redis://", "rediss://", "unix://")):
        raise UsageError(f"--redis: not a Redis URL: {args.redis!r} (redis://host:6379/0)")
    serve(host=args.host, port=args.port, database_url=args.database, redis_url=args.redis)
    return 0


def _arena(args: argparse.Namespace) -> int:
    from coffeetable.sim.arena import run_from_cli

    return run_from_cli(args)


def _bench(args: argparse.Namespace) -> int:
    from coffeetable.sim.bench import run_from_cli

    return run_from_cli(args)


def _read_match_log(path: Path) -> Any:
    """The JSON of a saved match log, or a UsageError saying why it is none."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UsageError(f"no such file: {path}") from None
    except (IsADirectoryError, PermissionError, UnicodeDecodeError) as error:
        raise UsageError(f"cannot read {path}: {error.__class__.__name__}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise UsageError(f"{path} is not JSON (line {error.lineno}: {error.msg})") from None


def _replay(args: argparse.Namespace) -> int:
    from coffeetable.engine import IllegalAction, replay_log

    data = _read_match_log(Path(args.file))
    if not isinstance(data, dict) or not isinstance(data.get("game"), str):
        raise UsageError(f"{args.file} is not a match log (a JSON object with game and actions)")
    if data["game"] not in games.names():
        raise UsageError(f"{args.file}: no game {data['game']!r} here ({_game_names()})")
    try:
        state = replay_log(data)
    except IllegalAction as error:
        raise UsageError(f"{args.file}: an action of the log is not legal: {error}") from None
    except KeyError as error:
        raise UsageError(f"{args.file} is not a match log: it has no {error}") from None
    except (TypeError, ValueError) as error:
        raise UsageError(f"{args.file} is not a match log that replays: {error}") from None
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


def _date(text: str) -> float:
    """A day, YYYY-MM-DD (UTC), as the Unix time of its first second (``export``)."""
    import calendar
    import re

    found = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", text)
    if found is None:
        raise argparse.ArgumentTypeError(f"a date is YYYY-MM-DD, not {text!r}")
    year, month, day = (int(part) for part in found.groups())
    if not 1 <= month <= 12 or not 1 <= day <= calendar.monthrange(year, month)[1]:
        raise argparse.ArgumentTypeError(f"no such day: {text!r}")
    return float(calendar.timegm((year, month, day, 0, 0, 0)))


def _export(args: argparse.Namespace) -> int:
    from coffeetable.server.limits import Limits
    from coffeetable.store.db import Database
    from coffeetable.store.exports import export_lines

    if args.game not in games.names():
        raise UsageError(f"no game {args.game!r} ({_game_names()})")
    if args.until is not None and args.until <= args.since:
        raise UsageError("--until must be a later day than --since")
    if args.database is not None:
        _check_database_url(args.database)
    anonymous = args.anonymous or bool(Limits.from_env().export_anonymous)
    database = Database(args.database)
    try:
        with database.engine.connect() as conn:
            for line in export_lines(conn, args.game, args.since, args.until, anonymous=anonymous):
                sys.stdout.write(line + "\n")
    finally:
        database.close()
    return 0


def _moderators(args: argparse.Namespace) -> int:
    """``moderators add NAME`` / ``remove NAME`` / ``list``: who moderates the site's reports
    (``server/moderation``). Adding and removing are written to the moderators' log."""
    from coffeetable.server.players.usernames import name_key, normalize
    from coffeetable.store import moderation
    from coffeetable.store import players as players_db
    from coffeetable.store.db import Database

    if args.database is not None:
        _check_database_url(args.database)
    database = Database(args.database)
    try:
        with database.engine.begin() as conn:
            if args.action == "list":
                for name in moderation.moderators(conn):
                    print(name)
                return 0
            if not args.name:
                raise UsageError(f"{args.action} needs a username")
            found = players_db.player_by_key(conn, name_key(normalize(args.name)))
            if found is None or found.kind != players_db.USER:
                raise UsageError(f"no account {args.name!r}")
            adding = args.action == "add"
            if moderation.set_moderator(conn, found.id, adding):
                action = moderation.MODERATOR_ADDED if adding else moderation.MODERATOR_REMOVED
                why = "coffeetable moderators " + args.action
                moderation.add_log(
                    conn, moderator_id=None, player_id=found.id, action=action, why=why
                )
                print(f"{found.name} is {'now' if adding else 'no longer'} a moderator")
            else:
                print(f"{found.name} {'is' if adding else 'was not'} a moderator already")
    finally:
        database.close()
    return 0


def _game_names() -> str:
    return ", ".join(games.names())


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose refusals are one line (its usage is one ``--help`` away)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="coffeetable", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="run the site on http://127.0.0.1:8000")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--port", type=_port, default=8000, help="TCP port, 1-65535")
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
    arena.add_argument("game", help=f"the game: {_game_names()}")
    arena.add_argument(
        "--players", type=_at_least(1), default=None, help="seats (default: one per bot)"
    )
    arena.add_argument(
        "--bots",
        default="greedy,random",
        help="comma-separated, one per seat; remote:ws://HOST:PORT seats a served policy",
    )
    arena.add_argument(
        "--games", type=_at_least(1), default=100, help="matches to play (default: 100)"
    )
    arena.add_argument(
        "--seed", type=int, default=0, help="the first match's seed; match i plays seed+i"
    )
    arena.add_argument("--zero", action="store_true", help="Espresso: the Zero variant")
    arena.add_argument("--chaos", action="store_true", help="Espresso: the Chaos variant")
    arena.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option (repeatable; the value is read as JSON, else as text)",
    )
    arena.add_argument(
        "--workers", type=_at_least(1), default=None, help="processes (default: all cores)"
    )
    arena.add_argument("--json", action="store_true", help="print one JSON object")
    arena.add_argument(
        "--save-log", metavar="DIR", help="write each match's log there (for `coffeetable replay`)"
    )
    arena.set_defaults(run=_arena)

    bench = commands.add_parser("bench", help="random self-play speed of the engine")
    bench.add_argument("game", help=f"the game: {_game_names()}")
    bench.add_argument(
        "--players", type=_at_least(1), default=None, help="seats (default: the game's usual)"
    )
    bench.add_argument(
        "--seconds", type=_positive_seconds, default=3.0, help="time per variant (default: 3)"
    )
    bench.add_argument("--seed", type=int, default=0, help="seed of the first match")
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.set_defaults(run=_bench)

    replay = commands.add_parser("replay", help="replay a saved match log, print the scores")
    replay.add_argument("file", help="a match log (JSON), as `arena --save-log` writes")
    replay.add_argument("--json", action="store_true", help="print one JSON object")
    replay.set_defaults(run=_replay)

    export = commands.add_parser(
        "export", help="finished matches as JSON lines, one a line (docs/exports.md)"
    )
    export.add_argument("--game", required=True, help=f"the game: {_game_names()}")
    export.add_argument(
        "--since", type=_date, required=True, help="the first day, YYYY-MM-DD (UTC)"
    )
    export.add_argument(
        "--until", type=_date, default=None, help="the day after the last, YYYY-MM-DD (UTC)"
    )
    export.add_argument(
        "--anonymous",
        action="store_true",
        help="pseudonyms for names (also $COFFEETABLE_EXPORT_ANONYMOUS=1)",
    )
    export.add_argument(
        "--database",
        default=None,
        help="SQLAlchemy URL (default: $COFFEETABLE_DATABASE_URL, else SQLite in the data folder)",
    )
    export.set_defaults(run=_export)

    moderators = commands.add_parser(
        "moderators", help="name the site's moderators: add NAME, remove NAME, list"
    )
    moderators.add_argument("action", choices=["add", "remove", "list"], help="what to do")
    moderators.add_argument("name", nargs="?", default=None, help="an account's username")
    moderators.add_argument(
        "--database",
        default=None,
        help="SQLAlchemy URL (default: $COFFEETABLE_DATABASE_URL, else SQLite in the data folder)",
    )
    moderators.set_defaults(run=_moderators)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        result: int = args.run(args)
    except UsageError as error:
        print(f"coffeetable {args.command}: {error}", file=sys.stderr)
        return 2
    return result


if __name__ == "__main__":
    sys.exit(main())
