"""A bot account plays full matches through ``coffeetable.client``, against a server in a
thread: every turn-based game and Espresso, by its own tables, by invitation and after a
dropped connection; its matches are rated and it shows on the bots' leaderboard."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from coffeetable import client
from coffeetable.client.http import Site
from coffeetable.server.lobby import quotas
from tests.server.conftest import TEST_LIMITS, Browser, ServerThread

Message = dict[str, Any]


def make_bot(browser: Browser, name: str = "bot-v2") -> str:
    """Sign up alice (if needed), make a bot of hers and a key for it; return the key."""
    response = browser.http.post("/api/bots", json={"name": name})
    assert response.status_code == 200, response.text
    assert response.json()["name"] == f"alice/{name}"
    response = browser.http.post(f"/api/bots/{name}/keys", json={"label": "laptop"})
    assert response.status_code == 200, response.text
    key: str = response.json()["key"]
    return key


def seeded_policy(seed: int) -> Callable[[Message, list[Message]], Message]:
    """A random policy (reproducible), that never asks to undo."""
    rng = random.Random(seed)

    def policy(view: Message, legal: list[Message]) -> Message:
        assert isinstance(view, dict) and legal
        choices = [action for action in legal if action.get("type") != "undo"] or legal
        return rng.choice(choices)

    return policy


@pytest.fixture
def alice(server: ServerThread, browsers: Callable[[str], Browser]) -> Browser:
    browser = browsers(server.url)
    browser.sign_up("alice")
    return browser


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("doppio", {}),
        ("fika", {}),
        ("cafe", {}),
        ("espresso", {"target": 15, "bot_speed": 50}),
    ],
)
def test_a_bot_plays_a_full_match_through_the_client(
    server: ServerThread, alice: Browser, game: str, options: Message
) -> None:
    key = make_bot(alice)
    seen: list[client.MatchResult] = []
    results = client.play(
        server.url,
        key,
        seeded_policy(7),
        game=game,
        games=1,
        opponents=["greedy"],
        options=options,
        on_match=seen.append,
    )
    assert seen == results and len(results) == 1
    result = results[0]
    assert result.status == "over", result
    assert result.game == game and result.seat == 0
    assert result.actions > 0
    assert result.winners, "a finished match has winners"
    if game != "espresso":  # (in Espresso's race an answer may come too slow)
        # One answer in flight at a time: a state that comes before the one holding the
        # answer ("yours") is not answered again, so no answer is refused.
        assert result.rejected == 0, result
    summary = server.summary(result.table_id)
    assert summary["status"] == "over"
    mine = summary["seats"][0]
    assert mine["name"] == "alice/bot-v2"
    assert mine["program"] is True and mine["owner"] == "alice" and mine["bot"] is None
    assert summary["seats"][1]["program"] is False
    # Its rated match moved its own rating: it is on the bots' leaderboard, with its owner.
    board = server.http.get(f"/api/leaderboards/{game}/bots").json()
    names = {entry["name"]: entry for entry in board["entries"]}
    assert names["alice/bot-v2"]["owner"] == "alice"
    assert names["alice/bot-v2"]["games"] == 1
    assert names["greedy"]["owner"] is None
    people = server.http.get(f"/api/leaderboards/{game}").json()["entries"]
    assert any(e["name"] == "alice/bot-v2" and e["bot"] for e in people)


def test_ten_matches_turn_the_seats_round(server: ServerThread, alice: Browser) -> None:
    key = make_bot(alice)
    results = client.play(
        server.url, key, seeded_policy(1), game="fika", games=3, opponents=["greedy"]
    )
    assert [r.seat for r in results] == [0, 1, 0]
    assert all(r.status == "over" for r in results)
    assert [r.rejected for r in results] == [0, 0, 0]
    assert len({r.table_id for r in results}) == 3


def test_an_invited_bot_plays_its_seat(server: ServerThread, alice: Browser) -> None:
    key = make_bot(alice)
    # Every seat a bot: alice only watches; the table waits for her program in seat 0.
    created = alice.http.post(
        "/api/tables",
        json={"game": "fika", "players": 2, "bots": {"0": "alice/bot-v2", "1": "greedy"}},
    )
    assert created.status_code == 200, created.text
    table_id = created.json()["table_id"]
    assert created.json()["seat"] is None
    summary = server.summary(table_id)
    assert summary["status"] == "running"
    assert summary["seats"][0]["program"] and summary["seats"][0]["name"] == "alice/bot-v2"
    results = client.play(server.url, key, seeded_policy(3), game="fika", games=1)
    assert results[0].table_id == table_id and results[0].status == "over"
    assert results[0].seat == 0


def test_the_client_reconnects_by_itself(server: ServerThread, alice: Browser) -> None:
    """The server drops the bot's socket mid-match; the client opens it again and
    finishes the match."""
    key = make_bot(alice)
    dropped = threading.Event()
    calls = 0

    def policy(view: Message, legal: list[Message]) -> Message:
        nonlocal calls
        calls += 1
        if calls == 3 and not dropped.is_set():
            dropped.set()
            lobby = server.server.config.app.state.lobby  # type: ignore[attr-defined]
            for table in list(lobby.tables.values()):
                loop = table._actor.get_loop()  # the server's loop: close it from there
                for conn in list(table.connections):
                    loop.call_soon_threadsafe(conn.close, 1011, "test: the connection drops")
        return legal[0]

    started = time.monotonic()
    results = client.play(server.url, key, policy, game="doppio", opponents=["greedy"])
    assert dropped.is_set()
    assert results[0].status == "over"
    assert results[0].reconnects >= 1
    assert time.monotonic() - started < 60


def test_on_postgresql_a_bot_plays_a_rated_match_and_keeps_its_key(
    browsers: Callable[[str], Browser],
) -> None:
    """Migration 0004 on PostgreSQL: keys, a rated match, the bots' board, a restart."""
    from tests.players.conftest import postgres_url

    url = postgres_url()  # an emptied schema
    server = ServerThread(url)
    try:
        alice = browsers(server.url)
        alice.sign_up("alice")
        key = make_bot(alice)
        results = client.play(server.url, key, seeded_policy(5), game="fika", opponents=["greedy"])
        assert results[0].status == "over"
        board = server.http.get("/api/leaderboards/fika/bots").json()["entries"]
        assert {entry["name"]: entry["owner"] for entry in board} == {
            "alice/bot-v2": "alice",
            "greedy": None,
        }
    finally:
        server.stop()
    again = ServerThread(url)
    try:
        me = again.http.get("/api/me", headers={"Authorization": f"Bearer {key}"})
        assert me.status_code == 200 and me.json()["username"] == "alice/bot-v2"
    finally:
        again.stop()


