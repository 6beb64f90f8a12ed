"""Accounts over HTTP: sign-up, sign-in, one message for mistakes, slowing down, sessions."""

from __future__ import annotations

import pytest

from coffeetable.server.players.sessions import COOKIE
from coffeetable.server.players.throttle import MemoryThrottle

from .conftest import PASSWORD, Site

WRONG = {"detail": "wrong username or password"}


def as_cookie(secret: str) -> dict[str, str]:
    """Headers that send this session secret instead of the client's cookie jar."""
    return {"Cookie": f"{COOKIE}={secret}"}


def cookie_header(response: object) -> str:
    header: str = response.headers["set-cookie"]  # type: ignore[attr-defined]
    assert header.startswith(f"{COOKIE}=")
    return header


def test_sign_up_signs_in_and_me_knows_me(site: Site) -> None:
    response = site.register("Bea")
    assert response.status_code == 200, response.text
    assert response.json() == {"username": "Bea", "claimed": []}
    me = site.client.get("/api/me")
    assert me.status_code == 200
    assert me.json()["username"] == "Bea" and me.json()["tables"] == []


def test_me_without_a_session_is_401(site: Site) -> None:
    assert site.client.get("/api/me").status_code == 401


def test_sign_in_is_case_insensitive_and_keeps_the_name_as_typed(site: Site) -> None:
    site.register("Bea")
    site.client.cookies.clear()
    response = site.login("bEA")
    assert response.status_code == 200 and response.json()["username"] == "Bea"
    assert site.client.get("/api/me").json()["username"] == "Bea"


def test_wrong_password_and_unknown_user_get_one_message(site: Site) -> None:
    site.register("Bea")
    site.client.cookies.clear()
    wrong_password = site.login("Bea", "not the password")
    unknown_user = site.login("Nobody", PASSWORD)
    not_a_name = site.login("x", PASSWORD)
    too_long = site.login("Bea", "y" * 500)
    for response in (wrong_password, unknown_user, not_a_name, too_long):
        assert response.status_code == 401
        assert response.json() == WRONG
        assert "set-cookie" not in response.headers
    assert site.client.get("/api/me").status_code == 401


def test_taken_names_case_insensitively_normalised_and_by_look(site: Site) -> None:
    assert site.register("Bea_B").status_code == 200
    for taken in ("bea_b", "BEA_B", "Ｂｅａ_Ｂ", "bea.b", "beab", "Bea-B"):
        response = site.register(taken)
        assert response.status_code == 409, taken
        assert "taken" in response.json()["detail"]
    assert site.register("Iris").status_code == 200
    assert site.register("lris").status_code == 409
    assert site.register("Ben").status_code == 200


def test_reserved_and_malformed_names_and_bad_passwords_are_400(site: Site) -> None:
    for name in ("greedy", "Medium", "ismcts", "ada_bot", "admin", "guest", "Zoë", "ab"):
        response = site.register(name)
        assert response.status_code == 400, name
    assert "reserved" in site.register("hard").json()["detail"]
    assert "8 to 128" in site.register("Bea", "short").json()["detail"]
    long = (PASSWORD * 7)[:128]
    assert "8 to 128" in site.register("Bea", long + "p").json()["detail"]
    common = site.register("Bea", "password")
    assert common.status_code == 400 and "most common" in common.json()["detail"]
    for trivial in ("12345678", "aaaaaaaa", " " * 8, "bea-is-me"):
        assert site.register("Bea", trivial).status_code == 400, trivial
    assert site.register("Bea", long).status_code == 200


def test_failures_are_slowed_down_per_username_with_a_growing_wait(site: Site) -> None:
    now = [1000.0]
    service = site.app.state.players
    service.user_throttle = MemoryThrottle(allowed=5, clock=lambda: now[0])
    site.register("Bea")
    site.client.cookies.clear()
    for _ in range(5):
        assert site.login("Bea", "wrong password").status_code == 401
    refused = site.login("Bea", PASSWORD)  # even the right password waits
    assert refused.status_code == 429
    assert int(refused.headers["retry-after"]) == 15
    assert site.login("BEA", "wrong password").status_code == 429  # the same username
    now[0] += 16
    assert site.login("Bea", "wrong password").status_code == 401
    again = site.login("Bea", PASSWORD)
    assert again.status_code == 429 and int(again.headers["retry-after"]) == 30
    # Unknown usernames are slowed down the same way.
    for _ in range(5):
        assert site.login("Nobody", PASSWORD).status_code == 401
    assert site.login("Nobody", PASSWORD).status_code == 429
    now[0] += 31
    assert site.login("Bea", PASSWORD).status_code == 200
    # A success forgives the username's failures.
    site.client.cookies.clear()
    assert site.login("Bea", "wrong password").status_code == 401
    assert site.login("Bea", PASSWORD).status_code == 200


def test_failures_are_slowed_down_per_client_address(site: Site) -> None:
    site.app.state.players.address_throttle = MemoryThrottle(allowed=3)
    site.register("Bea")
    site.client.cookies.clear()  # a browser Bea never used
    for name in ("Ann", "Bob", "Cid"):
        assert site.login(name, "wrong password").status_code == 401
    response = site.login("Bea", PASSWORD)
    assert response.status_code == 429 and int(response.headers["retry-after"]) >= 1


