"""Bot accounts and API keys: made by their owner, stored hashed, listed by prefix,
revoked (a revoked key is refused everywhere), acting only for their bot; a bot sits
once at a table; programs in the Play now queue."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa
from websockets.exceptions import ConnectionClosed

from coffeetable.server.limits import Limits
from coffeetable.server.lobby.matchmaking import Ticket, _compatible
from tests.server.conftest import TEST_LIMITS, Browser, Client, ServerThread

Message = dict[str, Any]


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


@pytest.fixture
def alice(server: ServerThread, browsers: Callable[[str], Browser]) -> Browser:
    browser = browsers(server.url)
    browser.sign_up("alice")
    return browser


def new_bot(browser: Browser, name: str = "bot-v2") -> Message:
    response = browser.http.post("/api/bots", json={"name": name, "description": "tries hard"})
    assert response.status_code == 200, response.text
    made: Message = response.json()
    return made


def new_key(browser: Browser, bot: str = "bot-v2") -> Message:
    response = browser.http.post(f"/api/bots/{bot}/keys", json={"label": "laptop"})
    assert response.status_code == 200, response.text
    made: Message = response.json()
    return made


def database_text(server: ServerThread) -> str:
    """Every value in the test server's database (SQLite or PostgreSQL), as one string."""
    engine = sa.create_engine(server.database_url)
    try:
        with engine.connect() as conn:
            names = sa.inspect(conn).get_table_names()
            return " ".join(
                str(value)
                for name in names
                for row in conn.execute(sa.text(f'SELECT * FROM "{name}"'))
                for value in row
            )
    finally:
        engine.dispose()


def test_a_key_is_shown_once_stored_hashed_and_revoked(
    server: ServerThread, alice: Browser
) -> None:
    bot = new_bot(alice)
    assert bot["name"] == "alice/bot-v2" and bot["owner"] == "alice"
    made = new_key(alice)
    key = made["key"]
    assert key.startswith("ctb_") and len(key) > 40
    assert made["prefix"] == key[: len(made["prefix"])] and len(made["prefix"]) < 16
    # Stored: its SHA-256, never the key.
    stored = database_text(server)
    assert key not in stored
    assert hashlib.sha256(key.encode()).hexdigest() in stored
    # Listed by prefix only.
    listed = alice.http.get("/api/bots/bot-v2/keys").json()
    assert [k["id"] for k in listed] == [made["id"]]
    assert "key" not in listed[0] and listed[0]["revoked"] is None
    # The key signs the bot in.
    me = server.http.get("/api/me", headers=bearer(key))
    assert me.status_code == 200 and me.json()["username"] == "alice/bot-v2"
    assert alice.http.get("/api/me").json()["username"] == "alice"
    # Revoked: refused at once, over HTTP and on the table socket.
    gone = alice.http.delete(f"/api/bots/bot-v2/keys/{made['id']}")
    assert gone.status_code == 200
    refused = server.http.get("/api/me", headers=bearer(key))
    assert refused.status_code == 401 and "not valid" in refused.json()["detail"]
    created = server.http.post(
        "/api/tables", json={"game": "fika", "players": 2}, headers=bearer(key)
    )
    assert created.status_code == 401  # never taken for a guest
    assert alice.http.get("/api/bots/bot-v2/keys").json()[0]["revoked"] is not None
    assert alice.http.delete(f"/api/bots/bot-v2/keys/{made['id']}").status_code == 404
    table = server.create("fika", bots={"1": "greedy"})
    socket = Client(f"{server.ws_url}/ws/tables/{table['table_id']}", headers=bearer(key))
    try:
        error = socket.recv()
        assert error["type"] == "error" and "not valid" in error["reason"]
        with pytest.raises(ConnectionClosed) as closed:
            socket.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
    finally:
        socket.close()


def test_several_keys_and_one_revoked(server: ServerThread, alice: Browser) -> None:
    new_bot(alice)
    first, second = new_key(alice), new_key(alice)
    assert first["key"] != second["key"]
    alice.http.delete(f"/api/bots/bot-v2/keys/{first['id']}")
    assert server.http.get("/api/me", headers=bearer(first["key"])).status_code == 401
    assert server.http.get("/api/me", headers=bearer(second["key"])).status_code == 200


def test_bad_keys_and_headers_are_refused(server: ServerThread) -> None:
    for value in ("Bearer ctb_nope", "Bearer nothing", "Basic ctb_x", "Bearer " + "ctb_" * 50):
        answer = server.http.get("/api/me", headers={"Authorization": value})
        assert answer.status_code == 401, value


