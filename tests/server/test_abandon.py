"""Abandoned tables: a live table nobody is connected to is closed, and stays closed."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from coffeetable.store import Database

from .conftest import TEST_LIMITS, TIMEOUT, Client, ServerThread

FAST = {"bot_speed": 1000}
#: Long enough for a test to connect after creating a table, short enough to wait for.
ABANDON = 1.0


def limits(**changes: Any) -> Any:
    return dataclasses.replace(TEST_LIMITS, **changes)


def wait_status(server: ServerThread, table_id: str, status: str) -> dict[str, Any]:
    deadline = time.monotonic() + TIMEOUT
    while True:
        summary = server.summary(table_id)
        if summary["status"] == status:
            return summary
        assert time.monotonic() < deadline, summary
        time.sleep(0.05)


def listed(server: ServerThread) -> list[str]:
    return [table["table_id"] for table in server.http.get("/api/tables").json()]


def saved_status(server: ServerThread, table_id: str) -> str:
    database = Database(server.database_url)
    with database.engine.connect() as conn:
        record = database.load(conn, table_id)
    database.close()
    assert record is not None
    return record.status


def test_a_table_nobody_is_connected_to_is_abandoned(
    start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    server = start_server(limits=limits(abandon_after_seconds=ABANDON))
    created = server.create(players=2, options=FAST)
    table_id = created["table_id"]
    joined = server.join(table_id)
    ada = server.client(table_id, created["token"])
    clients.append(ada)
    ada.playable()
    time.sleep(ABANDON * 1.5)  # Ada is connected: the table lives
    assert server.summary(table_id)["status"] == "running"
    ada.close()
    summary = wait_status(server, table_id, "abandoned")
    assert table_id not in listed(server)
    assert saved_status(server, table_id) == "abandoned"
    assert summary["seats"][1]["left"] is False  # nobody left: they just went away
    # A token of an abandoned table still names its seat, but nothing can be done there.
    late = server.client(table_id, joined["token"])
    clients.append(late)
    state = late.until(lambda m: m["type"] == "state")
    assert state["legal"] == [] and state["actors"] == []
    late.act({"type": "ready"})
    assert late.until(lambda m: m["type"] == "rejected")["reason"] == "the table is closed"


def test_a_watched_table_of_bots_plays_on_and_is_abandoned_once_nobody_watches(
    start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    server = start_server(limits=limits(abandon_after_seconds=ABANDON))
    created = server.create(
        players=2, bots={"0": "random", "1": "random"}, options={"target": 1000}
    )
    table_id = created["table_id"]
    watcher = server.client(table_id)
    clients.append(watcher)
    watcher.until(lambda m: m["type"] == "state")
    time.sleep(ABANDON * 1.5)
    assert server.summary(table_id)["status"] == "running"
    seq = server.summary(table_id)["seq"]
    watcher.close()
    summary = wait_status(server, table_id, "abandoned")
    time.sleep(0.3)  # its bots have stopped: the log stays where it was
    assert server.summary(table_id)["seq"] == summary["seq"] >= seq


def test_an_open_table_nobody_comes_to_is_abandoned(
    start_server: Callable[..., ServerThread],
) -> None:
    server = start_server(limits=limits(abandon_after_seconds=ABANDON))
    table_id = server.create(players=3, options=FAST)["table_id"]
    assert table_id in listed(server)
    wait_status(server, table_id, "abandoned")
    assert table_id not in listed(server)


def test_a_restart_counts_absence_from_the_start_and_never_restores_an_abandoned_table(
    start_server: Callable[..., ServerThread], tmp_path: Path
) -> None:
    database = tmp_path / "abandon.sqlite3"
    server = start_server(database=database, limits=limits(abandon_after_seconds=600))
    created = server.create(players=2, bots={"1": "random"}, options=FAST)
    table_id = created["table_id"]
    server.stop()

    server = start_server(database=database, limits=limits(abandon_after_seconds=ABANDON))
    assert table_id in listed(server)  # restored, and nobody comes
    wait_status(server, table_id, "abandoned")
    server.stop()

    server = start_server(database=database, limits=limits(abandon_after_seconds=600))
    assert table_id not in listed(server)
    assert server.summary(table_id)["status"] == "abandoned"  # read back, not restored
