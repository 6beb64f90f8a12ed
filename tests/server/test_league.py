"""The programs' league on a real server: a bot account opts in, the league plays it
against the site's bot levels at the operator's pace (turned up, bots at high speed),
and ``GET /api/leagues/{game}`` shows each pair's results and standings computed from
them; a program that does not come to its table forfeits it (a stand-in plays it), one
that plays its seat itself (``coffeetable.client``) within the grace gets its result;
off by default; refusals."""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from coffeetable import bots, client
from coffeetable.engine import Game
from coffeetable.server.league.runner import has_league
from coffeetable.tournaments.league import wilson
from tests.server.conftest import TEST_LIMITS, Browser, ServerThread


def _bot_in_league(server: ServerThread, browsers: Callable[[str], Browser]) -> Browser:
    ana = browsers(server.url)
    ana.sign_up("ana")
    made = ana.http.post("/api/bots", json={"name": "bot-a", "description": "tries"})
    assert made.status_code == 200, made.text
    assert made.json()["league"] is False
    changed = ana.http.patch("/api/bots/bot-a", json={"league": True})
    assert changed.status_code == 200, changed.text
    assert changed.json()["league"] is True and changed.json()["invitable_by"] == "owner"
    return ana


def test_the_league_plays_a_program_against_every_reference(
    start_server: Callable[..., ServerThread], browsers: Callable[[str], Browser]
) -> None:
    limits = dataclasses.replace(
        TEST_LIMITS,
        league_matches_per_hour=36_000,
        league_grace_seconds=0,  # no program connects: a stand-in plays its seat
        tournament_tick_seconds=0.1,
    )
    server = start_server(limits=limits)
    ana = _bot_in_league(server, browsers)
    levels = bots.available("fika")
    deadline = time.monotonic() + 300
    league: dict[str, Any] = {}
    while time.monotonic() < deadline:  # until the program met every reference
        league = ana.http.get("/api/leagues/fika").json()
        if len(league["pairs"]) >= len(levels):
            break
        time.sleep(0.3)
    assert len(league["pairs"]) == len(levels), league
    program = next(p["entrant"] for p in league["players"] if not p["reference"])
    assert [p["name"] for p in league["players"]][0] == "ana/bot-a"
    assert league["matches_per_hour"] == 36_000
    # Every pair has the program in it: the references never meet each other.
    pairs = league["pairs"]
    assert all(program in (pair["a"], pair["b"]) for pair in pairs)
    assert league["playing"] <= 4  # a few at a time (runner.PLAYING)
    for pair in pairs:  # a win 1, a shared win 1/2: each match gives 1 in all
        assert pair["a_points"] + pair["b_points"] == pair["played"]
        # The program never came: a stand-in played each of its matches, each its forfeit.
        side = "a" if pair["a"] == program else "b"
        other = "b" if side == "a" else "a"
        assert pair[f"{side}_forfeits"] == pair["played"] and pair[f"{side}_points"] == 0
        assert pair[f"{other}_forfeits"] == 0 and pair["void"] == 0
    # The standings add the pairs up, with Wilson's interval around each share.
    by_entrant = {line["entrant"]: line for line in league["standings"]}
    for entrant, line in by_entrant.items():
        mine = [p for p in pairs if entrant in (p["a"], p["b"])]
        played = sum(p["played"] for p in mine)
        points = sum(p["a_points"] if p["a"] == entrant else p["b_points"] for p in mine)
        assert line["played"] == played and abs(line["points"] - points) < 1e-3
        low, high = wilson(points, played)
        assert abs(line["low"] - low) < 1e-3 and abs(line["high"] - high) < 1e-3
        assert line["low"] <= line["share"] <= line["high"]
    shares = [line["share"] for line in league["standings"]]
    assert shares == sorted(shares, reverse=True)
    assert by_entrant[program]["played"] == sum(p["played"] for p in pairs)
    assert by_entrant[program]["forfeits"] == by_entrant[program]["played"]
    assert by_entrant[program]["points"] == 0 and league["standings"][-1]["entrant"] == program


