"""A site of several ``coffeetable serve`` processes on one PostgreSQL and one Redis.

For the multi-process tests (``test_cluster.py``): each site gets a database of
its own (created, then dropped) and a Redis key prefix of its own, so that
nothing else on the same servers is seen or disturbed.
"""

from __future__ import annotations

import json
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa
from websockets.exceptions import ConnectionClosed

from tests.conftest import service_url

from .conftest import TIMEOUT, Client, server_env
from .test_restart import free_port

POSTGRES_ENV = "COFFEETABLE_TEST_POSTGRES_URL"
REDIS_ENV = "COFFEETABLE_TEST_REDIS_URL"
#: Short leases, so that a killed process is replaced within seconds.
LEASE_SECONDS = 2.0
Message = dict[str, Any]


class Process:
    """One ``coffeetable serve`` child process of the site."""

    def __init__(
        self, site: Site, port: int | None = None, env: dict[str, str] | None = None
    ) -> None:
        self.site = site
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.log_file = site.folder / f"serve.{self.port}.log"
        command = [sys.executable, "-m", "coffeetable.cli", "serve", "--port", str(self.port)]
        command += ["--database", site.database_url, "--redis", site.redis_url]
        env = {
            **server_env(),
            "PYTHONUNBUFFERED": "1",
            "COFFEETABLE_REDIS_PREFIX": site.prefix,
            "COFFEETABLE_LEASE_SECONDS": str(LEASE_SECONDS),
            "COFFEETABLE_REVIEW_ITERATIONS": "24",  # small searches: a review in seconds
            **(env or {}),
        }
        with self.log_file.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=log, env=env)
        self.http = httpx.Client(base_url=self.url, timeout=TIMEOUT)
        deadline = time.monotonic() + 60
        while True:
            assert self.process.poll() is None, f"the server exited: {self.log()[-2000:]}"
            try:
                response = self.http.get("/api/health")
                if response.status_code == 200:
                    self.name: str = response.json()["process"]
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)

    def log(self) -> str:
        return self.log_file.read_text(errors="replace")

    def kill(self) -> None:
        """kill -9: no handover."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(TIMEOUT)
        self.http.close()

    def terminate(self) -> None:
        """SIGTERM: a graceful shutdown that hands its tables over."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        self.process.wait(TIMEOUT)
        self.http.close()


class Site:
    """The processes of one site, its database and its Redis prefix."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        base = service_url(POSTGRES_ENV, "PostgreSQL")
        self.redis_url = service_url(REDIS_ENV, "Redis")
        self.prefix = f"test-{secrets.token_hex(4)}"
        self._database = f"coffeetable_cluster_{secrets.token_hex(4)}"
        self._admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
        with self._admin.connect() as conn:
            conn.execute(sa.text(f'CREATE DATABASE "{self._database}"'))
        self.database_url = base.rsplit("/", 1)[0] + f"/{self._database}"
        self.processes: list[Process] = []

    def start(self, count: int = 1, env: dict[str, str] | None = None) -> list[Process]:
        """Start ``count`` processes (``env``: more environment, e.g. limits)."""
        started = [Process(self, env=env) for _ in range(count)]
        self.processes += started
        return started

    def replace(self, process: Process) -> Process:
        """Start a process again on the same port (after ``terminate`` or ``kill``)."""
        index = self.processes.index(process)
        self.processes[index] = Process(self, process.port)
        return self.processes[index]

    def close(self) -> None:
        for process in self.processes:
            process.terminate()  # a graceful stop also ends its review worker processes
        with self._admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{self._database}" WITH (FORCE)'))
        self._admin.dispose()
        import redis

        client = redis.Redis.from_url(self.redis_url)
        keys = list(client.scan_iter(f"{self.prefix}:*"))
        if keys:
            client.delete(*keys)
        client.close()


class Player:
    """A seat's client that reconnects, to the next process, whenever its socket closes
    (as the pages do); it remembers every state it was sent."""

    def __init__(self, urls: list[str], table_id: str, token: str | None, first: int = 0) -> None:
        self.urls, self.table_id, self.token = urls, table_id, token
        self.turn = first
        self.states: list[Message] = []
        self.messages: list[Message] = []
        self.reconnects = 0
        #: The seq of the state this player last acted on (once per state).
        self.acted_on: int | None = None
        self.client = self._connect()

    def _connect(self) -> Client:
        deadline = time.monotonic() + 30
        while True:
            url = self.urls[self.turn % len(self.urls)]
            query = f"?token={self.token}" if self.token else ""
            try:
                return Client(f"{url}/ws/tables/{self.table_id}{query}")
            except (OSError, ConnectionClosed, TimeoutError):
                self.turn += 1
                assert time.monotonic() < deadline, "no process took the connection"
                time.sleep(0.2)

    def reconnect(self) -> None:
        self.client.close()
        self.turn += 1
        self.reconnects += 1
        self.acted_on = None  # an action lost with its socket may be played again
        self.client = self._connect()

    def read(self, timeout: float = 0.05) -> None:
        """Read what has come (reconnecting if the socket closed)."""
        while True:
            try:
                message = self.client.recv(timeout=timeout)
            except TimeoutError:
                return
            except (ConnectionClosed, OSError):
                self.reconnect()
                continue
            self.messages.append(message)
            if message["type"] == "state":
                self.states.append(message)

    @property
    def state(self) -> Message | None:
        return self.states[-1] if self.states else None

    def over(self) -> bool:
        return any(
            m["type"] == "table" and m["table"]["status"] in ("over", "abandoned")
            for m in self.messages[-8:]
        )

    def act(self, action: Message, seq: int) -> None:
        try:
            self.client.send({"type": "act", "action": action, "seq": seq})
        except (ConnectionClosed, OSError):
            self.reconnect()

    def close(self) -> None:
        self.client.close()


def play_round(players: list[Player], rng: Any) -> bool:
    """Each player offered a move plays a random one; False once the match is over."""
    for player in players:
        player.read()
    if all(p.over() for p in players if p.token is not None):
        return False
    for player in players:
        state = player.state
        playable = state and state["legal"] and state["seat"] in state["actors"]
        if state and playable and player.acted_on != state["seq"]:
            player.acted_on = state["seq"]
            player.act(rng.choice(state["legal"]), state["seq"])
    return True


def summaries(process: Process, table_id: str) -> Message:
    response = process.http.get(f"/api/tables/{table_id}")
    assert response.status_code == 200, response.text
    summary: Message = response.json()
    return summary


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def sites(folder: Path) -> Iterator[Site]:
    site = Site(folder)
    try:
        yield site
    finally:
        site.close()
