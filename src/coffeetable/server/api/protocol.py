"""The table socket's protocol, machine-readable: an AsyncAPI 3.0 document whose
``components.schemas`` are the JSON Schemas (2020-12) of every message either side
sends, served at ``GET /api/protocol`` and linked from the OpenAPI document.

``ServerMessage`` is any message the server sends, ``ClientMessage`` any it takes;
each message type has a schema of its own (``StateMessage``, ``RejectedMessage``,
...). The summary in ``table`` is the HTTP API's ``TableSummary`` (``schemas.py``);
an action (``legal``'s items, ``act``'s ``action``) is the game's own, each game's
schema given as ``Action_<game>`` (as ``GET /api/games`` lists it). The schemas
forbid keys they do not name, and the tests play real matches of every game over
the socket and check every message both ways against this document, so it cannot
drift from the code.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from pydantic.json_schema import models_json_schema

import coffeetable
from coffeetable import games
from coffeetable.server.api.schemas import Clock, Days, SeatSummary, TableSummary
from coffeetable.server.tables import wire
from coffeetable.server.tables.chat import PHRASES
from coffeetable.server.tables.connections import OFFERS_KEPT

REF = "#/components/schemas/{model}"
Schema = dict[str, Any]


def _ref(name: str) -> Schema:
    return {"$ref": REF.format(model=name)}


def _message(
    kind: str, description: str, required: Schema, optional: Schema | None = None
) -> Schema:
    """An object with ``"type": kind``, these properties required, and no others."""
    properties = {"type": {"const": kind}, **required, **(optional or {})}
    return {
        "type": "object",
        "description": description,
        "properties": properties,
        "required": ["type", *required],
        "additionalProperties": False,
    }


_INT = {"type": "integer"}
_SEAT = {"type": "integer", "minimum": 0}
_TEXT = {"type": "string"}
_EVENT = {
    "type": "object",
    "description": "a public event of the game (its rules' own dicts), or the table's"
    ' ({"type": "countdown", "seconds"}, {"type": "clock", "seat", "expired": true},'
    ' {"type": "days", "seat", "expired": true}, {"type": "days", "seat", "expelled": true})',
    "properties": {"type": {"type": "string"}},
    "required": ["type"],
}
_ACTION = {
    "type": "object",
    "description": "one of the game's actions: Action_<game> (GET /api/games, action_schema)",
    "properties": {"type": {"type": "string"}},
    "required": ["type"],
}
_CHAT = {
    "type": "object",
    "properties": {
        "id": _INT,
        "at": {"type": "number", "description": "seconds since the epoch"},
        "channel": {"enum": ["players", "spectators"]},
        "seat": {"type": ["integer", "null"]},
        "name": _TEXT,
        "text": {"type": ["string", "null"]},
        "phrase": {"type": ["string", "null"], "enum": [*PHRASES, None]},
    },
    "required": ["id", "at", "channel", "seat", "name", "text", "phrase"],
    "additionalProperties": False,
}
_RETRY = {"type": "number", "exclusiveMinimum": 0, "description": "seconds to wait first"}

SERVER_MESSAGES: dict[str, Schema] = {
    "TableMessage": _message(
        "table",
        "on connect and whenever seats or status change",
        {"table": _ref("TableSummary")},
    ),
    "HistoryMessage": _message(
        "history",
        "on connect: the match's last public events",
        {"events": {"type": "array", "items": _ref("Event")}},
    ),
    "ChatHistoryMessage": _message(
        "chat_history",
        "on connect: the table's last chat messages",
        {"messages": {"type": "array", "items": _ref("ChatEntry")}},
    ),
    "StateMessage": _message(
        "state",
        "on connect and after every change: what this socket's seat sees and may do",
        {
            "seq": {"type": "integer", "minimum": 0, "description": "accepted actions so far"},
            "seat": {"type": ["integer", "null"], "minimum": 0, "description": "null: watching"},
            "view": {"type": "object", "description": "the game's view for this seat"},
            "legal": {"type": "array", "items": _ref("Action")},
            "actors": {"type": "array", "items": _SEAT},
            "events": {"type": "array", "items": _ref("Event")},
        },
        {
            "clock": _ref("Clock"),
            "days": _ref("Days"),
            "yours": {"const": True, "description": "it holds the action this socket sent"},
        },
    ),
    "RejectedMessage": _message(
        "rejected",
        "an action refused; nothing changed",
        {"reason": _TEXT, "code": {"enum": list(wire.REJECTED_CODES)}},
        {"action": {"description": "the action refused (left out if it cannot be encoded)"}},
    ),
    "ErrorMessage": _message(
        "error",
        "a message refused (nothing changed), or why the socket is about to close",
        {"reason": _TEXT, "code": {"enum": list(wire.ERROR_CODES)}},
        {"retry_after": _RETRY},
    ),
    "PongMessage": _message("pong", "the answer to a ping", {}),
    "ChatMessage": _message("chat", "someone said something", {"message": _ref("ChatEntry")}),
    "RematchMessage": _message(
        "rematch",
        "after the match: how a rematch stands",
        {
            "accepted": {"type": "array", "items": _SEAT},
            "waiting": {"type": "array", "items": _SEAT},
            "table_id": {"type": ["string", "null"], "description": "the new table, once dealt"},
        },
    ),
}
SERVER_MESSAGES["RejectedMessage"]["properties"]["retry_after"] = _RETRY

CLIENT_MESSAGES: dict[str, Schema] = {
    "ActMessage": _message(
        "act",
        "play an action for the socket's seat",
        {"action": _ref("Action")},
        {
            "seq": {
                "type": "integer",
                "description": f"the state decided on: one of the last {OFFERS_KEPT} sent"
                " (without it: the last one)",
            }
        },
    ),
    "PingMessage": _message("ping", "asks for a pong", {}),
    "SayMessage": {
        "oneOf": [
            _message("chat", "say something", {"text": {"type": "string", "minLength": 1}}),
            _message("chat", "say a quick phrase", {"phrase": {"enum": list(PHRASES)}}),
        ]
    },
    "ChatMuteMessage": _message(
        "chat_mute",
        "hide (or show again) a chat channel from this socket: the server stops (or resumes)"
        " sending it, and answers with the chat history as the socket now sees it",
        {"channel": {"enum": ["spectators"]}},
        {"muted": {"type": "boolean", "description": "true (the default) hides the channel"}},
    ),
}


def _game_actions() -> dict[str, Schema]:
    """Each game's action schema, as ``Action_<game>``."""
    return {f"Action_{name}": games.get(name).describe()["action_schema"] for name in games.names()}