def test_only_the_owner_manages_a_bot(
    server: ServerThread, alice: Browser, browsers: Callable[[str], Browser]
) -> None:
    new_bot(alice)
    key = new_key(alice)
    bob = browsers(server.url)
    bob.sign_up("bobby")
    assert bob.http.get("/api/bots/bot-v2/keys").status_code == 404
    assert bob.http.post("/api/bots/bot-v2/keys", json={}).status_code == 404
    assert bob.http.delete(f"/api/bots/bot-v2/keys/{key['id']}").status_code == 404
    assert bob.http.get("/api/bots").json() == []
    # A program's key makes no bots and no keys.
    as_bot = bearer(key["key"])
    assert server.http.post("/api/bots", json={"name": "child"}, headers=as_bot).status_code == 403
    assert server.http.post("/api/bots/bot-v2/keys", json={}, headers=as_bot).status_code == 403
    # Guests neither; other sites' pages neither.
    assert server.http.post("/api/bots", json={"name": "x1"}).status_code == 401
    other = alice.http.post(
        "/api/bots", json={"name": "x1"}, headers={"Origin": "https://evil.example"}
    )
    assert other.status_code == 403
    # Everyone may see whose bots there are (to invite one by name).
    public = server.http.get("/api/players/alice/bots").json()
    assert [b["name"] for b in public] == ["alice/bot-v2"]
    assert server.http.get("/api/players/nobody/bots").status_code == 404


@pytest.mark.parametrize("name", ["", "a", "-ab", "ab-", "a b", "a/b", "é" * 3, "x" * 21, "a..b"])
def test_bad_bot_names_are_refused(alice: Browser, name: str) -> None:
    response = alice.http.post("/api/bots", json={"name": name})
    assert response.status_code in (400, 422), name
    assert alice.http.get("/api/bots").json() == []


def test_a_name_twice_and_the_limits(
    start_server: Callable[..., ServerThread], browsers: Callable[[str], Browser]
) -> None:
    limits = Limits(**{**TEST_LIMITS.describe(), "bots_per_account": 2, "keys_per_bot": 2})
    server = start_server(limits=limits)
    alice = browsers(server.url)
    alice.sign_up("alice")
    new_bot(alice, "one")
    again = alice.http.post("/api/bots", json={"name": "ONE"})
    assert again.status_code == 409
    new_bot(alice, "two")
    third = alice.http.post("/api/bots", json={"name": "three"})
    assert third.status_code == 429 and "bots_per_account" in third.json()["detail"]
    first = new_key(alice, "one")
    new_key(alice, "one")
    assert alice.http.post("/api/bots/one/keys", json={}).status_code == 429
    alice.http.delete(f"/api/bots/one/keys/{first['id']}")
    new_key(alice, "one")  # a revoked key leaves room for a new one


def test_keys_act_only_for_their_bot_and_a_bot_sits_once(
    server: ServerThread, alice: Browser
) -> None:
    new_bot(alice, "one")
    new_bot(alice, "two")
    key_one = new_key(alice, "one")["key"]
    twice = alice.http.post(
        "/api/tables",
        json={"game": "cafe", "players": 3, "bots": {"1": "alice/one", "2": "alice/one"}},
    )
    assert twice.status_code == 400 and "twice" in twice.json()["detail"]
    unknown = alice.http.post(
        "/api/tables", json={"game": "fika", "players": 2, "bots": {"1": "alice/zzz"}}
    )
    assert unknown.status_code == 400
    created = alice.http.post(
        "/api/tables", json={"game": "cafe", "players": 3, "bots": {"1": "alice/two"}}
    ).json()
    table_id, token = created["table_id"], created["token"]
    invite_again = alice.http.post(
        f"/api/tables/{table_id}/seats/2/bot", json={"token": token, "level": "alice/two"}
    )
    assert invite_again.status_code == 409 and "already" in invite_again.json()["detail"]
    # Bot one has no seat here: its key does not play bot two's.
    socket = Client(f"{server.ws_url}/ws/tables/{table_id}", headers=bearer(key_one))
    try:
        error = socket.recv()
        assert "no seat" in error["reason"]
    finally:
        socket.close()
    # Invited to the open seat, it plays there (and only there).
    ok = alice.http.post(
        f"/api/tables/{table_id}/seats/2/bot", json={"token": token, "level": "alice/one"}
    )
    assert ok.status_code == 200, ok.text
    seats = server.summary(table_id)["seats"]
    assert [s["program"] for s in seats] == [False, True, True]
    assert seats[2]["owner"] == "alice" and seats[2]["name"] == "alice/one"
    socket = Client(f"{server.ws_url}/ws/tables/{table_id}", headers=bearer(key_one))
    try:
        state = socket.until(lambda m: m["type"] == "state")
        assert state["seat"] == 2
    finally:
        socket.close()


