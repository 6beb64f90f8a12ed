"""Accounts at live tables: seats that follow the account, rated matches, exactly once.

A real server (uvicorn in a thread, or a child process for kill -9), httpx
clients with their own cookie jars (one browser each), and WebSockets that
carry the session cookie instead of a seat token.
"""

from __future__ import annotations

import dataclasses
import random
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .conftest import TEST_LIMITS, TIMEOUT, Browser, Client, ServerThread
from .test_restart import ServerProcess


def drain(client: Client) -> None:
    """Read what the server has sent so far."""
    while True:
        try:
            client.recv(timeout=0.05)
        except TimeoutError:
            return


def is_over(client: Client) -> bool:
    return any(
        message.get("type") == "table" and message["table"]["status"] in ("over", "abandoned")
        for message in client.messages
    )


def play_one(clients: list[Client], rng: random.Random) -> dict[str, Any] | None:
    """One client that is offered a move plays a random one; return the state it acted
    on (None once the match is over). Waits for the server's next state."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        for client in clients:
            drain(client)
            if is_over(client):
                return None
        for client in clients:
            state = client.state
            if state and state["legal"] and state["seat"] in state["actors"]:
                client.send(
                    {"type": "act", "action": rng.choice(state["legal"]), "seq": state["seq"]}
                )
                client.until(
                    lambda m, seq=state["seq"]: (
                        (m["type"] == "state" and m["seq"] > seq)
                        or m["type"] == "rejected"
                        or (m["type"] == "table" and m["table"]["status"] != "running")
                    )
                )
                return state
    raise AssertionError("nobody was offered a move")


def play_to_the_end(clients: list[Client], rng: random.Random) -> None:
    for _ in range(2000):
        if play_one(clients, rng) is None:
            return
    raise AssertionError("the match did not end")


def test_two_accounts_play_a_rated_match_by_their_session_alone(
    server: ServerThread, browsers: Callable[[str], Browser]
) -> None:
    ana, bea = browsers(server.url), browsers(server.url)
    ana.sign_up("ana")
    bea.sign_up("bea")
    created = ana.http.post("/api/tables", json={"game": "fika", "players": 2, "name": "x"})
    assert created.status_code == 200, created.text
    table_id = created.json()["table_id"]
    summary = server.summary(table_id)
    assert summary["rated"] is True  # everyone at it is signed in
    assert summary["seats"][0]["name"] == "ana"  # an account plays as itself
    guest = server.http.post(f"/api/tables/{table_id}/join", json={"name": "Guest"})
    assert guest.status_code == 403 and "sign in" in guest.json()["detail"]
    assert bea.http.post(f"/api/tables/{table_id}/join", json={}).status_code == 200
    me = bea.http.get("/api/me").json()
    assert [(t["table_id"], t["seat"]) for t in me["tables"]] == [(table_id, 1)]
    # No tokens: the session cookie seats each of them.
    sockets = [ana.socket(table_id), bea.socket(table_id)]
    for index, client in enumerate(sockets):
        assert client.state_until(lambda m: True)["seat"] == index
    play_to_the_end(sockets, random.Random(3))
    for client in sockets:
        client.close()
    profiles = {name: server.http.get(f"/api/players/{name}").json() for name in ("ana", "bea")}
    for profile in profiles.values():
        (fika,) = [r for r in profile["ratings"] if r["game"] == "fika"]
        assert fika["games"] == 1 and fika["provisional"] and fika["rating"] != 1500
    board = server.http.get("/api/leaderboards/fika").json()
    assert {entry["name"] for entry in board["entries"]} == {"ana", "bea"}
    matches = server.http.get("/api/matches", params={"player": "ana"}).json()["matches"]
    assert [m["table_id"] for m in matches] == [table_id] and matches[0]["rated"]


def test_a_seat_follows_its_account_to_another_browser(
    server: ServerThread, browsers: Callable[[str], Browser]
) -> None:
    home, phone = browsers(server.url), browsers(server.url)
    home.sign_up("cyd")
    table_id = home.http.post(
        "/api/tables", json={"game": "doppio", "players": 2, "bots": {"1": "greedy"}}
    ).json()["table_id"]
    phone.sign_in("cyd")
    socket = phone.socket(table_id)
    state = socket.state_until(lambda m: m["seat"] == 0 and bool(m["legal"]))
    socket.send({"type": "act", "action": state["legal"][0], "seq": state["seq"]})
    socket.state_until(lambda m: m["seq"] > state["seq"])
    watcher = phone.socket(table_id, "?watch=true")
    assert watcher.state_until(lambda m: True)["seat"] is None
    for client in (socket, watcher):
        client.close()
    stranger = browsers(server.url)
    stranger.sign_up("dee")
    assert stranger.socket(table_id).state_until(lambda m: True)["seat"] is None


def test_leaving_a_rated_match_is_a_loss_and_moves_the_bots_rating(
    server: ServerThread, browsers: Callable[[str], Browser]
) -> None:
    eve = browsers(server.url)
    eve.sign_up("eve")
    table_id = eve.http.post(
        "/api/tables", json={"game": "fika", "players": 2, "bots": {"1": "greedy"}}
    ).json()["table_id"]
    assert server.summary(table_id)["rated"]
    # The match really starts (each seat acts: Fika's two colour choices), then eve leaves.
    socket = eve.socket(table_id)
    rng = random.Random(1)
    while (socket.state or {"seq": 0})["seq"] < 2:
        play_one([socket], rng)
    socket.close()
    left = eve.http.post(f"/api/tables/{table_id}/leave", json={})  # by the session
    assert left.status_code == 200
    assert server.summary(table_id)["status"] == "abandoned"  # nobody is left
    (match,) = server.http.get("/api/matches", params={"player": "eve"}).json()["matches"]
    eve_result = next(p for p in match["participants"] if p["name"] == "eve")
    assert eve_result["left"] and eve_result["rank"] == 2
    greedy = server.http.get("/api/players/greedy").json()
    (fika,) = [r for r in greedy["ratings"] if r["game"] == "fika"]
    assert fika["games"] == 1 and fika["wins"] == 1 and fika["rating"] > 1500


def test_a_guest_who_signs_up_keeps_the_seat(
    server: ServerThread, browsers: Callable[[str], Browser]
) -> None:
    created = server.create("fika", 2, name="Guest")
    fay = browsers(server.url)
    claim = [{"table_id": created["table_id"], "token": created["token"]}]
    fay.sign_up("fay", claim=claim)
    tables = fay.http.get("/api/me").json()["tables"]
    assert [(t["table_id"], t["seat"]) for t in tables] == [(created["table_id"], 0)]


def test_a_rated_result_is_written_exactly_once_across_kill_9(
    tmp_path: Path, browsers: Callable[[str], Browser]
) -> None:
    """Near the end, kill -9 the server right after each move is sent (mid-
    commit or just after), restart it and play on: one match row and one rated game
    each, whichever side of a commit the kills fell on."""
    database = tmp_path / "t.sqlite3"
    server = ServerProcess(database)
    people = [browsers(server.url), browsers(server.url)]
    people[0].sign_up("gus")
    people[1].sign_up("hal")
    table_id = (
        people[0].http.post("/api/tables", json={"game": "fika", "players": 2}).json()["table_id"]
    )
    assert people[1].http.post(f"/api/tables/{table_id}/join", json={}).status_code == 200
    rng, kills = random.Random(5), 0
    while True:
        sockets = [person.socket(table_id) for person in people]
        acted = play_one(sockets, rng)
        if acted is None:
            break
        if _near_the_end(acted):
            server.kill()
            kills += 1
            server = ServerProcess(database)
            people = [browsers(server.url), browsers(server.url)]
            people[0].sign_in("gus")
            people[1].sign_in("hal")
        for socket in sockets:
            socket.close()
    server.kill()
    assert kills >= 2
    with sqlite3.connect(database) as conn:
        (rows,) = conn.execute("select count(*) from matches where table_id = ?", (table_id,))
        games = conn.execute(
            "select players.name, ratings.games from ratings"
            " join players on players.id = ratings.player_id where ratings.game = 'fika'"
            " order by players.name"
        ).fetchall()
    assert rows == (1,) and games == [("gus", 1), ("hal", 1)]


def _near_the_end(state: dict[str, Any]) -> bool:
    """Fika's last moves: the last round, with three or more of the mover's café spots
    taken (at least 7 such moves in each of 300 random engine matches; with four, one CI run
    saw a single kill)."""
    view = state["view"]
    cafe = view["players"][state["seat"]]["cafe"]
    return bool(view["last_round"]) and sum(spot is not None for spot in cafe) >= 3


def test_play_now_rated_is_for_accounts(
    start_server: Callable[..., ServerThread], browsers: Callable[[str], Browser]
) -> None:
    server = start_server(limits=dataclasses.replace(TEST_LIMITS, play_now_wait_seconds=600))
    body = {"game": "fika", "players": 2, "rated": True}
    refused = server.http.post("/api/play-now", json=body)
    assert refused.status_code == 403 and "sign in" in refused.json()["detail"]
    ivy, jo = browsers(server.url), browsers(server.url)
    ivy.sign_up("ivy")
    jo.sign_up("jo_b")
    unrated = ivy.http.post("/api/play-now", json={**body, "rated": False}).json()
    first = ivy.http.post("/api/play-now", json=body).json()
    assert ivy.http.post("/api/play-now", json=body).status_code == 409  # once a queue
    jo.http.post("/api/play-now", json=body)
    seated = ivy.http.post("/api/play-now/status", json={"ticket": first["ticket"]}).json()
    assert seated["status"] == "seated"
    waiting = ivy.http.post("/api/play-now/status", json={"ticket": unrated["ticket"]}).json()
    assert waiting["status"] == "waiting"  # a queue of its own
    summary = server.summary(seated["table_id"])
    assert summary["rated"] and [s["name"] for s in summary["seats"]] == ["ivy", "jo_b"]
