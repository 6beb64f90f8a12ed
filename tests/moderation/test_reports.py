"""Reports: a signed-in player reports another with a reason, about a chat line or their
conduct at a table; the report keeps the table's chat as it was; bad reports are refused
and write nothing; each account may report ``Limits.reports_per_day`` times a day."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from tests.moderation.conftest import make_moderator, people, say
from tests.server.conftest import TEST_LIMITS, Browser, ServerThread


def _open_reports(moderator: Browser) -> list[dict[str, object]]:
    response = moderator.http.get("/api/moderation/reports")
    assert response.status_code == 200, response.text
    found: list[dict[str, object]] = response.json()["reports"]
    return found


def test_a_chat_line_is_reported_with_its_context(
    server: ServerThread, browsers: Callable[[str], Browser]
) -> None:
    ana, mallory, mod = people(server, browsers, "ana", "mallory", "dora")
    make_moderator(server, "dora")
    table_id = ana.http.post("/api/tables", json={"game": "fika", "players": 2}).json()["table_id"]
    assert mallory.http.post(f"/api/tables/{table_id}/join", json={}).status_code == 200
    sockets = [b.socket(table_id) for b in (ana, mallory)]
    try:
        for client in sockets:
            client.state_until(lambda m: True)
        say(sockets[0], "gg so far")
        bad = say(sockets[1], "you are all <b>terrible</b>")
        say(sockets[1], "said after the report's line")
    finally:
        for client in sockets:
            client.close()

    made = ana.http.post(
        "/api/reports",
        json={
            "username": "Mallory",
            "reason": "chat",
            "text": "  insults\n again ",
            "chat_id": bad,
        },
    )
    assert made.status_code == 200, made.text
    assert made.json() == {"id": made.json()["id"], "status": "open"}
    (report,) = _open_reports(mod)
    assert report["reporter"] == "ana" and report["reported"] == "mallory"
    assert (report["reason"], report["text"]) == ("chat", "insults again")
    assert report["table_id"] == table_id and report["chat_id"] == bad  # found from the line
    lines = report["chat"]
    assert isinstance(lines, list)
    assert [line["text"] for line in lines] == ["gg so far", "you are all <b>terrible</b>"]
    assert lines[1]["name"] == "mallory" and lines[1]["channel"] == "players"

    conduct = mallory.http.post(
        "/api/reports", json={"username": "ana", "reason": "conduct", "table_id": table_id}
    )
    assert conduct.status_code == 200, conduct.text
    second = _open_reports(mod)[1]
    assert second["chat_id"] is None and len(second["chat"]) == 3  # type: ignore[arg-type]


def test_bad_reports_are_refused_and_write_nothing(
    server: ServerThread, browsers: Callable[[str], Browser]
) -> None:
    ana, _, mod = people(server, browsers, "ana", "bea", "dora")
    make_moderator(server, "dora")
    table_id = ana.http.post("/api/tables", json={"game": "fika", "players": 2}).json()["table_id"]
    other = ana.http.post("/api/tables", json={"game": "fika", "players": 2}).json()["table_id"]
    client = ana.socket(table_id)
    try:
        client.state_until(lambda m: True)
        line = say(client, "hello")
    finally:
        client.close()
    refusals = [
        ({"username": "ana", "reason": "chat"}, 400, "yourself"),
        ({"username": "nobody", "reason": "chat"}, 404, "no player"),
        ({"username": "bea", "reason": "chat", "chat_id": 999999}, 404, "no chat line"),
        ({"username": "bea", "reason": "chat", "table_id": "nosuch"}, 404, "no table"),
        (
            {"username": "bea", "reason": "chat", "table_id": other, "chat_id": line},
            400,
            "not said at that table",
        ),
        ({"username": "bea", "reason": "rude"}, 422, ""),
        ({"username": "bea", "reason": "chat", "text": "x" * 501}, 422, ""),
        ({"username": "bea", "reason": "chat", "extra": 1}, 422, ""),
    ]
    for body, status, says in refusals:
        response = ana.http.post("/api/reports", json=body)
        assert response.status_code == status, (body, response.text)
        assert says in str(response.json()["detail"]), body
    foreign = ana.http.post(
        "/api/reports",
        json={"username": "bea", "reason": "chat"},
        headers={"Origin": "https://evil.example"},
    )
    assert foreign.status_code == 403
    guest = browsers(server.url)
    assert (
        guest.http.post("/api/reports", json={"username": "bea", "reason": "chat"}).status_code
        == 401
    )
    assert _open_reports(mod) == []


def test_reports_a_day_are_limited(
    start_server: Callable[..., ServerThread], browsers: Callable[[str], Browser]
) -> None:
    server = start_server(limits=dataclasses.replace(TEST_LIMITS, reports_per_day=2))
    ana, _, mod = people(server, browsers, "ana", "bea", "dora")
    make_moderator(server, "dora")
    body = {"username": "bea", "reason": "other"}
    for _ in range(2):
        assert ana.http.post("/api/reports", json=body).status_code == 200
    refused = ana.http.post("/api/reports", json=body)
    assert refused.status_code == 429
    assert refused.json()["detail"] == "at most 2 reports a day: try again later"
    assert refused.headers["Retry-After"] == "3600"
    assert len(_open_reports(mod)) == 2
