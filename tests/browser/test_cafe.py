"""Café in the browser: a 2-player game against the greedy bot and a solo game, played
to the end through the page (draft cards, the ghost to place them, highlighted areas,
colour choices, the delivery panel, Pass); the ghost only ever stands where the engine
allows and turns with R, right-click and the wheel; the end screen shows the scores of
the server's final state (replayed from the table's log)."""

from __future__ import annotations

import json
import os
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from coffeetable.engine import MatchLog, replay_log
from coffeetable.engine.replay import steps
from coffeetable.games.cafe.cards import BY_ID, SOLO_RANKS, solo_rank
from coffeetable.games.cafe.grid import Company
from coffeetable.games.cafe.scoring import cafe_points, warehouse_points
from tests.browser.conftest import Server
from tests.browser.helpers import LONG, tid

pytestmark = pytest.mark.browser

ROOT = tid("cafe")
GAME_TIMEOUT = 600.0  # s: eight rounds, clicking, on a slow machine
SHOTS = os.environ.get("CAFE_SCREENSHOTS")  # a folder: save screenshots there
#: What to do first in the actions phase: moving cubes on towards the cafés.
ACT_ORDER = ("deliver", "roast", "dry", "produce")


def open_cafe_table(page: Page, server: Server, *, players: int, bot: str = "greedy") -> str:
    """Create a table through the API (seat 0 ours, the others bots) and open it."""
    created = server.post(
        "/api/tables",
        {
            "game": "cafe",
            "players": players,
            "name": "Ada",
            "bots": {str(s): bot for s in range(1, players)},
            "options": {"bot_speed": 20},
        },
    )
    table_id = str(created["table_id"])
    seats = {table_id: {"seat": created["seat"], "token": created["token"], "at": 0}}
    page.goto(server.url + "/#/")
    page.evaluate("seats => localStorage.setItem('coffeetable.seats', seats)", json.dumps(seats))
    page.goto(f"{server.url}/#/table/{table_id}")
    page.wait_for_selector(f"{ROOT}[data-phase]", timeout=LONG)
    return table_id


def shot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def data(page: Page, key: str) -> str:
    return page.get_attribute(ROOT, f"data-{key}") or ""


def after(page: Page, seq: str, seconds: float = 5.0) -> None:
    """Wait (a while, not for ever: an action may be refused) for a newer state."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and data(page, "seq") == seq:
        page.wait_for_timeout(50)


def my_cards(page: Page) -> list[dict]:
    return json.loads(page.get_attribute(tid("player-0"), "data-cards") or "[]")


def ghost(page: Page) -> tuple[int, int, int]:
    g = page.locator(tid("ghost"))
    return tuple(int(g.get_attribute(f"data-{k}") or -99) for k in ("x", "y", "rotation"))  # type: ignore[return-value]


def company_of(cards: list[dict]) -> Company:
    """The engine's company built from the cards the page shows, in their order."""
    company = Company(BY_ID[cards[0]["card"]])
    for c in cards[1:]:
        company.place(BY_ID[c["card"]], c["x"], c["y"], c["rotation"])
    return company


def legal_places(cards: list[dict], holding: str) -> set[tuple[int, int, int]]:
    """The engine's own legal placements for the company the page shows."""
    return set(company_of(cards).placements(holding))


def area_box(page: Page) -> dict:
    """Our area's box on screen, cut to the window (a grown area may be taller)."""
    area = page.locator(tid("area-0"))
    area.scroll_into_view_if_needed()
    box = area.bounding_box()
    assert box
    viewport = page.viewport_size or {"width": 1366, "height": 768}
    top = max(box["y"], 0)
    bottom = min(box["y"] + box["height"], viewport["height"])
    return {"x": box["x"], "y": top, "width": box["width"], "height": bottom - top}


def sweep(page: Page, legal: set[tuple[int, int, int]]) -> set[tuple[int, int, int]]:
    """Move the mouse over a grid of points of our area: the ghost is always legal."""
    box = area_box(page)
    seen = set()
    for i in range(7):
        for j in range(5):
            page.mouse.move(
                box["x"] + box["width"] * (i + 0.5) / 7, box["y"] + box["height"] * (j + 0.5) / 5
            )
            spot = ghost(page)
            assert spot in legal, f"the ghost stands on {spot}, not a legal placement"
            seen.add(spot)
    return seen