def test_a_program_that_plays_its_seats_within_the_grace_gets_its_results(
    start_server: Callable[..., ServerThread], browsers: Callable[[str], Browser]
) -> None:
    """The seat waits for the program (a long grace); the program finds its league tables
    as any invitation (``GET /api/me``) and plays them itself: no forfeit, and the league
    counts what the board said."""
    limits = dataclasses.replace(
        TEST_LIMITS,
        league_matches_per_hour=36_000,
        league_grace_seconds=600,
        tournament_tick_seconds=0.1,
    )
    server = start_server(limits=limits)
    ana = _bot_in_league(server, browsers)
    made = ana.http.post("/api/bots/bot-a/keys", json={"label": "league"})
    assert made.status_code == 200, made.text
    rng = random.Random(3)
    results = client.play(
        server.url, made.json()["key"], lambda view, legal: rng.choice(legal), "fika", games=3
    )
    assert [result.status for result in results] == ["over"] * 3
    mine = {result.table_id: result for result in results}
    deadline = time.monotonic() + 30
    while True:  # each result is written with its match's last action; a moment to read it
        league = ana.http.get("/api/leagues/fika").json()
        line = next(line for line in league["standings"] if not line["entrant"].startswith("bot:"))
        if line["played"] >= 3 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert line["played"] == 3 and line["forfeits"] == 0, league
    won = sum(
        Fraction(1, len(result.winners)) if result.won else Fraction(0) for result in mine.values()
    )
    assert Fraction(line["points"]).limit_denominator(4) == won
    assert all(pair["a_forfeits"] == pair["b_forfeits"] == 0 for pair in league["pairs"])


def test_the_league_is_off_by_default_and_refusals(
    start_server: Callable[..., ServerThread], browsers: Callable[[str], Browser]
) -> None:
    server = start_server(limits=dataclasses.replace(TEST_LIMITS, tournament_tick_seconds=0.1))
    ana = _bot_in_league(server, browsers)
    time.sleep(1.5)  # many ticks: none starts a match at the default pace, 0
    league = ana.http.get("/api/leagues/fika").json()
    assert league["matches"] == 0 and league["playing"] == 0 and league["pairs"] == []
    assert league["matches_per_hour"] == 0
    assert [line["played"] for line in league["standings"]] == [0] * len(league["players"])
    assert ana.http.get("/api/leagues/nope").status_code == 404
    assert ana.http.get("/api/leagues/NOT%20A%20GAME").status_code in (404, 422)
    # Only the bot's owner changes it; a wrong value changes nothing.
    bob = browsers(server.url)
    bob.sign_up("bob")
    assert bob.http.patch("/api/bots/bot-a", json={"league": False}).status_code == 404
    assert ana.http.patch("/api/bots/bot-a", json={"league": "yes please"}).status_code == 422
    assert ana.http.get("/api/bots").json()[0]["league"] is True
    assert ana.http.patch("/api/bots/bot-a", json={"league": False}).json()["league"] is False
    league = ana.http.get("/api/leagues/fika").json()
    assert all(player["reference"] for player in league["players"])


def test_the_games_say_which_have_a_league_and_each_league_page_answers(
    server: ServerThread, browsers: Callable[[str], Browser]
) -> None:
    """``GET /api/games`` says ``league`` for each game (the lobby and the tournaments page
    link to ``#/leagues/<game>`` by it): those that seat two, and each answers."""
    reader = browsers(server.url)
    listed = reader.http.get("/api/games").json()
    assert listed and all(isinstance(game["league"], bool) for game in listed)
    for game in listed:
        assert game["league"] is (game["min_players"] <= 2 <= game["max_players"]), game["name"]
        status = reader.http.get(f"/api/leagues/{game['name']}").status_code
        assert status == (200 if game["league"] else 404), game["name"]


@pytest.mark.parametrize(("least", "most", "league"), [(2, 2, True), (1, 4, True), (3, 6, False)])
def test_a_league_is_played_in_a_game_that_seats_two(least: int, most: int, league: bool) -> None:
    class Seats(Game):
        name = title = "seats"
        min_players, max_players = least, most

        def new_state(self, players: int, seed: int = 0, **options: Any) -> Any:
            raise NotImplementedError

    assert has_league(Seats()) is league
