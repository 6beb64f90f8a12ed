"""Reliability: the share of a player's last 50 started matches finished without leaving
(or being expelled), on the profile and beside seats in the table list; a table's minimum."""

from __future__ import annotations

from coffeetable.server.players.ratings import SeatResult

from .conftest import Site
from .test_stats_api import play, user_id


def test_reliability_on_the_profile_the_list_and_a_tables_minimum(site: Site) -> None:
    for name in ("Ada", "Bea", "Cid"):
        assert site.register(name).status_code == 200
    ada, bea = user_id(site, "Ada"), user_id(site, "Bea")
    for n in range(4):  # Bea left the last of four matches
        seats = [SeatResult(0, "Ada", 10, ada), SeatResult(1, "Bea", 5, bea)]
        if n == 3:
            seats[1] = SeatResult(1, "Bea", 5, bea, "greedy")  # a bot took her seat
        play(site, f"m{n}", seats, [0])
    bea_profile = site.client.get("/api/players/bea").json()
    assert bea_profile["reliability"] == {"finished": 3, "started": 4, "percent": 75}
    assert site.client.get("/api/players/ada").json()["reliability"]["percent"] == 100
    assert site.client.get("/api/players/cid").json()["reliability"] is None

    site.login("Ada")
    options = {"min_reliability": 80}
    strict = site.client.post(
        "/api/tables", json={"game": "fika", "players": 2, "options": options}
    )
    assert strict.status_code == 200, strict.text
    strict_id = strict.json()["table_id"]
    loose = site.client.post(
        "/api/tables", json={"game": "fika", "players": 2, "options": {"min_reliability": 50}}
    )
    loose_id = loose.json()["table_id"]
    site.login("Bea")
    refused = site.client.post(f"/api/tables/{strict_id}/join", json={})
    assert refused.status_code == 403
    assert refused.json()["detail"] == (
        "this table wants players who finish 80% of their games; you finish 75%"
    )
    assert site.client.post(f"/api/tables/{loose_id}/join", json={}).status_code == 200
    listed = {table["table_id"]: table for table in site.client.get("/api/tables").json()}
    assert [seat["reliability"] for seat in listed[loose_id]["seats"]] == [100, 75]
    assert [seat["reliability"] for seat in listed[strict_id]["seats"]] == [100, None]
    site.client.post("/api/auth/logout")
    guest = site.client.post(f"/api/tables/{strict_id}/join", json={"name": "Guest"})
    assert guest.status_code == 403 and "sign in" in guest.json()["detail"]
    site.login("Cid")  # no match yet: welcome
    assert site.client.post(f"/api/tables/{strict_id}/join", json={}).status_code == 200
