"""Issue #30 across processes (PostgreSQL and Redis, two ``coffeetable serve``): a friend
request asked on one process is seen and accepted on the other; an invitation by name
made on one process is answered on the other; a "your turn" reaches a player whose page
is on the other process, and never one whose socket (on the other process) is at the
table."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .cluster_site import Process, Site, sites
from .conftest import TIMEOUT, Client

PASSWORD = "correct horse battery"


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    yield from sites(tmp_path)


def person(process: Process, name: str) -> httpx.Client:
    """A browser of ``name`` (its own cookie jar) on ``process``, signed up there."""
    client = httpx.Client(base_url=process.url, timeout=TIMEOUT)
    answer = client.post("/api/auth/register", json={"username": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    return client


def notices(client: httpx.Client, kind: str) -> list[dict[str, Any]]:
    answer = client.get("/api/notifications")
    assert answer.status_code == 200, answer.text
    return [n for n in answer.json()["notifications"] if n["kind"] == kind]


def until_notice(client: httpx.Client, kind: str, table_id: str) -> dict[str, Any]:
    """The unread notice of ``kind`` at the table, once it is written (news is queued)."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        found = [n for n in notices(client, kind) if n["table_id"] == table_id and not n["read"]]
        if found:
            return found[0]
        assert time.monotonic() < deadline, f"no {kind} notice: {notices(client, kind)}"
        time.sleep(0.1)


def until_seat(process: Process, table_id: str, seat: int, connected: bool) -> None:
    """Wait until the table says whether a socket is at ``seat`` (asked on ``process``):
    a socket on the other process reaches the table's owner a moment later."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        seats = process.http.get(f"/api/tables/{table_id}").json()["seats"]
        if seats[seat]["connected"] is connected:
            return
        assert time.monotonic() < deadline, seats
        time.sleep(0.1)


def play_turn(socket: Client, seat: int) -> None:
    """Wait for our turn, then play the first legal choice until the turn passes."""
    state = socket.until(lambda m: m["type"] == "state" and seat in m["actors"] and m["legal"])
    while seat in state["actors"] and state["legal"]:
        act = {"type": "act", "action": state["legal"][0], "seq": state["seq"]}
        socket.ws.send(json.dumps(act))
        seq = state["seq"]
        state = socket.until(lambda m, seq=seq: m["type"] == "state" and m["seq"] > seq)


def test_friends_invitations_and_your_turn_across_processes(site: Site) -> None:
    first, second = site.start(2)
    assert first.name != second.name
    ana, bea = person(first, "ana"), person(second, "bea")

    # Friends: asked on the first process, seen and accepted on the second.
    assert ana.put("/api/friends/bea").json()["status"] == "asked"
    asked = notices(bea, "friend_request")
    assert [n["data"].get("from") for n in asked] == ["ana"]
    assert bea.put("/api/friends/ana").json()["status"] == "friends"
    friends = ana.get("/api/friends").json()["friends"]
    assert [(f["username"], f["online"]) for f in friends] == [("bea", True)]

    # Ana makes a doppio table with a day per move on the first, inviting Bea by name.
    body = {
        "game": "doppio",
        "players": 2,
        "options": {"days_per_move": 1, "first_player": 0},
        "invite": {"1": "bea"},
    }
    made = ana.post("/api/tables", json=body)
    assert made.status_code == 200, made.text
    table_id, ana_token = made.json()["table_id"], made.json()["token"]
    until_notice(bea, "invited", table_id)
    joined = bea.post(f"/api/tables/{table_id}/join", json={})  # on the second process
    assert joined.status_code == 200, joined.text
    bea_token = joined.json()["token"]

    ana_socket = Client(f"{first.ws_url}/ws/tables/{table_id}?token={ana_token}")
    bea_socket = Client(f"{second.ws_url}/ws/tables/{table_id}?token={bea_token}")
    until_seat(first, table_id, 1, True)
    play_turn(ana_socket, 0)  # Bea's page is at the table (on the other process): no notice
    play_turn(bea_socket, 1)
    bea_socket.ws.close()  # Bea goes away: her page elsewhere on the second process
    until_seat(first, table_id, 1, False)  # the table (on the first process) knows it
    play_turn(ana_socket, 0)
    told = until_notice(bea, "your_turn", table_id)
    assert told["data"]["title"] == "Espresso Doppio"
    assert len(notices(bea, "your_turn")) == 1  # none while her socket was at the table
    assert bea.get("/api/me/games").json()["my_turn"] == 1

    # The other way: Ana away (her page on the first), Bea plays through the second.
    ana_socket.ws.close()
    until_seat(second, table_id, 0, False)
    bea_socket = Client(f"{second.ws_url}/ws/tables/{table_id}?token={bea_token}")
    play_turn(bea_socket, 1)
    until_notice(ana, "your_turn", table_id)
    # Bea joined while Ana was away from the table: the match began, her turn; then
    # none while her socket was at the table; and this one.
    assert notices(ana, "table_full")
    assert [n["read"] for n in notices(ana, "your_turn")] == [False, True]
    unread = bea.get("/api/notifications").json()
    assert all(n["read"] for n in unread["notifications"] if n["kind"] == "your_turn")
    bea_socket.ws.close()
    for client in (ana, bea):
        client.close()
