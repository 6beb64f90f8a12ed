"""The clock of turn-based tables (table setting ``clock_minutes``)."""

from __future__ import annotations

import time
from collections.abc import Callable

from .conftest import Client, ServerThread


def test_only_turn_based_games_have_a_clock(server: ServerThread) -> None:
    listed = {game["name"]: game for game in server.http.get("/api/games").json()}
    names = {name: [s["name"] for s in game["settings"]] for name, game in listed.items()}
    assert names["espresso"] == ["bot_speed", "grace_seconds", "min_reliability", "min_reaction"]
    assert names["doppio"] == [
        "bot_speed",
        "clock_minutes",
        "days_per_move",
        "reserve_days",
        "grace_seconds",
        "min_reliability",
    ]
    assert listed["doppio"]["board"] is True
    created = server.create(game="doppio", players=2, options={"clock_minutes": 5})
    summary = server.summary(created["table_id"])
    assert summary["settings"] == {
        "bot_speed": 1,
        "clock_minutes": 5,
        "days_per_move": 0,
        "reserve_days": 0,
        "grace_seconds": 60,
        "min_reliability": 0,
        "rated": False,
    }
    assert summary["clock"] == {"left": [300.0, 300.0], "running": None}  # not started yet
    refused = server.http.post(
        "/api/tables", json={"game": "doppio", "players": 2, "options": {"clock_minutes": -1}}
    )
    assert refused.status_code == 422 and "clock_minutes" in str(refused.json()["detail"])


def test_the_clock_runs_for_the_actor_and_is_saved(
    server: ServerThread, clients: list[Client]
) -> None:
    created = server.create(
        game="doppio", players=2, options={"clock_minutes": 10, "first_player": 0}
    )
    table_id = created["table_id"]
    bea = server.join(table_id)
    ada = server.client(table_id, created["token"])
    clients.append(ada)
    state = ada.playable()
    assert state["clock"]["running"] == 0 and state["clock"]["left"][1] == 600.0
    time.sleep(0.3)  # Ada thinks
    ada.act(state["legal"][0])
    state = ada.state_until(lambda m: m["actors"] == [1])
    assert state["clock"]["running"] == 1
    assert 0 < state["clock"]["left"][0] < 600.0  # Ada's thinking time was charged
    assert bea["seat"] == 1


def test_a_seat_out_of_time_is_played_by_the_greedy_bot(
    start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    server = start_server()
    created = server.create(
        game="doppio",
        players=2,
        bots={"1": "greedy"},
        options={"clock_minutes": 0.02, "first_player": 0, "bot_speed": 1000},
    )
    table_id = created["table_id"]
    ada = server.client(table_id, created["token"])
    clients.append(ada)
    expired = ada.event_until(lambda e: e["type"] == "clock")
    assert expired == {"type": "clock", "seat": 0, "expired": True}
    ada.state_until(lambda m: m["view"]["phase"] == "over", timeout=60)
    summary = server.summary(table_id)
    assert summary["status"] == "over"
    assert summary["seats"][0]["bot"] is None  # still Ada's seat, played by her stand-in
    assert summary["seats"][0]["stand_in"] == "greedy"


def test_a_restart_keeps_the_time_left(
    start_server: Callable[..., ServerThread], clients: list[Client], tmp_path
) -> None:
    database = tmp_path / "clock.sqlite3"
    server = start_server(database=database)
    created = server.create(
        game="doppio", players=2, options={"clock_minutes": 10, "first_player": 0}
    )
    table_id = created["table_id"]
    server.join(table_id)
    ada = server.client(table_id, created["token"])
    clients.append(ada)
    legal = ada.playable()["legal"]
    time.sleep(0.3)
    ada.act(legal[0])
    left = ada.state_until(lambda m: m["actors"] == [1])["clock"]["left"]
    ada.close()
    server.stop()
    again = start_server(database=database).summary(table_id)["clock"]
    assert again["running"] == 1
    assert again["left"][0] == left[0] < 600.0
