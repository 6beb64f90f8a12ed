"""A client arriving mid-match gets the recent public events (a board's game log)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from .conftest import Client, ServerThread


def _history(client: Client) -> list[dict]:
    message = client.until(lambda m: m["type"] == "history")
    return message["events"]


def test_history_is_sent_before_the_state_and_survives_a_restart(
    start_server: Callable[..., ServerThread], clients: list[Client], tmp_path: Path
) -> None:
    database = tmp_path / "history.sqlite3"
    server = start_server(database=database)
    created = server.create(game="doppio", players=2, options={"first_player": 0})
    table_id = created["table_id"]
    server.join(table_id)
    ada = server.client(table_id, created["token"])
    clients.append(ada)
    assert _history(ada) == []  # nothing happened yet
    first = ada.playable()["legal"][0]
    ada.act(first)
    carried = ada.until(lambda m: m["type"] == "state" and bool(m["events"]))
    assert carried["seq"] == 1 and len(carried["events"]) == 1  # in the state it led to
    placed = carried["events"][0]
    assert placed["type"] == "placed" and placed["seat"] == 0

    spectator = server.client(table_id)
    clients.append(spectator)
    order = [spectator.recv()["type"] for _ in range(4)]
    assert order == ["table", "history", "chat_history", "state"]
    assert spectator.messages[1]["events"] == [placed]
    assert spectator.messages[3]["events"] == []  # the past came in the history, once

    ada.close()
    server.stop()
    again = start_server(database=database)
    late = again.client(table_id)
    clients.append(late)
    assert _history(late) == [placed]  # rebuilt from the log
