"""Sign-in limits over several processes: the counters live in Redis, known devices in
the database, so a guesser gains nothing by spreading guesses over the processes."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from coffeetable.server.players import devices

from .cluster_site import Process, Site, sites

PASSWORD = "correct horse battery"
#: A lower ceiling per name and a lower site-wide rate than the defaults, to reach them.
LIMITS = {
    "COFFEETABLE_SIGN_IN_FAILURES_PER_NAME_ANYWHERE": "4",
    "COFFEETABLE_SIGN_IN_FAILURES_PER_MINUTE": "10",
}


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    yield from sites(tmp_path)


def post(process: Process, path: str, body: dict[str, Any], address: str, device: str = "") -> Any:
    """A request from ``address`` (uvicorn trusts X-Forwarded-For from 127.0.0.1)."""
    process.http.cookies.clear()
    headers = {"X-Forwarded-For": address}
    if device:
        headers["Cookie"] = f"{devices.COOKIE}={device}"
    return process.http.post(path, json=body, headers=headers)


def login(process: Process, name: str, password: str, address: str, device: str = "") -> Any:
    return post(
        process, "/api/auth/login", {"username": name, "password": password}, address, device
    )


def test_sign_in_limits_and_known_devices_span_processes(site: Site) -> None:
    first, second = site.start(2, env=LIMITS)
    if time.time() % 60 > 45:  # the site-wide count is per minute: start in a fresh one
        time.sleep(60 - time.time() % 60)
    body = {"username": "Bea", "password": PASSWORD}
    registered = post(first, "/api/auth/register", body, "10.0.0.1")
    assert registered.status_code == 200, registered.text
    home = registered.cookies[devices.COOKIE]
    # Four wrong passwords for Bea, from four addresses, two on each process: the ceiling.
    for i in range(4):
        answer = login((first, second)[i % 2], "Bea", f"guess number {i}", f"203.0.113.{i}")
        assert answer.status_code == 401
    for process in (first, second):
        refused = login(process, "Bea", PASSWORD, "203.0.113.50")
        assert refused.status_code == 429 and "for this username" in refused.json()["detail"]
    # Bea's browser, known in the database, signs in on the other process.
    assert login(second, "Bea", PASSWORD, "198.51.100.1", home).status_code == 200
    # Spraying: 6 more failures make 10 this minute, counted over both processes.
    for i in range(6):
        answer = login((first, second)[i % 2], f"name{i}", "Password!2024", f"198.51.100.{20 + i}")
        assert answer.status_code == 401
    for process in (first, second):
        refused = login(process, "name9", "Password!2024", "198.51.100.99")
        assert refused.status_code == 429 and "on the site" in refused.json()["detail"]
    assert login(first, "Bea", PASSWORD, "198.51.100.2", home).status_code == 200
