"""What stood in a new player's way (issue 29), each checked in the browser where a
browser can see it: boards that do not leak styles into each other, the replay's log,
the new-table form at 1280 px, Doppio's end turn and its keyboard, Espresso's phone
layout, and the words the boards use."""

from __future__ import annotations

import json
import time
import urllib.request

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from tests.browser.conftest import Server
from tests.browser.helpers import (
    LONG,
    click_ready_if_asked,
    get_ready,
    open_table_from_lobby,
    phase,
    sit_at_new_table,
    tid,
)

pytestmark = pytest.mark.browser


def get(server: Server, path: str) -> dict:
    with urllib.request.urlopen(server.url + path, timeout=10) as response:
        return json.loads(response.read())


def test_cafe_styles_do_not_reach_a_fika_table_opened_after_it(page: Page, server: Server) -> None:
    """Café's stylesheet stays loaded once a Café table was opened; Fika's café rows
    (class "cafe" too) must still lay their five spots out in a row."""
    sit_at_new_table(
        page,
        server,
        {"game": "cafe", "players": 2, "name": "Ada", "bots": {"1": "greedy"}},
    )
    page.wait_for_selector(f"{tid('cafe')}[data-phase]", timeout=LONG)
    sit_at_new_table(
        page,
        server,
        {"game": "fika", "players": 2, "name": "Ada", "bots": {"1": "greedy"}},
    )
    page.wait_for_selector(tid("cafe-0"), timeout=LONG)
    # the Café stylesheet is still in the page: the case the defect needed
    assert page.locator("link#cafe-css, style#cafe-css").count() == 1
    row = page.locator(tid("cafe-0"))
    assert row.evaluate("el => getComputedStyle(el).flexDirection") == "row"
    tops = row.evaluate(
        "el => [...el.children].map((c) => Math.round(c.getBoundingClientRect().top))"
    )
    assert len(tops) == 5 and len(set(tops)) == 1, tops


def finished_by_bots(server: Server, game: str, bot: str | None = None) -> str:
    """A match of two bots played to its end; returns its table's id."""
    bot = bot or ("easy" if game == "espresso" else "random")
    options: dict[str, object] = {"bot_speed": 1000}
    if game == "espresso":
        options["target"] = 5
    created = server.post(
        "/api/tables",
        {"game": game, "players": 2, "bots": {"0": bot, "1": bot}, "options": options},
    )
    table_id = str(created["table_id"])
    deadline = time.monotonic() + 180
    while get(server, f"/api/tables/{table_id}")["status"] != "over":
        assert time.monotonic() < deadline, "the match did not end"
        time.sleep(0.2)
    return table_id


def log_lines(page: Page) -> int:
    return page.locator(f"{tid('game-root')} :is({tid('log')}, {tid('game-log')}) li").count()


@pytest.mark.parametrize("game", ["fika", "cafe", "doppio", "espresso"])
def test_the_replay_shows_the_log_up_to_its_frame(page: Page, server: Server, game: str) -> None:
    table_id = finished_by_bots(server, game)
    page.goto(f"{server.url}/#/replay/{table_id}")
    page.wait_for_selector(f"{tid('replay-frame')}[data-frame='0']")
    page.wait_for_selector(f"{tid('game-root')} {tid(game)}")
    assert log_lines(page) == 0  # the deal: nothing has happened yet
    total = int(page.get_attribute(tid("replay-frame"), "data-frames") or 0)
    page.click(tid("replay-last"))
    page.wait_for_selector(f"{tid('replay-frame')}[data-frame='{total - 1}']")
    page.wait_for_function(
        "() => document.querySelectorAll("
        "'[data-testid=game-root] :is([data-testid=log], [data-testid=game-log]) li').length > 0"
    )
    at_the_end = log_lines(page)
    page.click(tid("replay-back"))
    page.wait_for_selector(f"{tid('replay-frame')}[data-frame='{total - 2}']")
    assert 0 < log_lines(page) <= at_the_end
    page.click(tid("replay-first"))  # back to the deal: the log is empty again
    page.wait_for_selector(f"{tid('replay-frame')}[data-frame='0']")
    page.wait_for_function(
        "() => !document.querySelectorAll("
        "'[data-testid=game-root] :is([data-testid=log], [data-testid=game-log]) li').length"
    )


