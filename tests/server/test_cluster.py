"""Several server processes on one PostgreSQL and one Redis (``server/cluster/``).

Real ``coffeetable serve`` child processes, each test with a database and a
Redis prefix of its own. The players of a table connect to different processes
than the one that runs the table; a process is killed (kill -9) or restarted
(SIGTERM) under them; what every client was ever sent is checked against the
final log, replayed by the engine: no accepted action lost, none applied twice,
and no seat shown what it may not see.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

from coffeetable import games
from coffeetable.engine import MatchLog

from .cluster_site import (
    LEASE_SECONDS,
    Player,
    Process,
    Site,
    dumps,
    play_round,
    sites,
    summaries,
)
from .conftest import Client
from .test_accounts_at_tables import play_to_the_end

Message = dict[str, Any]
#: How long a match of Fika between two random players may take here, at most.
MATCH_SECONDS = 120


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    yield from sites(tmp_path)


def create_fika(process: Process, name: str = "Ana") -> tuple[str, str]:
    response = process.http.post("/api/tables", json={"game": "fika", "players": 2, "name": name})
    assert response.status_code == 200, response.text
    created = response.json()
    return created["table_id"], created["token"]


def join(process: Process, table_id: str, name: str = "Bea") -> str:
    response = process.http.post(f"/api/tables/{table_id}/join", json={"name": name})
    assert response.status_code == 200, response.text
    token: str = response.json()["token"]
    return token


def play(players: list[Player], seed: int, seconds: float = MATCH_SECONDS) -> None:
    rng = random.Random(seed)
    deadline = time.monotonic() + seconds
    while play_round(players, rng):
        assert time.monotonic() < deadline, "the match did not end"
        time.sleep(0.01)


def views_by_seq(process: Process, table_id: str) -> dict[int | None, list[str]]:
    """Every seat's (and the spectator's) view after each action of the final log."""
    response = process.http.get(f"/api/tables/{table_id}/log")
    assert response.status_code == 200, response.text
    log = MatchLog.from_json(response.json())
    state = games.get(log.game).new_state(players=log.players, seed=log.seed, **log.options)
    audiences: list[int | None] = [*range(log.players), None]

    def snapshot() -> dict[int | None, str]:
        return {seat: dumps(orjson.loads(orjson.dumps(state.view(seat)))) for seat in audiences}

    views: dict[int | None, list[str]] = {seat: [] for seat in audiences}
    for seat_views in [
        snapshot(),
        *(_step(state, seat, action, snapshot) for seat, action in log.actions),
    ]:
        for seat, view in seat_views.items():
            views[seat].append(view)
    return views


def _step(state: Any, seat: int | None, action: Any, snapshot: Any) -> dict[int | None, str]:
    state.apply(seat, action)
    result: dict[int | None, str] = snapshot()
    return result


def check_seen(players: list[Player], views: dict[int | None, list[str]]) -> None:
    """What every client was sent agrees with the final log: each state it got at seq n is
    its seat's view after n actions of that log, and its seqs never went back."""
    for player in players:
        assert player.states, "a client was sent no state"
        seqs = [state["seq"] for state in player.states]
        assert seqs == sorted(seqs), f"a client saw the match go back: {seqs}"
        for state in player.states:
            seat = state["seat"]
            assert dumps(state["view"]) == views[seat][state["seq"]], (
                f"seat {seat} at seq {state['seq']} was sent a view the log does not give"
            )


class Sniffer:
    """Records every message Redis carries to one process's channel."""

    def __init__(self, site: Site, process: Process) -> None:
        import redis

        self.client = redis.Redis.from_url(site.redis_url)
        self.pubsub = self.client.pubsub(ignore_subscribe_messages=True)
        self.pubsub.subscribe(f"{site.prefix}:inbox:{process.name}")
        self.messages: list[Message] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            item = self.pubsub.get_message(timeout=0.1)
            if item is not None:
                self.messages.append(orjson.loads(item["data"]))

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self.pubsub.close()
        self.client.close()


