"""Ending a session or revoking a key closes the sockets it opened (issue 27, finding 2).

The account of a table socket is resolved once, at its handshake: without the
revocation registry (``players/revocation.py``) a socket opened by a session that was
signed out, or by a key that was revoked, went on playing and chatting.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from .conftest import Browser, Client, ServerThread

Message = dict[str, Any]


def closed_with(client: Client) -> tuple[int, str, list[Message]]:
    """Read until the server closes the socket: its code, reason, and the errors it sent."""
    errors: list[Message] = []
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            message = client.recv(timeout=10)
            if message["type"] == "error":
                errors.append(message)
    frame = closed.value.rcvd
    assert frame is not None, "the server did not close the socket"
    return frame.code, frame.reason, errors


def still_open(client: Client) -> bool:
    """The socket answers a ping."""
    client.send({"type": "ping"})
    return client.until(lambda m: m["type"] == "pong")["type"] == "pong"


def seated(client: Client, seat: int) -> Message:
    return client.state_until(lambda m: m["seat"] == seat)


@pytest.fixture
def table_of_ana(server: ServerThread, browsers: Callable[[str], Browser]) -> tuple[Browser, str]:
    ana = browsers(server.url)
    ana.sign_up("ana")
    created = ana.http.post("/api/tables", json={"game": "fika", "players": 2, "name": "x"})
    assert created.status_code == 200, created.text
    return ana, created.json()["table_id"]


def test_signing_out_everywhere_closes_every_socket_of_the_account(
    server: ServerThread, browsers: Callable[[str], Browser], table_of_ana: tuple[Browser, str]
) -> None:
    ana, table_id = table_of_ana
    phone = browsers(server.url)
    phone.sign_in("ana")
    home_socket, phone_socket = ana.socket(table_id), phone.socket(table_id)
    guest = server.client(table_id)  # a spectator without an account
    try:
        seated(home_socket, 0)
        seated(phone_socket, 0)
        answer = phone.http.post("/api/auth/logout-everywhere")
        assert answer.status_code == 200 and answer.json()["revoked"] == 2
        for client in (home_socket, phone_socket):
            code, reason, errors = closed_with(client)
            assert code == 4403 and "signed out everywhere" in reason
            assert errors and "sign in again" in errors[-1]["reason"]
        assert still_open(guest)
        # Signed in again: a new session's socket is not closed by the old revocation.
        ana.sign_in("ana")
        again = ana.socket(table_id)
        seated(again, 0)
        assert still_open(again)
        again.close()
    finally:
        for client in (home_socket, phone_socket, guest):
            client.close()


def test_ending_one_session_closes_its_sockets_only(
    server: ServerThread, browsers: Callable[[str], Browser], table_of_ana: tuple[Browser, str]
) -> None:
    ana, table_id = table_of_ana
    phone = browsers(server.url)
    phone.sign_in("ana")
    home_socket, phone_socket = ana.socket(table_id), phone.socket(table_id)
    watching = phone.socket(table_id, "?watch=true")  # a session's spectator socket too
    try:
        seated(home_socket, 0)
        seated(phone_socket, 0)
        seated(watching, None)  # type: ignore[arg-type]
        sessions = ana.http.get("/api/auth/sessions").json()
        (other,) = [s["id"] for s in sessions if not s["current"]]
        assert ana.http.delete(f"/api/auth/sessions/{other}").status_code == 200
        for client in (phone_socket, watching):
            code, reason, _ = closed_with(client)
            assert code == 4403 and "session ended" in reason
        assert still_open(home_socket)
        # Signing out of this browser closes this browser's socket.
        assert ana.http.post("/api/auth/logout").status_code == 200
        code, _, _ = closed_with(home_socket)
        assert code == 4403
    finally:
        for client in (home_socket, phone_socket, watching):
            client.close()


def test_signing_in_over_an_old_session_closes_its_sockets(
    server: ServerThread, browsers: Callable[[str], Browser], table_of_ana: tuple[Browser, str]
) -> None:
    ana, table_id = table_of_ana
    socket = ana.socket(table_id)
    try:
        seated(socket, 0)
        bea = browsers(server.url)
        bea.sign_up("bea")
        ana.sign_in("bea")  # the same browser, now bea: ana's session there ends
        code, _, _ = closed_with(socket)
        assert code == 4403
    finally:
        socket.close()


def test_a_revoked_key_closes_its_sockets_and_a_programs_seat_has_no_token(
    server: ServerThread, browsers: Callable[[str], Browser]
) -> None:
    alice = browsers(server.url)
    alice.sign_up("alice")
    assert alice.http.post("/api/bots", json={"name": "bot-v2"}).status_code == 200
    first, second = (
        alice.http.post("/api/bots/bot-v2/keys", json={"label": label}).json()
        for label in ("one", "two")
    )
    created = server.http.post(
        "/api/tables",
        json={"game": "fika", "players": 2, "bots": {"1": "greedy"}},
        headers={"Authorization": f"Bearer {first['key']}"},
    )
    assert created.status_code == 200, created.text
    table_id = created.json()["table_id"]
    # A program's seat answers to a live key of its bot, never to a token: none is handed
    # out, so none outlives the key it was made for.
    assert created.json()["seat"] == 0 and created.json()["token"] is None
    url = f"{server.ws_url}/ws/tables/{table_id}"
    by_first = Client(url, headers={"Authorization": f"Bearer {first['key']}"})
    by_second = Client(url, headers={"Authorization": f"Bearer {second['key']}"})
    try:
        seated(by_first, 0)
        seated(by_second, 0)
        revoked = alice.http.delete(f"/api/bots/bot-v2/keys/{first['id']}")
        assert revoked.status_code == 200
        code, reason, errors = closed_with(by_first)
        assert code == 4403 and "revoked" in reason and errors
        # The bot's other key still plays its seat.
        state = by_second.playable()
        by_second.send({"type": "act", "action": state["legal"][0], "seq": state["seq"]})
        by_second.state_until(lambda m: m["seq"] > state["seq"])
    finally:
        by_first.close()
        by_second.close()


def test_a_programs_seat_joined_by_its_key_has_no_token(
    server: ServerThread, browsers: Callable[[str], Browser]
) -> None:
    alice = browsers(server.url)
    alice.sign_up("alice")
    alice.http.post("/api/bots", json={"name": "bot-v2"})
    key = alice.http.post("/api/bots/bot-v2/keys", json={}).json()["key"]
    table_id = server.create("fika", 2, name="Guest")["table_id"]
    joined = server.http.post(
        f"/api/tables/{table_id}/join", json={}, headers={"Authorization": f"Bearer {key}"}
    )
    assert joined.status_code == 200, joined.text
    assert joined.json() == {"seat": 1, "token": None}