def test_doppio_names_each_colour_as_its_cards_do_in_every_language(
    page: Page, server: Server
) -> None:
    """One name per colour: the board's (pieces, log, rules legend) is the cards' word."""
    from coffeetable.games.doppio.cards import CARDS, COLOURS, KINDS

    page.goto(server.url + "/#/")
    strings = page.evaluate("async () => (await import('/static/games/doppio/i18n.js')).default")
    for lang, table in strings.items():
        cards = " ".join(card.text[lang] for card in CARDS).lower()
        for colour in COLOURS:
            name = table[f"doppio.colour.{colour}"].lower()
            assert name in cards, (lang, colour, name)
            for kind in KINDS:  # "tasse blanche": the colour, agreeing with the kind
                piece = table[f"doppio.piece.{kind}.{colour}"].lower()
                assert name[:4] in piece, (lang, piece, name)
    # the rules page's legend says the same
    page.goto(server.url + "/#/rules/doppio")
    legend = page.locator(".doppio-legend").inner_text().lower()
    for colour in COLOURS:
        assert strings["en"][f"doppio.colour.{colour}"] in legend
    assert "cream" not in legend


def option_texts(page: Page, testid: str) -> list[str]:
    return page.eval_on_selector_all(
        f"{tid(testid)} option", "els => els.map((e) => e.textContent.trim())"
    )


def test_a_seat_option_offers_at_random_or_a_seat_not_a_number(page: Page, server: Server) -> None:
    page.goto(server.url + "/#/")
    page.click(tid("new-table-cafe"))
    page.select_option(tid("create-players"), "2")
    label = page.locator(f"label:has({tid('option-master')})").inner_text()
    assert "-1" not in label and "Master" in label
    assert option_texts(page, "option-master") == ["At random", "Seat 1", "Seat 2"]
    page.select_option(tid("create-players"), "4")
    assert option_texts(page, "option-master") == [
        "At random",
        "Seat 1",
        "Seat 2",
        "Seat 3",
        "Seat 4",
    ]
    page.click(tid("new-table-doppio"))
    page.select_option(tid("create-players"), "2")
    assert "-1" not in page.locator(f"label:has({tid('option-first_player')})").inner_text()
    assert page.input_value(tid("option-first_player")) == "-1"  # the default: at random
    page.select_option(tid("option-first_player"), "1")
    page.fill(tid("create-name"), "Ada")
    page.click(tid("create-submit"))
    page.wait_for_selector(tid("doppio"))
    table_id = page.evaluate("location.hash").split("/")[-1]
    assert get(server, f"/api/tables/{table_id}")["options"]["first_player"] == 1


def test_a_bot_has_one_name_at_the_table_and_in_the_recent_matches(
    new_page, own_server: Server
) -> None:  # type: ignore[no-untyped-def]
    table_id = finished_by_bots(own_server, "fika", "casual")
    page = new_page("fr-FR")
    page.goto(own_server.url + "/#/")
    match = page.locator(f"{tid('recent-matches-list')} [data-table='{table_id}']")
    match.wait_for()
    names = match.locator(".participant .player-name").all_inner_texts()
    assert sorted(names) == ["Robot 1 (détendu)", "Robot 2 (détendu)"], names
    page.goto(f"{own_server.url}/#/table/{table_id}")
    page.wait_for_selector(tid("fika"))
    assert "Robot 2 (détendu)" in page.inner_text(tid("table-head"))


