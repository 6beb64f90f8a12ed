"""Moderators act on reports: warn (a notification), mute chat for hours (their lines are
refused), suspend (no sign-in, sessions and sockets ended, seats to bots), dismiss; each is
logged; only moderators may read or act (403), a closed report is not acted on twice."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from coffeetable.store import Database, moderation
from coffeetable.store import players as players_db
from tests.moderation.conftest import make_moderator, people, say
from tests.server.conftest import BROWSER_PASSWORD, Browser, Client, ServerThread


def _table(first: Browser, second: Browser) -> str:
    """A running Fika table of two signed-in players."""
    made = first.http.post("/api/tables", json={"game": "fika", "players": 2})
    table_id: str = made.json()["table_id"]
    assert second.http.post(f"/api/tables/{table_id}/join", json={}).status_code == 200
    return table_id


def _report(by: Browser, username: str, **body: Any) -> int:
    made = by.http.post("/api/reports", json={"username": username, "reason": "chat", **body})
    assert made.status_code == 200, made.text
    report_id: int = made.json()["id"]
    return report_id


def _act(moderator: Browser, report_id: int, **body: Any) -> Any:
    return moderator.http.post(f"/api/moderation/reports/{report_id}", json=body)


def _log(moderator: Browser) -> list[tuple[Any, ...]]:
    response = moderator.http.get("/api/moderation/log")
    assert response.status_code == 200, response.text
    return [
        (e["moderator"], e["player"], e["action"], e["hours"], e["why"])
        for e in response.json()["entries"]
    ]


def test_only_moderators_read_and_act(
    server: ServerThread, browsers: Callable[[str], Browser]
) -> None:
    ana, bea, dora = people(server, browsers, "ana", "bea", "dora")
    make_moderator(server, "dora")
    report = _report(ana, "bea")
    assert dora.http.get("/api/me").json()["moderator"] is True
    assert ana.http.get("/api/me").json()["moderator"] is False
    for who in (ana, bea):
        assert who.http.get("/api/moderation/reports").status_code == 403
        assert who.http.get("/api/moderation/log").status_code == 403
        refused = _act(who, report, action="dismiss")
        assert refused.status_code == 403 and "moderators only" in refused.json()["detail"]
    guest = browsers(server.url)
    assert guest.http.get("/api/moderation/reports").status_code == 401
    assert [r["id"] for r in dora.http.get("/api/moderation/reports").json()["reports"]] == [report]

    assert _act(dora, 99999, action="dismiss").status_code == 404
    assert _act(dora, report, action="mute").status_code == 400  # no hours
    assert _act(dora, report, action="warn", hours=2).status_code == 400
    assert _act(dora, report, action="mute", hours=721).status_code == 422
    assert _act(dora, report, action="ban").status_code == 422
    foreign = dora.http.post(
        f"/api/moderation/reports/{report}",
        json={"action": "dismiss"},
        headers={"Origin": "https://evil.example"},
    )
    assert foreign.status_code == 403
    about_dora = _report(ana, "dora")
    assert _act(dora, about_dora, action="dismiss").status_code == 403  # not her own case
    assert _log(dora) == []  # nothing was done

    done = _act(dora, report, action="dismiss", why="  nothing  wrong ")
    assert done.json() == {"id": report, "status": "dismiss"}
    again = _act(dora, report, action="warn")
    assert again.status_code == 409 and "closed already" in again.json()["detail"]
    assert [r["id"] for r in dora.http.get("/api/moderation/reports").json()["reports"]] == [
        about_dora
    ]
    assert _log(dora) == [("dora", "bea", "dismiss", None, "nothing wrong")]


def test_a_warning_reaches_the_player_as_a_notification(
    server: ServerThread, browsers: Callable[[str], Browser]
) -> None:
    ana, bea, dora = people(server, browsers, "ana", "bea", "dora")
    make_moderator(server, "dora")
    assert _act(dora, _report(ana, "bea"), action="warn", why="rude").status_code == 200
    (notice,) = bea.http.get("/api/notifications").json()["notifications"]
    assert notice["kind"] == "warning" and notice["data"] == {"reason": "chat"}
    assert ana.http.get("/api/notifications").json()["notifications"] == []
    assert _log(dora) == [("dora", "bea", "warn", None, "rude")]


def test_a_muted_player_s_chat_is_refused_until_the_mute_ends(
    server: ServerThread, browsers: Callable[[str], Browser], clients: list[Client]
) -> None:
    ana, bea, dora = people(server, browsers, "ana", "bea", "dora")
    make_moderator(server, "dora")
    table_id = _table(ana, bea)
    sockets = [b.socket(table_id) for b in (ana, bea)]
    clients.extend(sockets)
    for client in sockets:
        client.state_until(lambda m: True)
    line = say(sockets[1], "rude words")
    report = _report(ana, "bea", chat_id=line)
    assert _act(dora, report, action="mute", hours=2, why="insults").status_code == 200

    sockets[1].send({"type": "chat", "text": "more rude words"})
    error = sockets[1].until(lambda m: m["type"] == "error")
    assert error["code"] == "forbidden"
    assert error["reason"].startswith("a moderator muted your chat until ")
    year = time.strftime("%Y", time.gmtime(time.time() + 7200))
    assert year in error["reason"] and "UTC" in error["reason"]
    say(sockets[0], "ana still talks")  # the others are heard
    texts = [m["message"]["text"] for m in sockets[0].messages if m["type"] == "chat"]
    assert "more rude words" not in texts
    kept = _report(ana, "bea", table_id=table_id)  # the muted line was not kept either
    (open_report,) = dora.http.get("/api/moderation/reports").json()["reports"]
    assert open_report["id"] == kept
    chat = open_report["chat"]
    assert [c["text"] for c in chat] == ["rude words", "ana still talks"]
    assert _log(dora) == [("dora", "bea", "mute", 2.0, "insults")]

    database = Database(server.database_url)  # two hours later: the mute is over
    try:
        with database.engine.begin() as conn:
            bea_id = players_db.player_by_key(conn, "bea")
            assert bea_id is not None
            moderation.mute(conn, bea_id.id, time.time() - 1)
    finally:
        database.close()
    say(sockets[1], "sorry, everyone")


def test_a_suspended_account_cannot_sign_in_and_its_seat_goes_to_a_bot(
    server: ServerThread, browsers: Callable[[str], Browser], clients: list[Client]
) -> None:
    ana, bea, dora = people(server, browsers, "ana", "bea", "dora")
    make_moderator(server, "dora")
    table_id = _table(ana, bea)
    socket = bea.socket(table_id)
    clients.append(socket)
    socket.state_until(lambda m: True)
    assert server.summary(table_id)["status"] == "running"

    report = _report(ana, "bea", table_id=table_id)
    assert _act(dora, report, action="suspend", why="cheating").status_code == 200

    closed = socket.until(lambda m: m["type"] == "error")
    assert closed["reason"] == "your account was suspended by a moderator"
    seat = server.summary(table_id)["seats"][1]
    assert seat["left"] is True and seat["bot"] is not None  # a bot plays it, as for a leaver
    assert server.summary(table_id)["status"] == "running"
    assert bea.http.get("/api/me").status_code == 401  # its sessions ended
    again = bea.http.post("/api/auth/login", json={"username": "bea", "password": BROWSER_PASSWORD})
    assert again.status_code == 403
    assert again.json()["detail"] == (
        "this account is suspended by a moderator: it cannot sign in or play"
    )
    wrong = bea.http.post("/api/auth/login", json={"username": "bea", "password": "not it!!"})
    assert wrong.status_code == 401  # no word of the suspension without the password
    assert _log(dora) == [("dora", "bea", "suspend", None, "cheating")]
