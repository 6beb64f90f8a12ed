"""The HTTP API: every endpoint, bad input and wrong tokens."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from coffeetable.engine import replay_log
from coffeetable.server.app import create_app

from .conftest import TIMEOUT, Client, ServerThread

FAST = {"bot_speed": 1000}


def test_games_lists_espresso_with_options_bots_and_settings(server: ServerThread) -> None:
    response = server.http.get("/api/games")
    assert response.status_code == 200
    games = {game["name"]: game for game in response.json()}
    espresso = games["espresso"]
    assert (espresso["min_players"], espresso["max_players"]) == (2, 6)
    options = {option["name"]: option["default"] for option in espresso["options"]}
    assert options == {"zero": False, "chaos": False, "target": 100, "idle_seconds": 60}
    assert "random" in espresso["bots"]
    names = [setting["name"] for setting in espresso["settings"]]
    assert names == ["bot_speed", "grace_seconds", "min_reliability", "min_reaction"]


def test_openapi_documents_the_api(server: ServerThread) -> None:
    paths = server.http.get("/openapi.json").json()["paths"]
    for path in (
        "/api/games",
        "/api/tables",
        "/api/tables/{table_id}",
        "/api/tables/{table_id}/join",
        "/api/tables/{table_id}/leave",
        "/api/tables/{table_id}/seats/{seat}/bot",
        "/api/tables/{table_id}/log",
    ):
        assert path in paths


def test_index_and_static_are_served(server: ServerThread) -> None:
    response = server.http.get("/")
    assert response.status_code == 200
    assert "html" in response.headers["content-type"]
    assert server.http.get("/static/no-such-file.js").status_code == 404


def test_create_join_and_start(server: ServerThread) -> None:
    created = server.create(players=3, name="Ada", options={"zero": True, **FAST})
    assert created["seat"] == 0 and len(created["token"]) >= 32
    table_id = created["table_id"]
    summary = server.summary(table_id)
    assert summary["status"] == "open"
    assert summary["options"]["zero"] is True
    assert summary["settings"] == {
        "bot_speed": 1000,
        "grace_seconds": 30,
        "min_reliability": 0,
        "min_reaction": 0.3,
        "rated": False,
    }
    assert summary["rated"] is False  # a guest's table
    assert [seat["name"] for seat in summary["seats"]] == ["Ada", None, None]
    assert [seat["open"] for seat in summary["seats"]] == [False, True, True]
    assert table_id in [table["table_id"] for table in server.http.get("/api/tables").json()]

    assert server.join(table_id, "  Bea  ")["seat"] == 1
    assert server.join(table_id, "")["seat"] == 2
    summary = server.summary(table_id)
    assert summary["status"] == "running"
    assert [seat["name"] for seat in summary["seats"]] == ["Ada", "Bea", "Player 3"]
    full = server.http.post(f"/api/tables/{table_id}/join", json={"name": "Cy"})
    assert full.status_code == 409
    assert server.http.get(f"/api/tables/{table_id}/log").status_code == 409


def test_creator_takes_the_first_seat_that_is_not_a_bot(server: ServerThread) -> None:
    created = server.create(players=3, bots={"0": "random", "2": "random"}, options=FAST)
    assert created["seat"] == 1
    seats = server.summary(created["table_id"])["seats"]
    assert [seat["bot"] for seat in seats] == ["random", None, "random"]
    assert server.summary(created["table_id"])["status"] == "running"


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        # The OpenAPI says what each game takes: schema errors are 422s naming the field.
        ({"game": "tea", "players": 2}, 422, "espresso"),
        ({"game": "espresso", "players": 1}, 422, "greater than or equal to 2"),
        ({"game": "espresso", "players": 7}, 422, "less than or equal to 6"),
        ({"game": "fika", "players": 3}, 422, "less than or equal to 2"),
        ({"game": "espresso", "players": "two"}, 422, "players"),
        ({"game": "espresso"}, 422, "players"),
        ({"game": "espresso", "players": 2, "options": {"zero": "yes"}}, 422, "zero"),
        ({"game": "espresso", "players": 2, "options": {"speed": 3}}, 422, "speed"),
        ({"game": "espresso", "players": 2, "options": {"target": 0}}, 422, "target"),
        ({"game": "espresso", "players": 2, "options": {"bot_speed": 0}}, 422, "bot_speed"),
        ({"game": "espresso", "players": 2, "bots": {"x": "random"}}, 422, "pattern"),
        ({"game": "espresso", "players": 2, "bots": {"1": "genius"}}, 422, "greedy"),
        # What depends on more than one field is the lobby's: 400s with a sentence.
        ({"game": "espresso", "players": 2, "bots": {"5": "random"}}, 400, "no seat"),
    ],
)
def test_create_refuses_bad_input(
    server: ServerThread, body: dict[str, object], status: int, words: str
) -> None:
    response = server.http.post("/api/tables", json=body)
    assert response.status_code == status, response.text
    assert words in str(response.json()["detail"])


def test_a_normal_server_chooses_the_seed(start_server: Callable[..., ServerThread]) -> None:
    server = start_server(allow_seed=False)
    body = {"game": "espresso", "players": 2, "seed": 7}
    response = server.http.post("/api/tables", json=body)
    assert response.status_code == 400
    assert "seed" in response.json()["detail"]


def test_unknown_table_is_404_everywhere(server: ServerThread) -> None:
    http = server.http
    assert http.get("/api/tables/nope").status_code == 404
    assert http.get("/api/tables/nope/log").status_code == 404
    assert http.post("/api/tables/nope/join", json={"name": "x"}).status_code == 404
    assert http.post("/api/tables/nope/leave", json={"token": "t"}).status_code == 404
    body = {"token": "t", "level": "random"}
    assert http.post("/api/tables/nope/seats/1/bot", json=body).status_code == 404
    assert "nope" in http.get("/api/tables/nope").json()["detail"]


def test_wrong_tokens_are_refused(server: ServerThread) -> None:
    table_id = server.create(options=FAST)["table_id"]
    other = server.create(options=FAST)
    http = server.http
    leave = http.post(f"/api/tables/{table_id}/leave", json={"token": other["token"]})
    assert leave.status_code == 403
    body = {"token": "not-a-token", "level": "random"}
    assert http.post(f"/api/tables/{table_id}/seats/1/bot", json=body).status_code == 403
    # No token and not signed in: nobody to speak for.
    assert http.post(f"/api/tables/{table_id}/leave", json={}).status_code == 403


def test_leaving_an_open_table_frees_the_seat(server: ServerThread) -> None:
    created = server.create(players=3, options=FAST)
    table_id = created["table_id"]
    bea = server.join(table_id, "Bea")
    left = server.http.post(f"/api/tables/{table_id}/leave", json={"token": bea["token"]})
    assert left.status_code == 200 and left.json()["seat"] == 1
    assert server.summary(table_id)["seats"][1]["open"] is True
    assert server.join(table_id, "Cy")["seat"] == 1
    again = server.http.post(f"/api/tables/{table_id}/leave", json={"token": bea["token"]})
    assert again.status_code == 403


def test_everyone_leaving_abandons_the_table(server: ServerThread) -> None:
    created = server.create(options=FAST)
    table_id = created["table_id"]
    bea = server.join(table_id, "Bea")
    for token in (created["token"], bea["token"]):
        response = server.http.post(f"/api/tables/{table_id}/leave", json={"token": token})
        assert response.status_code == 200
    summary = server.summary(table_id)
    assert summary["status"] == "abandoned"
    assert [seat["left"] for seat in summary["seats"]] == [True, True]
    assert table_id not in [table["table_id"] for table in server.http.get("/api/tables").json()]
    assert summary["seats"][0]["bot"]  # a bot took over from the first leaver
    log = server.http.get(f"/api/tables/{table_id}/log")
    assert log.status_code == 200
    assert all(seat == 0 for seat, _ in log.json()["actions"])  # only that bot played


def test_seating_bots(server: ServerThread) -> None:
    created = server.create(players=3, options=FAST)
    table_id, token = created["table_id"], created["token"]
    url = f"/api/tables/{table_id}/seats/{{}}/bot"
    post = server.http.post
    assert post(url.format(1), json={"token": token, "level": "genius"}).status_code == 400
    assert post(url.format(5), json={"token": token, "level": "random"}).status_code == 404
    assert post(url.format(9), json={"token": token, "level": "random"}).status_code == 422
    # an open seat: at once
    assert post(url.format(1), json={"token": token, "level": "random"}).status_code == 200
    bea = server.join(table_id, "Bea")  # the last seat: the match starts
    assert server.summary(table_id)["status"] == "running"
    # a person just seated, within the table's grace_seconds (30): not yet
    refused = post(url.format(2), json={"token": token, "level": "random"})
    assert refused.status_code == 409 and "wait" in refused.json()["detail"]
    assert bea["seat"] == 2
    # away longer than the grace: a stand-in plays for them, the seat stays theirs
    created = server.create(players=3, options={**FAST, "grace_seconds": 0.2})
    table_id, token = created["table_id"], created["token"]
    url = f"/api/tables/{table_id}/seats/{{}}/bot"
    assert post(url.format(1), json={"token": token, "level": "random"}).status_code == 200
    bea = server.join(table_id, "Bea")
    time.sleep(0.3)
    assert post(url.format(2), json={"token": token, "level": "random"}).status_code == 200
    seats = server.summary(table_id)["seats"]
    assert [seat["bot"] for seat in seats] == [None, "random", None]
    assert seats[2]["stand_in"] == "random" and seats[2]["name"] == "Bea"
    # handing her own seat to a bot for good: then her token no longer holds a seat
    assert post(url.format(2), json={"token": bea["token"], "level": "random"}).status_code == 200
    seats = server.summary(table_id)["seats"]
    assert [seat["bot"] for seat in seats] == [None, "random", "random"]
    assert seats[2]["stand_in"] is None
    assert post(url.format(0), json={"token": bea["token"], "level": "random"}).status_code == 403


def test_a_player_may_hand_their_own_seat_to_a_bot(server: ServerThread) -> None:
    created = server.create(options=FAST)
    table_id, token = created["table_id"], created["token"]
    server.join(table_id, "Bea")
    url = f"/api/tables/{table_id}/seats/0/bot"
    assert server.http.post(url, json={"token": token, "level": "random"}).status_code == 200
    assert server.http.post(url, json={"token": token, "level": "random"}).status_code == 403


def test_a_seat_left_during_the_match_can_take_a_bot_at_once(server: ServerThread) -> None:
    created = server.create(options={**FAST, "grace_seconds": 600})
    table_id = created["table_id"]
    bea = server.join(table_id, "Bea")
    assert server.http.post(f"/api/tables/{table_id}/leave", json=bea).status_code == 200
    summary = server.summary(table_id)
    assert summary["status"] == "running"
    assert summary["seats"][1]["left"] is True and summary["seats"][1]["name"] == "Bea"
    body = {"token": created["token"], "level": "random"}
    assert server.http.post(f"/api/tables/{table_id}/seats/1/bot", json=body).status_code == 200


def test_a_bot_match_runs_to_the_end_and_its_log_replays(server: ServerThread) -> None:
    created = server.create(
        players=3,
        bots={"0": "random", "1": "random", "2": "random"},
        options={"target": 5, "bot_speed": 10_000},
    )
    assert created["seat"] is None and created["token"] is None
    table_id = created["table_id"]
    deadline = time.monotonic() + TIMEOUT * 3
    while server.summary(table_id)["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.1)
    log = server.http.get(f"/api/tables/{table_id}/log").json()
    assert set(log) == {"game", "players", "seed", "options", "actions"}
    assert log["game"] == "espresso" and log["players"] == 3
    assert log["options"]["target"] == 5
    assert len(log["actions"]) == server.summary(table_id)["seq"]
    state = replay_log(log)
    assert state.is_over and state.winners


def test_a_turn_based_game_plays_through_the_same_server(
    sugar: str, server: ServerThread, clients: list[Client]
) -> None:
    # ``sugar`` comes first: a game registered before the app is built is served like ours.
    listed = {game["name"]: game for game in server.http.get("/api/games").json()}
    assert "random" in listed["sugar"]["bots"]
    created = server.create(game=sugar, players=2, bots={"1": "random"}, options={"cubes": 9})
    ada = server.client(created["table_id"], created["token"])
    clients.append(ada)
    while True:
        state = ada.state_until(lambda m: bool(m["legal"]) or m["view"]["cubes"] == 0)
        if state["view"]["cubes"] == 0:
            break
        assert state["actors"] == [0]
        ada.act(state["legal"][0])
        ada.until(lambda m, seq=state["seq"]: m["type"] == "state" and m["seq"] > seq)
        assert ada.state is not None and ada.state["legal"] == []  # the bot's turn
    summary = server.summary(created["table_id"])
    assert summary["status"] == "over"
    log = server.http.get(f"/api/tables/{created['table_id']}/log").json()
    assert log["options"] == {"cubes": 9} and len(log["actions"]) == summary["seq"]
    assert sum(action["n"] for _, action in log["actions"]) == 9


def test_every_integer_query_parameter_has_bounds() -> None:
    """Issue #27: an unbounded offset reached the database as 2**63 (a 500). Every
    integer in a query (offset, limit, start, count, seat...) has a least and a most."""
    schema = create_app("sqlite://").openapi()
    found = []
    for path, operations in schema["paths"].items():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                kinds = parameter["schema"].get("anyOf", [parameter["schema"]])
                for kind in kinds:
                    if parameter["in"] == "query" and kind.get("type") == "integer":
                        found.append((path, parameter["name"]))
                        assert "minimum" in kind, (path, parameter["name"])
                        assert "maximum" in kind or "exclusiveMaximum" in kind, (
                            path,
                            parameter["name"],
                        )
    assert ("/api/leaderboards/{game}", "offset") in found
