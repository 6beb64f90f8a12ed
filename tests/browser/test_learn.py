"""Learn by playing, in the browser: every game that declares a tutorial is walked to its
end through the page's own marks (the element to press carries ``data-tutorial-target``,
a button that only moves the lesson on ``data-tutorial-next``, the end
``data-tutorial-done``), on the game's real board. A wrong move is refused with the
reason and the lesson waits; the lobby offers a tutorial until it is finished; the end's
button opens a real game against a beginner bot."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page

from coffeetable import games
from tests.browser.conftest import Server
from tests.browser.helpers import tid

pytestmark = pytest.mark.browser

TUTORED = [name for name in games.names() if games.get(name).tutorial is not None]
#: Presses a tutorial may take (each step's presses, with room to spare).
MAX_PRESSES = 80
STEP_TIMEOUT = 15.0  # s: one press's answer, on a slow machine

NEXT = "[data-tutorial-next]"
TARGET = "[data-tutorial-target]"
DONE = "[data-tutorial-done]:not([hidden])"


def marks(page: Page) -> tuple[str, str, int]:
    """What the page asks now: its step, the target's markup, whether Next shows."""
    found = page.evaluate(
        """() => {
          const progress = document.querySelector('[data-testid="learn-progress"]');
          const target = document.querySelector('[data-tutorial-target]');
          const next = document.querySelector('[data-tutorial-next]');
          const step = progress ? progress.dataset.step : '';
          const html = target ? target.outerHTML.slice(0, 200) : '';
          return [step, html, next && !next.closest('[hidden]') ? 1 : 0];
        }"""
    )
    return found[0], found[1], found[2]


def wait_for_change(page: Page, before: tuple[str, str, int]) -> None:
    deadline = time.monotonic() + STEP_TIMEOUT
    while time.monotonic() < deadline:
        if page.locator(DONE).count() or marks(page) != before:
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"the lesson did not move on from {before}")


def walk(page: Page) -> int:
    """Press what the lesson asks until its end; the number of presses it took. Each
    step's element (its ``at``) is found on the board and highlighted."""
    page.wait_for_selector(f"{NEXT}, {TARGET}")
    game = page.get_attribute(tid("learn-page"), "data-game")
    steps = page.evaluate(f"async () => (await (await fetch('/api/learn/{game}')).json()).steps")
    for presses in range(MAX_PRESSES):
        if page.locator(DONE).count():
            return presses
        before = marks(page)
        if steps[int(before[0])]["at"]:
            assert page.locator(".tutorial-focus").count() == 1, steps[int(before[0])]["at"]
        if before[2]:
            page.click(NEXT)
        else:
            page.wait_for_selector(TARGET)
            page.click(TARGET)
        wait_for_change(page, before)
    raise AssertionError("the tutorial did not end")


@pytest.mark.parametrize("game", TUTORED)
def test_every_tutorial_walks_to_its_end_on_the_real_board(
    page: Page, server: Server, game: str
) -> None:
    page.goto(server.url + "/#/")
    offer = page.locator(tid(f"learn-offer-{game}"))
    offer.wait_for()
    assert "minutes" in offer.inner_text()
    offer.click()
    page.wait_for_selector(tid("learn-page"))
    # the game's own board, not the generic one
    page.wait_for_selector(f"{tid('game-root')} > :not(.generic-board)")
    presses = walk(page)
    assert presses >= 5
    done = page.locator(DONE)
    assert done.locator(tid("learn-play")).is_visible()
    # finished: this browser is not offered it again
    page.goto(server.url + "/#/")
    page.wait_for_selector(tid(f"game-card-{game}"))
    page.wait_for_timeout(300)
    assert page.locator(tid(f"learn-offer-{game}")).count() == 0


def test_a_wrong_move_is_refused_with_the_reason_and_the_lesson_waits(
    page: Page, server: Server
) -> None:
    page.goto(server.url + "/#/learn/fika")
    # read the theme and the goal, choose the colour: then a hand card is asked for
    for _ in range(2):
        page.click(NEXT)
    page.click(TARGET)
    page.wait_for_selector(f'{TARGET}[data-click^="hand:"]')
    asked = page.get_attribute(TARGET, "data-click")
    other = page.locator(f'[data-click^="hand:"]:not([data-click="{asked}"])').first
    step = marks(page)[0]
    other.click()
    refusal = page.locator(tid("learn-refusal"))
    refusal.wait_for()
    assert "another" in refusal.inner_text()
    assert marks(page)[0] == step  # the lesson waits
    page.click(TARGET)  # the asked card moves it on
    page.wait_for_function(
        f"document.querySelector('[data-testid=learn-progress]').dataset.step !== '{step}'"
    )


def test_the_end_opens_a_real_game_against_a_beginner_bot(page: Page, server: Server) -> None:
    page.goto(server.url + "/#/learn/doppio")
    walk(page)
    page.click(tid("learn-play"))
    page.wait_for_url("**/#/table/**")
    page.wait_for_selector(tid("doppio"))


def test_a_game_without_a_tutorial_says_so(page: Page, server: Server) -> None:
    page.goto(server.url + "/#/learn/nosuchgame")
    assert "no tutorial" in page.locator(tid("learn-missing")).inner_text()


def test_an_account_keeps_it_and_its_profile_shows_it(page: Page, server: Server) -> None:
    page.goto(server.url + "/#/")
    status = page.evaluate(
        """async () => (await fetch('/api/auth/register', {method: 'POST',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({username: 'learner', password: 'correct horse battery'}),
        })).status"""
    )
    assert status == 200
    page.goto(server.url + "/#/learn/espresso")
    page.reload()  # the page knows who is signed in
    walk(page)
    page.wait_for_function(
        "async () => (await (await fetch('/api/learn')).json()).done.includes('espresso')"
    )
    page.goto(server.url + "/#/players/learner")
    page.locator(tid("learned-espresso")).wait_for()
