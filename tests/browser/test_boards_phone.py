"""The four boards on a 360 x 740 touch phone: a running table against a bot fits
the screen (no sideways scrolling, the board within the width), and the hints
speak of taps, not of keys and the mouse."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from tests.browser import test_fika as fika
from tests.browser.conftest import CSP_WATCH, PageProblems, Server
from tests.browser.helpers import LONG, sit_at_new_table, tid

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
TABLES: dict[str, dict[str, Any]] = {
    "espresso": {"bots": {"1": "easy"}, "options": {"bot_speed": 5}},
    "doppio": {"bots": {"1": "greedy"}, "options": {"bot_speed": 10}},
    "fika": {"bots": {"1": "greedy"}, "options": {"bot_speed": 20}},
    "cafe": {"bots": {"1": "greedy"}, "options": {"bot_speed": 20}},
}
#: The board's main element (inside the game's root element).
MAIN = {
    "espresso": tid("board"),
    "doppio": tid("path"),
    "fika": tid("board"),
    "cafe": tid("area-0"),
}


@pytest.fixture
def phone(browser, page_problems: PageProblems) -> Iterator[Page]:  # type: ignore[no-untyped-def]
    """A page on a touch phone; a JavaScript error, a dialog or a breach of the
    Content-Security-Policy fails the test."""
    context = browser.new_context(locale="en-US", viewport=PHONE, has_touch=True, is_mobile=True)
    context.set_default_timeout(20_000)
    context.expose_function("__cspViolation", lambda text: page_problems.csp.append(text))
    context.add_init_script(CSP_WATCH)
    page = context.new_page()
    page_problems.watch(page)

    def dialog(box) -> None:  # type: ignore[no-untyped-def]
        page_problems.errors.append(f"a dialog opened: {box.message}")
        box.dismiss()

    page.on("dialog", dialog)
    yield page
    context.close()
    page_problems.check()


def open_table(page: Page, server: Server, game: str) -> str:
    """A table of `game`: seat 0 ours, seat 1 a bot; wait until the board shows."""
    table_id = sit_at_new_table(
        page, server, {"game": game, "players": 2, "name": "Ada", **TABLES[game]}
    )
    page.wait_for_selector(f"{tid(game)}[data-phase]", timeout=LONG)
    return table_id


def fits_the_phone(page: Page, game: str) -> None:
    """No sideways scroll, and the board's main element lies within the screen's width.

    On a mobile viewport a page wider than the screen widens the layout viewport
    (innerWidth grows with it), so the widths are checked against the phone's too."""
    page.wait_for_timeout(150)  # a layout pass
    main = f"{tid(game)} {MAIN[game]}"
    page.locator(main).first.scroll_into_view_if_needed()
    assert page.locator(main).first.is_visible()
    got = page.evaluate(
        """([root, main, width]) => {
            const doc = document.documentElement;
            const box = document.querySelector(main).getBoundingClientRect();
            const rootBox = document.querySelector(root).getBoundingClientRect();
            const over = [...document.querySelectorAll('body *')]
              .filter((el) => el.getBoundingClientRect().right > width + 0.5)
              .slice(0, 6)
              .map((el) => `${el.localName}.${el.className.baseVal ?? el.className}`);
            return {
              doc: doc.scrollWidth, body: document.body.scrollWidth, inner: innerWidth,
              left: box.left, right: box.right,
              rootLeft: rootBox.left, rootRight: rootBox.right, over,
            };
        }""",
        [tid(game), main, PHONE["width"]],
    )
    width = PHONE["width"]
    assert got["doc"] <= got["inner"] and got["doc"] <= width, got
    assert got["body"] <= got["inner"] and got["body"] <= width, got
    assert got["left"] >= 0 and got["right"] <= width, got
    assert got["rootLeft"] >= 0 and got["rootRight"] <= width, got


def text_of(page: Page, selector: str) -> str:
    return page.inner_text(selector).lower()


# -- each board: it fits, and its hints are the touch ones ---------------------------------


def test_espresso_fits_the_phone_and_speaks_of_taps(phone: Page, server: Server) -> None:
    open_table(phone, server, "espresso")
    fits_the_phone(phone, "espresso")
    shortcuts = phone.locator(tid("shortcuts"))
    assert shortcuts.get_attribute("data-touch") == "true"
    assert "tap" in shortcuts.inner_text().lower()
    assert "space" not in shortcuts.inner_text().lower()
    phone.locator(tid("ready-button")).tap()
    phone.wait_for_selector(
        f'{tid("espresso")}[data-phase="play"][data-can-act="true"]', timeout=LONG
    )
    hint = text_of(phone, tid("hint"))
    assert "tap a card" in hint and "space" not in hint and "key" not in hint, hint
    # No key labels on the cards or the stacks.
    assert phone.locator(f"{tid('espresso')} .key-hint:visible").count() == 0
    fits_the_phone(phone, "espresso")  # the cards dealt, the centre in play