def test_players_on_three_processes_finish_a_match_and_a_fourth_only_sees_public(
    site: Site,
) -> None:
    owner, second, third, fourth = site.start(4)
    table_id, token = create_fika(owner)
    bea_token = join(second, table_id)  # the join is run by the owner, asked from another process
    sniffer = Sniffer(site, fourth)
    ana = Player([second.ws_url], table_id, token)
    bea = Player([third.ws_url], table_id, bea_token)
    spectator = Player([fourth.ws_url], table_id, None)
    try:
        deadline = time.monotonic() + 10
        while table_id not in [t["table_id"] for t in fourth.http.get("/api/tables").json()]:
            assert time.monotonic() < deadline, "the lobby of another process never listed it"
            time.sleep(0.2)
        play([ana, bea, spectator], seed=1)
        time.sleep(0.5)
        spectator.read()
    finally:
        sniffer.close()
        for player in (ana, bea, spectator):
            player.close()
    for process in (owner, second, third, fourth):
        assert process.http.get(f"/api/tables/{table_id}").json()["status"] == "over"
    views = views_by_seq(fourth, table_id)
    check_seen([ana, bea, spectator], views)
    assert {state["seat"] for state in spectator.states} == {None}
    assert len(spectator.states) > 10
    # What crossed Redis to the spectator's process: only the spectator's states.
    relayed = [orjson.loads(m["text"]) for m in sniffer.messages if m.get("kind") == "ws_out"]
    states = [m for m in relayed if m["type"] == "state"]
    assert len(states) >= len(spectator.states) - 1
    assert all(state["seat"] is None and state["legal"] == [] for state in states)
    for state in states:
        assert dumps(state["view"]) == views[None][state["seq"]]
    # Nobody but the owner ran it: the other processes relayed.
    assert "adopted table" not in "".join(p.log() for p in (second, third, fourth))


def test_kill_minus_nine_of_the_owner_mid_match(site: Site) -> None:
    owner, second, third = site.start(3)
    table_id, token = create_fika(owner)
    bea_token = join(owner, table_id)
    ana = Player([second.ws_url, third.ws_url], table_id, token)
    bea = Player([third.ws_url, second.ws_url], table_id, bea_token)
    players = [ana, bea]
    rng = random.Random(2)
    try:
        while max((p.state or {"seq": 0})["seq"] for p in players) < 8:
            assert play_round(players, rng)
            time.sleep(0.01)
        before = max(p.state["seq"] for p in players if p.state)
        owner.kill()
        killed = time.monotonic()
        while max(p.state["seq"] for p in players if p.state) <= before:
            assert play_round(players, rng)
            assert time.monotonic() - killed < 6 * LEASE_SECONDS, "no process took the table over"
            time.sleep(0.01)
        took_over = time.monotonic() - killed
        play(players, seed=3)
    finally:
        for player in players:
            player.close()
    assert took_over < 6 * LEASE_SECONDS
    assert ana.reconnects >= 1 and bea.reconnects >= 1
    summary = second.http.get(f"/api/tables/{table_id}").json()
    assert summary["status"] == "over"
    views = views_by_seq(second, table_id)
    assert len(views[None]) == summary["seq"] + 1
    check_seen(players, views)


def test_a_rolling_restart_of_every_process_while_matches_run(site: Site) -> None:
    processes = site.start(3)
    urls = [p.ws_url for p in processes]
    tables: list[tuple[str, list[Player]]] = []
    for index, process in enumerate(processes):
        table_id, token = create_fika(process, f"Ana{index}")
        bea_token = join(processes[(index + 1) % 3], table_id, f"Bea{index}")
        players = [
            Player(urls, table_id, token, first=index + 1),
            Player(urls, table_id, bea_token, first=index + 2),
        ]
        tables.append((table_id, players))
    everyone = [player for _, players in tables for player in players]
    rng = random.Random(4)
    try:
        for index in range(3):
            for _ in range(30):  # let the matches move between restarts
                play_round(everyone, rng)
                time.sleep(0.01)
            processes[index].terminate()
            for _ in range(20):  # the others carry on while it is down
                play_round(everyone, rng)
                time.sleep(0.01)
            processes[index] = site.replace(processes[index])
        play(everyone, seed=5)
    finally:
        for player in everyone:
            player.close()
    for table_id, players in tables:
        assert processes[0].http.get(f"/api/tables/{table_id}").json()["status"] == "over"
        check_seen(players, views_by_seq(processes[1], table_id))
    handed = "".join(p.log() for p in processes)
    assert "restored" in handed or "adopted" in handed


