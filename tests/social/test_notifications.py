"""Notifications: the table tells the players away from it that the table is full, that it
is their turn (turn-based games), and how the match ended; the API lists them newest first,
in pages, and marks them read; an account keeps its newest ``notifications_kept``."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import sqlalchemy as sa

from coffeetable.store import social as db
from tests.server.conftest import TEST_LIMITS
from tests.social.conftest import (
    Browser,
    ServerThread,
    disconnected,
    kinds,
    notices,
    wait_for,
)


def _table(server: ServerThread, ana: Browser, bea: Browser, cubes: int) -> str:
    created = ana.http.post(
        "/api/tables", json={"game": "sugar", "players": 2, "options": {"cubes": cubes}}
    )
    assert created.status_code == 200, created.text
    table_id: str = created.json()["table_id"]
    assert bea.http.post(f"/api/tables/{table_id}/join", json={}).status_code == 200
    return table_id


def test_your_turn_table_full_and_match_over_reach_the_players_away(
    sugar: str, server: ServerThread, browsers: Callable[[str], Browser]
) -> None:
    ana, bea = browsers(server.url), browsers(server.url)
    ana.sign_up("ana")
    bea.sign_up("bea")
    table_id = _table(server, ana, bea, cubes=4)
    # Nobody is at the table when it fills: both hear it is full, ana that she begins.
    wait_for(lambda: ("your_turn", table_id, False) in kinds(ana), "ana's turn")
    assert ("table_full", table_id, False) in kinds(ana)
    assert kinds(bea) == [("table_full", table_id, False)]
    page = notices(ana)
    assert page["unread"] == 2
    turn = next(n for n in page["notifications"] if n["kind"] == "your_turn")
    assert turn["data"] == {"title": "Sugar"}

    socket = ana.socket(table_id)
    socket.playable()
    socket.act({"type": "take", "n": 1})
    # Her move makes her "your turn" read, and bea's comes.
    wait_for(lambda: ("your_turn", table_id, False) in kinds(bea), "bea's turn")
    wait_for(lambda: ("your_turn", table_id, True) in kinds(ana), "ana's turn read")
    socket.close()
    wait_for(lambda: disconnected(server, table_id, 0), "ana gone")

    other = bea.socket(table_id)
    other.playable()
    other.act({"type": "take", "n": 3})  # the last cubes: bea wins
    over = wait_for(
        lambda: [n for n in notices(ana)["notifications"] if n["kind"] == "match_over"],
        "ana's result",
    )
    assert over[0]["data"] == {"title": "Sugar", "result": "lost", "score": 0}
    assert over[0]["table_id"] == table_id
    other.close()
    # bea was at the table when it ended: no notice for what she saw; her turn is read.
    assert [k for k in kinds(bea) if k[0] == "match_over"] == []
    assert ("your_turn", table_id, True) in kinds(bea)


def test_a_player_at_the_table_is_not_told_it_is_their_turn(
    sugar: str, server: ServerThread, browsers: Callable[[str], Browser]
) -> None:
    ana, bea = browsers(server.url), browsers(server.url)
    ana.sign_up("ana")
    bea.sign_up("bea")
    created = ana.http.post("/api/tables", json={"game": "sugar", "players": 2})
    table_id = created.json()["table_id"]
    sockets = [ana.socket(table_id), bea.socket(table_id)]
    sockets[0].state_until(lambda m: True)
    assert bea.http.post(f"/api/tables/{table_id}/join", json={}).status_code == 200
    sockets[1] = bea.socket(table_id)
    sockets[0].playable()
    sockets[0].act({"type": "take", "n": 1})
    sockets[1].playable()
    sockets[1].act({"type": "take", "n": 1})
    sockets[0].state_until(lambda m: m["seq"] == 2 and bool(m["legal"]))
    for client in sockets:
        client.close()
    assert [k for k in kinds(ana) if k[0] == "your_turn"] == []
    assert [k for k in kinds(bea) if k[0] == "your_turn"] == []


def _seed(url: str, player: int, count: int) -> list[int]:
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            return [
                db.add_notice(conn, player, db.FRIEND_REQUEST, keep=1000, data={"from": f"p{i}"})
                for i in range(count)
            ]
    finally:
        engine.dispose()


def _player_id(url: str, name: str) -> int:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            row = conn.execute(sa.text("SELECT id FROM players WHERE name = :n"), {"n": name})
            return int(row.scalar_one())
    finally:
        engine.dispose()


def test_pages_newest_first_and_marking_read(
    server: ServerThread, browsers: Callable[[str], Browser]
) -> None:
    ana = browsers(server.url)
    ana.sign_up("ana")
    ids = _seed(server.database_url, _player_id(server.database_url, "ana"), 5)
    first = notices(ana, limit=2)
    assert [n["id"] for n in first["notifications"]] == [ids[4], ids[3]]
    assert first["unread"] == 5 and first["next"] == ids[3]
    second = notices(ana, limit=2, before=first["next"])
    assert [n["id"] for n in second["notifications"]] == [ids[2], ids[1]]
    last = notices(ana, limit=2, before=second["next"])
    assert [n["id"] for n in last["notifications"]] == [ids[0]] and last["next"] is None

    read = ana.http.post("/api/notifications/read", json={"ids": [ids[0], ids[1], 999999]})
    assert read.json() == {"read": 2, "unread": 3}
    again = ana.http.post("/api/notifications/read", json={"ids": [ids[0]]})
    assert again.json() == {"read": 0, "unread": 3}  # already read
    for wrong in ({}, {"ids": [ids[2]], "all": True}, {"ids": [0]}, {"all": "yes"}):
        refused = ana.http.post("/api/notifications/read", json=wrong)
        assert refused.status_code in (400, 422), (wrong, refused.text)
    assert notices(ana)["unread"] == 3  # nothing changed
    assert ana.http.post("/api/notifications/read", json={"all": True}).json() == {
        "read": 3,
        "unread": 0,
    }
    assert all(n["read"] for n in notices(ana)["notifications"])


def test_only_your_own_and_only_signed_in(
    server: ServerThread, browsers: Callable[[str], Browser]
) -> None:
    ana, bea = browsers(server.url), browsers(server.url)
    ana.sign_up("ana")
    bea.sign_up("bea")
    (mine,) = _seed(server.database_url, _player_id(server.database_url, "ana"), 1)
    assert notices(bea)["notifications"] == []
    stolen = bea.http.post("/api/notifications/read", json={"ids": [mine]})
    assert stolen.json() == {"read": 0, "unread": 0}
    assert notices(ana)["unread"] == 1
    guest = browsers(server.url)
    assert guest.http.get("/api/notifications").status_code == 401
    assert guest.http.post("/api/notifications/read", json={"all": True}).status_code == 401
    for bad in ({"limit": 0}, {"limit": 101}, {"before": 0}, {"before": 2**63}):
        assert ana.http.get("/api/notifications", params=bad).status_code == 422, bad


def test_an_account_keeps_its_newest_notifications(
    start_server: Callable[..., ServerThread], browsers: Callable[[str], Browser], tmp_path: Path
) -> None:
    limits = dataclasses.replace(TEST_LIMITS, notifications_kept=3)
    server = start_server(limits=limits)
    ana = browsers(server.url)
    ana.sign_up("ana")
    url = server.database_url
    engine = sa.create_engine(url)
    player = _player_id(url, "ana")
    with engine.begin() as conn:
        ids = [db.add_notice(conn, player, db.INVITED, keep=3) for _ in range(5)]
    engine.dispose()
    assert [n["id"] for n in notices(ana)["notifications"]] == ids[:1:-1]  # the newest 3
