"""The lobby's rough edges: titles from the first render, table names worded in
the reader's language, "2 players" (not "2–2"), the banner kept in view, and a
phone's width (360 px) with no horizontal scroll."""

from __future__ import annotations

import json
import urllib.request

import pytest

from tests.browser.conftest import Server
from tests.browser.helpers import tid

pytestmark = pytest.mark.browser


def games(server: Server) -> list[dict]:
    with urllib.request.urlopen(server.url + "/api/games", timeout=10) as response:
        return json.loads(response.read())


def test_table_names_and_titles_in_the_readers_language(new_page, server: Server) -> None:  # type: ignore[no-untyped-def]
    ours = server.post(
        "/api/tables", {"game": "espresso", "players": 3, "name": "Zoé", "bots": {"1": "easy"}}
    )
    bots = server.post(
        "/api/tables",
        {"game": "fika", "players": 2, "bots": {"0": "greedy", "1": "greedy"}, "options": {}},
    )
    page = new_page("fr-FR")
    page.goto(server.url + "/#/")
    row = page.wait_for_selector(tid(f"table-row-{ours['table_id']}"))
    text = row.inner_text()
    assert "La table de Zoé" in text and "Espresso" in text and "espresso ·" not in text
    bots_row = page.locator(tid(f"table-row-{bots['table_id']}"))
    if bots_row.count():  # still listed (a fast bots' match may be over already)
        assert "Fika entre robots" in bots_row.inner_text()
    for game in games(server):
        card = page.inner_text(tid(f"game-card-{game['name']}"))
        if game["min_players"] == game["max_players"]:
            assert f"{game['min_players']} joueurs" in card and "à" not in card.split("·")[0]
    page.goto(f"{server.url}/#/table/{ours['table_id']}")
    page.wait_for_selector(f"{tid('table-head')} h1")
    assert page.inner_text(f"{tid('table-head')} h1") == "La table de Zoé"


def test_the_lobby_fits_a_phone_and_the_banner_stays_in_view(new_page, server: Server) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(server.url + "/#/")
    page.wait_for_selector(tid("create-form"))
    page.click(tid("play-now-espresso"))
    page.wait_for_selector(tid("play-now-go"))
    widths = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.body.scrollWidth, innerWidth]"
    )
    assert max(widths[:2]) <= widths[2], widths
    assert page.evaluate(
        "() => getComputedStyle(document.querySelector('[data-testid=banner]')).position"
    ) in ("sticky", "fixed")


def test_the_new_table_form_starts_with_bots_so_a_game_starts_at_once(page, server: Server) -> None:  # type: ignore[no-untyped-def]
    page.goto(server.url + "/#/")
    page.click(tid("new-table-fika"))
    assert page.input_value(tid("seat-select-1")) == "bot:casual"
    levels = page.eval_on_selector_all(
        f"{tid('seat-select-1')} option[value^='bot:']", "els => els.map(e => e.value)"
    )
    assert levels == ["bot:beginner", "bot:casual", "bot:strong", "bot:expert"]  # plain names
    page.click(tid("new-table-espresso"))
    page.select_option(tid("create-players"), "3")
    assert page.input_value(tid("seat-select-1")) == "bot:medium"
    assert page.input_value(tid("seat-select-2")) == "bot:medium"
    page.fill(tid("create-name"), "Ada")
    page.click(tid("create-submit"))
    page.wait_for_selector(tid("espresso"))
    page.wait_for_function(
        "() => ['ready', 'play'].includes(document.querySelector('[data-testid=espresso]')"
        ".dataset.phase)"
    )


def test_an_invited_friend_gives_a_name_before_taking_the_seat(page, server: Server) -> None:  # type: ignore[no-untyped-def]
    created = server.post("/api/tables", {"game": "fika", "players": 2, "name": "Ada"})
    page.goto(f"{server.url}/#/table/{created['table_id']}")
    page.click(tid("take-seat"))
    page.wait_for_selector(tid("seat-name-form"))
    assert page.get_attribute(tid("seat-sign-in"), "href") == "#/signin"
    page.fill(tid("seat-name"), "Bea")
    page.click(tid("seat-name-go"))
    page.wait_for_selector(f"{tid('seat-1')}.me")
    assert "Bea" in page.inner_text(tid("seat-1"))
