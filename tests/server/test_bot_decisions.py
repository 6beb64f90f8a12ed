"""A search bot's choices replay: each decision's generator comes from the table's seed,
the seat and the log's length, so a match of bots is the same match after a restart."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .conftest import TIMEOUT, ServerThread
from .test_restart import ServerProcess

#: Two searching bots (ISMCTS, 25 iterations) at Doppio, slow enough to stop mid-match.
TABLE: dict[str, Any] = {
    "bots": {"0": "strong", "1": "strong"},
    "options": {"bot_speed": 2},
}


def wait_for(server: Any, table_id: str, done: Callable[[dict[str, Any]], bool]) -> None:
    deadline = time.monotonic() + 6 * TIMEOUT
    while not done(summary := server.http.get(f"/api/tables/{table_id}").json()):
        assert time.monotonic() < deadline, summary
        time.sleep(0.05)


def finished_log(server: ServerThread, table_id: str) -> dict[str, Any]:
    wait_for(server, table_id, lambda summary: summary["status"] == "over")
    response = server.http.get(f"/api/tables/{table_id}/log")
    assert response.status_code == 200, response.text
    log: dict[str, Any] = response.json()
    return log


def test_search_bots_play_the_same_match_across_a_kill_9(
    start_server: Callable[..., ServerThread], tmp_path: Path
) -> None:
    database = tmp_path / "tables.sqlite3"
    killed = ServerProcess(database)
    try:
        created = killed.http.post("/api/tables", json={"game": "doppio", "players": 2, **TABLE})
        table_id = created.json()["table_id"]
        wait_for(killed, table_id, lambda summary: summary["seq"] >= 20)  # well into the match
    finally:
        killed.kill()  # no more actions: the bots' choices so far are in the log
    restarted = start_server(database=database)
    assert restarted.summary(table_id)["status"] == "running"
    log = finished_log(restarted, table_id)

    alone = start_server(database=tmp_path / "alone.sqlite3")  # the same match, never stopped
    again = alone.create("doppio", 2, seed=log["seed"], **TABLE)["table_id"]
    assert finished_log(alone, again)["actions"] == log["actions"]
