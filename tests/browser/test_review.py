"""Review with the bot, in the replay viewer: start it, see its progress, then the
mistakes list, and a click on one jumps the board to where it was made."""

from __future__ import annotations

import json
import random
import time
import urllib.request

import pytest

from tests.browser.conftest import Server
from tests.browser.helpers import LONG, tid
from tests.server.conftest import Client
from tests.server.test_accounts_at_tables import play_to_the_end

pytestmark = pytest.mark.browser


def get(server: Server, path: str) -> dict:
    with urllib.request.urlopen(server.url + path, timeout=10) as response:
        return json.loads(response.read())


def finished_fika(server: Server, name: str = "Ada", game: str = "fika") -> str:
    """A match of a person (seat 0, played at random over a socket) against greedy."""
    created = server.post(
        "/api/tables",
        {
            "game": game,
            "players": 2,
            "name": name,
            "bots": {"1": "greedy"},
            "options": {"bot_speed": 1000},
        },
    )
    table_id = created["table_id"]
    ws_url = server.url.replace("http://", "ws://")
    client = Client(f"{ws_url}/ws/tables/{table_id}?token={created['token']}")
    try:
        play_to_the_end([client], random.Random(4))
    finally:
        client.close()
    deadline = time.monotonic() + 30
    while get(server, f"/api/tables/{table_id}")["status"] != "over":
        assert time.monotonic() < deadline, "the match did not end"
        time.sleep(0.1)
    return str(table_id)


