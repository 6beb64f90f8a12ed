"""Every registered game (``games.names()``: ours and any installed one, such as the
suite's fifth game, Coffee Beans Nim from tests/plugin_game) is listed by the API and
plays on the site: a person and a bot at one table, the random bot always, ISMCTS
wherever the game can ``determinize``."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from coffeetable import games
from coffeetable.engine import replay_log

from .conftest import TIMEOUT, Client, ServerThread


def _bots(name: str) -> list[str]:
    game = games.get(name)
    return ["random"] + (["ismcts"] if not game.realtime and game.can_determinize else [])


CASES = [(name, bot) for name in games.names() for bot in _bots(name)]


def test_the_fifth_game_is_found_through_its_entry_point() -> None:
    assert "coffee_nim" in games.names()
    assert type(games.get("coffee_nim")).__module__ == "coffee_nim"  # not in our package


@pytest.mark.parametrize("name", games.names())
def test_every_game_is_listed_with_the_bots_it_can_have(
    name: str, start_server: Callable[..., ServerThread]
) -> None:
    server = start_server()
    listed = {game["name"]: game for game in server.http.get("/api/games").json()}
    game = games.get(name)
    assert listed[name]["title"] == game.title
    assert "random" in listed[name]["bots"]
    assert ("ismcts" in listed[name]["bots"]) == (not game.realtime and game.can_determinize)


@pytest.mark.parametrize(("name", "bot"), CASES)
def test_a_person_and_a_bot_play_every_game_at_one_table(
    name: str, bot: str, start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    server = start_server()
    created = server.create(game=name, players=2, bots={"1": bot}, options={"bot_speed": 10})
    person = server.client(created["table_id"], created["token"])
    clients.append(person)
    table = created["table_id"]
    deadline = time.monotonic() + TIMEOUT * 3
    # Six actions: at two seats the bot's too (a turn-based game waits on the seat to act;
    # the person acts only when offered something, so a silent bot would stall it).
    while (summary := server.summary(table))["seq"] < 6 and summary["status"] != "over":
        assert time.monotonic() < deadline, f"the table stalled: {person.messages[-3:]}"
        state = person.state_until(lambda m: bool(m["legal"]) or m["seq"] > 0)
        if state["legal"]:
            person.act(state["legal"][0])
        person.until(lambda m, seq=state["seq"]: m["type"] == "state" and m["seq"] > seq)
    assert not [m for m in person.messages if m["type"] == "error"]
    if summary["status"] == "over":  # the log the site kept replays under the same rules
        log = server.http.get(f"/api/tables/{table}/log").json()
        assert replay_log(log).is_over


@pytest.mark.parametrize("name", games.names())
def test_play_now_without_a_bot_level_waits_for_every_game(
    name: str, start_server: Callable[..., ServerThread]
) -> None:
    server = start_server()
    body = {"game": name, "players": max(2, games.get(name).min_players)}
    response = server.http.post("/api/play-now", json=body)
    assert response.status_code == 200, response.text  # the bots it would seat are its own