def test_sign_ups_are_limited_per_address(site: Site) -> None:
    site.app.state.players.signup_throttle = MemoryThrottle(allowed=2, window=3600, base=60)
    assert site.register("Ann").status_code == 200
    assert site.register("Bob").status_code == 200
    response = site.register("Cid")
    assert response.status_code == 429 and int(response.headers["retry-after"]) == 60


def test_cookie_flags_under_https(site: Site) -> None:
    header = cookie_header(site.register("Bea")).lower()
    assert "httponly" in header and "samesite=lax" in header and "secure" in header
    assert "path=/" in header
    secret = site.client.cookies[COOKIE]
    assert len(secret) >= 40


def test_cookie_flags_under_http(site_http: Site) -> None:
    header = cookie_header(site_http.register("Bea")).lower()
    assert "httponly" in header and "samesite=lax" in header
    assert "secure" not in header
    assert site_http.client.get("/api/me").status_code == 200


def test_the_database_keeps_only_a_hash_of_the_session(site: Site) -> None:
    import hashlib

    import sqlalchemy as sa

    site.register("Bea")
    secret = site.client.cookies[COOKIE]
    db = site.app.state.store.db
    with db.engine.connect() as conn:
        stored = conn.execute(sa.text("SELECT token_hash, user_agent FROM sessions")).all()
    assert stored == [(hashlib.sha256(secret.encode()).hexdigest(), "testclient")]


def test_sessions_are_listed_and_a_revoked_one_stops_working(site: Site) -> None:
    site.register("Bea")
    first = site.client.cookies[COOKIE]
    site.client.cookies.clear()
    site.login("Bea")
    second = site.client.cookies[COOKIE]
    assert first != second
    listed = site.client.get("/api/auth/sessions").json()
    assert len(listed) == 2
    assert [s["current"] for s in listed].count(True) == 1
    assert {"id", "created", "last_seen", "user_agent", "current"} <= set(listed[0])
    other = next(s for s in listed if not s["current"])
    assert site.client.delete(f"/api/auth/sessions/{other['id']}").json() == {"revoked": 1}
    assert site.client.delete(f"/api/auth/sessions/{other['id']}").status_code == 404
    # The revoked session's cookie no longer works; this one still does.
    revoked = site.client.get("/api/me", headers=as_cookie(first))
    assert revoked.status_code == 401
    assert site.client.get("/api/me", headers=as_cookie(second)).status_code == 200
    assert len(site.client.get("/api/auth/sessions").json()) == 1


def test_nobody_revokes_anothers_session(site: Site) -> None:
    site.register("Bea")
    bea = site.client.cookies[COOKIE]
    bea_session = site.client.get("/api/auth/sessions").json()[0]["id"]
    site.client.cookies.clear()
    site.register("Ben")
    assert site.client.delete(f"/api/auth/sessions/{bea_session}").status_code == 404
    assert site.client.get("/api/me", headers=as_cookie(bea)).status_code == 200


def test_logout_ends_this_session_and_clears_the_cookie(site: Site) -> None:
    site.register("Bea")
    secret = site.client.cookies[COOKIE]
    response = site.client.post("/api/auth/logout")
    assert response.json() == {"signed_out": True}
    assert "max-age=0" in response.headers["set-cookie"].lower()
    assert site.client.get("/api/me", headers=as_cookie(secret)).status_code == 401
    assert site.client.post("/api/auth/logout").status_code == 200  # signed out already


def test_logout_everywhere_ends_every_session(site: Site) -> None:
    site.register("Bea")
    first = site.client.cookies[COOKIE]
    site.client.cookies.clear()
    site.login("Bea")
    response = site.client.post("/api/auth/logout-everywhere")
    assert response.json() == {"revoked": 2}
    assert site.client.get("/api/me", headers=as_cookie(first)).status_code == 401
    assert site.client.get("/api/me").status_code == 401
    assert site.client.post("/api/auth/logout-everywhere").status_code == 401


def test_signing_in_again_replaces_the_browsers_session(site: Site) -> None:
    site.register("Bea")
    first = site.client.cookies[COOKIE]
    site.login("Bea")
    assert len(site.client.get("/api/auth/sessions").json()) == 1
    assert site.client.get("/api/me", headers=as_cookie(first)).status_code == 401


@pytest.mark.parametrize("path", ["/api/auth/register", "/api/auth/login", "/api/auth/logout"])
def test_requests_from_another_site_are_refused(site: Site, path: str) -> None:
    body = {"username": "Bea", "password": PASSWORD}
    response = site.client.post(path, json=body, headers={"Origin": "https://evil.example"})
    assert response.status_code == 403
    own = site.client.post(path, json=body, headers={"Origin": "https://testserver"})
    assert own.status_code in (200, 401)


def test_openapi_documents_the_players_api(site: Site) -> None:
    schema = site.client.get("/openapi.json").json()
    paths = schema["paths"]
    for path in (
        "/api/auth/register",
        "/api/auth/login",
        "/api/auth/logout",
        "/api/auth/logout-everywhere",
        "/api/auth/sessions",
        "/api/auth/sessions/{session_id}",
        "/api/me",
        "/api/players/{name}",
        "/api/leaderboards/{game}",
        "/api/matches",
    ):
        assert path in paths, path
    for name in ("Profile", "Leaderboard", "MatchPage", "Me", "SessionOut", "SignedIn"):
        assert name in schema["components"]["schemas"], name
