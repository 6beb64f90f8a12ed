"""Profiles, leaderboards, match history and my seats, over HTTP."""

from __future__ import annotations

from typing import Any

from coffeetable.server.players.ratings import MatchSummary, SeatResult, finish_match
from coffeetable.store import SeatRecord, TableRecord
from coffeetable.store import players as accounts

from .conftest import Site


def user_id(site: Site, name: str) -> int:
    with site.app.state.store.db.engine.connect() as conn:
        found = accounts.player_by_key(conn, name.casefold())
    assert found is not None
    return found.id


def play(site: Site, table_id: str, seats: list[SeatResult], winners: list[int], **kw: Any) -> None:
    """Record a finished match of a table made for it, as the table code will."""
    db = site.app.state.store.db
    game = kw.get("game", "espresso")
    record = TableRecord(
        id=table_id,
        game=game,
        players=len(seats),
        seed=1,
        options={},
        settings={},
        name="t",
        status="over",
        seats=[SeatRecord(s.seat, s.name) for s in seats],
    )
    with db.engine.begin() as conn:
        db.insert_table(conn, record)
        summary = MatchSummary(table_id, game, len(seats), seats, winners, kw.get("rated", True))
        assert finish_match(conn, summary) is not None


def test_profile_ratings_history_games_solo_and_recent_matches(site: Site) -> None:
    site.register("Ada")
    site.register("Ben")
    ada, ben = user_id(site, "Ada"), user_id(site, "Ben")
    play(site, "m1", [SeatResult(0, "Ada", 100, ada), SeatResult(1, "Ben", 50, ben)], [0])
    play(site, "m2", [SeatResult(0, "Ada", 100, ada), SeatResult(1, "Ben", 100, ben)], [0, 1])
    play(
        site,
        "m3",
        [SeatResult(0, "Ada", 30, ada), SeatResult(1, "Hard bot", 90, None, "hard")],
        [1],
    )
    play(site, "s1", [SeatResult(0, "Ada", 21, ada)], [0], game="cafe")
    response = site.client.get("/api/players/ADA")
    assert response.status_code == 200, response.text
    profile = response.json()
    assert profile["name"] == "Ada" and profile["bot"] is False
    (espresso,) = profile["ratings"]
    assert (espresso["game"], espresso["group"], espresso["games"], espresso["wins"]) == (
        "espresso", "2", 3, 2,
    )  # fmt: skip
    assert espresso["provisional"] is True
    assert len(espresso["history"]) == 3 and espresso["history"][-1] == espresso["rating"]
    assert espresso["history"][0] > 1500
    assert profile["games"] == [{"game": "espresso", "played": 3, "won": 2}]
    assert profile["solo"] == [
        {"game": "cafe", "played": 1, "best": 21, "rank": "baron", "match_id": 4}
    ]
    recent = profile["recent"]
    assert [m["table_id"] for m in recent] == ["s1", "m3", "m2", "m1"]
    assert [m["result"] for m in recent] == ["solo", "lost", "shared", "won"]
    m3 = recent[1]
    assert m3["links"] == {"table": "/api/tables/m3", "log": "/api/tables/m3/log"}
    opponent = m3["participants"][1]
    assert (opponent["player"], opponent["bot"], opponent["rank"]) == ("hard", True, 1)
    assert opponent["rating_before"] == 1500 and opponent["rating_after"] > 1500
    # Bot levels have profiles too.
    hard = site.client.get("/api/players/hard").json()
    assert hard["bot"] is True and hard["ratings"][0]["wins"] == 1
    assert site.client.get("/api/players/nobody").status_code == 404


def test_leaderboard_with_groups_bots_and_my_place(site: Site) -> None:
    for name in ("Ada", "Ben", "Cid"):
        site.register(name)
    ada, ben, cid = (user_id(site, name) for name in ("Ada", "Ben", "Cid"))
    for n in range(3):
        seats = [SeatResult(0, "Ben", 9, ben), SeatResult(1, "Medium bot", 1, None, "medium")]
        play(site, f"b{n}", seats, [0])
    seats = [SeatResult(0, "Ada", 5, ada), SeatResult(1, "Cid", 1, cid)]
    play(site, "a1", seats, [0])
    seats = [SeatResult(i, f"p{i}", 10 - i, pid) for i, pid in enumerate((ada, ben, cid))]
    play(site, "g3", seats, [0])
    # Signed in as Cid (the last registered).
    board = site.client.get("/api/leaderboards/espresso").json()
    assert board["group"] == "2" and board["groups"] == ["2", "3-4", "5-6"]
    entries = board["entries"]
    assert [e["name"] for e in entries] == ["Ben", "Ada", "Cid", "medium"]
    assert [e["place"] for e in entries] == [1, 2, 3, 4]
    assert entries[3]["bot"] is True and entries[0]["bot"] is False
    assert entries[0]["games"] == 3 and entries[0]["provisional"] is True
    assert board["me"]["name"] == "Cid" and board["me"]["place"] == 3
    three = site.client.get("/api/leaderboards/espresso?group=3-4").json()
    assert [e["name"] for e in three["entries"]] == ["Ada", "Ben", "Cid"]
    assert site.client.get("/api/leaderboards/espresso?group=7").status_code == 400
    assert site.client.get("/api/leaderboards/chess").status_code == 404
    assert site.client.get("/api/leaderboards/fika").json()["entries"] == []
    site.client.post("/api/auth/logout")
    assert site.client.get("/api/leaderboards/espresso").json()["me"] is None


