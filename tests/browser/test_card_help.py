"""Help in the game: the card viewer (a card at full size with its words, on a phone),
Fika's preview of the round as the cafés stand, and the end screen that says why.

The phone tests play a live table; the end screen's tie-break is drawn by the real
board from a view the engine made (a tie is rare in a real game)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page

from coffeetable.games.fika import FikaGame
from coffeetable.games.fika.cards import COLOURS, make_card
from coffeetable.games.fika.scoring import round_result
from tests.browser.conftest import CSP_WATCH, PageProblems, Server
from tests.browser.helpers import LONG, sit_at_new_table, tid
from tests.browser.test_fika import act_once

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser, page_problems: PageProblems) -> Iterator[Page]:  # type: ignore[no-untyped-def]
    """A 390 x 844 touch phone; a JavaScript error or a CSP breach fails the test."""
    context = browser.new_context(locale="en-US", viewport=PHONE, has_touch=True, is_mobile=True)
    context.set_default_timeout(20_000)
    context.expose_function("__cspViolation", lambda text: page_problems.csp.append(text))
    context.add_init_script(CSP_WATCH)
    page = context.new_page()
    page_problems.watch(page)
    yield page
    context.close()
    page_problems.check()


def open_fika(page: Page, server: Server, bot: str = "random") -> None:
    sit_at_new_table(
        page,
        server,
        {"game": "fika", "players": 2, "name": "Ada", "bots": {"1": bot}, "options": {}},
    )
    page.wait_for_selector(f"{tid('fika')}[data-phase]", timeout=LONG)


def font_px(page: Page, selector: str) -> float:
    return float(
        page.evaluate(
            "s => parseFloat(getComputedStyle(document.querySelector(s)).fontSize)", selector
        )
    )


def test_a_tap_on_a_fika_card_opens_it_readable_on_a_phone(phone: Page, server: Server) -> None:
    open_fika(phone, server)
    card = phone.locator(f"{tid('supply-0')}[data-card-view]")
    card.wait_for()
    assert card.get_attribute("data-click") is None  # nothing to play on the supply now
    assert phone.locator(tid("card-hint")).inner_text().startswith("Hold a card, or tap one")
    card.tap()
    viewer = phone.locator(tid("card-viewer"))
    viewer.wait_for()
    number = int(str(card.get_attribute("data-card-view")).split("-")[1])
    effect = viewer.locator(f"{tid('card-view-effect')} dd")
    strings = phone.evaluate("async () => (await import('/static/games/fika/i18n.js')).default.en")
    assert effect.inner_text() == strings[f"fika.effect.{number}"]
    assert (
        viewer.locator(f"{tid('card-view-objective')} dd").inner_text()
        == (strings[f"fika.objective.{number}"])
    )
    assert font_px(phone, f"{tid('card-view-effect')} dd") >= 14
    assert font_px(phone, f"{tid('card-view-objective')} dd") >= 14
    box = viewer.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    art = viewer.locator(".cv-art svg").bounding_box()
    assert art is not None and art["width"] >= 150  # the card itself, large
    phone.locator(tid("card-view-close")).tap()
    viewer.wait_for(state="detached")


def test_a_long_press_reads_a_playable_card_without_playing_it(page: Page, server: Server) -> None:
    open_fika(page, server)
    board = tid("fika")
    deadline = 200
    while deadline and page.get_attribute(board, "data-phase") != "pick":
        act_once(page, {})  # choose the colours when it is our turn to
        page.wait_for_timeout(100)
        deadline -= 1
    page.wait_for_selector(f"{board}[data-can-act='true'] {tid('hand')} .fk-slot.clickable")
    card = page.locator(f"{tid('hand')} .fk-slot.clickable").first
    seq = page.get_attribute(board, "data-seq")
    box = card.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_timeout(800)
    page.mouse.up()
    page.locator(tid("card-viewer")).wait_for()
    page.wait_for_timeout(300)
    # the press read the card: no pick was made or sent
    assert page.get_attribute(board, "data-seq") == seq
    assert page.locator(f"{tid('hand')} .fk-slot.selected, {tid('hand')} .picked").count() == 0
    page.keyboard.press("Escape")
    page.locator(tid("card-viewer")).wait_for(state="detached")
    # the keyboard: "i" on a focused card opens it, Escape closes it, the focus comes back
    card.focus()
    key = card.get_attribute("data-card-view")
    page.keyboard.press("i")
    page.locator(tid("card-viewer")).wait_for()
    assert page.evaluate("document.activeElement.dataset.testid") == "card-view-close"
    page.keyboard.press("Escape")
    page.locator(tid("card-viewer")).wait_for(state="detached")
    assert page.evaluate("document.activeElement.dataset.cardView") == key


def test_the_preview_scores_each_card_as_the_cafe_stands(page: Page, server: Server) -> None:
    open_fika(page, server)
    board = tid("fika")
    counts: dict[str, int] = {}
    for _ in range(600):
        if page.locator(f"{tid('cafe-0')} [data-card-view]").count() >= 2:
            break
        if not act_once(page, counts):
            page.wait_for_timeout(100)
    placed = page.locator(f"{tid('cafe-0')} [data-card-view]")
    assert placed.count() >= 2
    preview = page.locator(tid("preview"))
    preview.wait_for()
    lines = preview.locator("tr[data-testid^='preview-line-0-']")
    assert lines.count() == page.locator(f"{tid('cafe-0')} [data-card-view]").count()
    total = sum(int(line.locator("td.num").inner_text()) for line in lines.all())
    assert int(preview.locator(tid("preview-coins-0")).inner_text()) == total
    assert preview.locator(tid("preview-lead")).inner_text()
    # a card in the café says, in the viewer, what it scores now
    page.locator(f"{tid('cafe-0')} [data-card-view]").first.focus()
    page.keyboard.press("i")
    now = page.locator(tid("card-view-now"))
    now.wait_for()
    assert "met" in now.inner_text()
    page.keyboard.press("Escape")
    assert page.get_attribute(board, "data-phase")


def c(name: str) -> int:
    return make_card(COLOURS.index(name[:-1]), int(name[-1]))


def tied_end_view() -> dict[str, Any]:
    """An ended match's view, its last round tied on coins and broken by the colours."""
    state = FikaGame().new_state(players=2, seed=3)
    state.cafes = [
        [c("pink2"), None, None, None, None],
        [c("pink5"), None, None, None, None],
    ]
    state.colour_order = [COLOURS.index(x) for x in ("green", "pink", "brown")]
    result = round_result(state.cafes, {}, state.colour_order)
    state.last_round = {
        "round": 3,
        **result,
        "colour_order": ["green", "pink", "brown"],
        "cafes": [],
    }
    state.tips = [1, 2]
    state.phase = "over"
    state._winners = [1]
    return state.view(0)


