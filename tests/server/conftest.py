"""Fixtures for the server tests: a real uvicorn server on loopback, and clients.

The server runs in a thread of the test process (so tests can adjust module
constants, or pass their own ``Limits`` to ``start_server``) or, for the crash
test, as a subprocess. Clients are synchronous: ``httpx`` and
``websockets.sync``. Every wait polls with a generous timeout; nothing asserts
on speed.
"""

from __future__ import annotations

import json
import os
import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, suppress
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from coffeetable import games
from coffeetable.engine import Game, IllegalAction, Option, State
from coffeetable.server import create_app
from coffeetable.server.limits import Limits

TIMEOUT = 20.0
#: The password of the accounts the tests sign up.
BROWSER_PASSWORD = "correct horse battery"
Message = dict[str, Any]
#: Test servers let bots play fast, one address open many tables and sockets,
#: and test clients (programs, not people) act as fast as states arrive; the
#: limit tests pass their own ``Limits``.
TEST_LIMITS = Limits(
    max_bot_speed=10_000,
    tables_per_minute=10_000,
    open_tables_per_client=10_000,
    sockets_per_client=10_000,
    messages_per_second=100_000,
    message_burst=100_000,
    actions_per_second=100_000,
    action_burst=100_000,
    address_actions_per_second=100_000,
    address_action_burst=100_000,
)
#: uvicorn's hard cap on a WebSocket message, as ``coffeetable serve`` sets it.
WS_MAX_SIZE = 1 << 20


def server_env() -> dict[str, str]:
    """The environment for a ``coffeetable serve`` child process with ``TEST_LIMITS``."""
    env = dict(os.environ)
    for name in (
        "max_bot_speed",
        "tables_per_minute",
        "open_tables_per_client",
        "sockets_per_client",
        "messages_per_second",
        "message_burst",
        "actions_per_second",
        "action_burst",
        "address_actions_per_second",
        "address_action_burst",
    ):
        env[f"COFFEETABLE_{name.upper()}"] = str(getattr(TEST_LIMITS, name))
    return env


def announce_frame(client: Client, length: int) -> None:
    """Write only the header of a masked text frame of ``length`` bytes (RFC 6455, 5.2).

    The server refuses an oversize frame on its header. Writing the whole payload races
    its close: the client's write fails and drops the close frame it was sent (seen in CI
    under load), so a test of the close code writes the header alone.
    """
    client.ws.socket.sendall(bytes([0x81, 0x80 | 127]) + length.to_bytes(8, "big") + bytes(4))


class ServerThread:
    """``create_app`` served by uvicorn on 127.0.0.1 (a free port) in a thread."""

    def __init__(
        self, database: Path | str, allow_seed: bool = True, limits: Limits = TEST_LIMITS
    ) -> None:
        """``database``: a SQLite file, or any SQLAlchemy URL (PostgreSQL)."""
        self.database_url = database if isinstance(database, str) else f"sqlite:///{database}"
        app = create_app(self.database_url, allow_seed=allow_seed, limits=limits)
        # As ``coffeetable serve``: no permessage-deflate (small frames; it costs CPU).
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=0,
            log_level="warning",
            ws_max_size=WS_MAX_SIZE,
            ws_per_message_deflate=False,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + TIMEOUT
        while not self.server.started:
            assert self.thread.is_alive(), "the server did not start"
            assert time.monotonic() < deadline, "the server took too long to start"
            time.sleep(0.01)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        self.ws_url = f"ws://127.0.0.1:{port}"
        self.http = httpx.Client(base_url=self.url, timeout=TIMEOUT)

    def stop(self) -> None:
        self.http.close()
        self.server.should_exit = True
        self.thread.join(TIMEOUT)

    # -- shortcuts ------------------------------------------------------------

    def create(self, game: str = "espresso", players: int = 2, **body: Any) -> Message:
        response = self.http.post("/api/tables", json={"game": game, "players": players, **body})
        assert response.status_code == 200, response.text
        result: Message = response.json()
        return result

    def join(self, table_id: str, name: str = "Bea") -> Message:
        response = self.http.post(f"/api/tables/{table_id}/join", json={"name": name})
        assert response.status_code == 200, response.text
        result: Message = response.json()
        return result

    def summary(self, table_id: str) -> Message:
        response = self.http.get(f"/api/tables/{table_id}")
        assert response.status_code == 200, response.text
        result: Message = response.json()
        return result

    def client(self, table_id: str, token: str | None = None) -> Client:
        url = f"{self.ws_url}/ws/tables/{table_id}"
        return Client(url + (f"?token={token}" if token else ""))


