"""A revocation on one process closes the sockets another process holds (issue 27,
finding 2): signing out everywhere, or revoking a key, through process A closes at once the
sockets of that session or key that process B relays to the table's owner."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .cluster_site import Site, sites
from .conftest import TIMEOUT, Client
from .test_revocation import closed_with, seated, still_open

#: How long a revocation may take to close a socket on another process, at most, here
#: (it takes milliseconds: one Redis publish; the bound is loose for loaded machines).
CLOSED_WITHIN = 5.0


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    yield from sites(tmp_path)


def test_a_revocation_on_one_process_closes_sockets_on_another(site: Site) -> None:
    a, b = site.start(2)
    ana = httpx.Client(base_url=a.url, timeout=TIMEOUT)
    try:
        body = {"username": "ana", "password": "correct horse battery"}
        assert ana.post("/api/auth/register", json=body).status_code == 200
        fika = {"game": "fika", "players": 2, "bots": {"1": "greedy"}}
        table_id = ana.post("/api/tables", json=fika).json()["table_id"]  # run by A
        assert ana.post("/api/bots", json={"name": "bot-v2"}).status_code == 200
        key = ana.post("/api/bots/bot-v2/keys", json={}).json()
        bearer = {"Authorization": f"Bearer {key['key']}"}
        bots_table = a.http.post("/api/tables", json=fika, headers=bearer).json()["table_id"]
        cookie = "; ".join(f"{name}={value}" for name, value in ana.cookies.items())
        # Sockets on B, for tables A runs: B holds them and relays.
        by_session = Client(f"{b.ws_url}/ws/tables/{table_id}", headers={"Cookie": cookie})
        by_key = Client(f"{b.ws_url}/ws/tables/{bots_table}", headers=bearer)
        guest = Client(f"{b.ws_url}/ws/tables/{table_id}")
        try:
            seated(by_session, 0)
            seated(by_key, 0)
            assert ana.post("/api/auth/logout-everywhere").status_code == 200
            asked = time.monotonic()
            code, reason, _ = closed_with(by_session)
            assert code == 4403 and "signed out everywhere" in reason
            assert time.monotonic() - asked < CLOSED_WITHIN
            assert still_open(by_key) and still_open(guest)
            # The key is revoked by its owner's (new) session, through A.
            body = {"username": "ana", "password": "correct horse battery"}
            assert ana.post("/api/auth/login", json=body).status_code == 200
            assert ana.delete(f"/api/bots/bot-v2/keys/{key['id']}").status_code == 200
            asked = time.monotonic()
            code, reason, _ = closed_with(by_key)
            assert code == 4403 and "revoked" in reason
            assert time.monotonic() - asked < CLOSED_WITHIN
            assert still_open(guest)
        finally:
            for client in (by_session, by_key, guest):
                client.close()
    finally:
        ana.close()
