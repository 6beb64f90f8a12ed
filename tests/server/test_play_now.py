"""Play now: people waiting for the same table meet; a lone person gets bots after the wait."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from coffeetable.server.errors import TableError
from coffeetable.server.lobby.lobby import Lobby
from coffeetable.server.lobby.matchmaking import Matchmaker
from coffeetable.store import Store

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


# -- play now and the table quotas (a play-now table counts as a made one) -------------


def test_play_now_tables_count_against_the_tables_a_minute(
    start_server: Callable[..., ServerThread],
) -> None:
    """Issue #27: one address made 500 solo tables through play now, past every quota."""
    server = start_server(limits=dataclasses.replace(TEST_LIMITS, tables_per_minute=3))
    for _ in range(3):  # a solo table is dealt at once
        assert queue(server, game="doppio", players=1)["status"] == "seated"
    refused = server.http.post("/api/play-now", json={"game": "doppio", "players": 1})
    assert refused.status_code == 429, refused.text
    assert "3 new tables a minute" in refused.json()["detail"]
    assert 1 <= int(refused.headers["retry-after"]) <= 60
    made = server.http.post("/api/tables", json={"game": "fika", "players": 2})
    assert made.status_code == 429 and "3 new tables a minute" in made.json()["detail"]
    assert len(server.http.get("/api/tables").json()) == 3


def test_tickets_matched_to_each_other_count_and_waiting_tickets_are_tables_to_come(
    start_server: Callable[..., ServerThread],
) -> None:
    limits = dataclasses.replace(TEST_LIMITS, open_tables_per_client=2, play_now_wait_seconds=600)
    server = start_server(limits=limits)
    # Two waiting tickets from this address: each is a table to come, a third is refused.
    ana = queue(server, name="Ana")
    bea = queue(server, game="doppio", players=2, name="Bea")
    third = server.http.post("/api/play-now", json={"game": "cafe", "players": 3})
    assert third.status_code == 409, third.text
    assert "2 play-now tickets still waiting" in third.json()["detail"]
    for ticket in (ana, bea):
        server.http.post("/api/play-now/cancel", json={"ticket": ticket["ticket"]})
    # Two tickets of this address meet: one table, counted (once) for the address.
    first, second = queue(server, name="Ana"), queue(server, name="Bea")
    assert (
        until_seated(server, first["ticket"])["table_id"]
        == (until_seated(server, second["ticket"])["table_id"])
    )
    assert server.http.post("/api/tables", json={"game": "fika", "players": 2}).status_code == 200
    full = server.http.post("/api/tables", json={"game": "fika", "players": 2})
    assert full.status_code == 409 and "2 tables open or running" in full.json()["detail"]
    again = server.http.post("/api/play-now", json={"game": "fika", "players": 2})
    assert again.status_code == 409


def test_a_dealt_table_counts_for_each_address_at_it_and_one_at_its_quota_is_refused(
    tmp_path: Path,
) -> None:
    """The matchmaker with a real lobby: addresses A and B meet; then A is at its quota
    when a table could be dealt: A's ticket is refused, B keeps its place."""
    limits = dataclasses.replace(TEST_LIMITS, open_tables_per_client=1, play_now_wait_seconds=600)

    async def scenario() -> None:
        store = Store(f"sqlite:///{tmp_path / 'db.sqlite3'}")
        lobby = Lobby(store, limits=limits)
        matchmaker = Matchmaker(lobby)
        try:
            a, _ = await matchmaker.join("fika", 2, False, None, "Ana", "10.0.0.1")
            b, _ = await matchmaker.join("fika", 2, False, None, "Bea", "10.0.0.2")
            table_id = matchmaker.status(a)["table_id"]
            assert table_id and matchmaker.status(b)["table_id"] == table_id
            for address in ("10.0.0.1", "10.0.0.2"):  # one live table each: at the quota
                with pytest.raises(TableError) as made:
                    await lobby.create("fika", 2, {}, {}, "Cy", address=address)
                assert made.value.status == 409
            lobby.tables[table_id].status = "over"  # their match ends: room again
            # B queues, then makes a table by hand meanwhile: at the deal B has no room
            # left, so B's ticket is refused then, and C keeps its place in the line.
            b_again, _ = await matchmaker.join("fika", 2, False, None, "Bea", "10.0.0.2")
            await lobby.create("fika", 2, {}, {}, "Bea", address="10.0.0.2")
            c, _ = await matchmaker.join("fika", 2, False, None, "Cy", "10.0.0.3")
            with pytest.raises(TableError) as refused:
                matchmaker.status(b_again)
            assert refused.value.status == 409 and "1 tables open" in refused.value.detail
            with pytest.raises(TableError) as gone:
                matchmaker.status(b_again)
            assert gone.value.status == 404
            assert matchmaker.status(c)["status"] == "waiting"
            later, _ = await matchmaker.join("fika", 2, False, None, "Ana", "10.0.0.1")
            assert matchmaker.status(later)["table_id"] == matchmaker.status(c)["table_id"]
        finally:
            matchmaker.close()
            await lobby.close()
            await store.close()

    asyncio.run(scenario())