class Client:
    """A WebSocket client that records every message it receives."""

    def __init__(
        self, url: str, origin: str | None = None, headers: dict[str, str] | None = None
    ) -> None:
        """``origin``: the Origin header a browser page would send (None: none, as a
        program sends); ``headers``: more of them (a session ``Cookie``)."""
        self._exit = ExitStack()
        self.ws: ClientConnection = self._exit.enter_context(
            connect(
                url,
                origin=None if origin is None else Origin(origin),
                additional_headers=headers,
                open_timeout=TIMEOUT,
                max_size=None,
                max_queue=None,
            )
        )
        self.messages: list[Message] = []
        self.state: Message | None = None

    def recv(self, timeout: float = TIMEOUT) -> Message:
        message: Message = json.loads(self.ws.recv(timeout=timeout))
        self.messages.append(message)
        if message.get("type") == "state":
            self.state = message
        return message

    def until(self, test: Callable[[Message], bool], timeout: float = TIMEOUT) -> Message:
        """Read messages until one passes ``test``; return it."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no such message; the last ones: {self.messages[-5:]}")
            try:
                message = self.recv(timeout=left)
            except TimeoutError:
                continue
            if test(message):
                return message

    def state_until(self, test: Callable[[Message], bool], timeout: float = TIMEOUT) -> Message:
        """Read until a state message passes ``test`` (the current one counts)."""
        if self.state is not None and test(self.state):
            return self.state
        return self.until(lambda m: m["type"] == "state" and test(m), timeout)

    def event_until(self, test: Callable[[Message], bool], timeout: float = TIMEOUT) -> Message:
        """Read until a state carries an event passing ``test`` (events ride in states,
        ``"events"``); return that event."""
        found = self.until(lambda m: event_in(m, test) is not None, timeout)
        event = event_in(found, test)
        assert event is not None
        return event

    def event_since(
        self, start: int, test: Callable[[Message], bool], timeout: float = TIMEOUT
    ) -> Message:
        """``event_until``, the messages already read from ``messages[start]`` on included
        (an event that came while the test waited for something else counts)."""
        for message in self.messages[start:]:
            event = event_in(message, test)
            if event is not None:
                return event
        return self.event_until(test, timeout)

    def playable(self, timeout: float = TIMEOUT) -> Message:
        """Wait for a state that offers this seat something to do."""
        return self.state_until(lambda m: bool(m["legal"]), timeout)

    def send(self, message: Any) -> None:
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def act(self, action: Message) -> None:
        self.send({"type": "act", "action": action})

    def close(self) -> None:
        self._exit.close()


def event_in(message: Message, test: Callable[[Message], bool]) -> Message | None:
    """The first event ``message`` (a state) carries that passes ``test``, or None."""
    if message.get("type") != "state":
        return None
    return next((event for event in message["events"] if test(event)), None)


class Browser:
    """One person's browser: an httpx client with a cookie jar, and sockets with it."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.http = httpx.Client(base_url=url, timeout=TIMEOUT)

    def sign_up(self, username: str, **body: Any) -> httpx.Response:
        response = self.http.post(
            "/api/auth/register", json={"username": username, "password": BROWSER_PASSWORD, **body}
        )
        assert response.status_code == 200, response.text
        return response

    def sign_in(self, username: str) -> None:
        response = self.http.post(
            "/api/auth/login", json={"username": username, "password": BROWSER_PASSWORD}
        )
        assert response.status_code == 200, response.text

    def socket(self, table_id: str, query: str = "") -> Client:
        cookie = "; ".join(f"{name}={value}" for name, value in self.http.cookies.items())
        ws_url = self.url.replace("http://", "ws://") + f"/ws/tables/{table_id}{query}"
        return Client(ws_url, headers={"Cookie": cookie} if cookie else None)

    def close(self) -> None:
        self.http.close()


