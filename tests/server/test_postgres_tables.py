"""The site on PostgreSQL: tables, seats, the log, accounts and ratings, and a restart.

The same code as on SQLite, another URL; skipped (with the reason) without a
PostgreSQL for tests, required in CI (``tests.conftest.service_url``).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from coffeetable.engine import MatchLog, replay
from tests.players.conftest import postgres_url

from .conftest import Browser, ServerThread
from .test_accounts_at_tables import play_to_the_end


def test_a_rated_match_on_postgresql_survives_a_restart(
    browsers: Callable[[str], Browser],
) -> None:
    url = postgres_url()  # an emptied schema
    server = ServerThread(url)
    try:
        ana, bea = browsers(server.url), browsers(server.url)
        ana.sign_up("ana")
        bea.sign_up("bea")
        table_id = ana.http.post("/api/tables", json={"game": "fika", "players": 2}).json()[
            "table_id"
        ]
        assert bea.http.post(f"/api/tables/{table_id}/join", json={}).status_code == 200
        sockets = [ana.socket(table_id), bea.socket(table_id)]
        play_to_the_end(sockets, random.Random(11))
        for socket in sockets:
            socket.close()
        seq = server.summary(table_id)["seq"]
    finally:
        server.stop()
    again = ServerThread(url)
    try:
        summary = again.summary(table_id)
        assert summary["status"] == "over" and summary["seq"] == seq and summary["rated"]
        log = MatchLog.from_json(again.http.get(f"/api/tables/{table_id}/log").json())
        assert len(log.actions) == seq
        assert replay(log.game, log.players, log.seed, log.actions, log.options).is_over
        ratings = again.http.get("/api/players/ana").json()["ratings"]
        assert [(r["game"], r["games"]) for r in ratings] == [("fika", 1)]
    finally:
        again.stop()
