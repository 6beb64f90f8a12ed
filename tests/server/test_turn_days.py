"""Tables that wait for you: days per move, played over "days" on a fake clock."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from coffeetable.server.players import vacations
from coffeetable.store import Database, matches

from .conftest import TEST_LIMITS, TIMEOUT, Browser, Client, ServerThread

HOUR = 3600.0
DAY = 24 * HOUR
#: The server looks at its days clocks this often (the fake clock jumps in between).
LIMITS = dataclasses.replace(TEST_LIMITS, days_check_seconds=0.05)
#: And a live table nobody is connected to is abandoned at once.
QUICK_ABANDON = dataclasses.replace(LIMITS, abandon_after_seconds=0.2)


class FakeClock:
    """The wall clock of the days tables, moved by the test."""

    def __init__(self) -> None:
        self.at = 1_800_000_000.0

    def __call__(self) -> float:
        return self.at

    def advance(self, seconds: float) -> None:
        self.at += seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeClock]:
    fake = FakeClock()
    monkeypatch.setattr(vacations, "now", fake)  # the days tables' clock too
    yield fake


def wait_for(server: ServerThread, table_id: str, test: Callable[[Any], bool]) -> Any:
    """The table's summary once it passes ``test``."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        summary = server.summary(table_id)
        if test(summary):
            return summary
        assert time.monotonic() < deadline, summary
        time.sleep(0.05)


def days_table(server: ServerThread, **options: Any) -> tuple[str, str, str]:
    """A two-player table with one day per move, Ada first; its id and both tokens."""
    settings = {"days_per_move": 1, "first_player": 0, **options}
    created = server.create(game="doppio", players=2, options=settings, name="Ada")
    table_id = created["table_id"]
    bea = server.join(table_id)
    return table_id, created["token"], bea["token"]


def move(server: ServerThread, table_id: str, token: str, clients: list[Client]) -> None:
    """Connect with ``token``, make the first legal move, go away again."""
    player = server.client(table_id, token)
    clients.append(player)
    state = player.playable()
    player.act(state["legal"][0])
    player.state_until(lambda m: m["seq"] > state["seq"])
    player.close()


def test_days_per_move_is_a_turn_based_setting(start_server: Callable[..., ServerThread]) -> None:
    server = start_server(limits=LIMITS)
    listed = {game["name"]: game for game in server.http.get("/api/games").json()}
    names = {name: [s["name"] for s in game["settings"]] for name, game in listed.items()}
    for name, game in listed.items():
        assert ("days_per_move" in names[name]) is (not game["realtime"]), name

    def refused(options: dict[str, Any], game: str = "doppio") -> str:
        body = {"game": game, "players": 2, "options": options}
        response = server.http.post("/api/tables", json=body)
        assert response.status_code in (400, 422), response.text
        return str(response.json()["detail"])

    assert "one of 0, 0.5, 1, 2, 3, 7" in refused({"days_per_move": 4})
    assert "not both" in refused({"days_per_move": 1, "clock_minutes": 5})
    assert "reserve_days needs days_per_move" in refused({"reserve_days": 1})
    realtime = next(name for name, game in listed.items() if game["realtime"])
    assert "days_per_move" in refused({"days_per_move": 1}, realtime)
    assert server.http.get("/api/tables").json() == []  # nothing was made


def test_a_match_over_days_waits_with_nobody_connected_and_survives_a_restart(
    start_server: Callable[..., ServerThread], clients: list[Client], clock: FakeClock, tmp_path
) -> None:
    database = tmp_path / "days.sqlite3"
    server = start_server(database=database, limits=QUICK_ABANDON)
    table_id, ada, bea = days_table(server, reserve_days=0.5)
    summary = server.summary(table_id)
    assert summary["settings"]["days_per_move"] == 1
    assert summary["days"]["left"] == [DAY + DAY / 2, None]  # Ada's move, and her reserve
    move(server, table_id, ada, clients)
    clock.advance(20 * HOUR)
    time.sleep(0.5)  # longer than a live table's abandon timer, with nobody connected
    summary = wait_for(server, table_id, lambda s: s["days"]["left"][1] == 4 * HOUR + DAY / 2)
    assert summary["status"] == "running" and summary["days"]["expired"] == [False, False]
    clock.advance(6 * HOUR)  # Bea took 26 hours: two of them from her reserve
    move(server, table_id, bea, clients)
    summary = server.summary(table_id)
    assert summary["days"]["reserve"] == [DAY / 2, DAY / 2 - 2 * HOUR]
    assert summary["days"]["left"] == [DAY + DAY / 2, None]
    clock.advance(3 * HOUR)
    server.stop()  # the server is down for a while: the players' time still passes
    clock.advance(HOUR)
    again = start_server(database=database, limits=QUICK_ABANDON)
    summary = again.summary(table_id)
    assert summary["status"] == "running"
    assert summary["days"]["left"] == [DAY + DAY / 2 - 4 * HOUR, None]
    assert summary["days"]["reserve"] == [DAY / 2, DAY / 2 - 2 * HOUR]