def test_the_review_shows_progress_then_the_mistakes_and_jumps_to_one(page, server: Server) -> None:  # type: ignore[no-untyped-def]
    table_id = finished_fika(server, name='<img src=x onerror="alert(1)">')
    page.goto(f"{server.url}/#/replay/{table_id}")
    page.wait_for_selector(f"{tid('replay-frame')}[data-frame='0']")
    page.wait_for_selector(tid("review-start"))
    assert page.get_attribute(tid("review-panel"), "data-status") == "none"
    page.click(tid("review-start"))
    # The POST answers while the search runs: the page shows how far it is.
    page.wait_for_selector(tid("review-progress"))
    assert "of" in page.inner_text(tid("review-progress-text"))
    page.wait_for_selector(f"{tid('review-panel')}[data-status='done']", timeout=LONG)
    review = get(server, f"/api/tables/{table_id}/review")
    assert review["status"] == "done" and review["done"] == review["total"] > 0
    costly = [j for j in review["decisions"] if j["cost"] is not None and j["cost"] >= 0.005]
    assert costly, "random play made no mistake the bot saw"
    items = page.query_selector_all(tid("review-mistake"))
    assert 0 < len(items) <= 10
    # Biggest first, as the server ordered them.
    assert [int(i.get_attribute("data-frame") or -1) for i in items] == [
        j["index"] for j in costly[: len(items)]
    ]
    # Each move in the board's words, as its log tells it: the card and the spot as
    # the board numbers them (1-5 from the owner's left), never the engine's fields.
    by_frame = {j["index"]: j for j in costly}
    for item in items:
        judged = by_frame[int(item.get_attribute("data-frame") or -1)]
        for which in ("played", "best"):
            words = item.query_selector(tid(f"review-{which}")).inner_text()  # type: ignore[union-attr]
            action = judged[which]
            assert "(spot" not in words and "(card" not in words and " · cafe" not in words
            if action["type"] == "place":
                card = judged[f"{which}_events"][0]["card"]
                assert f"{card['colour']} {card['number']} on spot {action['spot'] + 1}" in words
            if action["type"] == "pick":
                colour = ("brown", "green", "pink")[action["card"] // 6]
                assert f"picked {colour} {action['card'] % 6 + 1}" in words
    # The hostile name is the mistake's seat, as text: no element was made of it.
    assert "<img src=x" in items[0].inner_text()
    assert page.query_selector("img[src=x]") is None
    # Jump to the second mistake (not the deal): the board shows that position, seen by seat 0.
    target = items[min(1, len(items) - 1)]
    frame = int(target.get_attribute("data-frame") or -1)
    page.select_option(tid("replay-seat"), "")  # a spectator's eyes first
    target.click()
    page.wait_for_selector(f"{tid('replay-frame')}[data-frame='{frame}']")
    assert page.input_value(tid("replay-seat")) == "0"
    page.wait_for_selector(f"{tid('review-mistake')}.chosen[data-frame='{frame}']")
    # The board points at the move played there and at the bot's (a card or a spot).
    chosen = by_frame[frame]
    if chosen["played"]["type"] in ("pick", "place"):
        page.wait_for_selector("[data-review~='played']")
        page.wait_for_selector("[data-review~='best']")
    # Over the board, the decision it shows; stepping on leaves it behind.
    page.wait_for_selector(tid("replay-note"))
    note = page.inner_text(tid("replay-note"))
    assert f"Move {frame + 1}" in note and "The bot prefers" in note
    page.click(tid("replay-forward"))
    page.wait_for_selector(f"{tid('replay-frame')}[data-frame='{frame + 1}']")
    assert page.is_hidden(tid("replay-note"))
    assert page.query_selector("[data-review]") is None
    page.click(tid("replay-back"))
    page.wait_for_selector(tid("replay-note"))
    # A reload finds the review kept: no new search, the list at once.
    page.reload()
    page.wait_for_selector(tid("review-mistakes"))
    assert get(server, f"/api/tables/{table_id}/review")["decisions"] == review["decisions"]


#: What a board marks for a move, by game and the move's type.
MARKED = {"doppio": ("place", "move", "exchange"), "cafe": ("produce", "dry", "roast", "deliver")}


@pytest.mark.parametrize("game", sorted(MARKED))
def test_the_review_names_moves_in_the_logs_words_and_the_board_marks_them(  # type: ignore[no-untyped-def]
    page, server: Server, game: str
) -> None:
    table_id = finished_fika(server, game=game)
    page.goto(f"{server.url}/#/replay/{table_id}")
    page.wait_for_selector(f"{tid('replay-frame')}[data-frame='0']")
    page.click(tid("review-start"))
    page.wait_for_selector(f"{tid('review-panel')}[data-status='done']", timeout=LONG)
    review = get(server, f"/api/tables/{table_id}/review")
    costly = [j for j in review["decisions"] if j["cost"] is not None and j["cost"] >= 0.005]
    if len(costly) > 10:
        page.click(tid("review-all"))
    items = page.query_selector_all(tid("review-mistake"))
    assert len(items) == len(costly) > 0
    for item, judged in zip(items, costly, strict=True):
        words = item.query_selector(tid("review-played")).inner_text()  # type: ignore[union-attr]
        # The log's words, not the engine's notation ("place (space 2)", "(area 1,-1").
        for field in judged["played"]:
            assert f"({field} " not in words and f"· {field} " not in words, words
    marked = [j for j in costly if j["played"]["type"] in MARKED[game]]
    assert marked, "no mistake of a marked kind in this match"
    page.click(f"{tid('review-mistake')}[data-frame='{marked[0]['index']}']")
    page.wait_for_selector(f"{tid('replay-frame')}[data-frame='{marked[0]['index']}']")
    page.wait_for_selector("[data-review~='played']")
    if marked[0]["best"]["type"] in MARKED[game]:  # the bot's move may be one not marked (pass)
        page.wait_for_selector("[data-review~='best']")


def test_a_real_time_match_offers_no_review(page, server: Server) -> None:  # type: ignore[no-untyped-def]
    created = server.post(
        "/api/tables",
        {
            "game": "espresso",
            "players": 2,
            "bots": {"0": "hard", "1": "hard"},
            "options": {"bot_speed": 10_000},
        },
    )
    table_id = created["table_id"]
    deadline = time.monotonic() + 60
    while get(server, f"/api/tables/{table_id}")["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.2)
    page.goto(f"{server.url}/#/replay/{table_id}")
    page.wait_for_selector(f"{tid('replay-frame')}[data-frame='0']")
    page.wait_for_timeout(500)
    assert page.query_selector(tid("review-start")) is None
    assert page.query_selector(tid("review-panel")) is None


def test_a_match_of_bots_alone_has_no_decision_to_review(page, server: Server) -> None:  # type: ignore[no-untyped-def]
    created = server.post(
        "/api/tables",
        {
            "game": "fika",
            "players": 2,
            "bots": {"0": "greedy", "1": "greedy"},
            "options": {"bot_speed": 10_000},
        },
    )
    table_id = created["table_id"]
    deadline = time.monotonic() + 60
    while get(server, f"/api/tables/{table_id}")["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.2)
    page.goto(f"{server.url}/#/replay/{table_id}")
    page.click(tid("review-start"))
    page.wait_for_selector(tid("review-nobody"))
    assert page.query_selector(tid("review-mistakes")) is None
