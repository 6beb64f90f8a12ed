"""Invitations by name: ``POST /api/tables`` with ``"invite": {"1": "bob"}`` holds the seat
for bob, who is notified and joins it while signed in (nobody else may), or declines it
(the seat opens); a player who blocked you cannot be invited; bad invitations change
nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.social.conftest import Browser, ServerThread, notices


def _people(server: ServerThread, browsers: Callable[[str], Browser], *names: str) -> list[Browser]:
    made = []
    for name in names:
        browser = browsers(server.url)
        browser.sign_up(name)
        made.append(browser)
    return made


def _create(browser: Browser, **body: Any) -> Any:
    return browser.http.post("/api/tables", json={"game": "cafe", "players": 3, **body})


def test_an_invited_seat_is_held_notified_and_joined(
    server: ServerThread, browsers: Callable[[str], Browser]
) -> None:
    ana, bob, carl = _people(server, browsers, "ana", "bob", "carl")
    created = _create(ana, invite={"0": "Bob"})
    assert created.status_code == 200, created.text
    table_id = created.json()["table_id"]
    assert created.json()["seat"] == 1  # seat 0 is bob's: ana takes the next one
    assert server.summary(table_id)["owner"] == "ana"
    seats = server.summary(table_id)["seats"]
    assert [(s["name"], s["open"], s["invited"]) for s in seats] == [
        (None, True, "bob"),
        ("ana", False, None),
        (None, True, None),
    ]
    (invited,) = notices(bob)["notifications"]
    assert invited["kind"] == "invited" and invited["table_id"] == table_id
    assert invited["data"] == {"by": "ana", "title": "Café", "seat": 0}
    # carl joins: he gets the free seat, not bob's; then the table has only bob's left.
    assert carl.http.post(f"/api/tables/{table_id}/join", json={}).json()["seat"] == 2
    guest = server.http.post(f"/api/tables/{table_id}/join", json={"name": "bob"})
    assert guest.status_code == 409 and "held" in guest.json()["detail"]
    assert server.summary(table_id)["status"] == "open"
    joined = bob.http.post(f"/api/tables/{table_id}/join", json={})
    assert joined.status_code == 200 and joined.json()["seat"] == 0
    summary = server.summary(table_id)
    assert summary["status"] == "running" and summary["seats"][0]["name"] == "bob"
    assert all(seat["invited"] is None for seat in summary["seats"])


def test_declining_opens_the_seat(server: ServerThread, browsers: Callable[[str], Browser]) -> None:
    ana, bob, carl = _people(server, browsers, "ana", "bob", "carl")
    table_id = _create(ana, invite={"2": "bob"}).json()["table_id"]
    assert carl.http.post(f"/api/tables/{table_id}/decline").status_code == 404  # not his
    guest = browsers(server.url)
    assert guest.http.post(f"/api/tables/{table_id}/decline").status_code == 401
    assert server.summary(table_id)["seats"][2]["invited"] == "bob"
    declined = bob.http.post(f"/api/tables/{table_id}/decline")
    assert declined.json() == {"seat": 2, "declined": True}
    assert server.summary(table_id)["seats"][2]["invited"] is None
    assert bob.http.post(f"/api/tables/{table_id}/decline").status_code == 404  # done
    assert carl.http.post(f"/api/tables/{table_id}/join", json={}).json()["seat"] == 1
    dan = _people(server, browsers, "dan")[0]  # anyone now (signed in: the table is rated)
    assert dan.http.post(f"/api/tables/{table_id}/join", json={}).json()["seat"] == 2


def test_bad_invitations_are_refused_and_make_no_table(
    server: ServerThread, browsers: Callable[[str], Browser]
) -> None:
    ana, bob, _ = _people(server, browsers, "ana", "bob", "carl")
    assert bob.http.put("/api/blocks/ana").status_code == 200
    cases = [
        ({"invite": {"1": "bob"}}, 403, "does not take"),
        ({"invite": {"1": "nobody"}}, 404, "no player"),
        ({"invite": {"1": "ana"}}, 400, "own table"),
        ({"invite": {"1": "carl", "2": "carl"}}, 400, "twice"),
        ({"invite": {"1": "carl", "2": "carl", "0": "carl"}}, 400, "yourself"),
        ({"invite": {"1": "carl"}, "bots": {"1": "greedy"}}, 400, "a bot's"),
        ({"invite": {"1": "carl"}, "bots": {"2": "greedy", "0": "greedy"}}, 400, "yourself"),
    ]
    for body, status, words in cases:
        refused = _create(ana, **body)
        assert refused.status_code == status, (body, refused.text)
        assert words in refused.json()["detail"], (body, refused.text)
    assert _create(ana, invite={"5": "carl"}).status_code == 422  # no such seat at Café
    guest = browsers(server.url)
    refused = _create(guest, invite={"1": "carl"})
    assert refused.status_code == 401
    assert server.http.get("/api/tables").json() == []
    assert notices(_people(server, browsers, "dan")[0])["notifications"] == []