def check_the_ghost(page: Page) -> None:
    """Our first placement: only legal spots are offered, and the card turns."""
    legal = legal_places(my_cards(page), data(page, "holding"))
    seen = sweep(page, legal)
    assert len(seen) >= 3, "the ghost follows the mouse"
    g = page.locator(tid("ghost"))
    for turn in ("key", "right-click", "wheel", "button"):
        before = (g.get_attribute("data-turn"), g.get_attribute("data-cells"))
        if turn == "key":
            page.keyboard.press("r")
        elif turn == "right-click":
            box = area_box(page)
            page.mouse.click(
                box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, button="right"
            )
        elif turn == "wheel":
            page.mouse.wheel(0, 120)
        else:
            page.click(tid("rotate-cw"))
        after_turn = (g.get_attribute("data-turn"), g.get_attribute("data-cells"))
        assert after_turn[0] != before[0] and after_turn[1] != before[1], turn
        assert ghost(page) in legal
    assert {r for (_, _, r) in sweep(page, legal)} <= {r for (_, _, r) in legal}
    for key in ("ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown"):
        page.keyboard.press(key)  # the keys move the ghost from legal spot to legal spot
        assert ghost(page) in legal, key


def take(page: Page, counts: dict[str, int]) -> None:
    page.locator(f"{ROOT} .cf-draft-card.takeable").first.click(timeout=2_000)
    pay = page.locator(f"{tid('pay-choice')} [data-pay]")
    if pay.count():
        counts["paid"] = counts.get("paid", 0) + 1
        pay.first.click(timeout=2_000)
    counts["take"] = counts.get("take", 0) + 1


def place(page: Page, counts: dict[str, int]) -> None:
    """Point at our area, read where the ghost stands, click: the card lands there."""
    if not counts.get("place"):
        check_the_ghost(page)
    box = area_box(page)
    n = counts.get("place", 0)
    x = box["x"] + box["width"] * (0.2 + 0.15 * (n % 5))
    y = box["y"] + box["height"] * (0.3 + 0.2 * (n % 3))
    page.mouse.move(x, y)
    spot = ghost(page)
    holding = data(page, "holding")
    company = company_of(my_cards(page))
    covered = sum(1 for pos in company.covered_by(holding, *spot) if pos in company.grid)
    assert 2 <= covered <= 4
    assert page.inner_text(tid("ghost-info")).startswith(f"Covers {covered} squares")
    seq = data(page, "seq")
    page.mouse.click(x, y)
    after(page, seq)
    last = my_cards(page)[-1]
    assert (last["card"], last["x"], last["y"], last["rotation"]) == (holding, *spot)
    counts["place"] = n + 1


def act(page: Page, counts: dict[str, int]) -> None:
    """Use a highlighted area (deliver first), else pass."""
    for kind in ACT_ORDER:
        cells = page.locator(f"{tid('area-0')} .hl-{kind} .hl-cell")
        if not cells.count():
            continue
        cells.first.click(timeout=2_000)
        if kind in ("dry", "roast") and page.locator(tid("colour-choice")).count():
            page.locator(f"{tid('colour-choice')} [data-colour]").first.click(timeout=2_000)
            counts["colour"] = counts.get("colour", 0) + 1
        if kind == "deliver":
            page.locator(tid("deliver-panel")).wait_for(timeout=2_000)
            try_the_steppers(page, counts)
            page.click(tid("deliver-confirm"), timeout=2_000)
        counts[kind] = counts.get(kind, 0) + 1
        return
    page.click(tid("pass-button"), timeout=2_000)
    counts["pass"] = counts.get("pass", 0) + 1


def try_the_steppers(page: Page, counts: dict[str, int]) -> None:
    """A cube sent to a café instead goes to the warehouse, and back again."""
    less = page.locator(f"{tid('deliver-panel')} [data-testid^='deliver-less-']:not([disabled])")
    if not less.count():
        return
    name = less.first.get_attribute("data-testid") or ""
    cafe, colour = name.removeprefix("deliver-less-").rsplit("-", 1)
    rest = page.locator(tid(f"deliver-rest-{colour}"))
    before = int(rest.get_attribute("data-n") or -1)
    less.first.click(timeout=2_000)
    assert int(rest.get_attribute("data-n") or -1) == before + 1
    page.click(tid(f"deliver-more-{cafe}-{colour}"), timeout=2_000)
    assert int(rest.get_attribute("data-n") or -1) == before
    counts["stepper"] = counts.get("stepper", 0) + 1


