"""A table is its log: killing the server loses no accepted action."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from coffeetable.engine import replay
from coffeetable.store import Database

from .conftest import TIMEOUT, Client, Message, ServerThread, first_move, server_env

FAST = {"bot_speed": 1000}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class ServerProcess:
    """``python -m coffeetable.cli serve`` as a child process."""

    def __init__(self, database: Path) -> None:
        self.port = free_port()
        self.log_file = database.with_suffix(f".{self.port}.log")
        self._log = self.log_file.open("wb")
        self.database_url = f"sqlite:///{database}"
        command = [sys.executable, "-m", "coffeetable.cli", "serve", "--port", str(self.port)]
        self.process = subprocess.Popen(
            [*command, "--database", self.database_url],
            stdout=subprocess.DEVNULL,
            stderr=self._log,
            env={**server_env(), "PYTHONUNBUFFERED": "1"},
        )
        self.url = f"http://127.0.0.1:{self.port}"
        self.http = httpx.Client(base_url=self.url, timeout=TIMEOUT)
        deadline = time.monotonic() + 60
        while True:
            assert self.process.poll() is None, "the server exited"
            try:
                if self.http.get("/api/games").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)

    def client(self, table_id: str, token: str) -> Client:
        return Client(f"ws://127.0.0.1:{self.port}/ws/tables/{table_id}?token={token}")

    def kill(self) -> None:
        self.http.close()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(TIMEOUT)
        self._log.close()


@pytest.fixture
def processes() -> Iterator[list[ServerProcess]]:
    started: list[ServerProcess] = []
    yield started
    for process in started:
        process.kill()


def normal(value: Any) -> Any:
    return json.loads(json.dumps(value))


def test_sigkill_mid_match_loses_no_accepted_action(
    tmp_path: Path, processes: list[ServerProcess]
) -> None:
    database = tmp_path / "crash.sqlite3"
    first = ServerProcess(database)
    processes.append(first)
    created = first.http.post(
        "/api/tables", json={"game": "espresso", "players": 2, "options": FAST}
    ).json()
    table_id = created["table_id"]
    joined = first.http.post(f"/api/tables/{table_id}/join", json={"name": "Bea"}).json()
    tokens = {0: created["token"], 1: joined["token"]}
    players = {seat: first.client(table_id, token) for seat, token in tokens.items()}
    for player in players.values():
        player.playable()
        player.act({"type": "ready"})
    # Twelve actions one at a time, each acknowledged by its state ...
    expected = 2  # both ready
    for turn in range(12):
        player = players[turn % 2]
        state = player.state_until(lambda m, n=expected: m["seq"] == n and bool(m["legal"]))
        player.act(first_move(state["legal"]))
        reply = player.until(
            lambda m, n=expected: m["type"] == "rejected" or (m["type"] == "state" and m["seq"] > n)
        )
        assert reply["type"] == "state", reply
        expected += 1
    # ... then a burst nobody waits for, and the server is killed in the middle of it.
    for _ in range(5):
        for player in players.values():
            assert player.state is not None
            if player.state["legal"]:
                player.act(first_move(player.state["legal"]))
    time.sleep(0.05)
    first.kill()
    seen: dict[int, dict[int, Message]] = {seat: {} for seat in players}
    for seat, player in players.items():
        try:
            while True:
                player.recv(timeout=1)
        except Exception:
            pass  # the connection is gone
        for message in player.messages:
            if message["type"] == "state":
                seen[seat][message["seq"]] = message["view"]
        player.close()

    database_view = Database(f"sqlite:///{database}")
    with database_view.engine.connect() as conn:
        record = database_view.load(conn, table_id)
    database_view.close()
    assert record is not None
    acknowledged = max(max(views) for views in seen.values())
    assert acknowledged >= 14  # two ready, twelve turns
    assert len(record.actions) >= acknowledged
    for seat, views in seen.items():  # every state a player saw is the log's prefix
        for seq, view in views.items():
            state = replay("espresso", 2, record.seed, record.actions[:seq], record.options)
            assert normal(state.view(seat)) == view, (seat, seq)

    second = ServerProcess(database)
    processes.append(second)
    final = replay("espresso", 2, record.seed, record.actions, record.options)
    for seat, token in tokens.items():
        player = second.client(table_id, token)
        state = player.until(lambda m: m["type"] == "state")
        assert state["seq"] == len(record.actions)
        assert state["view"] == normal(final.view(seat))
        assert state["view"]["seat"] == seat
        players[seat] = player
    logs = first.log_file.read_text() + second.log_file.read_text()
    assert "token=***" in logs  # uvicorn logs the WebSocket paths ...
    assert not any(token in logs for token in tokens.values())  # ... never a token
    ada = players[0]
    state = ada.playable()
    ada.act(first_move(state["legal"]))
    after = ada.until(lambda m: m["type"] == "state" and m["seq"] > state["seq"])
    assert after["seq"] == state["seq"] + 1
    for player in players.values():
        player.close()


def test_a_graceful_restart_resumes_seats_and_bots(
    start_server: Callable[..., ServerThread],
) -> None:
    server = start_server()
    created = server.create(players=2, bots={"1": "random"}, options=FAST)
    table_id = created["table_id"]
    server.stop()

    server = start_server()
    summary = server.summary(table_id)
    assert summary["status"] == "running"
    assert summary["seats"][1]["bot"] == "random"
    ada = server.client(table_id, created["token"])
    try:
        ada.playable()
        ada.act({"type": "ready"})
        ada.event_until(lambda e: e["type"] == "round_started")
        ada.event_until(lambda e: e.get("seat") == 1)
    finally:
        ada.close()
