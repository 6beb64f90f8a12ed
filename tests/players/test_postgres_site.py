"""The players API on PostgreSQL: the same requests through the store's worker thread."""

from __future__ import annotations

from coffeetable.server.players.ratings import MatchSummary, SeatResult, finish_match
from coffeetable.store import SeatRecord, TableRecord
from coffeetable.store import players as accounts

from .conftest import Site


def test_accounts_sessions_claims_and_stats_on_postgres(site_postgres: Site) -> None:
    site = site_postgres
    created = site.client.post("/api/tables", json={"game": "fika", "players": 2, "name": "Bea"})
    table_id, token = created.json()["table_id"], created.json()["token"]
    claim = [{"table_id": table_id, "token": token}]
    claimed = site.register("Bea", claim=claim).json()["claimed"]
    assert claimed == [{"table_id": table_id, "seat": 0}]
    assert site.register("bea").status_code == 409
    assert [t["table_id"] for t in site.client.get("/api/me").json()["tables"]] == [table_id]
    site.client.cookies.clear()
    assert site.login("BEA", "wrong password").status_code == 401
    assert site.login("BEA").status_code == 200
    sessions = site.client.get("/api/auth/sessions").json()
    assert len(sessions) == 2
    other = next(s["id"] for s in sessions if not s["current"])
    assert site.client.delete(f"/api/auth/sessions/{other}").status_code == 200
    db = site.app.state.store.db
    with db.engine.begin() as conn:
        bea = accounts.player_by_key(conn, "bea")
        assert bea is not None
        record = TableRecord("pg1", "espresso", 2, 1, {}, {}, "t", "over", seats=[SeatRecord(0)])
        db.insert_table(conn, record)
        seats = [SeatResult(0, "Bea", 9, bea.id), SeatResult(1, "Easy bot", 3, None, "easy")]
        summary = MatchSummary("pg1", "espresso", 2, seats, [0], rated=True)
        assert finish_match(conn, summary) is not None
        assert finish_match(conn, summary) is None
    profile = site.client.get("/api/players/bea").json()
    assert profile["ratings"][0]["games"] == 1 and profile["ratings"][0]["rating"] > 1500
    board = site.client.get("/api/leaderboards/espresso").json()
    assert [e["name"] for e in board["entries"]] == ["Bea", "easy"]
    assert board["me"]["place"] == 1
    page = site.client.get("/api/matches", params={"player": "easy"}).json()
    assert [m["table_id"] for m in page["matches"]] == ["pg1"]
