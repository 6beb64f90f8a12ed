"""Tournaments in the browser: the list, entering and withdrawing on a tournament's page,
and a Swiss of site bots followed to its end: the standings with their tie-breaks and
a replay link for every match, in French too."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import Server
from tests.browser.helpers import LONG, tid
from tests.browser.test_players import sign_up

pytestmark = pytest.mark.browser


def _fetch(page: Page, method: str, path: str, body: Any = None) -> Any:
    """A request from the page (its session cookie), as the site's own scripts send."""
    return page.evaluate(
        """async ([method, path, body]) => {
            const response = await fetch(path, {
                method, headers: {'Content-Type': 'application/json'},
                body: body === null ? undefined : JSON.stringify(body),
            });
            return {status: response.status, body: await response.json()};
        }""",
        [method, path, body],
    )


def _create(page: Page, **body: Any) -> str:
    given = {"game": "fika", "format": "swiss", "players": 2, "rounds": 2, "max_entrants": 4}
    answer = _fetch(page, "POST", "/api/tournaments", {**given, **body})
    assert answer["status"] == 200, answer
    return str(answer["body"]["id"])


def test_enter_withdraw_and_follow_a_swiss_to_its_standings(
    own_server: Server, new_page: Any
) -> None:
    page: Page = new_page()
    sign_up(page, own_server, "bea")
    upcoming = _create(page, name="Friday <b>Fika</b>", starts="2099-01-01T00:00:00")
    page.goto(f"{own_server.url}/#/")
    listed = page.wait_for_selector(f"{tid('lobby-tournaments')} [data-id='{upcoming}']")
    assert listed is not None and "Friday <b>Fika</b>" in listed.inner_text()  # in the lobby
    page.click(tid("nav-tournaments"))
    row = page.wait_for_selector(f"{tid('tournaments-upcoming')} [data-id='{upcoming}']")
    assert row is not None and "Friday <b>Fika</b>" in row.inner_text()  # as text
    row.query_selector("a").click()  # type: ignore[union-attr]
    page.click(tid("tournament-enter"))
    page.wait_for_selector(tid("tournament-withdraw"))
    page.click(tid("tournament-withdraw"))
    page.wait_for_selector(tid("tournament-enter"))

    played = _create(page, name="Bots only", settings={"bot_speed": 10})
    for level in ("beginner", "casual", "strong", "random"):
        answer = _fetch(page, "POST", f"/api/tournaments/{played}/entries", {"bot": level})
        assert answer["status"] == 200, answer
    page.goto(f"{own_server.url}/#/tournaments/{played}")
    page.wait_for_selector(f"{tid('tournament-status')}[data-status='finished']", timeout=LONG)
    rows = page.query_selector_all(tid("standing-row"))
    assert len(rows) == 4
    scores = [float(row.query_selector(tid("standing-score")).inner_text()) for row in rows]  # type: ignore[union-attr]
    assert scores == sorted(scores, reverse=True) and sum(scores) == 4  # 2 rounds x 2 tables
    assert len(page.query_selector_all(tid("table-replay"))) == 4
    assert "Buchholz" in page.inner_text(tid("standings"))
    page.click(tid("table-replay"))
    page.wait_for_url("**/#/replay/*")

    french: Page = new_page("fr-FR")
    french.goto(f"{own_server.url}/#/tournaments/{played}")
    french.wait_for_selector(tid("standings"))
    assert "Classement" in french.inner_text(tid("tournament-page"))
    assert french.inner_text(tid("nav-tournaments")) == "Tournois"


def test_an_entrant_is_shown_their_table_when_the_round_starts(
    own_server: Server, new_page: Any
) -> None:
    page: Page = new_page()
    sign_up(page, own_server, "ada")
    tournament_id = _create(page, name="Ada's Fika", rounds=1, max_entrants=2)
    page.goto(f"{own_server.url}/#/tournaments/{tournament_id}")
    page.click(tid("tournament-enter"))
    page.wait_for_selector(tid("tournament-withdraw"))
    answer = _fetch(page, "POST", f"/api/tournaments/{tournament_id}/entries", {"bot": "casual"})
    assert answer["status"] == 200, answer  # the field is full: it starts
    page.wait_for_selector(tid("your-table"), timeout=LONG)
    page.click(tid("your-table"))
    page.wait_for_url("**/#/table/*")
    me = page.wait_for_selector(".seat-chip.me", timeout=LONG)  # seated by her account
    assert me is not None and "ada" in me.inner_text()