def test_the_lobby_play_now_and_quotas_span_processes(site: Site) -> None:
    first, second = site.start(2)
    a = first.http.post("/api/play-now", json={"game": "fika", "players": 2, "name": "Ana"}).json()
    b = second.http.post("/api/play-now", json={"game": "fika", "players": 2, "name": "Bea"}).json()
    seated = [
        first.http.post("/api/play-now/status", json={"ticket": a["ticket"]}).json(),
        second.http.post("/api/play-now/status", json={"ticket": b["ticket"]}).json(),
    ]
    assert seated[0].get("table_id") and seated[0]["table_id"] == seated[1].get("table_id")
    assert sorted(s["seat"] for s in seated) == [0, 1]
    overview = second.http.get("/api/play-now").json()
    assert overview == []  # nobody waits any more, whichever process is asked


def test_quotas_count_over_every_process(site: Site) -> None:
    limits = {"COFFEETABLE_TABLES_PER_MINUTE": "3", "COFFEETABLE_SOCKETS_PER_CLIENT": "2"}
    first, second = site.start(2, env=limits)
    create_fika(first)
    create_fika(second)
    create_fika(first)
    refused = second.http.post("/api/tables", json={"game": "fika", "players": 2})
    assert refused.status_code == 429 and "3 new tables a minute" in refused.json()["detail"]
    assert 1 <= int(refused.headers["retry-after"]) <= 60
    assert first.http.post("/api/tables", json={"game": "fika", "players": 2}).status_code == 429
    # Two sockets from this address, on two processes: a third one anywhere waits.
    sockets = [Client(f"{p.ws_url}/ws/echo") for p in (first, second)]
    try:
        third = Client(f"{first.ws_url}/ws/echo")
        message = third.recv()
        assert message["type"] == "error" and "too many connections" in message["reason"]
        third.close()
    finally:
        for socket in sockets:
            socket.close()


def test_play_now_tables_count_against_the_quotas_of_every_process(site: Site) -> None:
    """Issue #27: the matchmaker (one process) dealt tables no quota counted."""
    first, second = site.start(2, env={"COFFEETABLE_TABLES_PER_MINUTE": "3"})
    solo = {"game": "doppio", "players": 1}
    for process in (first, second):  # asked on both; dealt by the matchmaker's process
        dealt = process.http.post("/api/play-now", json=solo)
        assert dealt.status_code == 200 and dealt.json()["status"] == "seated", dealt.text
    create_fika(second)
    for process in (first, second):
        refused = process.http.post("/api/play-now", json=solo)
        assert refused.status_code == 429, refused.text
        assert "3 new tables a minute" in refused.json()["detail"]
        made = process.http.post("/api/tables", json={"game": "fika", "players": 2})
        assert made.status_code == 429, made.text


def test_sigterm_hands_the_tables_over_without_waiting_for_the_lease(site: Site) -> None:
    import redis

    leaving, staying = site.start(2)
    table_id, token = create_fika(leaving)
    bea_token = join(leaving, table_id)
    players = [
        Player([staying.ws_url], table_id, token),
        Player([staying.ws_url], table_id, bea_token),
    ]
    rng = random.Random(6)
    try:
        while max((p.state or {"seq": 0})["seq"] for p in players) < 4:
            assert play_round(players, rng)
            time.sleep(0.01)
        leaving.terminate()  # returns once the process has exited
        client = redis.Redis.from_url(site.redis_url)
        owner = client.get(f"{site.prefix}:lease:table:{table_id}")
        alive = client.exists(f"{site.prefix}:alive:{leaving.name}")
        client.close()
        assert owner is None or owner.decode() == staying.name  # released, not left to expire
        assert not alive
        play(players, seed=7)
    finally:
        for player in players:
            player.close()
    assert staying.http.get(f"/api/tables/{table_id}").json()["status"] == "over"
    check_seen(players, views_by_seq(staying, table_id))


