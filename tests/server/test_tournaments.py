"""Tournaments on a real server: created, entered, played to the end by site bots (bot
speed raised, as test servers allow), standings checked against the results; and the
refusals (limits, who may do what)."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from coffeetable.tournaments import Table, standings
from coffeetable.tournaments.arena import arena_points
from tests.server.conftest import TEST_LIMITS, Browser, ServerThread

FAST = {"bot_speed": 10_000}


def _owner(server: ServerThread, browsers: Callable[[str], Browser], name: str) -> Browser:
    owner = browsers(server.url)
    owner.sign_up(name)
    return owner


def _create(owner: Browser, **body: Any) -> str:
    given = {"game": "fika", "format": "swiss", "players": 2, "rounds": 3, "max_entrants": 8}
    response = owner.http.post("/api/tournaments", json={**given, **body})
    assert response.status_code == 200, response.text
    tournament_id: str = response.json()["id"]
    return tournament_id


def _until_finished(owner: Browser, tournament_id: str, timeout: float = 240) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        view: dict[str, Any] = owner.http.get(f"/api/tournaments/{tournament_id}").json()
        if view["status"] == "finished":
            return view
        time.sleep(0.2)
    raise AssertionError(f"not finished: {view['status']}, rounds {view['rounds']}")


def _check_against_results(view: dict[str, Any], rounds: int) -> None:
    """Every table played and recorded once, and standings computed from its results."""
    assert [number["round"] for number in view["rounds"]] == list(range(1, rounds + 1))
    entrants = [entry["entrant"] for entry in view["entrants"]]
    withdrawn = {entry["entrant"] for entry in view["entrants"] if entry["withdrawn"]}
    history = []
    for number in view["rounds"]:
        seated = [e for table in number["tables"] for e in table["entrants"]]
        assert sorted(seated) == sorted(entrants)  # everyone once a round (or a bye)
        for table in number["tables"]:
            assert table["ranks"] is not None
            forfeit = bool(withdrawn & set(table["entrants"]))  # decided without a match
            assert table["bye"] or table["table_id"] or forfeit
        history.append([Table(tuple(t["entrants"]), tuple(t["ranks"])) for t in number["tables"]])
    expected = standings(entrants, history)
    assert [line["entrant"] for line in view["standings"]] == [line.player for line in expected]
    for line, want in zip(view["standings"], expected, strict=True):
        assert Fraction(line["score"]).limit_denominator(12) == want.score
        assert line["played"] == rounds
    total = sum(Fraction(line["score"]).limit_denominator(12) for line in view["standings"])
    # A table of n gives n/2 points in all (1, 0; 1, 2/3, 1/3, 0), a bye one.
    given = [Fraction(max(2, len(t["entrants"])), 2) for r in view["rounds"] for t in r["tables"]]
    assert total == sum(given)


def test_a_swiss_of_eight_site_bots_is_played_to_the_end(
    server: ServerThread, browsers: Callable[[str], Browser]
) -> None:
    owner = _owner(server, browsers, "organiser")
    tournament_id = _create(owner, settings=FAST)
    for level in ["beginner", "casual", "strong", "random"] * 2:
        response = owner.http.post(f"/api/tournaments/{tournament_id}/entries", json={"bot": level})
        assert response.status_code == 200, response.text
    view = _until_finished(owner, tournament_id)  # when_full: the eighth entry started it
    _check_against_results(view, 3)
    met = set()
    for number in view["rounds"]:
        for table in number["tables"]:
            pair = frozenset(table["entrants"])
            assert pair not in met  # no repeat meetings
            met.add(pair)
            summary = server.summary(table["table_id"])
            assert summary["status"] == "over"
    listed = owner.http.get("/api/tournaments").json()
    assert tournament_id in [row["id"] for row in listed["finished"]]
    assert view["tie_breaks"] == ["buchholz", "sonneborn_berger"]


def test_a_four_seat_cafe_swiss_of_twelve(
    server: ServerThread, browsers: Callable[[str], Browser]
) -> None:
    owner = _owner(server, browsers, "barista")
    tournament_id = _create(owner, game="cafe", players=4, rounds=2, max_entrants=12, settings=FAST)
    for level in ["beginner", "casual", "strong"] * 4:
        response = owner.http.post(f"/api/tournaments/{tournament_id}/entries", json={"bot": level})
        assert response.status_code == 200, response.text
    view = _until_finished(owner, tournament_id)
    _check_against_results(view, 2)
    assert all(len(table["entrants"]) == 4 for r in view["rounds"] for table in r["tables"])
    assert view["tie_breaks"] == ["opponents", "rank_sum"]


def test_a_person_enters_withdraws_and_the_owner_starts_a_round_robin(
    start_server: Callable[..., ServerThread], browsers: Callable[[str], Browser]
) -> None:
    server = start_server()
    owner = _owner(server, browsers, "organiser")
    bea = _owner(server, browsers, "bea")
    tournament_id = _create(owner, format="round_robin", rounds=None, settings=FAST)
    path = f"/api/tournaments/{tournament_id}"
    entrant = bea.http.post(f"{path}/entries", json={}).json()["entrant"]
    assert entrant.startswith("u")
    assert bea.http.post(f"{path}/entries", json={}).status_code == 409  # once
    assert bea.http.post(f"{path}/entries", json={"bot": "casual"}).status_code == 403
    assert bea.http.post(f"{path}/start").status_code == 403
    assert owner.http.post(f"{path}/start").status_code == 409  # one entrant
    assert bea.http.delete(f"{path}/entries").json() == {"entrant": entrant, "withdrawn": True}
    assert bea.http.delete(f"{path}/entries").status_code == 404
    for level in ("beginner", "casual", "random"):
        assert owner.http.post(f"{path}/entries", json={"bot": level}).status_code == 200
    assert owner.http.delete(f"{path}/entries", params={"entrant": "random-1"}).status_code == 200
    assert owner.http.post(f"{path}/start").status_code == 200
    view = _until_finished(owner, tournament_id)
    assert [entry["entrant"] for entry in view["entrants"]] == ["beginner-1", "casual-1"]
    _check_against_results(view, 1)
    assert owner.http.post(f"{path}/entries", json={"bot": "casual"}).status_code == 409


def test_refusals_and_limits(
    start_server: Callable[..., ServerThread], browsers: Callable[[str], Browser]
) -> None:
    limits = dataclasses.replace(TEST_LIMITS, tournaments_per_owner=1, tournament_max_entrants=4)
    server = start_server(limits=limits)
    guest = browsers(server.url)
    body = {"game": "fika", "format": "swiss", "players": 2, "rounds": 3, "max_entrants": 4}
    assert guest.http.post("/api/tournaments", json=body).status_code == 401
    owner = _owner(server, browsers, "organiser")
    for wrong, status in [
        ({"game": "nope"}, 400),
        ({"players": 3}, 400),
        ({"rounds": None}, 400),
        ({"format": "arena", "rounds": None}, 400),
        ({"max_entrants": 5}, 400),
        ({"settings": {"bot_speed": 1e9}}, 400),
        ({"settings": {"no_such_setting": 1}}, 400),
        ({"starts": "next tuesday"}, 400),
        ({"format": "knockout"}, 422),
    ]:
        response = owner.http.post("/api/tournaments", json={**body, **wrong})
        assert response.status_code == status, (wrong, response.text)
    assert owner.http.get("/api/tournaments").json() == {
        "upcoming": [],
        "running": [],
        "finished": [],
    }
    tournament_id = _create(owner, max_entrants=4, starts="2099-01-01T00:00:00")
    refused = owner.http.post("/api/tournaments", json=body)
    assert refused.status_code == 409 and "1 tournaments" in refused.json()["detail"]
    path = f"/api/tournaments/{tournament_id}"
    for _ in range(4):
        assert owner.http.post(f"{path}/entries", json={"bot": "casual"}).status_code == 200
    full = owner.http.post(f"{path}/entries", json={})
    assert full.status_code == 409 and "full" in full.json()["detail"]
    assert owner.http.post(f"{path}/entries", json={"bot": "nobody"}).status_code == 400
    assert owner.http.get("/api/tournaments/nope").status_code == 404
    view = owner.http.get(path).json()
    assert view["status"] == "upcoming" and view["starts"].startswith("2099-01-01T00:00:00")


def test_an_arena_pairs_free_players_until_its_time_is_up(
    start_server: Callable[..., ServerThread], browsers: Callable[[str], Browser]
) -> None:
    server = start_server()
    runner = server.server.config.app.state.tournament_runner
    owner = _owner(server, browsers, "organiser")
    tournament_id = _create(
        owner, format="arena", rounds=None, minutes=1, max_entrants=4, settings=FAST
    )
    path = f"/api/tournaments/{tournament_id}"
    for level in ("beginner", "casual", "strong", "random"):
        assert owner.http.post(f"{path}/entries", json={"bot": level}).status_code == 200
    deadline = time.monotonic() + 60
    while len(owner.http.get(path).json()["rounds"]) < 4:  # paired again and again
        assert time.monotonic() < deadline, "the arena does not pair again"
        time.sleep(0.2)
    runner.clock = lambda: time.time() + 61  # a minute on: the time is up
    view = _until_finished(owner, tournament_id, timeout=60)
    results: dict[str, list[Fraction]] = {}
    for number in view["rounds"]:
        seated = [e for table in number["tables"] for e in table["entrants"]]
        assert len(seated) == len(set(seated))  # nobody at two tables of a wave
        for table in number["tables"]:
            assert table["ranks"] is not None and table["table_id"]
            for entrant, points in zip(table["entrants"], table["points"], strict=True):
                results.setdefault(entrant, []).append(Fraction(points).limit_denominator(4))

    for line in view["standings"]:
        want = sum(arena_points(results.get(line["entrant"], [])), Fraction(0))
        assert Fraction(line["points"]).limit_denominator(4) == want, line
    points = [line["points"] for line in view["standings"]]
    assert points == sorted(points, reverse=True)
    assert [line["rank"] for line in view["standings"]] == [1, 2, 3, 4]


def test_a_swiss_goes_on_after_its_server_restarts(
    start_server: Callable[..., ServerThread], browsers: Callable[[str], Browser]
) -> None:
    first = start_server()
    owner = _owner(first, browsers, "organiser")
    slow = {"bot_speed": 1}  # the first round is still being played when the server stops
    tournament_id = _create(owner, rounds=2, max_entrants=4, settings=slow)
    path = f"/api/tournaments/{tournament_id}"
    for level in ("beginner", "casual", "strong", "random"):
        assert owner.http.post(f"{path}/entries", json={"bot": level}).status_code == 200
    view = owner.http.get(path).json()
    assert view["status"] == "running" and view["rounds"][0]["tables"][0]["table_id"]
    assert any(table["ranks"] is None for table in view["rounds"][0]["tables"])
    first.stop()
    second = start_server()
    again = browsers(second.url)
    again.sign_in("organiser")
    view = _until_finished(again, tournament_id, timeout=300)
    _check_against_results(view, 2)
    ids = [t["table_id"] for r in view["rounds"] for t in r["tables"]]
    assert len(ids) == len(set(ids)) == 4


def test_too_few_entrants_at_the_start_time_cancel_it(
    start_server: Callable[..., ServerThread], browsers: Callable[[str], Browser]
) -> None:
    server = start_server()
    owner = _owner(server, browsers, "organiser")
    tournament_id = _create(owner, starts="2020-01-01T00:00:00+00:00")  # due at once
    path = f"/api/tournaments/{tournament_id}"
    deadline = time.monotonic() + 30
    while owner.http.get(path).json()["status"] != "cancelled":
        assert time.monotonic() < deadline
        time.sleep(0.2)
    assert owner.http.post(f"{path}/entries", json={}).status_code == 409
    # A cancelled one no longer counts against the owner's tournaments.
    listed = owner.http.get("/api/tournaments").json()
    assert tournament_id not in [row["id"] for rows in listed.values() for row in rows]


def test_a_withdrawn_entrant_forfeits_the_tables_not_yet_dealt(
    start_server: Callable[..., ServerThread], browsers: Callable[[str], Browser]
) -> None:
    server = start_server()
    owner = _owner(server, browsers, "organiser")
    tournament_id = _create(
        owner, format="round_robin", rounds=None, max_entrants=3, settings={"bot_speed": 1}
    )
    path = f"/api/tournaments/{tournament_id}"
    for level in ("beginner", "casual", "random"):
        assert owner.http.post(f"{path}/entries", json={"bot": level}).status_code == 200
    assert owner.http.get(path).json()["status"] == "running"
    gone = owner.http.delete(f"{path}/entries", params={"entrant": "random-1"})
    assert gone.status_code == 200, gone.text
    view = _until_finished(owner, tournament_id)
    forfeits = [
        table
        for number in view["rounds"]
        for table in number["tables"]
        if "random-1" in table["entrants"] and not table["bye"] and table["table_id"] is None
    ]
    assert forfeits, view["rounds"]
    for table in forfeits:
        assert table["ranks"][table["entrants"].index("random-1")] == 2
        assert table["points"][table["entrants"].index("random-1")] == 0
    _check_against_results(view, 3)


def test_an_entrant_hears_their_tables_are_ready_and_is_withdrawn_after_two_misses(
    start_server: Callable[..., ServerThread], browsers: Callable[[str], Browser]
) -> None:
    """Bea enters and never comes to her tables: stand-ins play them at once (no grace),
    she misses two matches and is paired no more; the bots play on to the end. Each of
    her tables dealt, she had a notification "your table is ready" with its link."""
    server = start_server()
    owner = _owner(server, browsers, "organiser")
    bea = _owner(server, browsers, "bea")
    settings = {**FAST, "grace_seconds": 0}
    tournament_id = _create(owner, rounds=3, max_entrants=4, settings=settings)
    path = f"/api/tournaments/{tournament_id}"
    entrant = bea.http.post(f"{path}/entries", json={}).json()["entrant"]
    for level in ("beginner", "casual", "random"):
        assert owner.http.post(f"{path}/entries", json={"bot": level}).status_code == 200
    view = _until_finished(owner, tournament_id)
    mine = next(entry for entry in view["entrants"] if entry["entrant"] == entrant)
    assert mine["withdrawn"] and mine["missed"] == 2
    assert all(not entry["missed"] for entry in view["entrants"] if entry["bot"])
    seated = [[e for t in r["tables"] for e in t["entrants"]] for r in view["rounds"]]
    assert [entrant in round_ for round_ in seated] == [True, True, False]
    assert all(t["ranks"] is not None for r in view["rounds"] for t in r["tables"])
    # "Your table is ready": a notice for each of her two dealt tables, none for the owner.
    hers = [t["table_id"] for r in view["rounds"] for t in r["tables"] if entrant in t["entrants"]]
    page = bea.http.get("/api/notifications", params={"limit": 50}).json()["notifications"]
    ready = [n for n in page if n["kind"] == "table_ready"]
    assert sorted(n["table_id"] for n in ready) == sorted(hers)
    assert {n["data"]["tournament_id"] for n in ready} == {tournament_id}
    assert sorted(n["data"]["round"] for n in ready) == [1, 2]
    assert ready[0]["data"]["title"] == "Fika"
    owned = owner.http.get("/api/notifications").json()["notifications"]
    assert not [n for n in owned if n["kind"] == "table_ready"]
