"""Play now: people waiting for the same table meet; a lone person gets bots after the wait."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Any

import pytest

from .conftest import TEST_LIMITS, TIMEOUT, ServerThread


def queue(server: ServerThread, **body: Any) -> dict[str, Any]:
    response = server.http.post("/api/play-now", json={"game": "fika", "players": 2, **body})
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def status(server: ServerThread, ticket: str) -> dict[str, Any]:
    response = server.http.post("/api/play-now/status", json={"ticket": ticket})
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def until_seated(server: ServerThread, ticket: str) -> dict[str, Any]:
    deadline = time.monotonic() + TIMEOUT
    while (answer := status(server, ticket))["status"] != "seated":
        assert time.monotonic() < deadline, f"never seated: {answer}"
        time.sleep(0.05)
    return answer


@pytest.fixture
def waiting_server(start_server: Callable[..., ServerThread]) -> ServerThread:
    """A server whose queues wait long: only people fill them here."""
    return start_server(limits=dataclasses.replace(TEST_LIMITS, play_now_wait_seconds=600))


def test_two_people_in_one_queue_meet_at_one_table(waiting_server: ServerThread) -> None:
    server = waiting_server
    ana = queue(server, name="Ana")
    assert ana["status"] == "waiting" and ana["waiting"] == ["Ana"]
    assert server.http.get("/api/play-now").json() == [
        {"game": "fika", "players": 2, "rated": False, "waiting": ["Ana"]}
    ]
    bea = queue(server, name="Bea")
    ana_seat, bea_seat = until_seated(server, ana["ticket"]), until_seated(server, bea["ticket"])
    assert ana_seat["table_id"] == bea_seat["table_id"]
    assert {ana_seat["seat"], bea_seat["seat"]} == {0, 1}
    summary = server.summary(ana_seat["table_id"])
    assert summary["status"] == "running"
    assert [seat["name"] for seat in summary["seats"]] == ["Ana", "Bea"]
    assert not any(seat["bot"] for seat in summary["seats"])
    # Each token holds its own seat.
    for place in (ana_seat, bea_seat):
        client = server.client(place["table_id"], place["token"])
        state = client.state_until(lambda message: True)
        assert state["view"] is not None
        client.close()
    assert server.http.get("/api/play-now").json() == []


def test_a_lone_person_gets_bots_after_the_wait(start_server: Callable[..., ServerThread]) -> None:
    server = start_server(limits=dataclasses.replace(TEST_LIMITS, play_now_wait_seconds=0.3))
    ana = queue(server, game="doppio", players=2, name="Ana", bot_level="random")
    assert 0 <= ana["seconds_left"] <= 0.3
    place = until_seated(server, ana["ticket"])
    seats = server.summary(place["table_id"])["seats"]
    assert seats[place["seat"]]["name"] == "Ana"
    assert [seat["bot"] for seat in seats if seat["seat"] != place["seat"]] == ["random"]


def test_queues_are_apart_by_game_and_players(waiting_server: ServerThread) -> None:
    # (and by rated: tests/server/test_accounts_at_tables.py, rated needs accounts)
    server = waiting_server
    queue(server, name="Ana")
    queue(server, game="doppio", players=2, name="Bea")
    queue(server, game="espresso", players=3, name="Cy")
    queue(server, game="espresso", players=4, name="Dee")
    assert len(server.http.get("/api/play-now").json()) == 4
    assert server.http.get("/api/tables").json() == []


def test_cancel_and_unasked_tickets_leave_the_queue(
    start_server: Callable[..., ServerThread],
) -> None:
    limits = dataclasses.replace(TEST_LIMITS, play_now_wait_seconds=600, play_now_idle_seconds=0.5)
    server = start_server(limits=limits)
    ana = queue(server, name="Ana")
    cancelled = server.http.post("/api/play-now/cancel", json={"ticket": ana["ticket"]})
    assert cancelled.status_code == 200
    gone = server.http.post("/api/play-now/status", json={"ticket": ana["ticket"]})
    assert gone.status_code == 404
    queue(server, name="Bea")
    time.sleep(0.8)  # Bea's page stopped asking
    assert server.http.get("/api/play-now").json() == []
    cy = queue(server, name="Cy")
    assert cy["waiting"] == ["Cy"]


def test_bad_requests_and_the_ticket_quota(start_server: Callable[..., ServerThread]) -> None:
    limits = dataclasses.replace(
        TEST_LIMITS, play_now_wait_seconds=600, play_now_tickets_per_client=2
    )
    server = start_server(limits=limits)
    post = server.http.post
    assert post("/api/play-now", json={"game": "tea", "players": 2}).status_code == 400
    assert post("/api/play-now", json={"game": "fika", "players": 3}).status_code == 400
    bad_bot = {"game": "fika", "players": 2, "bot_level": "genius"}
    assert post("/api/play-now", json=bad_bot).status_code == 400
    queue(server, name="Ana")
    queue(server, game="doppio", players=2, name="Ana")
    refused = post("/api/play-now", json={"game": "cafe", "players": 3})
    assert refused.status_code == 429 and "cancel one" in refused.json()["detail"]
    assert post("/api/play-now/status", json={"ticket": "nope"}).status_code == 404
