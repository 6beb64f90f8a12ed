"""Friends and blocks: asking and accepting, who is online, ending it; blocking ends a
friendship and keeps the blocked player from asking, from being heard in chat, and from
being dealt to a play-now table with the blocker; every limit refuses with 409."""

from __future__ import annotations

import contextlib
import dataclasses
import time
from collections.abc import Callable
from typing import Any

from tests.server.conftest import TEST_LIMITS
from tests.social.conftest import Browser, ServerThread, notices, wait_for


def _people(server: ServerThread, browsers: Callable[[str], Browser], *names: str) -> list[Browser]:
    made = []
    for name in names:
        browser = browsers(server.url)
        browser.sign_up(name)
        made.append(browser)
    return made


def _friends(browser: Browser) -> dict[str, Any]:
    response = browser.http.get("/api/friends")
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def _names(entries: list[dict[str, Any]]) -> list[str]:
    return [entry["username"] for entry in entries]


def test_asking_accepting_listing_and_ending(
    server: ServerThread, browsers: Callable[[str], Browser]
) -> None:
    ana, bea = _people(server, browsers, "ana", "bea")
    asked = ana.http.put("/api/friends/BEA")  # names are found as usernames are
    assert asked.json() == {"username": "bea", "status": "asked"}
    assert ana.http.put("/api/friends/bea").json()["status"] == "asked"  # asking again
    (request,) = notices(bea)["notifications"]
    assert request["kind"] == "friend_request"
    assert request["data"] == {"from": "ana", "accepted": False}
    assert _names(_friends(bea)["incoming"]) == ["ana"] and _friends(bea)["friends"] == []
    assert _names(_friends(ana)["outgoing"]) == ["bea"]

    assert bea.http.put("/api/friends/ana").json() == {"username": "ana", "status": "friends"}
    accepted = notices(ana)["notifications"][0]
    assert accepted["data"] == {"from": "bea", "accepted": True}
    for browser, other in ((ana, "bea"), (bea, "ana")):
        listed = _friends(browser)
        assert [(f["username"], f["online"]) for f in listed["friends"]] == [(other, True)]
        assert listed["incoming"] == listed["outgoing"] == []

    ended = bea.http.delete("/api/friends/ana")
    assert ended.json() == {"username": "ana", "removed": True}
    assert _friends(ana) == {"friends": [], "incoming": [], "outgoing": []}
    assert bea.http.delete("/api/friends/ana").json()["removed"] is False


def test_online_friends_come_first_and_the_order_follows_who_is_online(
    server: ServerThread, browsers: Callable[[str], Browser]
) -> None:
    """Online is a session used in the last minutes: signing out ends it, signing in opens
    one. The list puts the online friends first (each group by name), as the form offers."""
    ana, bea, cyd = _people(server, browsers, "ana", "bea", "cyd")
    for friend, name in ((bea, "bea"), (cyd, "cyd")):
        assert ana.http.put(f"/api/friends/{name}").json()["status"] == "asked"
        assert friend.http.put("/api/friends/ana").json()["status"] == "friends"

    def listed() -> list[tuple[str, bool]]:
        return [(f["username"], f["online"]) for f in _friends(ana)["friends"]]

    assert listed() == [("bea", True), ("cyd", True)]  # both online: by name
    assert bea.http.post("/api/auth/logout").status_code == 200
    assert listed() == [("cyd", True), ("bea", False)]  # online first, though after by name
    bea.sign_in("bea")
    assert cyd.http.post("/api/auth/logout").status_code == 200
    assert listed() == [("bea", True), ("cyd", False)]  # swapped: the order follows
    assert bea.http.post("/api/auth/logout").status_code == 200
    assert listed() == [("bea", False), ("cyd", False)]  # none online: by name


def test_friend_refusals_change_nothing(
    start_server: Callable[..., ServerThread], browsers: Callable[[str], Browser]
) -> None:
    server = start_server(limits=dataclasses.replace(TEST_LIMITS, friends_per_account=1))
    ana, _, _ = _people(server, browsers, "ana", "bea", "carl")
    assert ana.http.put("/api/friends/ana").status_code == 400
    assert ana.http.put("/api/friends/nobody").status_code == 404
    assert ana.http.put("/api/friends/" + "x" * 41).status_code == 422
    assert ana.http.put("/api/friends/bea").status_code == 200
    full = ana.http.put("/api/friends/carl")
    assert full.status_code == 409 and "1 friends" in full.json()["detail"]
    foreign = ana.http.delete("/api/friends/bea", headers={"Origin": "https://evil.example"})
    assert foreign.status_code == 403
    assert _names(_friends(ana)["outgoing"]) == ["bea"]
    guest = browsers(server.url)
    assert guest.http.get("/api/friends").status_code == 401
    assert guest.http.put("/api/friends/bea").status_code == 401


