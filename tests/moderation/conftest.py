"""Fixtures for the moderation tests: the server tests' real server and browsers, people
signed up, a moderator named as ``coffeetable moderators add`` names one."""

from __future__ import annotations

from collections.abc import Callable

from coffeetable.store import Database, moderation
from coffeetable.store import players as players_db
from tests.server.cluster_site import Site
from tests.server.conftest import (  # noqa: F401  (fixtures, used by name)
    TIMEOUT,
    Browser,
    Client,
    ServerThread,
    browsers,
    clients,
    server,
    start_server,
)


def people(site: ServerThread, make: Callable[[str], Browser], *names: str) -> list[Browser]:
    """A signed-up browser for each name."""
    made = []
    for name in names:
        browser = make(site.url)
        browser.sign_up(name)
        made.append(browser)
    return made


def make_moderator(site: ServerThread | Site, name: str) -> None:
    """Name ``name`` a moderator in the server's (or the cluster site's) database, as the
    command line does."""
    database = Database(site.database_url)
    try:
        with database.engine.begin() as conn:
            found = players_db.player_by_key(conn, name.casefold())
            assert found is not None
            moderation.set_moderator(conn, found.id, True)
    finally:
        database.close()


def say(client: Client, text: str) -> int:
    """Say ``text`` in the table's chat; the id of the line as it comes back."""
    client.send({"type": "chat", "text": text})
    message = client.until(lambda m: m.get("type") == "chat" and m["message"].get("text") == text)
    return int(message["message"]["id"])
