"""A suspended person plays through none of their bot accounts (issue #30): the bot's API
keys are refused with 403 and the reason (HTTP and the table socket), its open sockets
close, its running seat goes to a stand-in, nobody may seat it, it cannot enter a
tournament, and the programs' league no longer pairs it."""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa
from websockets.exceptions import ConnectionClosed

from coffeetable.server.players.bot_accounts import OWNER_SUSPENDED
from coffeetable.store import Database
from coffeetable.store import bot_accounts as bot_db
from coffeetable.store import league as league_db
from tests.moderation.conftest import make_moderator, people
from tests.server.conftest import TEST_LIMITS, TIMEOUT, Browser, Client, ServerThread


def _bot(owner: Browser, name: str, **settings: Any) -> dict[str, str]:
    """A bot of ``owner`` with ``settings`` (``PATCH /api/bots/{name}``): its key's header."""
    made = owner.http.post("/api/bots", json={"name": name})
    assert made.status_code == 200, made.text
    if settings:
        assert owner.http.patch(f"/api/bots/{name}", json=settings).status_code == 200
    key = owner.http.post(f"/api/bots/{name}/keys", json={}).json()["key"]
    return {"Authorization": f"Bearer {key}"}


def _suspend(moderator: Browser, reporter: Browser, username: str) -> None:
    made = reporter.http.post("/api/reports", json={"username": username, "reason": "cheating"})
    assert made.status_code == 200, made.text
    acted = moderator.http.post(
        f"/api/moderation/reports/{made.json()['id']}", json={"action": "suspend"}
    )
    assert acted.status_code == 200, acted.text


def _refused(client: Client) -> tuple[str, int]:
    """The error a socket is sent before it is closed, and its close code."""
    reasons = []
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            message = client.recv(timeout=10)
            if message["type"] == "error":
                reasons.append(message["reason"])
    assert closed.value.rcvd is not None and reasons
    return reasons[-1], closed.value.rcvd.code


def test_a_suspended_person_s_bots_are_refused_and_unseated(
    server: ServerThread, browsers: Callable[[str], Browser], clients: list[Client]
) -> None:
    ana, bea, dora = people(server, browsers, "ana", "bea", "dora")
    make_moderator(server, "dora")
    bearer = _bot(ana, "bot-v2", invitable_by="anyone")
    fika = {"game": "fika", "players": 2}
    made = server.http.post("/api/tables", json=fika, headers=bearer)  # the bot's own table
    assert made.status_code == 200, made.text
    table_id = made.json()["table_id"]
    assert bea.http.post(f"/api/tables/{table_id}/join", json={}).status_code == 200
    socket = Client(f"{server.ws_url}/ws/tables/{table_id}", headers=bearer)
    clients.append(socket)
    socket.state_until(lambda m: m["seat"] == 0)
    assert server.summary(table_id)["status"] == "running"
    swiss = {"game": "fika", "format": "swiss", "rounds": 3}
    made = bea.http.post("/api/tournaments", json=swiss)
    assert made.status_code == 200, made.text
    tournament = made.json()["id"]

    _suspend(dora, bea, "ana")

    assert _refused(socket) == (OWNER_SUSPENDED, 4403)  # its open socket closed, saying why
    seat = server.summary(table_id)["seats"][0]
    assert seat["left"] is True and seat["bot"] is not None  # a stand-in plays it
    assert server.summary(table_id)["status"] == "running"
    for answer in (
        server.http.get("/api/me", headers=bearer),
        server.http.post("/api/tables", json=fika, headers=bearer),
        server.http.post(f"/api/tournaments/{tournament}/entries", json={}, headers=bearer),
    ):
        assert answer.status_code == 403, answer.text
        assert answer.json()["detail"] == OWNER_SUSPENDED
    assert bea.http.get(f"/api/tournaments/{tournament}").json()["entrants"] == []
    again = Client(f"{server.ws_url}/ws/tables/{table_id}", headers=bearer)
    clients.append(again)
    assert _refused(again) == (OWNER_SUSPENDED, 4403)
    invited = bea.http.post(  # it let anyone invite it: not now
        "/api/tables", json={"game": "fika", "players": 2, "bots": {"1": "ana/bot-v2"}}
    )
    assert invited.status_code == 403
    assert invited.json()["detail"] == f"ana/bot-v2: {OWNER_SUSPENDED}"
    open_table = bea.http.post("/api/tables", json={"game": "fika", "players": 2}).json()
    seat_it = bea.http.post(
        f"/api/tables/{open_table['table_id']}/seats/1/bot",
        json={"level": "ana/bot-v2", "token": open_table["token"]},
    )
    assert seat_it.status_code == 403, seat_it.text