def test_the_programs_league_page_lists_a_bot_that_opted_in(
    own_server: Server, new_page: Any
) -> None:
    page: Page = new_page()
    sign_up(page, own_server, "bea")
    made = _fetch(page, "POST", "/api/bots", {"name": "bot-a", "description": "tries"})
    assert made["status"] == 200, made
    page.goto(f"{own_server.url}/#/bots")  # her bots page: a switch puts it in the league
    assert not page.is_checked(tid("bot-league"))
    page.check(tid("bot-league"))
    page.wait_for_selector(f"{tid('bot-league')}:checked:not([disabled])")
    assert _fetch(page, "GET", "/api/bots")["body"][0]["league"] is True
    page.goto(f"{own_server.url}/#/leagues/fika")
    page.wait_for_selector(tid("league-page"))
    rows = page.wait_for_selector(tid("league-standings"))
    assert rows is not None and "bea/bot-a" in rows.inner_text()
    names = [
        row.get_attribute("data-entrant") for row in page.query_selector_all(tid("league-row"))
    ]
    assert names[0] is not None and names[0].startswith("u")  # the program, then references
    assert "bot:strong" in names
    assert "paused" in page.inner_text(tid("league-pace"))  # the site's default: off
    assert page.is_visible(tid("league-empty"))
    assert "Fika" in page.inner_text("h1")
    # Each line's forfeits, and the rule: a stand-in's match is its program's forfeit.
    assert {cell.inner_text() for cell in page.query_selector_all(tid("league-forfeits"))} == {"0"}
    assert "forfeits the match" in page.inner_text(tid("league-forfeit-rule"))


def test_a_player_finds_each_league_from_the_lobby_and_the_tournaments_page(
    server: Server, new_page: Any
) -> None:
    """The lobby's game card and the tournaments page link to #/leagues/<game> for each
    game with a league (GET /api/games says which); the header's Tournaments tab stays
    lit on a league's page. In French too."""
    page: Page = new_page(locale="fr-FR")
    page.goto(f"{server.url}/#/")
    page.click(tid("league-link-fika"))
    page.wait_for_url("**/#/leagues/fika")
    page.wait_for_selector(tid("league-standings"))
    assert page.inner_text("h1") == "Ligue des programmes : Fika"
    assert "active" in (page.get_attribute(tid("nav-tournaments"), "class") or "")

    page.click(tid("nav-tournaments"))
    page.wait_for_selector(f"{tid('leagues')} h2:text-is('Ligues des programmes')")
    with_league = [g["name"] for g in _fetch(page, "GET", "/api/games")["body"] if g["league"]]
    links = page.locator(f"{tid('leagues')} a")
    assert [link.get_attribute("data-testid") for link in links.all()] == [
        f"league-link-{name}" for name in with_league
    ]
    assert links.first.get_attribute("href") == f"#/leagues/{with_league[0]}"
    page.click(f"{tid('leagues')} {tid('league-link-cafe')}")
    page.wait_for_url("**/#/leagues/cafe")
    page.wait_for_selector("h1:has-text('Café')")


def test_two_people_play_the_first_round_of_a_fika_swiss_and_see_the_standings(
    own_server: Server, new_page: Any
) -> None:
    """Ana and Bea enter a Fika Swiss on its page, the owner fills it with two site bots,
    each plays her first-round match through the board to its end, and the tournament's
    page shows the standings with that round's results."""
    from tests.browser.test_fika import play_to_the_end

    ana: Page = new_page()
    sign_up(ana, own_server, "ana")
    tournament_id = _create(ana, name="Two people", rounds=2, settings={"bot_speed": 10})
    bea: Page = new_page()
    sign_up(bea, own_server, "bea")
    for page in (ana, bea):
        page.goto(f"{own_server.url}/#/tournaments/{tournament_id}")
        page.click(tid("tournament-enter"))
        page.wait_for_selector(tid("tournament-withdraw"))
    for level in ("casual", "beginner"):
        answer = _fetch(ana, "POST", f"/api/tournaments/{tournament_id}/entries", {"bot": level})
        assert answer["status"] == 200, answer  # the fourth entry fills it: it starts
    for page in (ana, bea):  # each is shown her table, and sits there by her account
        page.wait_for_selector(tid("your-table"), timeout=LONG)
        page.click(tid("your-table"))
        page.wait_for_url("**/#/table/*")
        page.wait_for_selector(f"{tid('fika')} {tid('street')}", timeout=LONG)
    for page in (ana, bea):
        play_to_the_end(page, timeout=240)
    view = _fetch(ana, "GET", f"/api/tournaments/{tournament_id}")["body"]
    first = view["rounds"][0]["tables"]
    people = {e["entrant"] for e in view["entrants"] if not e["bot"]}
    assert all(table["ranks"] is not None for table in first)
    assert [len(people & set(table["entrants"])) for table in first] == [1, 1]  # each vs a bot
    ana.goto(f"{own_server.url}/#/tournaments/{tournament_id}")
    ana.wait_for_selector(tid("standings"))
    rows = ana.query_selector_all(tid("standing-row"))
    assert len(rows) == 4
    shown = {
        row.get_attribute("data-entrant"): float(
            row.query_selector(tid("standing-score")).inner_text()  # type: ignore[union-attr]
        )
        for row in rows
    }
    # Her first match counted (a win 1, a loss 0, a share 0.5); her second is not over
    # (she is not at that table: it waits a minute for her before a stand-in plays).
    for entrant in people:
        mine = next(t for t in first if entrant in t["entrants"])
        assert shown[entrant] == mine["points"][mine["entrants"].index(entrant)]
    assert sum(shown.values()) >= 2  # the first round's two matches at least
    assert "ana" in ana.inner_text(tid("standings"))
