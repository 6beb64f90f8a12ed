"""The HTTP side of the site's defences: headers, sizes, strict JSON, quotas, names.

The WebSocket side (origin, message sizes and rates, fuzzing) has its own tests.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import httpx
import pytest

from coffeetable import games
from coffeetable.server.limits import Limits
from coffeetable.server.security import CONTENT_SECURITY_POLICY

from .conftest import ServerThread


def strict_json(text: str) -> object:
    """Parse ``text`` as a browser would: NaN and Infinity are not JSON."""

    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} in a response: {text[:200]}")

    return json.loads(text, parse_constant=refuse)


def test_every_page_carries_a_strict_content_security_policy(server: ServerThread) -> None:
    for path in ("/", "/static/js/app.js", "/api/games", "/api/tables/nope"):
        headers = server.http.get(path).headers
        assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY, path
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "same-origin"
        assert headers["x-frame-options"] == "DENY"
    policy = CONTENT_SECURITY_POLICY
    assert "script-src 'self';" in policy and "unsafe" not in policy
    for directive in ("object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"):
        assert directive in policy
    # The API docs load their scripts from this site too, and run no inline script.
    docs = server.http.get("/docs").headers["content-security-policy"]
    assert "script-src 'self';" in docs and "frame-ancestors 'none'" in docs
    assert "http" not in docs  # no other origin at all


def test_the_api_docs_work_offline(server: ServerThread) -> None:
    """``/docs`` loads every file from this site (it was blank offline: its scripts came
    from a CDN), and starts with no inline script; there is no ``/redoc`` (ReDoc loads
    its logo from its CDN)."""
    assert server.http.get("/redoc").status_code == 404
    for path in ("/docs",):
        page = server.http.get(path)
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        sources = re.findall(r'(?:src|href)="([^"]+)"', page.text)
        assert sources and all(source.startswith("/") for source in sources), sources
        scripts = re.findall(r"<script([^>]*)>(.*?)</script>", page.text, re.S)
        assert scripts and all("src=" in attrs and not body.strip() for attrs, body in scripts)
        for source in sources:
            if source != "/openapi.json":
                asset = server.http.get(source)
                assert asset.status_code == 200 and len(asset.content) > 100, source
    assert "SwaggerUIBundle" in server.http.get("/docs/assets/swagger-ui-bundle.js").text


def test_a_large_body_is_refused_before_it_is_read(
    start_server: Callable[..., ServerThread],
) -> None:
    server = start_server(limits=Limits(max_body_bytes=2000))
    big = b'{"game": "fika", "players": 2, "name": "' + b"x" * 5000 + b'"}'
    response = server.http.post(
        "/api/tables", content=big, headers={"content-type": "application/json"}
    )
    assert response.status_code == 413

    def chunks():  # no Content-Length: the cap holds while the body streams in
        yield b'{"game": "fika", "players": 2, "name": "'
        for _ in range(10):
            yield b"x" * 1000
        yield b'"}'

    response = server.http.post(
        "/api/tables", content=chunks(), headers={"content-type": "application/json"}
    )
    assert response.status_code == 413
    assert server.http.get("/api/tables").json() == []  # nothing was created


@pytest.mark.parametrize(
    "body",
    [
        b'{"game": "fika", "players": Infinity}',
        b'{"game": "fika", "players": NaN}',
        b'{"game": "fika", "players": 2, "options": {"clock_minutes": NaN}}',
        b'{"game": "espresso", "players": 2, "options": {"bot_speed": -Infinity}}',
        b"[" * 30 + b"]" * 30,
        b'{"game": "fika", "players": 1e999}',
    ],
)
def test_nan_infinity_and_deep_nesting_are_422_never_500(server: ServerThread, body: bytes) -> None:
    response = server.http.post(
        "/api/tables", content=body, headers={"content-type": "application/json"}
    )
    assert response.status_code == 422, response.text
    strict_json(response.text)  # parsable by a browser


def test_nan_in_join_and_leave_is_422(server: ServerThread) -> None:
    table_id = server.create("fika", 2)["table_id"]
    for path in ("join", "leave"):
        response = server.http.post(
            f"/api/tables/{table_id}/{path}",
            content=b'{"name": NaN, "token": NaN}',
            headers={"content-type": "application/json"},
        )
        assert response.status_code == 422, response.text
    assert server.summary(table_id)["seats"][1]["open"]


def test_openapi_says_what_is_valid(server: ServerThread) -> None:
    openapi = server.http.get("/openapi.json").json()
    body = openapi["paths"]["/api/tables"]["post"]["requestBody"]["content"]["application/json"]
    mapping = body["schema"]["discriminator"]["mapping"]
    assert sorted(mapping) == sorted(games.names())
    schemas = openapi["components"]["schemas"]
    bounds = {}
    for game, ref in mapping.items():
        players = schemas[ref.rsplit("/", 1)[1]]["properties"]["players"]
        bounds[game] = (players["minimum"], players["maximum"])
    assert bounds == {
        name: (games.get(name).min_players, games.get(name).max_players) for name in games.names()
    }
    assert bounds["espresso"] == (2, 6) and bounds["doppio"] == (1, 2) and bounds["cafe"] == (1, 4)
    espresso = schemas["EspressoOptions"]
    assert espresso["additionalProperties"] is False
    assert espresso["properties"]["target"]["minimum"] == 1
    assert espresso["properties"]["zero"]["type"] == "boolean"


def test_allow_names_every_method_of_a_path(server: ServerThread) -> None:
    options = server.http.options("/api/tables")
    assert options.status_code == 204
    assert set(options.headers["allow"].split(", ")) >= {"GET", "POST", "OPTIONS"}
    put = server.http.put("/api/tables")
    assert put.status_code == 405
    assert set(put.headers["allow"].split(", ")) >= {"GET", "POST"}
    assert "PUT is not allowed" in put.json()["detail"]


def _create(http: httpx.Client, **body: object) -> httpx.Response:
    return http.post("/api/tables", json={"game": "fika", "players": 2, **body})


def test_tables_per_minute_per_address(start_server: Callable[..., ServerThread]) -> None:
    server = start_server(limits=Limits(tables_per_minute=3, open_tables_per_client=100))
    for _ in range(3):
        assert _create(server.http).status_code == 200
    refused = _create(server.http)
    assert refused.status_code == 429
    assert "at most 3 new tables a minute" in refused.json()["detail"]
    assert 1 <= int(refused.headers["retry-after"]) <= 60  # when the oldest leaves the minute
    assert len(server.http.get("/api/tables").json()) == 3


def test_open_tables_per_client(start_server: Callable[..., ServerThread]) -> None:
    server = start_server(limits=Limits(tables_per_minute=100, open_tables_per_client=2))
    first = _create(server.http).json()
    assert _create(server.http).status_code == 200
    refused = _create(server.http)
    assert refused.status_code == 409 and "at most 2" in refused.json()["detail"]
    assert "retry-after" not in refused.headers  # a count: waiting alone frees nothing
    # Leaving an open table frees it: the quota counts live tables only.
    leave = {"token": first["token"]}
    assert server.http.post(f"/api/tables/{first['table_id']}/leave", json=leave).is_success
    assert _create(server.http).status_code == 200


def test_the_process_has_room_for_so_many_tables_and_bots(
    start_server: Callable[..., ServerThread],
) -> None:
    limits = Limits(max_live_tables=2, max_bot_seats=2, max_bot_speed=10)
    server = start_server(limits=limits)
    assert _create(server.http, bots={"1": "greedy"}).status_code == 200
    refused = _create(server.http, players=2, game="doppio", bots={"0": "greedy", "1": "greedy"})
    assert refused.status_code == 503 and "bots" in refused.json()["detail"]
    assert _create(server.http).status_code == 200
    full = _create(server.http)
    assert full.status_code == 503 and "full" in full.json()["detail"]


def test_bot_speed_is_capped_unless_the_server_raises_it(
    start_server: Callable[..., ServerThread],
) -> None:
    server = start_server(limits=Limits())
    fast = _create(server.http, options={"bot_speed": 1000})
    assert fast.status_code == 400 and "at most 10" in fast.json()["detail"]
    assert _create(server.http, options={"bot_speed": 10}).status_code == 200


@pytest.mark.parametrize(
    ("given", "shown"),
    [
        ("Ana\u202e\u2066nimda", "Ananimda"),  # bidi override and isolate
        ("Bo\u200bb\u200d\ufeff", "Bob"),  # zero-width space, joiner, BOM
        ("  Ｃａｒｌ  ", "Carl"),  # full-width letters, NFKC
        ("Dee\x00\x1b[31m", "Dee[31m"),  # controls
        ("E" + "\u0301" * 50, "\u00c9\u0301\u0301"),  # at most two marks per letter
        ("<img src=x onerror=alert(1)>", "<img src=x onerror=alert(1)>"),  # pages escape
        ("\u200b\u202e", "Player 2"),  # nothing left: the default
        ("x" * 150, "x" * 40),
    ],
)
def test_names_are_normalised(server: ServerThread, given: str, shown: str) -> None:
    table_id = server.create("fika", 2)["table_id"]
    server.join(table_id, given)
    assert server.summary(table_id)["seats"][1]["name"] == shown
