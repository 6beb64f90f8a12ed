"""Example requests and answers of the social routes, for the OpenAPI document
(``api/openapi.py`` adds them: (method, path) -> (request body or None, answer))."""

from __future__ import annotations

from typing import Any

_NOTICE = {
    "id": 41,
    "kind": "match_over",
    "at": 1796129041.9,
    "table_id": "YHVKbgxc",
    "data": {"title": "Fika", "result": "won", "score": 12},
    "read": False,
}

_MAIL = {
    "email": "ana@example.org",
    "verified": True,
    "notify": ["friend_request", "invited", "match_over", "your_turn"],
    "mail": True,
}

EXAMPLES: dict[tuple[str, str], tuple[Any, Any]] = {
    ("get", "/api/notifications"): (
        None,
        {
            "notifications": [
                _NOTICE,
                {**_NOTICE, "id": 40, "kind": "your_turn", "data": {"title": "Fika"}},
            ],
            "unread": 2,
            "next": 40,
        },
    ),
    ("post", "/api/notifications/read"): ({"ids": [40, 41]}, {"read": 2, "unread": 0}),
    ("post", "/api/tables/{table_id}/decline"): (None, {"seat": 1, "declined": True}),
    ("get", "/api/me/email"): (None, _MAIL),
    ("put", "/api/me/email"): ({"email": "ana@example.org"}, {**_MAIL, "verified": False}),
    ("get", "/api/me/email/verify"): (None, {"email": "ana@example.org", "verified": True}),
    ("put", "/api/me/notify"): (
        {"mail": ["your_turn", "invited"]},
        {**_MAIL, "notify": ["invited", "your_turn"]},
    ),
    ("get", "/api/mail/unsubscribe"): (None, {"unsubscribed": True}),
    ("post", "/api/mail/unsubscribe"): (None, {"unsubscribed": True}),
    ("get", "/api/friends"): (
        None,
        {
            "friends": [{"username": "bea", "since": 1796129041.9, "online": True}],
            "incoming": [{"username": "carl", "since": 1796129100.0}],
            "outgoing": [],
        },
    ),
    ("put", "/api/friends/{username}"): (None, {"username": "bea", "status": "friends"}),
    ("delete", "/api/friends/{username}"): (None, {"username": "bea", "removed": True}),
    ("get", "/api/blocks"): (None, [{"username": "mallory", "since": 1796129041.9}]),
    ("put", "/api/blocks/{username}"): (None, {"username": "mallory", "blocked": True}),
    ("delete", "/api/blocks/{username}"): (None, {"username": "mallory", "blocked": False}),
}