def test_espresso_says_why_a_card_cannot_go_on_a_stack(page: Page, server: Server) -> None:
    """A press on a stack the selected card cannot go on keeps it selected, and says why."""
    open_table_from_lobby(page, server.url, bots=1, speed="2")
    get_ready(page)
    sheet = page.inner_text(tid("score-sheet"))
    assert "standard rules" in sheet  # the variant badge says what it means
    toast = page.locator(tid("toast-info")).filter(has_text="cannot go on that stack")
    deadline = time.monotonic() + 150
    while True:  # the bot plays too: the board may move under a try, then try again
        assert time.monotonic() < deadline, "never a stack our card could not go on"
        if phase(page) != "play":
            click_ready_if_asked(page)
            page.wait_for_timeout(200)
            continue
        page.keyboard.press("Escape")
        card = page.locator(f"{tid('player-0')} .place.pickable").first
        if not card.count():
            page.keyboard.press("Space")  # flip, to have a card to play
            page.wait_for_timeout(200)
            continue
        try:
            card.click(timeout=2_000)
            wrong = page.locator(".stack:not(.target)[data-target^='stack:']").first
            if not wrong.count():
                page.locator(".stack.target").first.click(timeout=2_000)  # play: more stacks
                continue
            selected = page.get_attribute(tid("espresso"), "data-selected")
            wrong.click(timeout=2_000)
            toast.first.wait_for(timeout=2_000)
        except PlaywrightError:  # the board moved under us: look again
            continue
        still = page.get_attribute(tid("espresso"), "data-selected")
        if selected and still == selected:
            break  # said why, and the card is still in hand, selected


def test_a_free_seat_is_waited_for_not_said_to_be_playing(page: Page, server: Server) -> None:
    """A host waiting for an invited friend reads "Waiting for a player to take seat 2",
    not "Seat 2 (free) is choosing a colour"."""
    for _ in range(12):  # who chooses first is drawn: a table where it is the free seat
        sit_at_new_table(page, server, {"game": "fika", "players": 2, "name": "Ada"})
        page.wait_for_selector(f"{tid('fika')}[data-phase]", timeout=LONG)
        if page.get_attribute(tid("fika"), "data-can-act") != "true":
            break
    else:
        pytest.fail("Ada chose first at every table")
    prompt = page.inner_text(f"{tid('fika')} .prompt")
    assert "Waiting for a player to take seat 2" in prompt, prompt
    assert "(free)" not in prompt


def test_cafe_shows_no_draft_row_at_the_end(page: Page, server: Server) -> None:
    table_id = finished_by_bots(server, "cafe")
    page.goto(f"{server.url}/#/table/{table_id}")
    page.wait_for_selector(f"{tid('cafe')}[data-phase='over']", timeout=LONG)
    assert page.locator(".cf-draft-wrap").is_hidden()
    strings = page.evaluate("async () => (await import('/static/games/cafe/i18n.js')).default")
    for lang in ("fr", "es"):  # the draft has its word in French and Spanish too
        assert not [k for k, v in strings[lang].items() if "draft" in v.lower()], lang


def test_a_bots_seat_chip_does_not_break_its_level_on_a_phone(page: Page, server: Server) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    sit_at_new_table(
        page, server, {"game": "doppio", "players": 2, "name": "Ada", "bots": {"1": "casual"}}
    )
    chip = page.locator(tid("seat-1"))
    chip.wait_for()
    # The lines the name's text takes, measured in one go once it is laid out (the seat
    # list is redrawn as the table starts: a chip being replaced has no boxes).
    lines = page.wait_for_function(
        """() => {
            const name = document.querySelector('[data-testid="seat-1"] .player-name');
            if (!name || !name.isConnected) return null;
            const text = [...name.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE);
            const tops = text.flatMap((node) => {
                const range = document.createRange();
                range.selectNodeContents(node);
                return [...range.getClientRects()].map((r) => Math.round(r.top));
            });
            return tops.length ? [new Set(tops).size, name.outerHTML] : null;
        }"""
    ).json_value()
    assert lines[0] == 1, lines


def boxes_inside(page: Page) -> list[str]:
    """What in the seats of the new-table form runs out of its seat or over another."""
    return page.evaluate(
        """() => {
            const bad = [];
            const seats = [...document.querySelectorAll('.create-form .seats li')];
            const rects = seats.map((li) => li.getBoundingClientRect());
            seats.forEach((li, i) => {
                for (const el of li.querySelectorAll('select, .seat-no, strong')) {
                    const r = el.getBoundingClientRect();
                    if (r.right > rects[i].right + 0.5 || r.left < rects[i].left - 0.5) {
                        bad.push(`seat ${i + 1}: ${el.tagName} runs out of its seat`);
                    }
                }
                rects.forEach((other, j) => {
                    const apart = other.right <= rects[i].left || other.left >= rects[i].right
                        || other.bottom <= rects[i].top || other.top >= rects[i].bottom;
                    if (j !== i && !apart) bad.push(`seats ${i + 1} and ${j + 1} overlap`);
                });
            });
            return bad;
        }"""
    )


