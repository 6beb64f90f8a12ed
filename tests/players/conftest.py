"""Fixtures for the players layer: the site in-process, databases, cheap password hashing.

``site`` serves ``create_app`` to an httpx client through ASGI (Starlette's
``TestClient``, which runs the app's lifespan), at ``https://testserver`` so
that ``Secure`` cookies come back; ``site_http`` does the same over http.

Database tests run on SQLite, and on PostgreSQL when
``COFFEETABLE_TEST_POSTGRES_URL`` names one (e.g.
``postgresql+psycopg://coffeetable:coffeetable@127.0.0.1/coffeetable_test``);
each test starts from an empty ``public`` schema in a database of its own
test run's (made beside the configured one on first use, dropped at exit), so
that two test runs on one server never empty each other's tables.
"""

from __future__ import annotations

import atexit
import secrets
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from argon2 import PasswordHasher

from coffeetable.server import create_app
from coffeetable.server.players.passwords import Hasher
from tests.conftest import service_url

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # "install httpx2": the TestClient works as it is
    from fastapi.testclient import TestClient

POSTGRES_ENV = "COFFEETABLE_TEST_POSTGRES_URL"
PASSWORD = "correct horse battery"


def cheap_hasher() -> Hasher:
    """argon2id with the smallest parameters: the same code, a thousandth of the time."""
    return Hasher(PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))


@dataclass
class Site:
    """The app and a client (its cookie jar is one browser)."""

    app: Any
    client: TestClient
    url: str

    def register(self, username: str, password: str = PASSWORD, **body: Any) -> Any:
        return self.client.post(
            "/api/auth/register", json={"username": username, "password": password, **body}
        )

    def login(self, username: str, password: str = PASSWORD, **body: Any) -> Any:
        return self.client.post(
            "/api/auth/login", json={"username": username, "password": password, **body}
        )


def _site(tmp_path: Path, base_url: str, url: str | None = None) -> Iterator[Site]:
    app = create_app(url or f"sqlite:///{tmp_path / 'site.sqlite3'}", allow_seed=True)
    with TestClient(app, base_url=base_url) as client:
        app.state.players.hasher = cheap_hasher()
        yield Site(app, client, base_url)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    yield from _site(tmp_path, "https://testserver")


@pytest.fixture
def site_http(tmp_path: Path) -> Iterator[Site]:
    yield from _site(tmp_path, "http://testserver")


@pytest.fixture
def site_postgres(tmp_path: Path) -> Iterator[Site]:
    """The site on PostgreSQL (skipped when none is configured)."""
    yield from _site(tmp_path, "https://testserver", postgres_url())


#: This test run's own PostgreSQL database (made on first use).
_run_database: dict[str, str] = {}


def _database_of_this_run(base: str) -> str:
    """The URL of a database for this test run only, beside ``base``'s (dropped at exit)."""
    if base not in _run_database:
        name = f"coffeetable_run_{secrets.token_hex(4)}"
        admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(sa.text(f'CREATE DATABASE "{name}"'))

        def drop() -> None:
            with admin.connect() as conn:
                conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            admin.dispose()

        atexit.register(drop)
        _run_database[base] = base.rsplit("/", 1)[0] + f"/{name}"
    return _run_database[base]


def postgres_url() -> str:
    """A PostgreSQL URL for tests, emptied (skips the test when none is set)."""
    url = _database_of_this_run(service_url(POSTGRES_ENV, "PostgreSQL"))
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text("DROP SCHEMA IF EXISTS public CASCADE"))
            conn.execute(sa.text("CREATE SCHEMA public"))
    finally:
        engine.dispose()
    return url


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database: SQLite in ``tmp_path``, then PostgreSQL if configured."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'players.sqlite3'}"
    return postgres_url()
