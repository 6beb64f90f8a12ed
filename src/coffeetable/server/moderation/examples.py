"""Example requests and answers of the moderation routes, for the OpenAPI document
(``api/openapi.py`` adds them: (method, path) -> (request body or None, answer))."""

from __future__ import annotations

from typing import Any

_LINE = {
    "id": 812,
    "at": 1796129041.9,
    "channel": "players",
    "seat": 1,
    "name": "mallory",
    "text": "you are all terrible",
    "phrase": None,
}

_REPORT = {
    "id": 7,
    "reporter": "ana",
    "reported": "mallory",
    "reason": "chat",
    "text": "insults after every round",
    "table_id": "YHVKbgxc",
    "chat_id": 812,
    "chat": [{**_LINE, "id": 811, "seat": 0, "name": "ana", "text": "gg"}, _LINE],
    "created": 1796129100.0,
    "status": "open",
}

EXAMPLES: dict[tuple[str, str], tuple[Any, Any]] = {
    ("post", "/api/reports"): (
        {
            "username": "mallory",
            "reason": "chat",
            "text": "insults after every round",
            "table_id": "YHVKbgxc",
            "chat_id": 812,
        },
        {"id": 7, "status": "open"},
    ),
    ("get", "/api/moderation/reports"): (None, {"reports": [_REPORT]}),
    ("post", "/api/moderation/reports/{report_id}"): (
        {"action": "mute", "hours": 24, "why": "insults in chat"},
        {"id": 7, "status": "mute"},
    ),
    ("get", "/api/moderation/log"): (
        None,
        {
            "entries": [
                {
                    "id": 3,
                    "moderator": "bea",
                    "player": "mallory",
                    "action": "mute",
                    "report_id": 7,
                    "hours": 24,
                    "why": "insults in chat",
                    "at": 1796129400.0,
                }
            ],
            "next": None,
        },
    ),
}
