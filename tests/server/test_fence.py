"""A table whose log ends too early (another process wrote the next action meanwhile, as
when a process adopts a table its old process still writes to) hits the log's fence once,
takes the log as stored and goes on, instead of hitting it for ever
(``server/tables/fence.py``)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from tests.server.conftest import ServerThread


def test_a_table_behind_its_stored_log_catches_up(
    start_server: object, sugar: str, tmp_path: Path
) -> None:
    server: ServerThread = start_server()  # type: ignore[operator]
    made = server.create(sugar, players=2)
    table_id = made["table_id"]
    joined = server.join(table_id)
    ana = server.client(table_id, made["token"])
    bea = server.client(table_id, joined["token"])
    try:
        ana.playable()
        # Another process took one cube for Ana meanwhile: the stored log has seq 1.
        with sqlite3.connect(tmp_path / "tables.sqlite3") as db:
            db.execute(
                "INSERT INTO actions (table_id, seq, seat, action, by_stand_in)"
                " VALUES (?, 1, 0, ?, 0)",
                (table_id, json.dumps({"type": "take", "n": 1})),
            )
        ana.act({"type": "take", "n": 3})  # this table's seq 1: refused by the fence
        ana.until(lambda m: m["type"] == "rejected")
        # The table took the stored log: 9 cubes left and Bea to play, who plays on.
        state = bea.state_until(lambda m: m["seq"] == 1 and bool(m["legal"]))
        assert state["view"]["cubes"] == 9
        bea.act({"type": "take", "n": 2})
        bea.state_until(lambda m: m["seq"] == 2)
        assert server.summary(table_id)["seq"] == 2
    finally:
        ana.close()
        bea.close()
