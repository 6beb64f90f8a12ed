"""The end of a match: Play again (a rematch at a new table, same seats), the
replay viewer, and back to the lobby."""

from __future__ import annotations

import json
import urllib.request

import pytest

from tests.browser.conftest import Server
from tests.browser.helpers import LONG, get_ready, open_table_from_lobby, play_until, tid

pytestmark = pytest.mark.browser


def get(server: Server, path: str) -> dict:
    with urllib.request.urlopen(server.url + path, timeout=10) as response:
        return json.loads(response.read())


def finished_espresso(page, server: Server) -> str:  # type: ignore[no-untyped-def]
    """A short Espresso match of ours against a bot, played to its end."""
    table_id = open_table_from_lobby(page, server.url, name="Ada", bots=1, speed="10", target=5)
    get_ready(page)
    play_until(page, tid("match-over"), ready=True)
    page.wait_for_selector(tid("play-again"), timeout=LONG)
    return table_id


def test_play_again_seats_us_at_a_new_table_in_the_same_seats(page, server: Server) -> None:  # type: ignore[no-untyped-def]
    old = finished_espresso(page, server)
    assert page.is_visible(tid("view-replay"))
    assert page.get_attribute(tid("view-replay"), "href") == f"#/replay/{old}"
    assert page.get_attribute(tid("back-to-lobby"), "href") == "#/"
    assert page.locator(tid("back-to-lobby")).count() == 1  # one way back, not two
    page.click(tid("play-again"))  # the bot accepts at once: we are dealt the new table
    page.wait_for_function(
        f"() => location.hash.startsWith('#/table/') && !location.hash.endsWith('{old}')"
    )
    new = page.evaluate("location.hash").split("/")[-1]
    page.wait_for_selector(f"{tid('seat-0')}.me")
    summary = get(server, f"/api/tables/{new}")
    before = get(server, f"/api/tables/{old}")
    assert summary["game"] == "espresso"
    assert [s.get("bot") for s in summary["seats"]] == [s.get("bot") for s in before["seats"]]
    assert summary["seats"][0]["name"] == "Ada"
    page.wait_for_selector(tid("espresso"))
    assert page.is_hidden(tid("table-end"))


def test_the_replay_steps_to_the_final_view_and_any_seats_eyes(page, server: Server) -> None:  # type: ignore[no-untyped-def]
    table_id = finished_espresso(page, server)
    final_scores = [page.inner_text(tid(f"score-{seat}")) for seat in (0, 1)]
    page.click(tid("view-replay"))
    page.wait_for_selector(tid("replay-page"))
    page.wait_for_selector(f"{tid('replay-frame')}[data-frame='0']")
    assert page.evaluate("location.hash") == f"#/replay/{table_id}"
    total = int(page.get_attribute(tid("replay-frame"), "data-frames") or 0)
    log = get(server, f"/api/tables/{table_id}/replay?start=0&count=1")
    assert total == log["frames"] > 2
    page.wait_for_selector(tid("espresso"))
    page.click(tid("replay-forward"))
    page.wait_for_selector(f"{tid('replay-frame')}[data-frame='1']")
    page.click(tid("replay-last"))
    page.wait_for_selector(f"{tid('replay-frame')}[data-frame='{total - 1}']")
    page.wait_for_selector(f"{tid('game-root')} {tid('match-over')}")
    assert [page.inner_text(tid(f"score-{seat}")) for seat in (0, 1)] == final_scores
    page.click(tid("replay-back"))
    page.wait_for_selector(f"{tid('replay-frame')}[data-frame='{total - 2}']")
    assert page.locator(tid("match-over")).count() == 0
    # Whose eyes: seat 1, then seat 0, then a spectator's.
    assert page.locator(".player.me").count() == 0  # a spectator's view first
    page.select_option(tid("replay-seat"), "1")
    page.wait_for_selector(f"{tid('player-1')}.me")
    page.select_option(tid("replay-seat"), "0")
    page.wait_for_selector(f"{tid('player-0')}.me")
    assert page.get_attribute(tid("replay-frame"), "data-frame") == str(total - 2)
    # Jump to a round, and play at a speed.
    page.select_option(tid("replay-round"), "0")
    page.wait_for_selector(f"{tid('replay-frame')}[data-frame='0']")
    page.select_option(tid("replay-speed"), "8")
    page.click(tid("replay-play"))
    page.wait_for_function(
        "() => Number(document.querySelector('[data-testid=replay-frame]').dataset.frame) >= 3"
    )
    page.click(tid("replay-play"))  # pause
    # The link is shareable: a fresh load of the URL shows the same replay.
    page.reload()
    page.wait_for_selector(f"{tid('replay-frame')}[data-frame='0']")
    page.wait_for_selector(tid("espresso"))


def test_a_running_match_has_no_replay_yet(page, server: Server) -> None:  # type: ignore[no-untyped-def]
    table_id = open_table_from_lobby(page, server.url, name="Ada", bots=1, speed="5")
    page.goto(f"{server.url}/#/replay/{table_id}")
    page.wait_for_selector(tid("replay-error"))
    assert "not over" in page.inner_text(tid("replay-error"))