def test_a_block_ends_a_friendship_and_stops_requests(
    start_server: Callable[..., ServerThread], browsers: Callable[[str], Browser]
) -> None:
    server = start_server(limits=dataclasses.replace(TEST_LIMITS, blocks_per_account=1))
    ana, bea, _ = _people(server, browsers, "ana", "bea", "carl")
    ana.http.put("/api/friends/bea")
    bea.http.put("/api/friends/ana")
    assert bea.http.put("/api/blocks/ana").json() == {"username": "ana", "blocked": True}
    assert bea.http.put("/api/blocks/ana").status_code == 200  # again: no change
    assert _friends(ana)["friends"] == [] and _friends(bea)["friends"] == []
    refused = ana.http.put("/api/friends/bea")
    assert refused.status_code == 403 and "does not take" in refused.json()["detail"]
    assert bea.http.put("/api/friends/ana").status_code == 409  # unblock first
    assert _friends(bea) == {"friends": [], "incoming": [], "outgoing": []}
    assert _names(bea.http.get("/api/blocks").json()) == ["ana"]
    full = bea.http.put("/api/blocks/carl")
    assert full.status_code == 409 and "blocked 1" in full.json()["detail"]
    assert bea.http.delete("/api/blocks/ana").json() == {"username": "ana", "blocked": False}
    assert bea.http.get("/api/blocks").json() == []
    assert ana.http.put("/api/friends/bea").json()["status"] == "asked"


def test_a_blocked_player_is_not_heard_in_chat(
    server: ServerThread, browsers: Callable[[str], Browser]
) -> None:
    ana, bea, carl = _people(server, browsers, "ana", "bea", "carl")
    assert bea.http.put("/api/blocks/ana").status_code == 200
    table_id = ana.http.post("/api/tables", json={"game": "fika", "players": 2}).json()["table_id"]
    assert bea.http.post(f"/api/tables/{table_id}/join", json={}).status_code == 200
    sockets = [b.socket(table_id) for b in (ana, bea, carl)]
    for client in sockets:
        client.state_until(lambda m: True)
    sockets[0].send({"type": "chat", "text": "hello from ana"})
    sockets[1].send({"type": "chat", "text": "hello from bea"})

    # carl hears both (in either order: two sockets' lines race), and so does ana.
    def both(client: Any) -> None:
        def heard(_: Any) -> bool:
            texts = {m["message"]["text"] for m in client.messages if m["type"] == "chat"}
            return texts == {"hello from ana", "hello from bea"}

        client.until(heard)

    both(sockets[2])
    both(sockets[0])
    # Once carl has ana's line, it was sent to every reader it goes to: bea never gets it.
    sockets[1].until(lambda m: m["type"] == "chat" and m["message"]["text"] == "hello from bea")
    with contextlib.suppress(TimeoutError):
        while True:
            sockets[1].recv(timeout=0.5)
    texts = [m["message"]["text"] for m in sockets[1].messages if m["type"] == "chat"]
    assert texts == ["hello from bea"]
    for client in sockets:
        client.close()


def _queue(browser: Browser) -> str:
    response = browser.http.post("/api/play-now", json={"game": "fika", "players": 2})
    assert response.status_code == 200, response.text
    ticket: str = response.json()["ticket"]
    return ticket


def _status(browser: Browser, ticket: str) -> dict[str, Any]:
    answer: dict[str, Any] = browser.http.post(
        "/api/play-now/status", json={"ticket": ticket}
    ).json()
    return answer


def test_play_now_never_deals_a_blocked_pair_together(
    start_server: Callable[..., ServerThread], browsers: Callable[[str], Browser]
) -> None:
    server = start_server(limits=dataclasses.replace(TEST_LIMITS, play_now_wait_seconds=600))
    ana, bea, carl = _people(server, browsers, "ana", "bea", "carl")
    assert ana.http.put("/api/blocks/bea").status_code == 200
    tickets = [_queue(ana), _queue(bea)]
    time.sleep(0.3)
    assert [_status(b, t)["status"] for b, t in zip((ana, bea), tickets, strict=True)] == [
        "waiting",
        "waiting",
    ]
    carls = _queue(carl)
    seated = wait_for(lambda: _status(carl, carls)["status"] == "seated", "carl's seat")
    assert seated
    table_id = _status(carl, carls)["table_id"]
    assert _status(ana, tickets[0])["table_id"] == table_id  # the first in line, with carl
    assert _status(bea, tickets[1])["status"] == "waiting"
