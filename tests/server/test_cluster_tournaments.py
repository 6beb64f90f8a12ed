"""A tournament on several processes: one runs it (its lease), and when that process is
killed (kill -9) mid-round another takes it over and plays it to the end, each match
counted once (``server/tournaments/runner.py``)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from .cluster_site import Process, Site, sites
from .conftest import BROWSER_PASSWORD
from .test_tournaments import _check_against_results


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    yield from sites(tmp_path)


def _sign_in(process: Process, name: str, new: bool = False) -> None:
    path = "/api/auth/register" if new else "/api/auth/login"
    response = process.http.post(path, json={"username": name, "password": BROWSER_PASSWORD})
    assert response.status_code == 200, response.text


def test_kill_minus_nine_of_the_runner_mid_round(site: Site) -> None:
    first, second = site.start(2)
    _sign_in(first, "organiser", new=True)
    _sign_in(second, "organiser")
    body = {"game": "fika", "format": "swiss", "players": 2, "rounds": 2, "max_entrants": 4}
    response = first.http.post("/api/tournaments", json={**body, "settings": {"bot_speed": 1}})
    assert response.status_code == 200, response.text
    tournament_id = response.json()["id"]
    path = f"/api/tournaments/{tournament_id}"
    for level in ("beginner", "casual", "strong", "random"):
        entered = first.http.post(f"{path}/entries", json={"bot": level})
        assert entered.status_code == 200, entered.text
    lease = f"{site.prefix}:lease:tournament:{tournament_id}"
    with redis.Redis.from_url(site.redis_url) as client:
        owner_name = client.get(lease)
        assert owner_name is not None
        runner = first if owner_name.decode() == first.name else second
        other = second if runner is first else first
        view = other.http.get(path).json()
        assert view["status"] == "running"
        assert any(table["ranks"] is None for table in view["rounds"][0]["tables"])
        runner.kill()
        killed = time.monotonic()
        deadline = killed + 240
        while True:
            view = other.http.get(path).json()
            if view["status"] == "finished":
                break
            assert time.monotonic() < deadline, view
            time.sleep(0.3)
        assert client.get(lease) == other.name.encode()
    _check_against_results(view, 2)
    ids = [table["table_id"] for number in view["rounds"] for table in number["tables"]]
    assert len(ids) == len(set(ids)) == 4
    for table_id in ids:
        assert other.http.get(f"/api/tables/{table_id}").json()["status"] == "over"
