"""A person's presence at a table another process runs, and their "your turn" (issue #30).

Bea's page is on process B, the table on process A. A move by Ana made right after Bea's
socket opened on B tells her nothing (her page is open), and one made right after her
socket closed tells her it is her turn: no wait for A to learn of the socket in between
(``cluster/relay.py``: the handshake completes once A counts the socket; a seat present
only through other processes is asked again when its turn begins, ``tables/news.py``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .cluster_site import Site, sites
from .conftest import Client
from .test_cluster_social import notices, person, play_turn, until_notice

#: Rounds of "opened, then a move at once" and "closed, then a move at once".
ROUNDS = 3


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    yield from sites(tmp_path)


def ready(socket: Client, seat: int) -> dict[str, Any]:
    """The state that offers ``seat`` its move (read, not yet answered)."""
    return socket.state_until(lambda m: seat in m["actors"] and bool(m["legal"]))


def move(socket: Client, seat: int, state: dict[str, Any]) -> None:
    """Play ``state``'s first choice at once, then the first ones until the turn passes."""
    while seat in state["actors"] and state["legal"]:
        act = {"type": "act", "action": state["legal"][0], "seq": state["seq"]}
        socket.ws.send(json.dumps(act))
        seq = state["seq"]
        state = socket.until(lambda m, seq=seq: m["type"] == "state" and m["seq"] > seq)


def test_your_turn_follows_a_page_on_another_process_without_delay(site: Site) -> None:
    a, b = site.start(2)
    ana, bea = person(a, "ana"), person(b, "bea")
    body = {"game": "doppio", "players": 2, "options": {"days_per_move": 1, "first_player": 0}}
    made = ana.post("/api/tables", json=body)  # run by A
    assert made.status_code == 200, made.text
    table_id, ana_token = made.json()["table_id"], made.json()["token"]
    joined = bea.post(f"/api/tables/{table_id}/join", json={})  # asked on B
    assert joined.status_code == 200, joined.text
    page = f"{b.ws_url}/ws/tables/{table_id}?token={joined.json()['token']}"
    ana_socket = Client(f"{a.ws_url}/ws/tables/{table_id}?token={ana_token}")
    try:
        for told in range(ROUNDS):
            state = ready(ana_socket, 0)
            bea_socket = Client(page)  # Bea's page opens on B ...
            move(ana_socket, 0, state)  # ... and Ana moves at once: Bea is at the table
            play_turn(bea_socket, 1)  # (her move is saved after Ana's news)
            assert len(notices(bea, "your_turn")) == told, notices(bea, "your_turn")

            state = ready(ana_socket, 0)
            bea_socket.close()  # Bea's page closes on B ...
            move(ana_socket, 0, state)  # ... and Ana moves at once: Bea is away
            until_notice(bea, "your_turn", table_id)
            assert len(notices(bea, "your_turn")) == told + 1

            bea_socket = Client(page)  # Bea comes back to play, and goes
            play_turn(bea_socket, 1)
            bea_socket.close()
        assert a.http.get(f"/api/tables/{table_id}").json()["status"] == "running"
    finally:
        ana_socket.close()
        for client in (ana, bea):
            client.close()