def test_a_bot_that_misses_its_clock_is_played_by_the_greedy_stand_in(
    server: ServerThread, alice: Browser
) -> None:
    key = make_bot(alice)

    def slow(view: Message, legal: list[Message]) -> Message:
        # Past its 0.6 s of thinking time at every decision: the first one may come before
        # its clock runs (on a busy machine it once did, and the clock never ran out); the
        # first that the clock times ends with the stand-in, which plays every move after.
        time.sleep(1.5)
        return legal[0]

    results = client.play(
        server.url,
        key,
        slow,
        game="fika",
        opponents=["greedy"],
        options={"clock_minutes": 0.01},
    )
    result = results[0]
    assert result.status == "over"
    assert {"type": "clock", "seat": 0, "expired": True} in result.events
    seats = server.summary(result.table_id)["seats"]
    assert seats[0]["stand_in"] == "greedy" and seats[0]["program"] is True


def test_a_person_plays_an_invited_bot_then_a_rematch(server: ServerThread, alice: Browser) -> None:
    """alice invites her bot, plays it to the end by her session, asks for a rematch: the
    program accepts at once (as bots do) and plays the new table too."""
    from tests.server.test_accounts_at_tables import play_to_the_end

    key = make_bot(alice)
    created = alice.http.post(
        "/api/tables", json={"game": "fika", "players": 2, "bots": {"1": "alice/bot-v2"}}
    ).json()
    first = created["table_id"]
    assert server.summary(first)["rated"] is False  # never rated: she meets her own bot
    results: list[client.MatchResult] = []
    worker = threading.Thread(
        target=lambda: results.extend(
            client.play(server.url, key, seeded_policy(2), game="fika", games=2)
        ),
        daemon=True,
    )
    worker.start()
    socket = alice.socket(first)
    play_to_the_end([socket], random.Random(3))
    socket.close()
    again = alice.http.post(f"/api/tables/{first}/rematch", json={}).json()
    assert again["status"] == "dealt" and again["waiting"] == []
    second = again["table_id"]
    seats = server.summary(second)["seats"]
    assert seats[1]["program"] is True and seats[1]["name"] == "alice/bot-v2"
    socket = alice.socket(second)
    play_to_the_end([socket], random.Random(4))
    socket.close()
    worker.join(60)
    assert [(r.table_id, r.seat, r.status) for r in results] == [
        (first, 1, "over"),
        (second, 1, "over"),
    ]