def expel(server: ServerThread, table_id: str, seat: int, token: str) -> Any:
    return server.http.post(f"/api/tables/{table_id}/expel", json={"seat": seat, "token": token})


def test_a_player_out_of_time_may_still_move_until_the_others_expel_them(
    start_server: Callable[..., ServerThread], clients: list[Client], clock: FakeClock
) -> None:
    server = start_server(limits=LIMITS)
    table_id, ada, bea = days_table(server)
    watcher = server.client(table_id)  # a spectator hears the table's news
    clients.append(watcher)
    move(server, table_id, ada, clients)
    early = expel(server, table_id, 1, ada)
    assert early.status_code == 409 and "not run out" in early.json()["detail"]
    clock.advance(DAY + HOUR)
    event = watcher.event_until(lambda e: e["type"] == "days")
    assert event == {"type": "days", "seat": 1, "expired": True}
    summary = server.summary(table_id)
    assert summary["status"] == "running" and summary["days"]["expired"] == [False, True]
    own = expel(server, table_id, 1, bea)
    assert own.status_code == 400 and "yourself" in own.json()["detail"]
    stranger = expel(server, table_id, 1, "not-a-token")
    assert stranger.status_code == 403
    move(server, table_id, bea, clients)  # Ada waited: Bea moves late, and is on time again
    summary = server.summary(table_id)
    assert summary["days"]["expired"] == [False, False] and summary["days"]["reserve"] == [0, 0]
    move(server, table_id, ada, clients)
    clock.advance(2 * DAY)
    wait_for(server, table_id, lambda s: s["days"]["expired"][1])
    expelled = expel(server, table_id, 1, ada)
    assert expelled.status_code == 200, expelled.text
    assert expelled.json() == {"seat": 1, "expelled": True}
    watcher.event_until(lambda e: e.get("expelled") is True)
    # A bot plays Bea's seat from now on; her token is dead; she counts as a leaver.
    summary = wait_for(server, table_id, lambda s: s["days"]["left"][0] is not None)
    assert summary["seats"][1]["left"] is True and summary["seats"][1]["bot"] == "greedy"
    assert summary["days"]["expired"] == [False, False]
    dead = server.http.post(f"/api/tables/{table_id}/leave", json={"token": bea})
    assert dead.status_code == 403
    # Ada, the last person, runs out of time too: nobody is left to wait for.
    clock.advance(DAY + 1)
    wait_for(server, table_id, lambda s: s["status"] == "abandoned")
    database = Database(server.database_url)
    with database.engine.connect() as conn:
        match = matches.match_for_table(conn, table_id)
    database.close()
    assert match is not None and match.status == "abandoned"
    assert [seat.left for seat in match.participants] == [True, True]  # both counted


def test_a_live_table_expels_nobody(start_server: Callable[..., ServerThread]) -> None:
    server = start_server()  # a live table's abandon timer as usual
    created = server.create(game="doppio", players=2)
    server.join(created["table_id"])
    refused = expel(server, created["table_id"], 1, created["token"])
    assert refused.status_code == 409 and "live table" in refused.json()["detail"]


