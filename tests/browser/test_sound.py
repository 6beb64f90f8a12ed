"""The page's own sounds: a mute switch in the top bar, kept across a reload;
muted, nothing is played (window.coffeetable.sounds counts asked and played)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import Server
from tests.browser.helpers import LONG, get_ready, open_table_from_lobby, tid

pytestmark = pytest.mark.browser

ASKED = "() => window.coffeetable.sounds.asked"
PLAYED = "() => window.coffeetable.sounds.played"


def test_the_mute_switch_is_kept_and_silences_the_table(page, server: Server) -> None:  # type: ignore[no-untyped-def]
    page.goto(server.url + "/#/")
    page.wait_for_selector(tid("create-form"))
    assert page.get_attribute(tid("sound-toggle"), "data-muted") == "false"
    assert page.get_attribute(tid("sound-toggle"), "title") == "Turn the sounds off"
    page.click(tid("sound-toggle"))
    assert page.get_attribute(tid("sound-toggle"), "data-muted") == "true"
    page.reload()
    page.wait_for_selector(tid("create-form"))
    assert page.get_attribute(tid("sound-toggle"), "data-muted") == "true"
    assert page.get_attribute(tid("sound-toggle"), "aria-pressed") == "true"

    # Muted at an Espresso table: cards land (asked) and nothing is played.
    open_table_from_lobby(page, server.url, name="Ada", bots=1, speed="10")
    get_ready(page)
    page.wait_for_function("() => window.coffeetable.sounds.asked.card > 2", timeout=LONG)
    assert all(count == 0 for count in page.evaluate(PLAYED).values())
    # Sounds on again: the next cards are played.
    page.click(tid("sound-toggle"))
    assert page.get_attribute(tid("sound-toggle"), "data-muted") == "false"
    page.wait_for_function("() => window.coffeetable.sounds.played.card > 0", timeout=LONG)
    assert page.evaluate(ASKED)["card"] >= page.evaluate(PLAYED)["card"]