def play_to_the_end(page: Page) -> dict[str, int]:
    counts: dict[str, int] = {}
    deadline = time.monotonic() + GAME_TIMEOUT
    while time.monotonic() < deadline:
        page.wait_for_selector(f'{ROOT}[data-can-act="true"], {tid("end-screen")}', timeout=LONG)
        if page.locator(tid("end-screen")).count():
            return counts
        mode = data(page, "mode")
        seq = data(page, "seq")
        if SHOTS and not counts.get(f"shot-{mode}"):
            counts[f"shot-{mode}"] = 1
            shot(page, f"{mode}-{data(page, 'round')}")
        try:
            if mode == "take":
                take(page, counts)
            elif mode == "place":
                place(page, counts)
            elif mode == "act":
                act(page, counts)
        except PlaywrightError:
            page.keyboard.press("Escape")  # the board was redrawn under the click: look again
        after(page, seq)
    raise AssertionError(f"the game did not end within {GAME_TIMEOUT:.0f} s ({counts})")


def match_log(server: Server, table_id: str) -> MatchLog:
    with urllib.request.urlopen(f"{server.url}/api/tables/{table_id}/log", timeout=10) as response:
        return MatchLog.from_json(json.loads(response.read()))


def final_state(server: Server, table_id: str):  # type: ignore[no-untyped-def]
    return replay_log(match_log(server, table_id))


def offered_a_delivery(server: Server, table_id: str) -> bool:
    """Whether the server ever offered our seat (0) a delivery. The deal is the server's
    random one: a roast on the last action of the match leaves nothing to deliver, and
    the player here delivers whenever it may (``ACT_ORDER``)."""
    return any(
        0 in state.actors() and any(a["type"] == "deliver" for a in state.legal_actions(0))
        for state, _, _, _ in steps(match_log(server, table_id))
    )


def check_the_end_screen(page: Page, server: Server, table_id: str) -> None:
    """The end screen shows the scores of the server's final state, part by part."""
    state = final_state(server, table_id)
    assert state.is_over
    end = page.locator(tid("end-screen"))
    assert [int(s) for s in (end.get_attribute("data-winners") or "").split(",")] == state.winners
    for seat, company in enumerate(state.companies):
        assert int(page.inner_text(tid(f"final-score-{seat}"))) == state.scores[seat]
        assert int(page.inner_text(tid(f"cafe-points-{seat}"))) == cafe_points(company)
        assert int(page.inner_text(tid(f"warehouse-points-{seat}"))) == warehouse_points(
            company.warehouse
        )
        assert state.scores[seat] == cafe_points(company) + warehouse_points(company.warehouse)


def test_a_two_player_game_against_the_greedy_bot(page: Page, server: Server) -> None:
    table_id = open_cafe_table(page, server, players=2)
    assert page.locator(f"{tid('draft')} .cf-draft-card").count() == 3
    assert data(page, "round") == "1"
    assert page.locator(tid("player-1")).count() == 1  # the bot's area, smaller
    counts = play_to_the_end(page)
    print("controls used:", counts)
    shot(page, "end")
    assert counts.get("take") == 8 and counts.get("place") == 8, counts
    assert counts.get("produce", 0) >= 2 and counts.get("dry", 0) >= 1, counts
    if offered_a_delivery(server, table_id):
        assert counts.get("deliver", 0) >= 1, counts
    check_the_end_screen(page, server, table_id)
    assert data(page, "round") == "8"
    assert "Game over" in page.inner_text(tid("end-screen"))
    assert int(page.get_attribute(tid("log"), "data-count") or 0) > 20


def test_a_solo_game_to_its_rank(page: Page, server: Server) -> None:
    table_id = open_cafe_table(page, server, players=1)
    assert page.locator(tid("player-1")).count() == 0
    assert "keep one of three" in page.inner_text(ROOT).lower()
    counts = play_to_the_end(page)
    shot(page, "solo-end")
    assert counts.get("take") == 8 and counts.get("place") == 8, counts
    check_the_end_screen(page, server, table_id)
    state = final_state(server, table_id)
    end = page.locator(tid("end-screen"))
    assert end.get_attribute("data-rank") == solo_rank(state.scores[0])
    assert f"{state.scores[0]} points" in page.inner_text(tid("solo-rank"))
    # The ranking table is the engine's: thresholds from SOLO_RANKS, ours marked.
    table = page.inner_text(".cf-ranks")
    assert f"under {SOLO_RANKS[1][0]}" in table and f"{SOLO_RANKS[-1][0]} or more" in table
    mine = page.locator(".cf-ranks li.me")
    assert mine.get_attribute("data-rank") == solo_rank(state.scores[0])
    page.click(tid("hide-end"))  # look at the board behind the scores
    page.locator(f"{tid('area-0')}").wait_for()
    assert not page.locator(tid("final-score-0")).is_visible()