def test_a_vacation_stops_the_clocks_within_the_days_allowed_a_year(
    start_server: Callable[..., ServerThread],
    browsers: Callable[[str], Browser],
    clients: list[Client],
    clock: FakeClock,
) -> None:
    server = start_server(limits=LIMITS)
    ada, bea = browsers(server.url), browsers(server.url)
    ada.sign_up("ada")
    bea.sign_up("bea")
    options = {"days_per_move": 1, "first_player": 0}
    made = ada.http.post("/api/tables", json={"game": "doppio", "players": 2, "options": options})
    table_id = made.json()["table_id"]
    assert bea.http.post(f"/api/tables/{table_id}/join", json={}).status_code == 200
    move(server, table_id, made.json()["token"], clients)
    assert bea.http.get("/api/me/vacation").json() == {
        "on_vacation": False,
        "until": None,
        "used_days": 0,
        "allowed_days": 30,
        "left_days": 30,
    }
    taken = bea.http.put("/api/me/vacation", json={"days": 3})
    assert taken.status_code == 200, taken.text
    assert taken.json()["on_vacation"] is True and taken.json()["left_days"] == 27
    clock.advance(2 * DAY)  # on vacation: Bea's clock does not run
    time.sleep(0.3)
    summary = server.summary(table_id)
    assert summary["days"]["left"][1] == DAY and summary["days"]["expired"] == [False, False]
    back = bea.http.put("/api/me/vacation", json={"days": 0})  # back early: 2 days used
    assert back.json()["on_vacation"] is False and back.json()["used_days"] == 2
    clock.advance(23 * HOUR)
    summary = wait_for(server, table_id, lambda s: s["days"]["left"][1] == HOUR)
    assert summary["days"]["expired"] == [False, False]
    too_long = bea.http.put("/api/me/vacation", json={"days": 29})
    assert too_long.status_code == 400
    assert too_long.json()["detail"] == "at most 30 vacation days in a year: 28.0 left"
    assert bea.http.get("/api/me/vacation").json()["used_days"] == 2  # nothing changed
    clock.advance(2 * HOUR)
    wait_for(server, table_id, lambda s: s["days"]["expired"] == [False, True])
    guest = server.http.put("/api/me/vacation", json={"days": 1})
    assert guest.status_code == 401


def test_my_games_lists_the_tables_waiting_for_me_first(
    start_server: Callable[..., ServerThread],
    browsers: Callable[[str], Browser],
    clients: list[Client],
    clock: FakeClock,
) -> None:
    server = start_server(limits=LIMITS)
    ada, bea = browsers(server.url), browsers(server.url)
    ada.sign_up("ada")
    bea.sign_up("bea")
    made = []
    for first in (1, 0):  # Bea's move at the older table, Ada's at the newer one
        options = {"days_per_move": 2, "first_player": first}
        body = {"game": "doppio", "players": 2, "options": options}
        made.append(ada.http.post("/api/tables", json=body).json()["table_id"])
        assert bea.http.post(f"/api/tables/{made[-1]}/join", json={}).status_code == 200
    waiting = ada.http.post("/api/tables", json={"game": "doppio", "players": 2}).json()
    clock.advance(5 * HOUR)
    mine = ada.http.get("/api/me/games").json()
    assert mine["my_turn"] == 1 and mine["total"] == 3
    first, *others = mine["tables"]
    assert first["table_id"] == made[1] and first["my_turn"] is True
    assert first["time_left"] == 2 * DAY - 5 * HOUR and first["opponents"] == ["bea"]
    assert [t["table_id"] for t in others] == [waiting["table_id"], made[0]]  # newest first
    assert others[0]["status"] == "open" and others[0]["time_left"] is None
    theirs = bea.http.get("/api/me/games").json()
    assert theirs["my_turn"] == 1 and theirs["tables"][0]["table_id"] == made[0]
    assert server.http.get("/api/me/games").status_code == 401


def test_when_the_others_leave_a_player_out_of_time_the_match_ends(
    start_server: Callable[..., ServerThread], clients: list[Client], clock: FakeClock
) -> None:
    server = start_server(limits=LIMITS)
    table_id, ada, _ = days_table(server)
    move(server, table_id, ada, clients)
    clock.advance(2 * DAY)
    wait_for(server, table_id, lambda s: s["days"]["expired"] == [False, True])
    left = server.http.post(f"/api/tables/{table_id}/leave", json={"token": ada})
    assert left.status_code == 200
    wait_for(server, table_id, lambda s: s["status"] == "abandoned")  # nobody to wait for


def test_no_stand_in_takes_an_absent_players_seat_at_a_days_table(
    start_server: Callable[..., ServerThread], clock: FakeClock
) -> None:
    server = start_server(limits=LIMITS)
    table_id, ada, _ = days_table(server, grace_seconds=0)
    time.sleep(0.2)  # Bea is away, past a grace of 0 s, and it is not even her move
    refused = server.http.post(
        f"/api/tables/{table_id}/seats/1/bot", json={"token": ada, "level": "greedy"}
    )
    assert refused.status_code == 409 and "expel them" in refused.json()["detail"]
    assert server.summary(table_id)["seats"][1]["stand_in"] is None
