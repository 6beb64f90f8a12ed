"""What FastAPI's OpenAPI document does not say by itself, added once it is built: how a
request signs in (a bot's API key, a person's session cookie), an example request and
answer for every operation, where a 429 comes with ``Retry-After``, and the link to the
table socket's protocol (``protocol.py``, ``GET /api/protocol``).

``install(app)`` replaces ``app.openapi``; a test holds every operation to having its
examples, so a new route without them fails.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from coffeetable.server.api.schemas import REPLAY_EXAMPLE, TABLE_EXAMPLE
from coffeetable.server.league.routes import EXAMPLES as LEAGUE_EXAMPLES
from coffeetable.server.moderation.examples import EXAMPLES as MODERATION_EXAMPLES
from coffeetable.server.players.sessions import COOKIE
from coffeetable.server.social.examples import EXAMPLES as SOCIAL_EXAMPLES
from coffeetable.server.tournaments.routes import EXAMPLES as TOURNAMENT_EXAMPLES

BEARER, SESSION = "apiKey", "session"
SECURITY_SCHEMES = {
    BEARER: {
        "type": "http",
        "scheme": "bearer",
        "bearerFormat": "ctb_ + 43 characters",
        "description": "a bot account's API key (docs/bots.md): in the Authorization header of"
        " every request and of the table socket's handshake, never in a URL",
    },
    SESSION: {
        "type": "apiKey",
        "in": "cookie",
        "name": COOKIE,
        "description": "a person's session, set by POST /api/auth/register or /login;"
        " requests that change something must come from this site's pages (Origin)",
    },
}
#: Paths only a person's session may use (a key cannot make bots, keys or sessions).
_SESSION_ONLY = ("/api/bots", "/api/auth/sessions", "/api/auth/logout-everywhere")
#: Where one signs in (no sign-in needed).
_SIGNING_IN = ("/api/auth/register", "/api/auth/login")
#: Operations whose 429 carries ``Retry-After`` (rates that know when they free up).
_RETRY_AFTER = {
    ("post", "/api/tables"): "past the new tables a minute of your address (Limits)",
    ("post", "/api/auth/register"): "past the sign-ups an hour of your address",
    ("post", "/api/auth/login"): "after repeated failed sign-ins (per name and per address)",
}
_RETRY_HEADER = {
    "Retry-After": {
        "description": "whole seconds after which asking again may succeed",
        "schema": {"type": "integer", "minimum": 1},
    }
}

_SEAT = {"seat": 1, "token": "QI2MKhoXdPafc-lros3fhB6Smu2njZFK3MjZVwh2w9U"}
_KEY = {
    "id": "k7Q2",
    "prefix": "ctb_m7nhjg",
    "label": "laptop",
    "created": 1796129041.9,
    "last_used": None,
    "revoked": None,
}
_BOT = {
    "name": "alice/bot-v2",
    "short_name": "bot-v2",
    "owner": "alice",
    "description": "greedy, with a twist",
    "created": 1796129041.9,
    "invitable_by": "owner",
    "league": False,
}
_PROFILE = {
    "name": "alice",
    "bot": False,
    "joined": 1796129041.9,
    "reliability": {"finished": 49, "started": 50, "percent": 98},
    "ratings": [],
    "games": [],
    "solo": [],
    "recent": [],
    "learned": ["fika"],
}
_TICKET = {"ticket": "t-5Yx0c1"}
_LESSON = {
    "en": "Choose your brown 4.",
    "fr": "Choisissez votre 4 marron.",
    "de": "Wähle deine braune 4.",
    "es": "Elige tu 4 marrón.",
}
_TUTORIAL = {
    "game": "fika",
    "title": "Fika",
    "players": 2,
    "seat": 0,
    "minutes": 8,
    "steps": [
        {
            "say": _LESSON,
            "at": '[data-testid="hand"]',
            "move": {"type": "pick", "card": 3},
            "click": ['[data-click="hand:3"]'],
        }
    ],
    "frames": [
        {"view": {"phase": "pick"}, "legal": [{"type": "pick", "card": 3}], "actors": [0, 1]},
        {"view": {"phase": "place"}, "legal": [], "actors": [0], "events": []},
    ],
}
_WAITING = {"game": "fika", "players": 2, "rated": False}
_REVIEW = {
    "table_id": "YHVKbgxc",
    "status": "running",
    "done": 3,
    "total": 20,
    "iterations": 300,
    "seconds": 1.25,
    "decisions": [],
    "error": None,
}
_LOG = {"game": "fika", "players": 2, "seed": 42, "options": {}, "actions": [[1, {"type": "x"}]]}

_VACATION = {
    "on_vacation": True,
    "until": 1796733841.9,
    "used_days": 7.0,
    "allowed_days": 30.0,
    "left_days": 23.0,
}

_MY_GAMES = {
    "my_turn": 1,
    "total": 1,
    "tables": [
        {
            "table_id": "YHVKbgxc",
            "game": "fika",
            "title": "Fika",
            "name": "alice's table",
            "status": "running",
            "seat": 0,
            "my_turn": True,
            "time_left": 51234.5,
            "days_per_move": 1.0,
            "expired": [],
            "opponents": ["bea"],
        }
    ],
}

#: (method, path) -> (example request body or None, example answer).
EXAMPLES: dict[tuple[str, str], tuple[Any, Any]] = {
    ("get", "/api/games"): (
        None,
        [{"name": "fika", "title": "Fika", "realtime": False, "league": True}],
    ),
    ("get", "/api/health"): (None, {"ok": True, "process": None, "tables": 3}),
    ("get", "/api/protocol"): (None, {"asyncapi": "3.0.0", "info": {}, "components": {}}),
    ("get", "/api/tables"): (None, [TABLE_EXAMPLE]),
    ("post", "/api/tables"): (
        {"game": "fika", "players": 2, "bots": {"1": "greedy"}, "options": {}},
        {"table_id": "YHVKbgxc", "seat": 0, "token": _SEAT["token"]},
    ),
    ("get", "/api/tables/{table_id}"): (None, TABLE_EXAMPLE),
    ("post", "/api/tables/{table_id}/join"): ({"name": "Bea"}, _SEAT),
    ("post", "/api/tables/{table_id}/leave"): (
        {"token": _SEAT["token"]},
        {"seat": 1, "left": True},
    ),
    ("post", "/api/tables/{table_id}/seats/{seat}/bot"): (
        {"token": _SEAT["token"], "level": "greedy"},
        {"seat": 1, "bot": "greedy"},
    ),
    ("post", "/api/tables/{table_id}/expel"): (
        {"seat": 1, "token": _SEAT["token"]},
        {"seat": 1, "expelled": True},
    ),
    ("get", "/api/me/games"): (None, _MY_GAMES),
    ("get", "/api/me/vacation"): (None, _VACATION),
    ("put", "/api/me/vacation"): ({"days": 7}, _VACATION),
    ("get", "/api/tables/{table_id}/log"): (None, _LOG),
    ("get", "/api/tables/{table_id}/replay"): (None, REPLAY_EXAMPLE),
    ("post", "/api/tables/{table_id}/rematch"): (
        {"token": _SEAT["token"]},
        {"status": "waiting", "accepted": [0], "waiting": [1], "table_id": None},
    ),
    ("post", "/api/tables/{table_id}/review"): (None, _REVIEW),
    ("get", "/api/tables/{table_id}/review"): (None, {**_REVIEW, "status": "done", "done": 20}),
    ("get", "/api/play-now"): (None, [{**_WAITING, "waiting": ["Bea"]}]),
    ("post", "/api/play-now"): (
        {"game": "fika", "players": 2},
        {**_TICKET, **_WAITING, "status": "waiting", "waiting": ["Bea"], "seconds_left": 19.5},
    ),
    ("post", "/api/play-now/status"): (
        _TICKET,
        {**_WAITING, "status": "seated", "table_id": "YHVKbgxc", "seat": 1, "token": "..."},
    ),
    ("post", "/api/play-now/cancel"): (_TICKET, {"cancelled": True}),
    ("post", "/api/auth/register"): (
        {"username": "alice", "password": "correct horse battery", "claim": []},
        {"username": "alice", "claimed": []},
    ),
    ("post", "/api/auth/login"): (
        {"username": "alice", "password": "correct horse battery"},
        {"username": "alice", "claimed": [{"table_id": "YHVKbgxc", "seat": 1}]},
    ),
    ("post", "/api/auth/logout"): (None, {"signed_out": True}),
    ("post", "/api/auth/logout-everywhere"): (None, {"revoked": 3}),
    ("get", "/api/auth/sessions"): (
        None,
        [
            {
                "id": "s1",
                "created": 1796129041.9,
                "last_seen": 1796129100.0,
                "user_agent": "Firefox",
                "current": True,
            }
        ],
    ),
    ("delete", "/api/auth/sessions/{session_id}"): (None, {"revoked": 1}),
    ("get", "/api/me"): (
        None,
        {
            "username": "alice/bot-v2",
            "joined": 1796129041.9,
            "tables": [
                {
                    "table_id": "YHVKbgxc",
                    "game": "fika",
                    "title": "Fika",
                    "name": "alice/bot-v2's table",
                    "status": "running",
                    "players": 2,
                    "seat": 0,
                    "socket": "/ws/tables/YHVKbgxc",
                }
            ],
        },
    ),
    ("get", "/api/players/{name}"): (None, _PROFILE),
    ("get", "/api/players/{owner}/{bot}"): (
        None,
        {**_PROFILE, "name": "alice/bot-v2", "bot": True},
    ),
    ("get", "/api/leaderboards/{game}"): (
        None,
        {"game": "fika", "group": "2", "groups": ["2"], "entries": [], "me": None},
    ),
    ("get", "/api/leaderboards/{game}/bots"): (
        None,
        {"game": "fika", "group": "2", "groups": ["2"], "entries": []},
    ),
    ("get", "/api/matches"): (None, {"matches": [], "next": None}),
    ("get", "/api/learn"): (
        None,
        {"games": [{"game": "fika", "title": "Fika", "minutes": 8}], "done": ["fika"]},
    ),
    ("get", "/api/learn/{game}"): (None, _TUTORIAL),
    ("post", "/api/learn/{game}/done"): (None, {"game": "fika", "kept": "account"}),
    ("get", "/api/bots"): (None, [_BOT]),
    ("post", "/api/bots"): ({"name": "bot-v2", "description": "greedy, with a twist"}, _BOT),
    ("get", "/api/players/{name}/bots"): (None, [_BOT]),
    ("patch", "/api/bots/{bot}"): (
        {"invitable_by": "anyone", "league": True},
        {**_BOT, "invitable_by": "anyone", "league": True},
    ),
    ("get", "/api/bots/{bot}/keys"): (None, [_KEY]),
    ("post", "/api/bots/{bot}/keys"): ({"label": "laptop"}, {**_KEY, "key": "ctb_m7nhjg..."}),
    ("delete", "/api/bots/{bot}/keys/{key_id}"): (None, {"revoked": True}),
    **TOURNAMENT_EXAMPLES,
    **LEAGUE_EXAMPLES,
    **SOCIAL_EXAMPLES,
    **MODERATION_EXAMPLES,
}


def install(app: FastAPI) -> None:
    """Build ``app``'s OpenAPI document with FastAPI, then add what this module knows."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = get_openapi(
                title=app.title,
                version=app.version,
                description=app.description,
                routes=app.routes,
            )
            complete(document)
            app.openapi_schema = document
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def complete(document: dict[str, Any]) -> None:
    """Add the security schemes, examples, 429 headers and the protocol's link."""
    document.setdefault("components", {})["securitySchemes"] = SECURITY_SCHEMES
    # Operations that need no sign-in say nothing (a key or a session still signs them
    # in: the info's description says so); those that need one name the schemes.
    info = document.setdefault("info", {})
    info["description"] = (
        f"{info.get('description', '')}\n\nSigning in is optional unless an operation names"
        " its security: a bot's API key (Authorization: Bearer) or a person's session cookie"
        " signs a request in wherever it is sent."
    ).strip()
    document["externalDocs"] = {
        "description": "the table socket's protocol: an AsyncAPI 3.0 document with every"
        " message's JSON Schema (in words: docs/bots.md)",
        "url": "/api/protocol",
    }
    for path, operations in document.get("paths", {}).items():
        for method, operation in operations.items():
            _secure(path, operation)
            _add_examples(method, path, operation)
            reason = _RETRY_AFTER.get((method, path))
            if reason is not None:
                operation["responses"]["429"] = {
                    "description": f"too many requests: {reason}; wait Retry-After seconds",
                    "headers": _RETRY_HEADER,
                }


def _secure(path: str, operation: dict[str, Any]) -> None:
    if path.startswith(_SESSION_ONLY):
        operation["security"] = [{SESSION: []}]
    elif path in _SIGNING_IN:  # their 401 is a wrong password, not a missing sign-in
        return
    elif "401" in operation.get("responses", {}):  # signed in, by a key or a session
        operation["security"] = [{BEARER: []}, {SESSION: []}]


def _add_examples(method: str, path: str, operation: dict[str, Any]) -> None:
    request, answer = EXAMPLES.get((method, path), (None, None))
    if request is not None:
        content = operation.get("requestBody", {}).get("content", {})
        content.get("application/json", {})["example"] = request
    if answer is not None:
        ok = operation.get("responses", {}).get("200", {})
        ok.setdefault("content", {}).setdefault("application/json", {})["example"] = answer
