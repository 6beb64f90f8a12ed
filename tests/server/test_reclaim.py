"""Stand-ins: a bot plays for a disconnected person, who keeps the seat and takes it back."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from coffeetable.store import Database

from .conftest import TIMEOUT, Client, Message, ServerThread

#: A grace long enough for a test to connect, short enough to wait for.
GRACE = 0.3
READY = {"type": "ready"}


def logged(server: ServerThread, table_id: str) -> list[tuple[int | None, Message]]:
    database = Database(server.database_url)
    with database.engine.connect() as conn:
        record = database.load(conn, table_id)
    database.close()
    assert record is not None
    return record.actions


def stand_in_of(message: Message, seat: int) -> str | None:
    stand_in: str | None = message["table"]["seats"][seat]["stand_in"]
    return stand_in


def table_where(client: Client, test: Callable[[Message], bool]) -> Message:
    return client.until(lambda m: m["type"] == "table" and test(m))


def wait_seq(server: ServerThread, table_id: str, test: Callable[[int], bool]) -> int:
    deadline = time.monotonic() + TIMEOUT
    while not test(seq := server.summary(table_id)["seq"]):
        assert time.monotonic() < deadline, seq
        time.sleep(0.05)
    return seq


def now(client: Client, server: ServerThread, table_id: str) -> Message:
    """The client's state as of now (the table must not be moving)."""
    seq = server.summary(table_id)["seq"]
    return client.state_until(lambda m: m["seq"] >= seq)


def doppio(server: ServerThread, **options: Any) -> tuple[str, str, str]:
    """A Doppio table, Ada (seat 0) to move first against Bea (seat 1): its id and
    both tokens. Nobody is connected yet."""
    created = server.create(
        game="doppio", players=2, options={"first_player": 0, "grace_seconds": GRACE, **options}
    )
    table_id = created["table_id"]
    return table_id, created["token"], server.join(table_id, "Bea")["token"]


def test_a_stand_in_plays_for_an_absent_person_until_they_come_back(
    server: ServerThread, clients: list[Client]
) -> None:
    table_id, ada_token, bea_token = doppio(server)
    ada = server.client(table_id, ada_token)
    clients.append(ada)
    ada.act(ada.playable()["legal"][0])
    # Bea never came: once her grace is over and it is her turn, the greedy bot plays.
    table = table_where(ada, lambda m: stand_in_of(m, 1) is not None)
    assert stand_in_of(table, 1) == "greedy"
    assert table["table"]["seats"][1]["name"] == "Bea" and table["table"]["seats"][1]["bot"] is None
    ada.event_until(lambda e: e.get("seat") == 1)
    stood_in = wait_seq(server, table_id, lambda seq: seq >= 2)

    bea = server.client(table_id, bea_token)  # the same token: the seat is hers at once
    clients.append(bea)
    assert stand_in_of(bea.until(lambda m: m["type"] == "table"), 1) is None
    table_where(ada, lambda m: stand_in_of(m, 1) is None)  # and everyone sees it
    for _ in range(10):  # Ada plays until it is Bea's turn
        state = now(bea, server, table_id)
        if state["legal"]:
            break
        seq = state["seq"]
        ada.act(now(ada, server, table_id)["legal"][0])
        wait_seq(server, table_id, lambda s, seq=seq: s > seq)
    assert state["view"]["seat"] == 1 and state["legal"]
    action = state["legal"][-1]
    bea.act(action)
    wait_seq(server, table_id, lambda s: s > state["seq"])
    log = logged(server, table_id)
    assert 1 in [seat for seat, _ in log[:stood_in]]  # the stand-in's moves ...
    assert log[-1] == (1, action)  # ... then Bea's own