@cache
def document() -> dict[str, Any]:
    """The AsyncAPI 3.0 document of the table socket."""
    _, models = models_json_schema(
        [(model, "serialization") for model in (TableSummary, SeatSummary, Clock, Days)],
        ref_template=REF,
    )
    schemas: dict[str, Schema] = {
        **models.get("$defs", {}),
        "Event": _EVENT,
        "Action": _ACTION,
        "ChatEntry": _CHAT,
        **SERVER_MESSAGES,
        **CLIENT_MESSAGES,
        "ServerMessage": {"oneOf": [_ref(name) for name in SERVER_MESSAGES]},
        "ClientMessage": {"oneOf": [_ref(name) for name in CLIENT_MESSAGES]},
        **_game_actions(),
    }
    messages = {
        name: {"name": name, "payload": _ref(name), "contentType": "application/json"}
        for name in (*SERVER_MESSAGES, *CLIENT_MESSAGES)
    }
    channel = "#/channels/table"
    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "Coffee Table: the table socket",
            "version": coffeetable.__version__,
            "description": "JSON text frames, one message each (docs/bots.md). The socket's"
            " seat comes from ?token=, a session cookie, or a bot's API key"
            " (Authorization: Bearer) in the handshake.",
        },
        "channels": {
            "table": {
                "address": "/ws/tables/{table_id}",
                "parameters": {"table_id": {"description": "the table's id"}},
                "messages": {name: {"$ref": f"#/components/messages/{name}"} for name in messages},
            }
        },
        "operations": {
            "receiveFromServer": {
                "action": "receive",
                "channel": {"$ref": channel},
                "messages": [{"$ref": f"{channel}/messages/{name}"} for name in SERVER_MESSAGES],
            },
            "sendToServer": {
                "action": "send",
                "channel": {"$ref": channel},
                "messages": [{"$ref": f"{channel}/messages/{name}"} for name in CLIENT_MESSAGES],
            },
        },
        "components": {"schemas": schemas, "messages": messages},
    }
