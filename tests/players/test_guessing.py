"""Slowing the guesser, not the owner: per name and address, per name from everywhere
(a known device passes), site-wide against spraying, IPv6 counted by /64."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from coffeetable.server import create_app
from coffeetable.server.limits import Limits, address_key
from coffeetable.server.players import devices
from coffeetable.server.players.throttle import MemoryRate

from .conftest import PASSWORD, cheap_hasher

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

WRONG = "wrong username or password"
#: The test header that says which client address a request comes from.
FROM = "x-test-client"


def from_address(app: Any) -> Any:
    """The app, seeing each request as coming from its ``x-test-client`` header."""

    async def wrapped(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            host = dict(scope["headers"]).get(FROM.encode())
            if host:
                scope = {**scope, "client": (host.decode(), 40000)}
        await app(scope, receive, send)

    return wrapped


class Browsers:
    """One site; each call says which address it comes from and which device it carries."""

    def __init__(self, app: Any, client: TestClient) -> None:
        self.app, self.client = app, client

    def post(self, path: str, body: dict[str, Any], address: str, device: str | None) -> Any:
        self.client.cookies.clear()  # no session, no device, unless given
        headers = {FROM: address}
        if device is not None:
            headers["cookie"] = f"{devices.COOKIE}={device}"
        return self.client.post(path, json=body, headers=headers)

    def register(self, name: str, address: str = "10.0.0.1") -> str | None:
        """Sign up; the device secret the browser was given (checked by its own test)."""
        body = {"username": name, "password": PASSWORD}
        response = self.post("/api/auth/register", body, address, None)
        assert response.status_code == 200, response.text
        device: str | None = response.cookies.get(devices.COOKIE)
        return device

    def login(self, name: str, password: str, address: str, device: str | None = None) -> Any:
        body = {"username": name, "password": password}
        return self.post("/api/auth/login", body, address, device)


def browsers(tmp_path: Path, limits: Limits) -> Iterator[Browsers]:
    app = create_app(f"sqlite:///{tmp_path / 'site.sqlite3'}", allow_seed=True, limits=limits)
    with TestClient(from_address(app), base_url="https://testserver") as client:
        app.state.players.hasher = cheap_hasher()
        yield Browsers(app, client)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Browsers]:
    yield from browsers(tmp_path, Limits())


@pytest.fixture
def quota_site(tmp_path: Path) -> Iterator[Browsers]:
    yield from browsers(tmp_path, Limits(tables_per_minute=2))


@pytest.fixture
def spray_site(tmp_path: Path) -> Iterator[Browsers]:
    yield from browsers(tmp_path, Limits(sign_in_failures_per_minute=10))


def test_strangers_cannot_lock_the_owner_out_of_a_browser_she_used(site: Browsers) -> None:
    home = site.register("Bea", "10.0.0.1")
    # Wrong passwords for Bea from 30 addresses: 20 are let through, then strangers wait.
    answers = [site.login("Bea", f"guess number {i}", f"203.0.113.{i}") for i in range(30)]
    assert [r.status_code for r in answers[:20]] == [401] * 20
    assert all(r.status_code == 429 for r in answers[20:])
    assert "for this username" in answers[-1].json()["detail"]
    assert int(answers[-1].headers["retry-after"]) >= 1
    # Bea's own browser still signs in, from anywhere.
    assert site.login("Bea", PASSWORD, "198.51.100.9", device=home).status_code == 200
    assert site.login("Bea", PASSWORD, "10.0.0.1", device=home).status_code == 200
    # A browser Bea never used waits like any stranger (the price of the ceiling).
    assert site.login("Bea", PASSWORD, "198.51.100.10").status_code == 429
    # A device secret known to another account, or made up, is no known device.
    ben = site.register("Ben", "10.0.0.2")
    assert site.login("Bea", PASSWORD, "10.0.0.2", device=ben).status_code == 429
    assert site.login("Bea", PASSWORD, "10.0.0.2", device="made-up").status_code == 429


def test_one_guesser_is_slowed_per_name_and_address_and_the_owner_is_not(
    site: Browsers,
) -> None:
    home = site.register("Bea", "10.0.0.1")
    for i in range(5):
        assert site.login("Bea", f"guess number {i}", "203.0.113.7").status_code == 401
    refused = site.login("Bea", PASSWORD, "203.0.113.7")
    assert refused.status_code == 429 and "from here" in refused.json()["detail"]
    assert int(refused.headers["retry-after"]) == 15
    # Not the owner, elsewhere, even in a browser she never used.
    assert site.login("Bea", PASSWORD, "198.51.100.1").status_code == 200
    # Nor the owner's browser at the guesser's address (one network, say).
    assert site.login("Bea", PASSWORD, "203.0.113.7", device=home).status_code == 200


def test_a_known_device_is_throttled_too_when_it_guesses(site: Browsers) -> None:
    home = site.register("Bea", "10.0.0.1")
    for i in range(5):  # a stolen device cookie, from ever new addresses
        answer = site.login("Bea", f"guess number {i}", f"203.0.113.{i}", device=home)
        assert answer.status_code == 401
    assert site.login("Bea", PASSWORD, "203.0.113.99", device=home).status_code == 429


def test_a_successful_sign_in_makes_the_browser_known(site: Browsers) -> None:
    site.register("Bea", "10.0.0.1")
    fresh = site.login("Bea", PASSWORD, "10.0.0.5")
    assert fresh.status_code == 200
    laptop = fresh.cookies[devices.COOKIE]
    header = [h for h in fresh.headers.get_list("set-cookie") if h.startswith(devices.COOKIE)]
    flags = header[0].lower()
    assert "httponly" in flags and "samesite=strict" in flags and "path=/api/auth" in flags
    assert "secure" in flags
    for i in range(25):
        site.login("Bea", f"guess number {i}", f"203.0.113.{i}")
    assert site.login("Bea", PASSWORD, "10.0.0.6", device=laptop).status_code == 200
    # The same browser keeps its device secret when it signs in again.
    again = site.login("Bea", PASSWORD, "10.0.0.6", device=laptop)
    assert again.cookies[devices.COOKIE] == laptop


def test_the_database_keeps_only_a_hash_of_the_device(site: Browsers) -> None:
    import hashlib

    import sqlalchemy as sa

    home = site.register("Bea", "10.0.0.1")
    assert home is not None and len(home) >= 40
    with site.app.state.store.db.engine.connect() as conn:
        stored = conn.execute(sa.text("SELECT token_hash FROM known_devices")).scalars().all()
    assert stored == [hashlib.sha256(home.encode()).hexdigest()]


def test_spraying_many_names_from_many_addresses_is_slowed_site_wide(
    spray_site: Browsers,
) -> None:
    site = spray_site
    now = [6000.0]  # the start of a minute
    site.app.state.players.site_failures = MemoryRate(10, clock=lambda: now[0])
    home = site.register("Bea", "10.0.0.1")
    # 40 names from 40 addresses, one guess each: 10 a minute are let through.
    answers = [site.login(f"name{i}", "Password!2024", f"203.0.113.{i}") for i in range(40)]
    assert [r.status_code for r in answers[:10]] == [401] * 10
    assert all(r.status_code == 429 for r in answers[10:])
    assert "on the site" in answers[-1].json()["detail"]
    assert int(answers[-1].headers["retry-after"]) == 60
    # A known device is not held back; a stranger's correct password waits too.
    assert site.login("Bea", PASSWORD, "10.0.0.1", device=home).status_code == 200
    assert site.login("Bea", PASSWORD, "10.0.0.9").status_code == 429
    now[0] += 60  # the next minute
    assert site.login("name1", "Password!2024", "203.0.113.1").json() == {"detail": WRONG}


def test_ipv6_addresses_count_by_their_64(site: Browsers) -> None:
    # 20 guesses at 20 names from 20 addresses of one /64: one client, at its limit.
    for i in range(1, 21):
        answer = site.login(f"name{i}", "Password!2024", f"2001:db8:1:2::{i:x}")
        assert answer.status_code == 401
    refused = site.login("name0", "Password!2024", "2001:db8:1:2:ffff:ffff:ffff:ffff")
    assert refused.status_code == 429 and "from here" in refused.json()["detail"]
    assert site.login("name0", "Password!2024", "2001:db8:1:3::1").status_code == 401


def test_every_per_address_quota_counts_ipv6_by_its_64(quota_site: Browsers) -> None:
    site, body = quota_site, {"game": "fika", "players": 2, "name": "Ana"}
    for address in ("2001:db8:1:2::1", "2001:db8:1:2::2"):
        assert site.post("/api/tables", body, address, None).status_code == 200
    refused = site.post("/api/tables", body, "2001:db8:1:2::3", None)
    assert refused.status_code == 429 and "2 new tables a minute" in refused.json()["detail"]
    assert site.post("/api/tables", body, "2001:db8:1:3::1", None).status_code == 200


@pytest.mark.parametrize(
    ("host", "key"),
    [
        ("203.0.113.7", "203.0.113.7"),
        ("2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"),
        ("2001:DB8:1:2::1", "2001:db8:1:2::/64"),
        ("::ffff:203.0.113.7", "203.0.113.7"),  # IPv4-mapped: the IPv4 address
        ("fe80::1%eth0", "fe80::/64"),
        ("testclient", "testclient"),  # not an address: itself
    ],
)
def test_the_client_key_is_the_ipv4_address_or_the_ipv6_64(host: str, key: str) -> None:
    assert address_key(host) == key