def _bot_id(server: ServerThread, name: str, league: bool = False) -> str:
    """The bot's league entrant (``u<id>``); ``league``: put it in the league, as its owner
    could have before."""
    database = Database(server.database_url)
    try:
        with database.engine.begin() as conn:
            bot = bot_db.bot_by_key(conn, name)
            assert bot is not None
            if league:
                bot_db.set_league(conn, bot.id, True)
    finally:
        database.close()
    return f"u{bot.id}"


def _league_entrants(server: ServerThread) -> list[list[str]]:
    database = Database(server.database_url)
    try:
        with database.engine.connect() as conn:
            rows = conn.execute(sa.select(league_db.league_matches.c.entrants)).all()
    finally:
        database.close()
    return [json.loads(row.entrants) for row in rows]


def test_the_league_does_not_pair_a_suspended_person_s_bots(
    start_server: Callable[..., ServerThread], browsers: Callable[[str], Browser]
) -> None:
    limits = dataclasses.replace(
        TEST_LIMITS,
        league_matches_per_hour=36_000,
        league_grace_seconds=0,
        tournament_tick_seconds=0.1,
    )
    server = start_server(limits=limits)
    ana, bea, dora = people(server, browsers, "ana", "bea", "dora")
    make_moderator(server, "dora")
    _bot(ana, "bot-a")
    _suspend(dora, bea, "ana")
    anas = _bot_id(server, "ana/bot-a", league=True)  # she had put it in the league before
    _bot(bea, "bot-b", league=True)
    beas = _bot_id(server, "bea/bot-b")
    deadline = time.monotonic() + TIMEOUT
    while len(_league_entrants(server)) < 4:  # several matches dealt (the first pairs)
        assert time.monotonic() < deadline, _league_entrants(server)
        time.sleep(0.1)
    entrants = _league_entrants(server)
    assert all(beas in pair for pair in entrants), entrants
    assert not any(anas in pair for pair in entrants)
    players = bea.http.get("/api/leagues/fika").json()["players"]
    assert [p["name"] for p in players if not p["reference"]] == ["bea/bot-b"]


def test_a_suspended_person_and_their_bots_are_withdrawn_from_tournaments(
    server: ServerThread, browsers: Callable[[str], Browser]
) -> None:
    ana, bea, dora = people(server, browsers, "ana", "bea", "dora")
    make_moderator(server, "dora")
    bearer = _bot(ana, "bot-t")
    swiss = {"game": "fika", "format": "swiss", "rounds": 3, "max_entrants": 8}
    upcoming = bea.http.post("/api/tournaments", json=swiss).json()["id"]
    running = bea.http.post("/api/tournaments", json={**swiss, "rounds": 5}).json()["id"]
    for tournament in (upcoming, running):
        assert ana.http.post(f"/api/tournaments/{tournament}/entries", json={}).status_code == 200
        entered = server.http.post(
            f"/api/tournaments/{tournament}/entries", json={}, headers=bearer
        )
        assert entered.status_code == 200, entered.text
    assert bea.http.post(f"/api/tournaments/{running}/entries", json={}).status_code == 200
    assert bea.http.post(f"/api/tournaments/{running}/start").status_code == 200
    deadline = time.monotonic() + TIMEOUT
    while bea.http.get(f"/api/tournaments/{running}").json()["status"] != "running":
        assert time.monotonic() < deadline
        time.sleep(0.1)

    _suspend(dora, bea, "ana")

    assert bea.http.get(f"/api/tournaments/{upcoming}").json()["entrants"] == []
    entrants = bea.http.get(f"/api/tournaments/{running}").json()["entrants"]
    withdrawn = {entry["name"]: entry["withdrawn"] for entry in entrants}
    assert withdrawn == {"ana": True, "ana/bot-t": True, "bea": False}, entrants
