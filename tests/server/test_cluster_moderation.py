"""Moderation across processes (issue #30): a suspension decided on one process hands the
suspended player's seat to a bot on the process that runs the table."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.moderation.conftest import make_moderator

from .cluster_site import Site, sites
from .conftest import Client
from .test_cluster_social import person, play_turn


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    yield from sites(tmp_path)


def test_a_suspension_on_one_process_seats_a_bot_at_a_table_another_runs(site: Site) -> None:
    a, b = site.start(2)
    ana, bea = person(a, "ana"), person(a, "bea")
    dora = person(b, "dora")
    make_moderator(site, "dora")
    body = {"game": "doppio", "players": 2, "options": {"first_player": 0}}
    made = ana.post("/api/tables", json=body)  # dealt, and run, by A
    assert made.status_code == 200, made.text
    table_id, ana_token = made.json()["table_id"], made.json()["token"]
    assert bea.post(f"/api/tables/{table_id}/join", json={}).status_code == 200
    ana_socket = Client(f"{a.ws_url}/ws/tables/{table_id}?token={ana_token}")
    try:
        play_turn(ana_socket, 0)  # the match runs on A; Bea's move now

        reported = ana.post(
            "/api/reports", json={"username": "bea", "reason": "conduct", "table_id": table_id}
        )
        assert reported.status_code == 200, reported.text
        acted = dora.post(  # on B, which does not run the table
            f"/api/moderation/reports/{reported.json()['id']}", json={"action": "suspend"}
        )
        assert acted.status_code == 200, acted.text

        seat = a.http.get(f"/api/tables/{table_id}").json()["seats"][1]
        assert seat["left"] is True and seat["bot"] is not None, seat
        # A's bot plays Bea's seat: the turn comes back to Ana, and again after her move.
        play_turn(ana_socket, 0)
        play_turn(ana_socket, 0)
        assert a.http.get(f"/api/tables/{table_id}").json()["status"] == "running"
        assert "keeps its seat" not in b.log()
    finally:
        ana_socket.close()
        for client in (ana, bea, dora):
            client.close()