def test_doppio_fits_the_phone_and_speaks_of_taps(phone: Page, server: Server) -> None:
    open_table(phone, server, "doppio")
    root = tid("doppio")
    phone.wait_for_selector(f'{root}[data-can-act="true"]', timeout=LONG)
    fits_the_phone(phone, "doppio")
    if phone.get_attribute(root, "data-phase") == "setup":
        if "tap" not in text_of(phone, tid("hint")):
            phone.locator(".d-colour").first.tap()  # the colour first, then a space
        expected = "tap a highlighted space"
    else:
        expected = "tap pieces"
    phone.wait_for_function(
        "(want) => document.querySelector('[data-testid=hint]').textContent"
        ".toLowerCase().includes(want)",
        arg=expected,
    )
    assert "click" not in text_of(phone, tid("hint"))


def test_fika_fits_the_phone_and_speaks_of_taps(phone: Page, server: Server) -> None:
    open_table(phone, server, "fika")
    phone.wait_for_selector(f"{tid('fika')} {tid('street')}")
    fits_the_phone(phone, "fika")
    # Play (through the page's controls) until an effect of ours is offered: its prompt.
    counts: dict[str, int] = {}
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        # The phase and the prompt read from one drawing (a state may land between two reads).
        phase, can_act, prompt = phone.evaluate(
            """() => {
                const board = document.querySelector('[data-testid="fika"]');
                const text = document.querySelector('[data-testid="prompt-text"]');
                return [board?.dataset.phase, board?.dataset.canAct, text?.textContent ?? ''];
            }"""
        )
        if phase == "effect" and can_act == "true":
            break
        try:
            if not fika.act_once(phone, counts):
                phone.wait_for_timeout(100)
        except PlaywrightError:
            phone.wait_for_timeout(100)  # redrawn under the click
    else:
        raise AssertionError(f"no effect of ours was offered ({counts})")
    prompt = " ".join(prompt.split()).lower()
    assert prompt.startswith("effect") and "tap" in prompt and "click" not in prompt, prompt
    fits_the_phone(phone, "fika")  # with cards in the cafés


def test_cafe_fits_the_phone_and_places_with_two_taps(phone: Page, server: Server) -> None:
    open_table(phone, server, "cafe")
    root = tid("cafe")
    fits_the_phone(phone, "cafe")
    # Our turn to take a card: a tap takes it (a cup card asks which cube pays).
    phone.wait_for_selector(f'{root}[data-mode="take"]', timeout=LONG)
    phone.locator(".cf-draft-card.takeable").first.tap()
    pay = phone.locator(f"{tid('pay-choice')} [data-pay]")
    phone.wait_for_selector(f'{root}[data-mode="place"], {tid("pay-choice")}')
    if pay.count():
        pay.first.tap()
    phone.wait_for_selector(f'{root}[data-mode="place"]', timeout=LONG)
    hint = text_of(phone, tid("hint"))
    assert "tap your area" in hint and "mouse" not in hint and "right-click" not in hint, hint
    fits_the_phone(phone, "cafe")
    # A tap on the area shows the card there, snapped to a legal spot; it is not placed yet.
    ghost = phone.locator(tid("ghost"))
    before = ghost_at(phone)
    moved = False
    for x, y in far_points(phone):
        phone.touchscreen.tap(x, y)
        phone.wait_for_timeout(150)
        assert phone.get_attribute(root, "data-mode") == "place", (
            "a tap away from the card placed it"
        )
        if ghost_at(phone) != before:
            moved = True
            break
    assert moved, "a tap on the area did not move the card"
    # A tap on the card where it now stands places it.
    seq = phone.get_attribute(root, "data-seq")
    ghost.scroll_into_view_if_needed()
    box = ghost.bounding_box()
    assert box
    phone.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    phone.wait_for_function(
        """(seq) => {
            const el = document.querySelector('[data-testid=cafe]');
            return el.dataset.seq !== seq && el.dataset.mode !== 'place';
        }""",
        arg=seq,
        timeout=LONG,
    )


def ghost_at(page: Page) -> tuple[str | None, ...]:
    g = page.locator(tid("ghost"))
    return tuple(g.get_attribute(f"data-{k}") for k in ("x", "y", "rotation"))


def far_points(page: Page) -> list[tuple[float, float]]:
    """Points of our area on screen, farthest from the card first."""
    area = page.locator(tid("area-0"))
    area.scroll_into_view_if_needed()
    box = area.bounding_box()
    card = page.locator(tid("ghost")).bounding_box()
    assert box and card
    top = max(box["y"], 0)
    bottom = min(box["y"] + box["height"], PHONE["height"])
    cx, cy = card["x"] + card["width"] / 2, card["y"] + card["height"] / 2
    points = [
        (box["x"] + box["width"] * fx, top + (bottom - top) * fy)
        for fx in (0.08, 0.5, 0.92)
        for fy in (0.08, 0.5, 0.92)
    ]
    return sorted(points, key=lambda p: -((p[0] - cx) ** 2 + (p[1] - cy) ** 2))
