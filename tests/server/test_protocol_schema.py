"""The table socket's served protocol (``GET /api/protocol``, AsyncAPI 3.0) against real
matches of every game: every message sent and received over the socket is valid
against its JSON Schema, and every action against its game's, so the document cannot
drift from the code."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from coffeetable import bots, games

from .conftest import Client, Message, ServerThread

#: Each game at a table of two: fast bots; a short Espresso match.
FAST = {"bot_speed": 1000}
OPTIONS = {"espresso": {**FAST, "target": 15}}


class Protocol:
    """The served document, and a check of messages against it."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        self.checked: dict[str, int] = {}

    def validator(self, name: str) -> Draft202012Validator:
        schema = {"$ref": f"#/components/schemas/{name}", "components": self.document["components"]}
        return Draft202012Validator(schema)

    def check(self, message: Any, side: str, game: str) -> None:
        """``message`` is a valid ``side`` (``ServerMessage``/``ClientMessage``), and so
        are the game's actions in it (but the nonsense the test sends on purpose)."""
        errors = list(self.validator(side).iter_errors(message))
        assert not errors, f"{side} {json.dumps(message)[:400]}: {errors[0].message}"
        actions = self.validator(f"Action_{game}")
        sent = [message["action"]] if message["type"] == "act" else []
        for action in message.get("legal", []) + [a for a in sent if a["type"] != "nonsense"]:
            problems = list(actions.iter_errors(action))
            assert not problems, f"{game} action {action}: {problems[0].message}"
        key = f"{side}:{message['type']}"
        self.checked[key] = self.checked.get(key, 0) + 1


class RecordingClient(Client):
    """A client that also keeps every message it sent."""

    def __init__(self, url: str, **kwargs: Any) -> None:
        super().__init__(url, **kwargs)
        self.sent: list[Message] = []

    def send(self, message: Any) -> None:
        if not isinstance(message, str):
            self.sent.append(message)
        super().send(message)


def play_to_the_end(player: RecordingClient) -> None:
    """Answer the newest state that offers something (its first action, never an undo;
    after a refusal, the next one), naming its seq, one answer in flight at a time, until
    the table says the match is over."""
    state: Message | None = player.state  # the newest state read so far
    answered, in_flight, tries = None, False, 0
    while True:
        if state is not None and not in_flight and state["legal"] and state["seq"] != answered:
            choices = [a for a in state["legal"] if a["type"] != "undo"] or state["legal"]
            action = choices[tries % len(choices)]
            player.send({"type": "act", "action": action, "seq": state["seq"]})
            answered, in_flight = state["seq"], True
        message = player.recv()
        kind = message["type"]
        if kind == "table" and message["table"]["status"] == "over":
            return
        if kind == "state":
            state = message
            in_flight = in_flight and not message.get("yours")
        elif kind == "rejected" and message.get("action", {}).get("type") != "nonsense":
            in_flight, answered, tries = False, None, tries + 1


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Any:
    server = ServerThread(tmp_path_factory.mktemp("protocol") / "t.sqlite3")
    yield server
    server.stop()


@pytest.fixture(scope="module")
def protocol(site: ServerThread) -> Protocol:
    served = site.http.get("/api/protocol")
    assert served.status_code == 200
    document = served.json()
    assert document["asyncapi"].startswith("3.")
    Draft202012Validator.check_schema({"components": document["components"]})
    # linked from the OpenAPI document
    assert site.http.get("/openapi.json").json()["externalDocs"]["url"] == "/api/protocol"
    return Protocol(document)


@pytest.mark.parametrize("game", games.names())
def test_every_message_of_a_real_match_is_as_the_protocol_says(
    site: ServerThread, protocol: Protocol, game: str
) -> None:
    bot = "greedy" if "greedy" in bots.available(game) else "random"
    created = site.create(game, 2, bots={"1": bot}, options=OPTIONS.get(game, FAST))
    table_id, token = created["table_id"], created["token"]
    url = f"{site.ws_url}/ws/tables/{table_id}"
    player = RecordingClient(f"{url}?token={token}")
    watcher = RecordingClient(url)
    try:
        first = player.until(lambda m: m["type"] == "state")
        # What a program meets besides the match: pong, chat, errors and refusals.
        player.send({"type": "ping"})
        player.send({"type": "chat", "text": "hello"})
        player.send({"type": "chat", "phrase": "gg"})
        player.send({"type": "chat_mute", "channel": "spectators", "muted": True})
        player.send({"type": "dance"})  # an error (not a ClientMessage: left unchecked)
        player.send({"type": "act", "action": {"type": "nonsense"}, "seq": first["seq"]})
        player.send({"type": "act", "action": {"type": "nonsense"}, "seq": 10_000})
        watcher.send({"type": "act", "action": {"type": "nonsense"}})
        play_to_the_end(player)
        rematch = site.http.post(f"/api/tables/{table_id}/rematch", json={"token": token})
        assert rematch.status_code == 200, rematch.text
        watcher.until(lambda m: m["type"] == "rematch")
        player.until(lambda m: m["type"] == "rematch")
    finally:
        player.close()
        watcher.close()
    for client in (player, watcher):
        for message in client.messages:
            protocol.check(message, "ServerMessage", game)
        for message in client.sent:
            if message["type"] != "dance":
                protocol.check(message, "ClientMessage", game)
    kinds = {key.split(":")[1] for key in protocol.checked if key.startswith("ServerMessage")}
    expected = {"table", "history", "chat_history", "state", "pong", "chat", "error"}
    assert expected | {"rejected", "rematch"} <= kinds, kinds
    codes = {m.get("code") for m in player.messages + watcher.messages if m["type"] == "rejected"}
    assert {"illegal", "stale_seq", "spectator"} <= codes, codes


def test_the_protocol_refuses_what_the_server_never_sends(protocol: Protocol) -> None:
    """The schemas are strict: an unknown key, a missing code or an unknown one fails."""
    server: Callable[[Message], list[Any]] = lambda m: list(  # noqa: E731
        protocol.validator("ServerMessage").iter_errors(m)
    )
    assert not server({"type": "rejected", "reason": "too slow", "code": "too_slow"})
    assert server({"type": "rejected", "reason": "too slow"})  # no code
    assert server({"type": "rejected", "reason": "no", "code": "maybe"})
    assert server({"type": "pong", "extra": 1})
    assert server({"type": "error", "reason": "x", "code": "rate", "retry_after": 0})