def test_the_program_mark_survives_a_restart(
    start_server: Callable[..., ServerThread], browsers: Callable[[str], Browser]
) -> None:
    server = start_server()
    alice = browsers(server.url)
    alice.sign_up("alice")
    new_bot(alice)
    created = alice.http.post(
        "/api/tables", json={"game": "fika", "players": 2, "bots": {"1": "alice/bot-v2"}}
    ).json()
    server.stop()
    again = start_server()
    seats = again.summary(created["table_id"])["seats"]
    assert seats[1]["program"] is True and seats[1]["owner"] == "alice"
    assert seats[0]["program"] is False


def ticket(program: bool = False, meet_bots: bool = True) -> Ticket:
    return Ticket(("fika", 2, False), "x", "greedy", None, program=program, meet_bots=meet_bots)


def test_play_now_deals_programs_only_with_people_who_meet_bots() -> None:
    shy, bot, keen = ticket(meet_bots=False), ticket(program=True), ticket()
    assert _compatible([shy, bot, keen], 2) == [shy, keen]
    assert _compatible([bot, shy, keen], 2) == [bot, keen]
    assert _compatible([bot, shy], 2) == [bot]
    assert _compatible([keen, bot], 2) == [keen, bot]


def test_a_program_in_the_play_now_queue(
    start_server: Callable[..., ServerThread], browsers: Callable[[str], Browser]
) -> None:
    limits = Limits(**{**TEST_LIMITS.describe(), "play_now_wait_seconds": 600.0})
    server = start_server(limits=limits)
    alice = browsers(server.url)
    alice.sign_up("alice")
    new_bot(alice)
    key = new_key(alice)["key"]
    queue = {"game": "fika", "players": 2}
    shy = server.http.post("/api/play-now", json={**queue, "name": "Shy", "meet_bots": False})
    assert shy.json()["status"] == "waiting"
    program = server.http.post("/api/play-now", json=queue, headers=bearer(key)).json()
    assert program["status"] == "waiting"
    assert program["waiting"] == ["Shy", "alice/bot-v2"]
    # The first in line sits first: Shy with Keen, who meets anyone; the program waits.
    keen = server.http.post("/api/play-now", json={**queue, "name": "Keen"}).json()
    assert keen["status"] == "seated"
    seats = server.summary(keen["table_id"])["seats"]
    assert [s["name"] for s in seats] == ["Shy", "Keen"]
    status = server.http.post(
        "/api/play-now/status", json={"ticket": program["ticket"]}, headers=bearer(key)
    ).json()
    assert status["status"] == "waiting"
    # Someone else who does not meet bots waits too; one who does sits with the program.
    shy2 = server.http.post("/api/play-now", json={**queue, "name": "Shy2", "meet_bots": False})
    assert shy2.json()["status"] == "waiting"
    keen2 = server.http.post("/api/play-now", json={**queue, "name": "Keen2"}).json()
    assert keen2["status"] == "seated"
    status = server.http.post(
        "/api/play-now/status", json={"ticket": program["ticket"]}, headers=bearer(key)
    ).json()
    assert status["status"] == "seated" and status["table_id"] == keen2["table_id"]
    seats = server.summary(keen2["table_id"])["seats"]
    assert [(s["name"], s["program"]) for s in seats] == [("alice/bot-v2", True), ("Keen2", False)]


def test_a_bot_has_a_profile(server: ServerThread, alice: Browser) -> None:
    new_bot(alice)
    profile = server.http.get("/api/players/alice/bot-v2")
    assert profile.status_code == 200, profile.text
    assert profile.json()["name"] == "alice/bot-v2" and profile.json()["bot"] is True
    encoded = server.http.get("/api/players/alice%2Fbot-v2")  # as pages encode the name
    assert encoded.status_code == 200 and encoded.json()["name"] == "alice/bot-v2"
    assert server.http.get("/api/players/alice/nobot").status_code == 404
    assert alice.http.post("/api/bots", json={"name": "Bots"}).status_code == 400