def test_a_guest_claims_a_seat_and_a_review_runs_once_whichever_process_is_asked(
    site: Site,
) -> None:
    owner, second, third = site.start(3)
    table_id, token = create_fika(owner)
    bea_token = join(owner, table_id)
    # Ana signs up through another process and claims her guest seat: the owner's seat has it.
    signed = second.http.post(
        "/api/auth/register",
        json={
            "username": "ana",
            "password": "correct horse battery",
            "claim": [{"table_id": table_id, "token": token}],
        },
    )
    assert signed.status_code == 200, signed.text
    assert signed.json()["claimed"] == [{"table_id": table_id, "seat": 0}]
    assert summaries(third, table_id)["seats"][0]["account"] is True
    players = [
        Player([second.ws_url], table_id, token),
        Player([third.ws_url], table_id, bea_token),
    ]
    try:
        play(players, seed=8)
    finally:
        for player in players:
            player.close()
    started = third.http.post(f"/api/tables/{table_id}/review")
    assert started.status_code == 200, started.text
    deadline = time.monotonic() + 120
    while True:  # polled from the other processes: one review, kept where it runs
        review = second.http.get(f"/api/tables/{table_id}/review").json()
        assert owner.http.get(f"/api/tables/{table_id}/review").json()["total"] == review["total"]
        if review["status"] == "done":
            break
        assert review["status"] == "running" and time.monotonic() < deadline
        time.sleep(0.5)
    assert review["decisions"] and review["done"] == review["total"]


def test_reviews_per_client_count_over_every_process(site: Site) -> None:
    """Issue #27: one client's requests held the review slots; with several processes,
    each process's slots. Big searches here: the first review is still running."""
    processes = site.start(2, env={"COFFEETABLE_REVIEW_ITERATIONS": "5000"})
    table_ids = []
    for process in processes:  # a person's match against a bot, over at once
        body = {"game": "fika", "players": 2, "bots": {"1": "greedy"}}
        created = process.http.post("/api/tables", json={**body, "options": {"bot_speed": 1000}})
        assert created.status_code == 200, created.text
        table_id, token = created.json()["table_id"], created.json()["token"]
        client = Client(f"{process.ws_url}/ws/tables/{table_id}?token={token}")
        play_to_the_end([client], random.Random(3))
        client.close()
        table_ids.append(table_id)
    first = processes[0].http.post(f"/api/tables/{table_ids[0]}/review")
    assert first.status_code == 200 and first.json()["status"] == "running", first.text
    second = processes[1].http.post(f"/api/tables/{table_ids[1]}/review")
    assert second.status_code == 429, second.text
    assert "you already have 1 review running" in second.json()["detail"]


def test_a_seats_actions_are_counted_at_the_owner_over_every_process(site: Site) -> None:
    """Issue #27: a seat's sockets on several processes each had a rate of their own."""
    rates = {"COFFEETABLE_ACTIONS_PER_SECOND": "0.05", "COFFEETABLE_ACTION_BURST": "2"}
    owner, other = site.start(2, env=rates)
    created = owner.http.post("/api/tables", json={"game": "espresso", "players": 2})
    assert created.status_code == 200, created.text
    table_id, token = created.json()["table_id"], created.json()["token"]
    bea_token = join(owner, table_id)
    url = f"/ws/tables/{table_id}?token="
    bea = Client(f"{owner.ws_url}{url}{bea_token}")
    ana = [Client(f"{process.ws_url}{url}{token}") for process in (owner, other, other)]
    try:
        for client in (ana[0], bea):
            client.state_until(lambda m: bool(m["legal"]))
            client.act({"type": "ready"})  # Ana's seat: one of its two actions
        for client in ana[1:]:  # relayed: each socket's own rate would let both through
            client.state_until(lambda m: m["view"]["phase"] == "play" and bool(m["legal"]))
            client.act({"type": "flip", "count": 3})
        answers = [
            client.until(lambda m: m["type"] == "rejected" or bool(m.get("yours")))
            for client in ana[1:]
        ]
        assert answers[0]["type"] == "state"
        assert answers[1]["type"] == "rejected"
        assert answers[1]["reason"] == "slow down: at most 0.05 actions a second a seat"
    finally:
        for client in [*ana, bea]:
            client.close()
