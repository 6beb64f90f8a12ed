"""Accessibility: axe-core (the axe-playwright-python package) finds no critical and no
serious violation on the site's pages: the lobby, each game's board while playing and
at the end of a match, the replay, the rules, a profile, the leaderboards, the
tournaments, a league and the sign-in pages."""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

import pytest

from coffeetable import games
from tests.browser.conftest import Server
from tests.browser.helpers import LONG, sit_at_new_table, tid

pytestmark = pytest.mark.browser

axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright")

#: The impacts the site must not have (axe-core's four: minor, moderate, serious, critical).
BLOCKING = ("serious", "critical")


def why(node: dict[str, Any]) -> str:
    """axe's reason for one element (its summary's last line: the colours, the missing name)."""
    lines = str(node.get("failureSummary") or "").strip().splitlines()
    return lines[-1].strip() if lines else ""


def violations(page: Any) -> list[str]:
    """What axe-core finds on the page as it stands: one line per blocking violation."""
    results = axe_playwright.Axe().run(page)
    found = []
    for violation in results.response["violations"]:
        if violation["impact"] in BLOCKING:
            targets = [
                f"{', '.join(node['target'])} ({why(node)})" for node in violation["nodes"][:3]
            ]
            found.append(
                f"{violation['impact']} {violation['id']}: {violation['help']} at {targets}"
            )
    return found


def assert_accessible(page: Any) -> None:
    found = violations(page)
    assert not found, "\n".join(found)


def get(server: Server, path: str) -> Any:
    with urllib.request.urlopen(server.url + path, timeout=10) as response:
        return json.loads(response.read())


#: A board is drawn in the table's game root (the loading line is gone).
BOARD = f"{tid('game-root')} > :not(p.muted)"


def settle(page: Any) -> None:
    """Wait until the page's transitions (toasts, fades) are over."""
    page.wait_for_timeout(400)


def bots_only_match_over(server: Server, game: str) -> str:
    """A finished match of the game's bots alone (short options), its table id."""
    facts = games.get(game)
    players = facts.preferred_players()
    created = server.post(
        "/api/tables",
        {
            "game": game,
            "players": players,
            "bots": {str(seat): "random" for seat in range(players)},
            "options": {**facts.quick_options, "bot_speed": 10_000},
        },
    )
    table_id = str(created["table_id"])
    deadline = time.monotonic() + LONG / 1000
    while get(server, f"/api/tables/{table_id}")["status"] != "over":
        assert time.monotonic() < deadline, f"the {game} bots did not finish"
        time.sleep(0.2)
    return table_id


@pytest.mark.parametrize(
    "path",
    [
        *("#/", "#/signin", "#/signup", "#/leaderboards", "#/tournaments", "#/leagues/fika"),
        *(f"#/rules/{g}" for g in games.names()),
    ],
)
def test_a_page_has_no_serious_violation(page, server: Server, path: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{server.url}/{path}")
    page.wait_for_selector("main *")
    settle(page)
    assert_accessible(page)


def test_a_profile_has_no_serious_violation(page, server: Server) -> None:  # type: ignore[no-untyped-def]
    server.post(
        "/api/auth/register", {"username": "axe_reader", "password": "a long pass phrase 7"}
    )
    page.goto(f"{server.url}/#/players/axe_reader")
    page.wait_for_selector(tid("profile-name"))
    settle(page)
    assert_accessible(page)


@pytest.mark.parametrize("game", games.names())
def test_a_board_while_playing_has_no_serious_violation(page, server: Server, game: str) -> None:  # type: ignore[no-untyped-def]
    facts = games.get(game)
    players = facts.preferred_players()
    sit_at_new_table(
        page,
        server,
        {
            "game": game,
            "players": players,
            "name": "Ada",
            "bots": {str(seat): "random" for seat in range(1, players)},
            "options": dict(facts.quick_options),
        },
    )
    page.wait_for_selector(BOARD)
    settle(page)
    assert_accessible(page)


@pytest.mark.parametrize("game", games.names())
def test_a_board_at_the_end_and_its_replay_have_no_serious_violation(
    page, server: Server, game: str
) -> None:  # type: ignore[no-untyped-def]
    table_id = bots_only_match_over(server, game)
    page.goto(f"{server.url}/#/table/{table_id}")
    page.wait_for_selector(BOARD)
    settle(page)
    assert_accessible(page)
    page.goto(f"{server.url}/#/replay/{table_id}")
    page.wait_for_selector(f"{tid('replay-frame')}[data-frame='0']")
    settle(page)
    assert_accessible(page)