def test_a_seated_stand_in_keeps_the_token_working_and_survives_a_restart(
    start_server: Callable[..., ServerThread], clients: list[Client], tmp_path: Path
) -> None:
    database = tmp_path / "reclaim.sqlite3"
    server = start_server(database=database)
    url = "/api/tables/{}/seats/1/bot"
    # Within Bea's grace nobody may seat a stand-in for her.
    table_id, ada_token, _ = doppio(server, grace_seconds=600)
    refused = server.http.post(url.format(table_id), json={"token": ada_token, "level": "random"})
    assert refused.status_code == 409 and "grace_seconds" in refused.json()["detail"]
    # After it, Ada may (while Ada is to move, so no stand-in came by itself).
    table_id, ada_token, bea_token = doppio(server)
    ada = server.client(table_id, ada_token)
    clients.append(ada)
    legal = ada.playable()["legal"]
    time.sleep(GRACE * 1.5)
    seated = server.http.post(url.format(table_id), json={"token": ada_token, "level": "random"})
    assert seated.status_code == 200, seated.text
    seat = server.summary(table_id)["seats"][1]
    assert (seat["bot"], seat["stand_in"], seat["name"]) == (None, "random", "Bea")
    ada.act(legal[0])
    ada.event_until(lambda e: e.get("seat") == 1)  # it plays
    ada.close()
    server.stop()

    server = start_server(database=database)  # the stand-in is saved with the table
    assert server.summary(table_id)["seats"][1]["stand_in"] == "random"
    bea = server.client(table_id, bea_token)
    clients.append(bea)
    assert stand_in_of(bea.until(lambda m: m["type"] == "table"), 1) is None
    assert server.summary(table_id)["seats"][1]["stand_in"] is None
    bea.close()
    server.stop()
    server = start_server(database=database)  # and that it stopped is saved too
    assert server.summary(table_id)["seats"][1]["stand_in"] is None


def test_the_ready_check_does_not_wait_for_an_absent_player(
    server: ServerThread, clients: list[Client]
) -> None:
    created = server.create(players=2, options={"bot_speed": 20, "grace_seconds": GRACE})
    table_id = created["table_id"]
    bea_token = server.join(table_id, "Bea")["token"]
    ada = server.client(table_id, created["token"])
    clients.append(ada)
    ada.playable()
    ada.act(READY)
    # Espresso's stand-in is the medium bot: it readies Bea's seat and plays for her.
    assert stand_in_of(table_where(ada, lambda m: stand_in_of(m, 1) is not None), 1) == "medium"
    ada.event_until(lambda e: e == {"type": "ready", "seat": 1})
    bea = server.client(table_id, bea_token)
    clients.append(bea)
    assert stand_in_of(bea.until(lambda m: m["type"] == "table"), 1) is None
    state = bea.state_until(lambda m: m["view"]["phase"] == "play" and bool(m["legal"]))
    assert state["view"]["seat"] == 1


def test_a_seat_out_of_time_stays_with_its_stand_in(
    server: ServerThread, clients: list[Client]
) -> None:
    table_id, ada_token, bea_token = doppio(server, clock_minutes=0.05, grace_seconds=600)
    bea = server.client(table_id, bea_token)
    ada = server.client(table_id, ada_token)
    clients += [ada, bea]
    # The seat's table summary (its stand-in), then a state to everyone saying why.
    assert stand_in_of(table_where(ada, lambda m: stand_in_of(m, 0) is not None), 0) == "greedy"
    expired = ada.event_until(lambda e: e["type"] == "clock")
    assert expired == {"type": "clock", "seat": 0, "expired": True}
    # Ada still sees her seat, is offered nothing, and is refused if she acts.
    state = ada.state_until(lambda m: m["actors"] == [1])  # the stand-in moved for her
    assert state["view"]["seat"] == 0 and state["legal"] == []
    ada.act({"type": "place", "kind": "saucer", "colour": "brown", "space": 0})
    reason = ada.until(lambda m: m["type"] == "rejected")["reason"]
    assert reason == "your time ran out: the greedy stand-in plays your seat"
    # Coming back does not end it: the seat has no time left.
    ada.close()
    again = server.client(table_id, ada_token)
    clients.append(again)
    assert stand_in_of(again.until(lambda m: m["type"] == "table"), 0) == "greedy"