@pytest.mark.parametrize(
    ("language", "heading"),
    [
        ("en", "Areas and actions"),
        ("fr", "Zones et actions"),
        ("de", "Bereiche und Aktionen"),
        ("es", "Zonas y acciones"),
    ],
)
def test_the_rules_page_in_every_language(
    page: Page, server: Server, language: str, heading: str
) -> None:
    page.goto(server.url + "/#/rules/cafe")
    page.select_option(tid("lang-select"), language)
    body = page.locator(tid("rules-body"))
    body.get_by_text(heading, exact=True).wait_for()
    assert body.locator(".cafe-legend figure").count() == 9  # 4 beans, 4 icons, a card


def test_every_cafe_string_exists_in_every_language(page: Page, server: Server) -> None:
    page.goto(server.url + "/#/rules/cafe")
    page.wait_for_selector(f"{tid('rules-body')} h1")
    keys = page.evaluate(
        """async () => {
            const strings = (await import('/static/games/cafe/i18n.js')).default;
            return Object.fromEntries(
                Object.entries(strings).map(([k, v]) => [k, Object.keys(v).sort()]));
        }"""
    )
    assert set(keys) == {"en", "fr", "de", "es"}
    for language in ("fr", "de", "es"):
        assert keys[language] == keys["en"], language


def test_a_spectator_watches_two_bots_to_the_end(page: Page, server: Server) -> None:
    created = server.post(
        "/api/tables",
        {
            "game": "cafe",
            "players": 2,
            "bots": {"0": "greedy", "1": "random"},
            "options": {"bot_speed": 50},
        },
    )
    assert created["seat"] is None
    table_id = str(created["table_id"])
    page.goto(f"{server.url}/#/table/{table_id}")
    page.wait_for_selector(tid("spectator-badge"))
    page.wait_for_selector(f"{ROOT}[data-phase]")
    assert data(page, "can-act") == "false"
    # Two bots act at once (turn-based bots do not wait): the match may already be over.
    controls = page.inner_text(tid("controls"))
    assert "watching" in controls or data(page, "phase") == "over", controls
    page.wait_for_selector(tid("end-screen"), timeout=GAME_TIMEOUT * 1000)
    assert page.locator(f"{ROOT} .hl, {ROOT} .cf-draft-card.takeable").count() == 0
    check_the_end_screen(page, server, table_id)


def test_the_board_speaks_french_and_a_reload_keeps_the_card_in_hand(
    new_page, server: Server
) -> None:  # type: ignore[no-untyped-def]
    page = new_page(locale="fr-FR")
    open_cafe_table(page, server, players=1)
    assert "Manche 1/8" in page.inner_text(tid("round"))
    assert "Réserve" in page.inner_text(tid("status"))
    assert "Gardez une des trois cartes" in page.inner_text(tid("controls"))
    page.wait_for_selector(f'{ROOT}[data-mode="take"]')
    take(page, {})
    page.wait_for_selector(f'{ROOT}[data-mode="place"]')
    holding = data(page, "holding")
    page.reload()  # the board is drawn from the server's view alone
    page.wait_for_selector(f'{ROOT}[data-mode="place"]', timeout=LONG)
    assert data(page, "holding") == holding
    assert ghost(page) in legal_places(my_cards(page), holding)
    assert "Poser ici" in page.inner_text(tid("controls"))


def test_the_keyboard_takes_a_card_and_places_it(page: Page, server: Server) -> None:
    open_cafe_table(page, server, players=1)
    page.wait_for_selector(f'{ROOT}[data-mode="take"]')
    page.locator(f"{ROOT} .cf-draft-card.takeable").first.focus()
    page.keyboard.press("Enter")
    pay = page.locator(f"{tid('pay-choice')} [data-pay]")
    if pay.count():  # a cup card: pay with the first colour offered
        pay.first.focus()
        page.keyboard.press("Enter")
    page.wait_for_selector(f'{ROOT}[data-mode="place"]')
    holding = data(page, "holding")
    legal = legal_places(my_cards(page), holding)
    turn = page.get_attribute(tid("ghost"), "data-turn")
    page.keyboard.press("Shift+R")
    assert page.get_attribute(tid("ghost"), "data-turn") != turn
    page.keyboard.press("ArrowDown")
    spot = ghost(page)
    assert spot in legal
    seq = data(page, "seq")
    page.keyboard.press("Enter")
    after(page, seq)
    last = my_cards(page)[-1]
    assert (last["card"], last["x"], last["y"], last["rotation"]) == (holding, *spot)
