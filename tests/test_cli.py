"""The ``coffeetable`` command as a person meets it: run as a subprocess, a mistake in what
was typed ends with exit status 2 and one line on stderr that says what is wrong, never a
traceback; piped output stays readable."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest


def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "coffeetable", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def assert_refused(result: subprocess.CompletedProcess[str], *words: str) -> None:
    """Exit status 2, nothing on stdout, exactly one line on stderr naming ``words``."""
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for word in words:
        assert word in lines[0], lines[0]


def closed_port() -> int:
    """A loopback port nobody listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize("port", ["99999", "0", "-1", "http"])
def test_serve_refuses_a_port_outside_1_to_65535(port: str) -> None:
    assert_refused(run("serve", "--port", port), "--port", port)


@pytest.mark.parametrize(
    ("url", "says"),
    [("notaurl://x", "notaurl"), ("not a url at all", "not a database URL")],
)
def test_serve_refuses_a_database_url_of_no_known_kind(url: str, says: str) -> None:
    assert_refused(run("serve", "--database", url), "--database", says)


def test_serve_refuses_a_redis_url_that_is_not_one() -> None:
    assert_refused(run("serve", "--redis", "http://127.0.0.1:1"), "--redis")


@pytest.mark.parametrize("seconds", ["-1", "0", "nan", "inf"])
def test_bench_refuses_seconds_that_measure_nothing(seconds: str) -> None:
    assert_refused(run("bench", "fika", "--seconds", seconds), "--seconds")


@pytest.mark.parametrize("flag", ["--games", "--workers", "--players"])
def test_arena_refuses_counts_below_one(flag: str) -> None:
    assert_refused(run("arena", "fika", flag, "0"), flag)


def test_replay_of_a_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "nothing.json"
    assert_refused(run("replay", str(missing)), "no such file", "nothing.json")


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("nope", "is not JSON"),
        ('{"a": 1}', "is not a match log"),
        ("[1, 2]", "is not a match log"),
        ('{"game": "nope", "players": 2, "seed": 1, "actions": []}', "no game 'nope'"),
        ('{"game": "fika", "seed": 1, "actions": []}', "players"),
        ('{"game": "fika", "players": 2, "seed": 1, "actions": [[0, {"type": "zz"}]]}', "legal"),
    ],
)
def test_replay_of_a_file_that_is_no_match_log(tmp_path: Path, content: str, says: str) -> None:
    path = tmp_path / "log.json"
    path.write_text(content, encoding="utf-8")
    assert_refused(run("replay", str(path)), says)


def test_replay_of_a_saved_log_prints_the_scores(tmp_path: Path) -> None:
    played = run("arena", "fika", "--games", "1", "--workers", "1", "--save-log", str(tmp_path))
    assert played.returncode == 0, played.stderr
    (log,) = tmp_path.glob("*.json")
    result = run("replay", str(log), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["over"] is True


def test_arena_with_an_unreachable_remote_bot() -> None:
    url = f"ws://127.0.0.1:{closed_port()}"
    result = run("arena", "fika", "--bots", f"remote:{url},greedy", "--games", "2")
    assert_refused(result, "remote bot", url)


def test_arena_piped_keeps_every_cell_whole() -> None:
    """Piped, rich would squeeze the table into 80 columns and cut cells with '…'."""
    result = run("arena", "espresso", "--bots", "greedy,random,easy,medium", "--games", "2")
    assert result.returncode == 0, result.stderr
    assert "…" not in result.stdout
    header = next(line for line in result.stdout.splitlines() if "bot" in line)
    for column in ("matches", "wins", "win rate", "95% CI", "pts/round", "FINITO", "score"):
        assert column in header
    for bot in ("greedy", "random", "easy", "medium"):
        assert any(
            line.split("│")[1].strip() == bot
            for line in result.stdout.splitlines()
            if line.count("│") > 2
        ), bot


@pytest.mark.parametrize("command", ["serve", "arena", "bench", "replay", "moderators"])
def test_help_explains_every_argument(command: str) -> None:
    from coffeetable.cli import build_parser

    (commands,) = [action for action in build_parser()._actions if action.dest == "command"]
    parser = commands.choices[command]  # type: ignore[index]
    for action in parser._actions:
        assert action.help, f"coffeetable {command}: {action.option_strings or action.dest}"
    assert run(command, "--help").returncode == 0


def test_moderators_are_added_listed_and_removed_and_each_change_is_logged(
    tmp_path: Path,
) -> None:
    from coffeetable.store import Database, moderation
    from coffeetable.store import players as players_db

    url = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    database = Database(url)
    with database.engine.begin() as conn:
        ana = players_db.create_account(conn, "Ana", "ana", "ana", "hash")
        players_db.create_account(conn, "bea", "bea", "bea", "hash")
    database.close()

    assert run("moderators", "list", "--database", url).stdout == ""
    added = run("moderators", "add", "ANA", "--database", url)  # found as sign-in finds names
    assert added.returncode == 0 and "Ana is now a moderator" in added.stdout
    assert "already" in run("moderators", "add", "ana", "--database", url).stdout
    run("moderators", "add", "bea", "--database", url)
    assert run("moderators", "list", "--database", url).stdout.split() == ["Ana", "bea"]
    removed = run("moderators", "remove", "bea", "--database", url)
    assert removed.returncode == 0 and "no longer" in removed.stdout
    assert run("moderators", "list", "--database", url).stdout.split() == ["Ana"]
    assert_refused(run("moderators", "add", "nobody", "--database", url), "no account")
    assert_refused(run("moderators", "add", "--database", url), "needs a username")
    assert_refused(run("moderators", "promote", "ana", "--database", url), "invalid choice")

    database = Database(url)
    with database.engine.connect() as conn:
        standing = moderation.standing(conn, ana)
        entries = moderation.log_entries(conn, 10)
    database.close()
    assert standing is not None and standing.moderator
    assert [(e["player"], e["action"], e["moderator"]) for e in entries] == [
        ("bea", "moderator_removed", None),
        ("bea", "moderator_added", None),
        ("Ana", "moderator_added", None),
    ]