def test_the_new_table_form_fits_at_1280_px_and_names_the_game_of_play_now(
    page: Page, server: Server
) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(server.url + "/#/")
    for game, players in (("espresso", 6), ("cafe", 4), ("fika", 2)):
        page.click(tid(f"new-table-{game}"))
        page.select_option(tid("create-players"), str(players))
        assert page.locator(".create-form .seats li").count() == players
        assert boxes_inside(page) == [], game
        assert page.get_attribute(tid("seat-select-1"), "aria-label") == "Seat 2"
    page.click(tid("new-table-espresso"))
    page.click(tid("play-now-fika"))
    assert "Fika" in page.inner_text(f"{tid('create-form')} h2")


def doppio_turn_with_a_card_to_score() -> tuple[int, dict, list]:
    """A seeded Doppio match played at random (never scoring) up to a turn where a card
    may be scored and the turn ended: (seat, its view, its legal actions)."""
    import random

    from coffeetable import games

    state = games.get("doppio").new_state(players=2, seed=0)
    rng = random.Random(0)
    while not state.is_over:
        seat = state.actors()[0]
        legal = state.legal_actions(seat)
        if {"score", "end_turn"} <= {a["type"] for a in legal}:
            return seat, state.view(seat), legal
        state.apply(seat, rng.choice([a for a in legal if a["type"] != "score"]))
    raise AssertionError("no turn with a card to score")


MOUNT_DOPPIO = """async ([seat, view, legal]) => {
    const board = (await import('/static/games/doppio/index.js')).default;
    const root = document.createElement('div');
    document.querySelector('main').replaceChildren(root);
    window.__sent = [];
    const send = (action) => { window.__sent.push(action); return true; };
    const ctx = { seat, names: () => ['Ada', 'Bo'], send };
    window.__board = board.mount(root, ctx);
    window.__board.state({ type: 'state', seq: 1, seat, view, legal, actors: [seat] });
}"""


def test_doppio_asks_before_an_end_turn_throws_a_score_away(page: Page, server: Server) -> None:
    seat, view, legal = doppio_turn_with_a_card_to_score()
    page.goto(server.url + "/#/")
    page.wait_for_selector(tid("new-table-doppio"))  # the games' strings are loaded
    page.evaluate(MOUNT_DOPPIO, [seat, view, legal])
    page.click(tid("end-turn"))
    warning = page.locator(tid("end-turn-warning"))
    assert "score" in warning.inner_text() and page.evaluate("window.__sent") == []
    page.click(tid("keep-turn"))  # back: the turn goes on, the card still glows
    assert warning.count() == 0 and page.locator(tid("end-turn")).count() == 1
    page.click(tid("end-turn"))
    page.click(tid("end-turn-anyway"))
    assert page.evaluate("window.__sent") == [{"type": "end_turn"}]


def tab_to(page: Page, selector: str, most: int = 120) -> None:
    """Press Tab until the focused element matches selector (the keyboard alone)."""
    for _ in range(most):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement?.matches(s) ?? false", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_doppio_is_played_with_the_keyboard_alone(page: Page, server: Server) -> None:
    sit_at_new_table(
        page,
        server,
        {
            "game": "doppio",
            "players": 2,
            "name": "Ada",
            "bots": {"1": "casual"},
            "options": {"bot_speed": 1000},
        },
    )
    root = tid("doppio")
    page.wait_for_selector(f"{root}[data-phase]", timeout=LONG)
    deadline = time.monotonic() + 120
    while page.get_attribute(root, "data-phase") == "setup":  # place our pieces
        assert time.monotonic() < deadline, "the set-up did not end"
        if page.get_attribute(root, "data-can-act") != "true":
            page.wait_for_timeout(100)
            continue
        seq = page.get_attribute(root, "data-seq")
        if not page.locator(".d-colour.chosen").count():  # a colour, unless one still is
            tab_to(page, "[data-colour]")
            page.keyboard.press("Enter")
        tab_to(page, ".target-tab")
        page.keyboard.press("Enter")
        page.wait_for_function(
            "(seq) => document.querySelector('[data-testid=doppio]').dataset.seq !== seq",
            arg=seq,
        )
    page.wait_for_selector(f"{root}[data-can-act='true']", timeout=LONG)
    assert page.get_attribute(root, "data-actions") == "0"
    print(
        page.locator(".pwrap[tabindex]").count(),
        page.evaluate("document.activeElement.outerHTML.slice(0,200)"),
    )
    tab_to(page, ".pwrap[tabindex]")
    page.keyboard.press(" ")  # Space picks the piece up
    page.wait_for_function(
        "() => document.querySelector('[data-testid=doppio]').dataset.selected !== ''"
    )
    tab_to(page, ".target-tab")
    page.keyboard.press("Enter")  # and Enter moves it there
    page.wait_for_selector(f"{root}[data-actions='1']")
    tab_to(page, tid("end-turn"))
    page.keyboard.press("Enter")
    if page.locator(tid("end-turn-warning")).count():  # a card to score: end anyway
        tab_to(page, tid("end-turn-anyway"))
        page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=doppio]').dataset.turn !== ''"
        " && document.querySelector('[data-testid=doppio]').dataset.actions === '0'"
    )


