"""Play again: the same seats, options and bots at a new table once every person accepts."""

from __future__ import annotations

import random

from .conftest import ServerThread
from .test_accounts_at_tables import play_to_the_end


def finished(server: ServerThread, bots: dict[str, str] | None = None) -> dict[str, object]:
    created = server.create(
        "fika", 2, name="Ana", bots=bots or {}, options={"bot_speed": 1000, "grace_seconds": 600}
    )
    table_id = created["table_id"]
    tokens = {0: created["token"]}
    if not bots:
        tokens[1] = server.join(table_id, "Bea")["token"]
    sockets = [server.client(table_id, token) for token in tokens.values()]
    play_to_the_end(sockets, random.Random(7))
    for socket in sockets:
        socket.close()
    assert server.summary(table_id)["status"] == "over"
    return {"table_id": table_id, "tokens": tokens}


def ask(server: ServerThread, table_id: object, token: str) -> dict[str, object]:
    response = server.http.post(f"/api/tables/{table_id}/rematch", json={"token": token})
    assert response.status_code == 200, response.text
    result: dict[str, object] = response.json()
    return result


def test_two_people_accept_and_meet_again_in_the_same_seats(server: ServerThread) -> None:
    old = finished(server)
    table_id, tokens = old["table_id"], old["tokens"]
    assert isinstance(tokens, dict)
    watcher = server.client(str(table_id))
    first = ask(server, table_id, tokens[0])
    assert first["status"] == "waiting" and first["waiting"] == [1]
    heard = watcher.until(lambda m: m["type"] == "rematch")
    assert heard["accepted"] == [0] and heard["table_id"] is None
    second = ask(server, table_id, tokens[1])
    assert second["status"] == "dealt" and second["seat"] == 1 and second["token"]
    new_id = second["table_id"]
    assert watcher.until(lambda m: m["type"] == "rematch")["table_id"] == new_id
    assert "token" not in watcher.messages[-1]  # tokens only go to their own person
    again = ask(server, table_id, tokens[0])
    assert again["table_id"] == new_id and again["seat"] == 0 and again["token"]
    new = server.summary(str(new_id))
    before = server.summary(str(table_id))
    assert new["status"] == "running" and new["options"] == before["options"]
    assert new["settings"]["grace_seconds"] == 600 and new["settings"]["bot_speed"] == 1000
    assert [seat["name"] for seat in new["seats"]] == ["Ana", "Bea"]
    for seat, token in ((0, again["token"]), (1, second["token"])):
        socket = server.client(str(new_id), str(token))
        assert socket.state_until(lambda m: True)["seat"] == seat
        socket.close()
    watcher.close()


def test_bots_accept_at_once(server: ServerThread) -> None:
    old = finished(server, bots={"1": "greedy"})
    answer = ask(server, old["table_id"], old["tokens"][0])  # type: ignore[index]
    assert answer["status"] == "dealt" and answer["seat"] == 0
    seats = server.summary(str(answer["table_id"]))["seats"]
    assert seats[1]["bot"] == "greedy"


def test_only_a_finished_match_and_only_its_people(server: ServerThread) -> None:
    created = server.create("fika", 2)
    url = f"/api/tables/{created['table_id']}/rematch"
    assert server.http.post(url, json={"token": created["token"]}).status_code == 409
    old = finished(server, bots={"1": "greedy"})
    url = f"/api/tables/{old['table_id']}/rematch"
    assert server.http.post(url, json={"token": "nope"}).status_code == 403