def test_the_end_screen_says_why_the_tie_went_as_it_did(page: Page, server: Server) -> None:
    page.goto(server.url + "/#/rules/fika")
    page.wait_for_selector(f"{tid('rules-body')} h1")
    page.evaluate(
        """async (view) => {
            const { register } = await import('/static/js/i18n.js');
            register((await import('/static/games/fika/i18n.js')).default);
            const board = (await import('/static/games/fika/index.js')).default;
            const root = document.createElement('div');
            document.querySelector('#app').replaceChildren(root);
            const ctx = { seat: 0, names: () => ['Ada', 'Bot'], send: () => true };
            board.mount(root, ctx).state({ seq: 1, view, legal: [] });
        }""",
        json.loads(json.dumps(tied_end_view())),
    )
    why = page.locator(tid("end-why"))
    why.wait_for()
    assert "Round 3: Ada (you) 0 coins, Bot 0 coins." in why.inner_text()
    tie = why.locator(tid("end-tie")).inner_text()
    assert "Tied at 0 coins" in tie and "secondary colour (pink)" in tie
    assert "Bot 5 against 2" in tie
    assert (
        why.locator(tid("end-colours")).inner_text() == "Colour order: 1. green, 2. pink, 3. brown."
    )
    assert page.locator(tid("round-tie")).inner_text() == tie  # the round's box says it too


def test_a_cafe_plan_card_reads_in_words_and_the_points_so_far_add_up(
    phone: Page, server: Server
) -> None:
    sit_at_new_table(
        phone,
        server,
        {"game": "cafe", "players": 2, "name": "Ada", "bots": {"1": "random"}, "options": {}},
    )
    card = phone.locator(f"{tid('draft')} [data-card-view]").first
    card.wait_for(timeout=LONG)
    card_id = card.get_attribute("data-card-view")
    assert phone.locator(tid("card-hint")).inner_text().startswith("Hold a card, or tap one")
    # a long press reads any card of the draft, takeable or not, and takes nothing
    box = card.bounding_box()
    assert box is not None
    phone.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    phone.mouse.down()
    phone.wait_for_timeout(800)
    phone.mouse.up()
    viewer = phone.locator(tid("card-viewer"))
    viewer.wait_for()
    assert viewer.locator(tid("card-view-title")).inner_text() == f"Plan card {card_id}"
    parts = viewer.locator(".cv-part")
    assert parts.count() >= 2  # every kind of square on the card, in words
    first = parts.first.locator("dd")
    assert len(first.inner_text()) > 20
    assert font_px(phone, f"{tid('card-viewer')} .cv-part dd") >= 14
    phone.keyboard.press("Escape")
    viewer.wait_for(state="detached")
    assert phone.locator(f"{tid('draft')} [data-card-view='{card_id}']").count() == 1  # not taken
    # each company's points so far, and their parts: complete cafés + the warehouse
    for seat in (0, 1):
        player = phone.locator(tid(f"player-{seat}"))
        score = int(player.get_attribute("data-score") or -1)
        words = phone.locator(tid(f"so-far-{seat}")).inner_text()
        assert words.startswith("so far: cafés ")
        numbers = [int(n) for n in words.replace("+", " ").split() if n.isdigit()]
        assert sum(numbers) == score


def test_a_doppio_card_reads_in_words_on_a_phone(phone: Page, server: Server) -> None:
    sit_at_new_table(
        phone,
        server,
        {"game": "doppio", "players": 2, "name": "Ada", "bots": {"1": "greedy"}, "options": {}},
    )
    card = phone.locator("[data-testid^='card-0-'][data-card-view]:not([data-card])").first
    card.wait_for(timeout=LONG)
    words = card.get_attribute("title")  # the card's own text, in a tooltip touch never shows
    assert words
    card.tap()
    viewer = phone.locator(tid("card-viewer"))
    viewer.wait_for()
    assert viewer.locator(f"{tid('card-view-pattern')} dd").inner_text() == words
    beans = viewer.locator(f"{tid('card-view-beans')} dd").inner_text()
    count = int(beans.split()[0])
    assert beans.startswith(f"{count} bean{'' if count == 1 else 's'} each time")
    assert font_px(phone, f"{tid('card-view-pattern')} dd") >= 14
    phone.locator(tid("card-view-close")).tap()
    viewer.wait_for(state="detached")