def test_the_client_stops_with_the_servers_reason(server: ServerThread, alice: Browser) -> None:
    key = make_bot(alice)
    table = server.create("fika", bots={"1": "greedy"})  # a guest's table: no seat for the bot
    with pytest.raises(client.PlayError, match="no seat"):
        asyncio.run(client.play_table(server.url, key, table["table_id"], seeded_policy(1)))
    with pytest.raises(ValueError, match="ctb_"):
        client.play(server.url, "not-a-key", seeded_policy(1), game="fika", opponents=["greedy"])


def test_the_client_waits_out_the_table_rate(
    start_server: Callable[..., ServerThread],
    browsers: Callable[[str], Browser],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A bot making tables faster than the site's rate waits as long as the 429's
    Retry-After says, then asks again, instead of stopping with an error."""
    monkeypatch.setattr(quotas, "WINDOW", 2.0)  # a "minute" of 2 s, so the test is short
    server = start_server(limits=dataclasses.replace(TEST_LIMITS, tables_per_minute=1))
    alice = browsers(server.url)
    alice.sign_up("alice")
    site = Site(server.url, make_bot(alice))
    body = {"game": "fika", "players": 2, "bots": {"1": "greedy"}}
    first = asyncio.run(site.call("POST", "/api/tables", body))
    refused = server.http.post("/api/tables", json=body)  # a guest from the same address
    assert refused.status_code == 429 and 1 <= int(refused.headers["retry-after"]) <= 2
    started = time.monotonic()
    second = asyncio.run(site.call("POST", "/api/tables", body))
    assert second["table_id"] != first["table_id"]
    assert time.monotonic() - started >= 0.5  # it waited for the window to move on


def test_a_bot_over_the_action_rate_waits_out_each_refusal_and_keeps_its_answers(
    start_server: Callable[..., ServerThread], browsers: Callable[[str], Browser]
) -> None:
    """Refused for the site's action rate (``code: rate``), the client sends the same
    answer again once the refusal's ``retry_after`` has passed (the policy is not asked
    again, nor overruled), and every match of the series is played to its end."""
    limits = dataclasses.replace(TEST_LIMITS, actions_per_second=20.0, action_burst=3)
    server = start_server(limits=limits)
    alice = browsers(server.url)
    alice.sign_up("alice")
    chosen: list[Message] = []
    policy = seeded_policy(4)

    def counting(view: Message, legal: list[Message]) -> Message:
        chosen.append(policy(view, legal))
        return chosen[-1]

    first, second = client.play(
        server.url, make_bot(alice), counting, game="fika", games=2, opponents=["greedy"]
    )
    assert first.status == second.status == "over"
    assert first.rejected >= 1, first.rejected  # the first burst's overflow
    # Each answer was the policy's; a refused one was sent again, or decided again only
    # on a newer state that came meanwhile: never more asks than answers sent.
    accepted = first.actions + second.actions
    assert accepted <= len(chosen) <= accepted + first.rejected + second.rejected
