"""A remote bot in the arena: a program elsewhere plays a seat over a WebSocket.

``coffeetable arena fika --bots remote:ws://127.0.0.1:8765,greedy`` seats the
policy that ``python -m coffeetable.client.serve mybot:policy --port 8765``
offers (``coffeetable.client.serve``). The arena speaks the table's own
protocol to it, in the other direction: for each decision it sends the seat's
``{"type": "state", "seq", "seat", "view", "legal", "actors", "events": []}``
(after its first, with ``"yours": true``: it holds the last answer) and waits
for ``{"type": "act", "action": ...}``; an answer that is not legal gets
``{"type": "rejected", "reason", "action"}`` and a second chance, then the
arena stops with an error naming the action. The program so sees exactly
what its seat sees at a live table, and a bot's author tries it against ours
before going live.

In real-time Espresso the remote seat reacts with the medium level's human
reaction times (the simulator's clock is virtual: the program's own thinking
time is not counted). Each match opens its own connection (``REMOTE_TIMEOUT``
seconds for an answer).
"""

from __future__ import annotations

import json
import random
import weakref
from contextlib import ExitStack
from typing import Any

from coffeetable import bots as bot_registry
from coffeetable import games
from coffeetable.bots import Bot
from coffeetable.bots.reaction import MEDIUM
from coffeetable.engine import Action, State

PREFIX = "remote:"
#: Seconds to wait for a remote answer.
REMOTE_TIMEOUT = 60.0
#: Refused answers before the arena gives up on the remote bot.
TRIES = 2


class RemoteError(RuntimeError):
    """The remote bot cannot be reached, or keeps answering what is not legal."""


def make_seat(name: str, game: str) -> Bot:
    """The bot called ``name``: ``remote:ws://...`` is a remote one, else the registry's."""
    if name.startswith(PREFIX):
        return RemoteBot(name.removeprefix(PREFIX), game)
    return bot_registry.make(name, game)


class RemoteBot(Bot):
    """A seat played by a program at ``url`` (connected at its first decision)."""

    def __init__(self, url: str, game: str) -> None:
        if not url.startswith(("ws://", "wss://")):
            raise ValueError(f"a remote bot is remote:ws://HOST:PORT, not remote:{url}")
        super().__init__(reaction=MEDIUM.reaction if games.get(game).realtime else None)
        self.name = PREFIX + url
        self.url = url
        self.seq = 0
        self._socket: Any = None

    def _connect(self) -> Any:
        if self._socket is None:
            from websockets.sync.client import connect

            stack = ExitStack()
            try:
                self._socket = stack.enter_context(
                    connect(self.url, open_timeout=REMOTE_TIMEOUT, max_size=None)
                )
            except (OSError, TimeoutError) as error:
                raise RemoteError(
                    f"the remote bot at {self.url} does not answer: {error}"
                ) from None
            weakref.finalize(self, stack.close)
        return self._socket

    def act(self, state: State, seat: int, rng: random.Random) -> Action | None:
        legal = state.legal_actions(seat)
        if not legal:
            return None
        socket = self._connect()
        self.seq += 1
        message = {
            "type": "state",
            "seq": self.seq,
            "seat": seat,
            "view": state.view(seat),
            "legal": legal,
            "actors": state.actors(),
            "events": [],
        }
        if self.seq > 1:  # the match went on past its last answer: this state holds it
            message["yours"] = True
        socket.send(json.dumps(message))
        for _ in range(TRIES + 1):
            action = self._answer(socket)
            if isinstance(action, dict) and action in legal:
                return action
            refusal = {"type": "rejected", "reason": "not a legal action", "action": action}
            socket.send(json.dumps(refusal))
        raise RemoteError(f"the remote bot at {self.url} answered {action!r}: not legal")

    def _answer(self, socket: Any) -> Any:
        """The next ``act`` the remote sends (other messages are skipped)."""
        while True:
            try:
                text = socket.recv(timeout=REMOTE_TIMEOUT)
            except TimeoutError:
                raise RemoteError(f"the remote bot at {self.url} took too long") from None
            except Exception as error:
                raise RemoteError(f"the remote bot at {self.url} went away: {error}") from None
            try:
                message = json.loads(text)
            except ValueError:
                continue
            if isinstance(message, dict) and message.get("type") == "act":
                return message.get("action")