#: A browser that grants notifications and records them, and a tab that can be "hidden".
FAKE_NOTIFICATIONS = """
window.__notes = [];
window.Notification = class {
  constructor(title, options) { window.__notes.push({ title, body: options.body }); }
  close() {}
  static get permission() { return 'granted'; }
  static requestPermission() { return Promise.resolve('granted'); }
};
const hidden = { configurable: true, get: () => Boolean(window.__hidden) };
Object.defineProperty(document, 'hidden', hidden);
"""


def test_your_turn_shows_in_the_title_and_as_a_notification(page: Page, server: Server) -> None:
    from tests.browser.test_fika import act_once

    page.add_init_script(FAKE_NOTIFICATIONS)
    page.goto(server.url + "/#/")
    bell = page.locator(tid("notify-toggle"))
    assert bell.get_attribute("aria-pressed") == "false"
    bell.click()
    page.wait_for_selector(f"{tid('notify-toggle')}[aria-pressed='true']")
    sit_at_new_table(
        page,
        server,
        {"game": "fika", "players": 2, "name": "Ada", "bots": {"1": "casual"}},
    )
    page.evaluate("window.__hidden = true")  # the player is in another tab
    root = tid("fika")
    deadline = time.monotonic() + 90
    counts: dict[str, int] = {}
    while not page.evaluate("window.__notes.length"):
        assert time.monotonic() < deadline, "no notification on our turn"
        if page.get_attribute(root, "data-can-act") == "true":
            assert page.title() == "(1) Your turn · Fika"
            act_once(page, counts)
        page.wait_for_timeout(100)
    note = page.evaluate("window.__notes[0]")
    assert note == {"title": "(1) Your turn · Fika", "body": "It is your turn to play."}
    page.wait_for_selector(f"{root}[data-can-act='true']", timeout=LONG)
    assert page.title() == "(1) Your turn · Fika"
    page.goto(server.url + "/#/")  # away from the table: the plain title again
    page.wait_for_function("() => document.title === 'Coffee Table'")


PHONE = {"width": 390, "height": 844}


def test_espresso_on_a_phone_keeps_your_cards_in_view_and_the_end_over_the_screen(
    page: Page, server: Server
) -> None:
    page.set_viewport_size(PHONE)
    sit_at_new_table(
        page,
        server,
        {
            "game": "espresso",
            "players": 4,
            "name": "Ada",
            "bots": {"1": "easy", "2": "easy", "3": "easy"},
        },
    )
    mine = page.locator(tid("player-0"))
    mine.wait_for()
    box = mine.bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"] + 1, box
    page.mouse.wheel(0, 400)  # scrolled: still in view
    page.wait_for_timeout(200)
    box = mine.bounding_box()
    assert box and box["y"] + box["height"] <= PHONE["height"] + 1, box
    table_id = finished_by_bots(server, "espresso")
    page.goto(f"{server.url}/#/table/{table_id}")
    page.wait_for_selector(tid("match-over"))
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_timeout(200)
    dialog = page.locator(f"{tid('match-over')} .dialog").bounding_box()
    assert dialog and 0 <= dialog["y"] < PHONE["height"] / 2, dialog
