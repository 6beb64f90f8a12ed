"""Ratings are earned against others (issue 27, findings 3 and 7).

A player never meets their own bots in a rated match; a rated match abandoned before every
seat acted moves no rating; and only a bot's owner seats it at a table, unless the owner
lets anyone (``invitable_by``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from coffeetable.server.lobby.matchmaking import Ticket, _compatible

from .conftest import Browser, ServerThread

Message = dict[str, Any]
FIKA = {"game": "fika", "players": 2}


@pytest.fixture
def alice(server: ServerThread, browsers: Callable[[str], Browser]) -> Browser:
    browser = browsers(server.url)
    browser.sign_up("alice")
    for name in ("bot-a", "bot-b"):
        assert browser.http.post("/api/bots", json={"name": name}).status_code == 200
    return browser


def key_of(browser: Browser, bot: str) -> dict[str, str]:
    key = browser.http.post(f"/api/bots/{bot}/keys", json={}).json()["key"]
    return {"Authorization": f"Bearer {key}"}


def fika_ratings(server: ServerThread) -> list[Message]:
    entries: list[Message] = server.http.get("/api/leaderboards/fika").json()["entries"]
    return entries


def test_leaving_a_rated_match_before_it_started_moves_no_rating(
    server: ServerThread, browsers: Callable[[str], Browser]
) -> None:
    """Both leave before anyone acted: the match is recorded, unrated, and nobody ranks."""
    ana, bea = browsers(server.url), browsers(server.url)
    ana.sign_up("ana")
    bea.sign_up("bea")
    table_id = ana.http.post("/api/tables", json=FIKA).json()["table_id"]
    assert bea.http.post(f"/api/tables/{table_id}/join", json={}).status_code == 200
    assert server.summary(table_id)["rated"] and server.summary(table_id)["status"] == "running"
    assert bea.http.post(f"/api/tables/{table_id}/leave", json={}).status_code == 200
    assert ana.http.post(f"/api/tables/{table_id}/leave", json={}).status_code == 200
    assert server.summary(table_id)["status"] == "abandoned"
    (match,) = server.http.get("/api/matches", params={"player": "ana"}).json()["matches"]
    assert match["status"] == "abandoned" and match["rated"] is False
    assert fika_ratings(server) == []


def test_a_player_never_meets_their_own_bots_in_a_rated_match(
    server: ServerThread, alice: Browser
) -> None:
    # Invited at creation: the table is unrated, and asking for it rated is refused.
    made = alice.http.post("/api/tables", json={**FIKA, "bots": {"1": "alice/bot-a"}})
    assert made.status_code == 200, made.text
    assert server.summary(made.json()["table_id"])["rated"] is False
    rated = alice.http.post(
        "/api/tables", json={**FIKA, "bots": {"1": "alice/bot-a"}, "rated": True}
    )
    assert rated.status_code == 400 and "own bots" in rated.json()["detail"]
    # Her bot's rated table: she may not join it, nor may her other bot.
    by_bot = server.http.post("/api/tables", json=FIKA, headers=key_of(alice, "bot-a")).json()
    bots_table = by_bot["table_id"]
    assert server.summary(bots_table)["rated"] is True
    joined = alice.http.post(f"/api/tables/{bots_table}/join", json={})
    assert joined.status_code == 403 and "own bots" in joined.json()["detail"]
    other = server.http.post(
        f"/api/tables/{bots_table}/join", json={}, headers=key_of(alice, "bot-b")
    )
    assert other.status_code == 403
    # Her own rated table: she may not invite her bot into its open seat.
    mine = alice.http.post("/api/tables", json=FIKA).json()["table_id"]
    invited = alice.http.post(f"/api/tables/{mine}/seats/1/bot", json={"level": "alice/bot-a"})
    assert invited.status_code == 403 and "own bots" in invited.json()["detail"]
    assert server.summary(mine)["seats"][1]["open"] is True
    # Unrated, she may.
    casual = alice.http.post("/api/tables", json={**FIKA, "rated": False}).json()["table_id"]
    invited = alice.http.post(f"/api/tables/{casual}/seats/1/bot", json={"level": "alice/bot-a"})
    assert invited.status_code == 200, invited.text


def test_a_rated_play_now_queue_never_seats_a_player_with_their_own_bot() -> None:
    key = ("fika", 2, True)
    alice = Ticket(key, "alice", "greedy", None, user_id=1)
    her_bot = Ticket(key, "alice/bot-a", "greedy", None, user_id=2, program=True)
    her_other = Ticket(key, "Alice/bot-b", "greedy", None, user_id=3, program=True)
    bob = Ticket(key, "bob", "greedy", None, user_id=4)
    assert _compatible([alice, her_bot, bob], 2, rated=True) == [alice, bob]
    assert _compatible([her_bot, her_other, bob], 2, rated=True) == [her_bot, bob]
    assert _compatible([alice, her_bot], 2, rated=False) == [alice, her_bot]


def test_only_its_owner_seats_a_bot_unless_it_lets_anyone(
    server: ServerThread, alice: Browser, browsers: Callable[[str], Browser]
) -> None:
    bob = browsers(server.url)
    bob.sign_up("bobby")
    body = {**FIKA, "bots": {"1": "alice/bot-a"}}
    refused = bob.http.post("/api/tables", json=body)
    assert refused.status_code == 403 and "owner only" in refused.json()["detail"]
    assert server.http.post("/api/tables", json=body).status_code == 403  # a guest neither
    table = bob.http.post("/api/tables", json={**FIKA, "options": {"grace_seconds": 0}}).json()
    invite = {"level": "alice/bot-a"}
    seat = f"/api/tables/{table['table_id']}/seats/1/bot"
    assert bob.http.post(seat, json=invite).status_code == 403
    assert server.summary(table["table_id"])["seats"][1]["open"] is True
    # Her other bot may seat it (one owner); so may she.
    by_bot_b = server.http.post("/api/tables", json=body, headers=key_of(alice, "bot-b"))
    assert by_bot_b.status_code == 200, by_bot_b.text
    # Only she changes who may invite it; then anyone may.
    assert bob.http.patch("/api/bots/bot-a", json={"invitable_by": "anyone"}).status_code == 404
    bad = alice.http.patch("/api/bots/bot-a", json={"invitable_by": "everybody"})
    assert bad.status_code == 422
    as_program = server.http.patch(
        "/api/bots/bot-a", json={"invitable_by": "anyone"}, headers=key_of(alice, "bot-a")
    )
    assert as_program.status_code == 403
    changed = alice.http.patch("/api/bots/bot-a", json={"invitable_by": "anyone"})
    assert changed.status_code == 200 and changed.json()["invitable_by"] == "anyone"
    listed = {
        b["name"]: b["invitable_by"] for b in server.http.get("/api/players/alice/bots").json()
    }
    assert listed == {"alice/bot-a": "anyone", "alice/bot-b": "owner"}
    assert bob.http.post(seat, json=invite).status_code == 200
    assert server.summary(table["table_id"])["seats"][1]["name"] == "alice/bot-a"