def test_paging_parameters_out_of_bounds_are_refused_not_failed(site: Site) -> None:
    """Issue #27: an offset past 64 bits answered 500 (OverflowError)."""
    for offset in ("9223372036854775808", "99999999999999999999999", "10001", "-1"):
        answer = site.client.get(f"/api/leaderboards/fika?offset={offset}")
        assert answer.status_code == 422, (offset, answer.text)
    assert site.client.get("/api/leaderboards/fika?offset=10000").status_code == 200
    for before in ("²", "١٢", "9" * 19):  # digits to isdigit(), not to int() or SQL
        answer = site.client.get("/api/matches", params={"before": before})
        assert answer.status_code == 400, (before, answer.text)


def test_matches_newest_first_filtered_and_paged_by_cursor(site: Site) -> None:
    site.register("Ada")
    ada = user_id(site, "Ada")
    for n in range(5):
        seats = [SeatResult(0, "Ada", n, ada), SeatResult(1, "Random bot", 3, None, "random")]
        play(site, f"e{n}", seats, [0] if n > 3 else [1])
    play(site, "f0", [SeatResult(0, "Guest", 1), SeatResult(1, "Guest 2", 2)], [1], game="fika")
    everything = site.client.get("/api/matches").json()
    assert [m["table_id"] for m in everything["matches"]] == ["f0", "e4", "e3", "e2", "e1", "e0"]
    assert everything["next"] is None
    first = site.client.get("/api/matches", params={"player": "ada", "limit": 2}).json()
    assert [m["table_id"] for m in first["matches"]] == ["e4", "e3"]
    second = site.client.get(
        "/api/matches", params={"player": "ada", "limit": 2, "before": first["next"]}
    ).json()
    assert [m["table_id"] for m in second["matches"]] == ["e2", "e1"]
    third = site.client.get(
        "/api/matches", params={"player": "ada", "limit": 2, "before": second["next"]}
    ).json()
    assert [m["table_id"] for m in third["matches"]] == ["e0"] and third["next"] is None
    fika = site.client.get("/api/matches", params={"game": "fika"}).json()["matches"]
    assert [m["table_id"] for m in fika] == ["f0"]
    assert fika[0]["participants"][0]["player"] is None  # a guest
    assert site.client.get("/api/matches", params={"before": "x"}).status_code == 400
    assert site.client.get("/api/matches", params={"player": "zed"}).status_code == 404
    assert site.client.get("/api/matches", params={"limit": 0}).status_code == 422


def test_a_tables_match_and_its_rating_change_by_table_id(site: Site) -> None:
    site.register("Ada")
    ada = user_id(site, "Ada")
    seats = [SeatResult(0, "Ada", 9, ada), SeatResult(1, "Casual bot", 3, None, "casual")]
    play(site, "r1", seats, [0])
    play(site, "r2", seats, [1])
    found = site.client.get("/api/matches", params={"table": "r1"}).json()
    assert [m["table_id"] for m in found["matches"]] == ["r1"] and found["next"] is None
    mine, bot = found["matches"][0]["participants"]
    assert mine["rating_after"] > mine["rating_before"]  # Ada won r1: her rating rose
    assert bot["rating_after"] < bot["rating_before"]
    # a table still running (or unknown) has no match yet; a silly id is refused
    assert site.client.get("/api/matches", params={"table": "nope"}).json()["matches"] == []
    assert site.client.get("/api/matches", params={"table": "x" * 65}).status_code == 422


def test_a_guest_who_signs_up_keeps_their_seats_and_me_lists_them(site: Site) -> None:
    created = site.client.post("/api/tables", json={"game": "fika", "players": 2, "name": "Bea"})
    assert created.status_code == 200, created.text
    table_id, token = created.json()["table_id"], created.json()["token"]
    other = site.client.post("/api/tables", json={"game": "fika", "players": 2, "name": "Bea"})
    claims = [
        {"table_id": table_id, "token": token},
        {"table_id": other.json()["table_id"], "token": "not the token"},
        {"table_id": "nosuchtable", "token": token},
    ]
    response = site.register("Bea", claim=claims)
    assert response.status_code == 200, response.text
    assert response.json()["claimed"] == [{"table_id": table_id, "seat": 0}]
    me = site.client.get("/api/me").json()
    assert me["tables"] == [
        {
            "table_id": table_id,
            "game": "fika",
            "title": "Fika",
            "name": "Bea's table",
            "status": "open",
            "players": 2,
            "seat": 0,
            "socket": f"/ws/tables/{table_id}",
        }
    ]
    # Another account cannot take the seat with the same token.
    site.client.cookies.clear()
    stolen = site.register("Ben", claim=[{"table_id": table_id, "token": token}])
    assert stolen.json()["claimed"] == []
    assert site.client.get("/api/me").json()["tables"] == []
    # Signing in from another browser shows the same seats.
    site.client.cookies.clear()
    assert site.login("bea").json()["claimed"] == []
    assert [t["table_id"] for t in site.client.get("/api/me").json()["tables"]] == [table_id]