@pytest.fixture
def browsers() -> Iterator[Callable[[str], Browser]]:
    made: list[Browser] = []

    def make(url: str) -> Browser:
        browser = Browser(url)
        made.append(browser)
        return browser

    yield make
    for browser in made:
        browser.close()


@pytest.fixture
def start_server(tmp_path: Path) -> Iterator[Callable[..., ServerThread]]:
    """Start servers on a database in ``tmp_path`` (restartable); all stopped afterwards."""
    servers: list[ServerThread] = []

    def start(
        allow_seed: bool = True, database: Path | str | None = None, limits: Limits = TEST_LIMITS
    ) -> ServerThread:
        server = ServerThread(database or tmp_path / "tables.sqlite3", allow_seed, limits)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def server(
    request: pytest.FixtureRequest, start_server: Callable[..., ServerThread]
) -> ServerThread:
    """A server on SQLite; then the same test on PostgreSQL (an emptied schema; skipped,
    saying why, without one; required in CI)."""
    if request.param == "postgresql":
        from tests.players.conftest import postgres_url

        return start_server(database=postgres_url())
    return start_server()


@pytest.fixture
def clients() -> Iterator[list[Client]]:
    """A list the test appends its clients to; all closed afterwards."""
    opened: list[Client] = []
    yield opened
    for client in opened:
        with suppress(Exception):
            client.close()


def first_move(legal: list[Message]) -> Message:
    """The first play if any, else the first legal action (flip, recycle, ready)."""
    plays = [action for action in legal if action["type"] in ("play", "joker")]
    return (plays or legal)[0]


# -- a throwaway turn-based game, to show the server is game-agnostic ---------


class SugarState(State):
    """Sugar: players take 1-3 cubes in turn; whoever takes the last one wins."""

    def __init__(self, game: Game, players: int, cubes: int) -> None:
        self.game, self.players = game, players
        self.cubes, self.turn = cubes, 0
        self.taken_by: int | None = None

    def actors(self) -> list[int]:
        return [] if self.is_over else [self.turn]

    def legal_actions(self, seat: int) -> list[Message]:
        if seat != self.turn or self.is_over:
            return []
        return [{"type": "take", "n": n} for n in (1, 2, 3) if n <= self.cubes]

    def apply(self, seat: int | None, action: Any) -> list[Message]:
        if seat is None or action not in self.legal_actions(seat):
            raise IllegalAction("not your turn, or not that many cubes")
        self.cubes -= action["n"]
        self.taken_by = seat
        self.turn = (seat + 1) % self.players
        return [{"type": "took", "seat": seat, "n": action["n"]}]

    def view(self, seat: int | None) -> Message:
        return {"cubes": self.cubes, "turn": self.turn, "seat": seat}

    @property
    def is_over(self) -> bool:
        return self.cubes == 0

    @property
    def scores(self) -> list[int]:
        return [int(seat in self.winners) for seat in range(self.players)]

    @property
    def winners(self) -> list[int]:
        return [self.taken_by] if self.is_over and self.taken_by is not None else []

    @property
    def round(self) -> int:
        return 1

    def clone(self) -> SugarState:
        other = SugarState(self.game, self.players, self.cubes)
        other.turn, other.taken_by = self.turn, self.taken_by
        return other

    def determinize(self, seat: int, rng: random.Random) -> SugarState:
        return self.clone()


class SugarGame(Game):
    name, title, min_players, max_players = "sugar", "Sugar", 2, 4
    options = (Option("cubes", 10, "cubes on the table", None, 1, 100),)

    def new_state(self, players: int, seed: int = 0, **options: Any) -> SugarState:
        self.check_players(players)
        return SugarState(self, players, self.resolve_options(options)["cubes"])


@pytest.fixture
def sugar(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Register Sugar for the test (the in-thread server shares the registry)."""
    monkeypatch.setitem(games._FACTORIES, "sugar", SugarGame)
    monkeypatch.setitem(games._CACHE, "sugar", SugarGame())
    yield "sugar"
