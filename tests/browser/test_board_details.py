"""Details of the four boards: Café's colours each with their own mark; Doppio's end
screen breaking the beans down per round and per card; every end screen closing
(and keeping the slot for the shared buttons); Espresso's game log, kept over a
reload; the boards' counted strings in every language."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import Server
from tests.browser.helpers import (
    LONG,
    get_ready,
    open_table_from_lobby,
    play_a_card,
    sit_at_new_table,
    tid,
)

pytestmark = pytest.mark.browser

COLOURS = ("red", "yellow", "green", "black")
GAME_END = 600_000  # ms: bots playing a whole game on a slow machine


def watch_bots(page: Page, server: Server, game: str, bots: dict[str, str], **options: Any) -> str:
    """A table where bots play every seat, watched by the page; returns its id."""
    created = server.post(
        "/api/tables",
        {"game": game, "players": len(bots), "bots": bots, "options": {"bot_speed": 50, **options}},
    )
    assert created["seat"] is None
    table_id = str(created["table_id"])
    page.goto(f"{server.url}/#/table/{table_id}")
    page.wait_for_selector(tid("spectator-badge"))
    return table_id


# -- 1. Café: a mark per colour on beans and cubes ----------------------------------------


def test_cafe_beans_and_cubes_carry_a_mark_per_colour(page: Page, server: Server) -> None:
    # The rules page's legend: each colour's bean and cube, with the same mark.
    page.goto(server.url + "/#/rules/cafe")
    page.wait_for_selector(".cafe-legend .bean-fig")
    legend = page.evaluate(
        """() => [...document.querySelectorAll('.cafe-legend .bean-fig')].map((fig) => ({
            colour: fig.dataset.colour,
            bean: fig.querySelector('.bean-glyph').dataset.mark,
            cube: fig.querySelector('.cube-g').dataset.mark,
            paths: [...fig.querySelectorAll('path.mark')]
                .map((p) => p.getAttribute('d').length > 10),
        }))"""
    )
    assert [row["colour"] for row in legend] == list(COLOURS)
    marks = {row["colour"]: row["bean"] for row in legend}
    assert len(set(marks.values())) == 4, marks  # four colours, four shapes
    for row in legend:
        assert row["cube"] == row["bean"] and all(row["paths"]) and len(row["paths"]) == 2, row
    assert "red ▲" in page.inner_text(".cafe-legend")
    # The board: every bean and every cube shows its colour's mark.
    sit_at_new_table(
        page,
        server,
        {"game": "cafe", "players": 1, "name": "Ada", "options": {"bot_speed": 20}},
    )
    page.wait_for_selector(f"{tid('cafe')}[data-phase]", timeout=LONG)
    seen = page.evaluate(
        """() => [...document.querySelectorAll(
                '[data-testid=cafe] .bean-glyph, [data-testid=cafe] .cube-g')]
            .map((el) => [
                el.dataset.colour, el.dataset.mark, Boolean(el.querySelector('path.mark'))])"""
    )
    assert seen
    for colour, mark, drawn in seen:
        assert mark == marks[colour] and drawn, (colour, mark)
    for colour in COLOURS:  # the warehouse: a cube of each colour
        cube = page.locator(f"{tid(f'warehouse-0-{colour}')} .cube-g")
        assert cube.get_attribute("data-mark") == marks[colour]


# -- 2. Doppio's end screen: beans per round and per card ------------------------------


def breakdown_numbers(page: Page) -> list[dict[str, Any]]:
    """Per seat: the total, the player panel's beans, and per round its beans and its
    cards' beans (None where the end screen shows none)."""
    return page.evaluate(
        """() => {
            const beans = (sel) => {
                const el = document.querySelector(sel);
                return el && el.dataset.beans !== '' ? Number(el.dataset.beans) : null;
            };
            const chips = (sel) => {
                const found = [...document.querySelectorAll(`${sel} .d-chip`)];
                return found.length ? found.map((c) => Number(c.dataset.beans)) : null;
            };
            return [0, 1].map((s) => ({
                total: beans(`[data-testid=final-beans-${s}]`),
                panel: beans(`[data-testid=beans-${s}]`),
                rounds: [1, 2].map((r) => ({
                    beans: beans(`[data-testid=round-beans-${s}-${r}]`),
                    chips: chips(`[data-testid=round-cards-${s}-${r}]`),
                })),
            }));
        }"""
    )


def test_doppio_end_screen_breaks_the_beans_down(page: Page, server: Server) -> None:
    watch_bots(page, server, "doppio", {"0": "greedy", "1": "greedy"})
    page.wait_for_selector(tid("doppio-over"), timeout=GAME_END)
    assert page.locator(tid("breakdown")).is_visible()
    seats = breakdown_numbers(page)
    listed = 0
    for seat in seats:
        assert seat["total"] == seat["panel"], seat
        first, second = seat["rounds"]
        assert first["beans"] is not None and second["beans"] is not None, seat
        assert first["beans"] + second["beans"] == seat["total"], seat
        for r in (first, second):
            if r["chips"] is not None:
                assert sum(r["chips"]) == r["beans"], seat
                listed += len(r["chips"])
    assert listed >= 8  # the card that ended the game, and the others of round 2 at least
    # A reload: the server retells the match's events, and the breakdown is the same.
    page.reload()
    page.wait_for_selector(tid("breakdown"))
    assert [s["rounds"][1] for s in breakdown_numbers(page)] == [s["rounds"][1] for s in seats]
    assert [s["total"] for s in breakdown_numbers(page)] == [s["total"] for s in seats]


# -- 2. Every end screen closes, opens again, and keeps the slot for the shared buttons ----

ENDS: dict[str, dict[str, Any]] = {
    "doppio": {
        "bots": {"0": "greedy", "1": "greedy"},
        "over": "doppio-over",
        "inside": tid("winner-line"),
    },
    "fika": {
        "bots": {"0": "greedy", "1": "random"},
        "over": "end-screen",
        "inside": ".fika-end h2",
    },
    "cafe": {
        "bots": {"0": "greedy", "1": "random"},
        "over": "end-screen",
        "inside": tid("winner-line"),
    },
    "espresso": {
        "bots": {"0": "hard", "1": "hard"},
        "options": {"target": 5},
        "over": "match-over",
        "inside": tid("winners"),
    },
}


SLOT = """() => {
    const slots = [...document.querySelectorAll('[data-testid=end-actions]')];
    const slot = slots[0];
    return {
        count: slots.length,
        kept: Boolean(slot && slot.__kept),
        shown: Boolean(slot)
            && (!slot.children.length || getComputedStyle(slot).display !== 'none'),
    };
}"""


@pytest.mark.parametrize("game", list(ENDS))
def test_the_end_screen_closes_and_keeps_its_slot(page: Page, server: Server, game: str) -> None:
    end = ENDS[game]
    watch_bots(page, server, game, end["bots"], **end.get("options", {}))
    page.wait_for_selector(tid(end["over"]), timeout=GAME_END)
    # The slot the shared front end fills (Play again, ...) is one element, kept by
    # every redraw (closing, opening, a language switch), with whatever it holds.
    page.evaluate("() => { document.querySelector('[data-testid=end-actions]').__kept = true; }")
    page.click(tid("end-close"))
    page.wait_for_selector(end["inside"], state="hidden")
    assert page.locator(tid("end-open")).is_visible()
    assert page.evaluate(SLOT) == {"count": 1, "kept": True, "shown": True}  # still at hand
    english = page.inner_text(tid("end-open"))
    page.select_option(tid("lang-select"), "fr")  # a redraw of the whole board
    page.wait_for_function(
        "(was) => document.querySelector('[data-testid=end-open]').textContent.trim() !== was",
        arg=english.strip(),
    )
    assert page.inner_text(tid("end-open")).startswith("Voir")
    assert page.evaluate(SLOT) == {"count": 1, "kept": True, "shown": True}
    page.click(tid("end-open"))
    page.wait_for_selector(end["inside"])
    assert page.locator(tid("end-close")).is_visible()
    assert page.evaluate(SLOT) == {"count": 1, "kept": True, "shown": True}


# -- 3. Espresso's game log ------------------------------------------------------------------


def test_espresso_tells_the_plays_in_its_log_and_keeps_them_over_a_reload(
    page: Page, server: Server
) -> None:
    open_table_from_lobby(page, server.url, name="Ada", bots=1, level="easy", speed="1")
    get_ready(page)
    log = tid("game-log")
    page.wait_for_selector(f"{log} li")
    assert "Round 1: ESPRESSO!" in page.inner_text(log)
    play_a_card(page)
    page.wait_for_function(
        """() => [...document.querySelectorAll('[data-testid=game-log] li')]
            .some((li) => /^Ada (played the|started stack) /.test(li.textContent))"""
    )
    mine = [
        line
        for line in page.inner_text(log).splitlines()
        if line.startswith(("Ada played the", "Ada started stack"))
    ]
    assert mine and all(" stack " in line for line in mine), mine
    # A reload: the history message retells the match's events.
    page.reload()
    page.wait_for_selector(f"{log} li")
    page.wait_for_function(
        "(line) => document.querySelector('[data-testid=game-log]').innerText.includes(line)",
        arg=mine[0],
    )


# -- 6. Counted strings, whole sentences, in every language ----------------------------------

PLURALS = """async (cases) => {
    const i18n = await import('/static/js/i18n.js');
    const out = [];
    for (const [lang, key, n, params] of cases) {
        i18n.setLang(lang);
        out.push(i18n.t(key, { ...params, count: n }));
    }
    i18n.setLang('en');
    return out;
}"""


def test_counted_strings_agree_with_their_number(page: Page, server: Server) -> None:
    cases = [
        ("en", "doppio.beans", 1, {}, "1 bean"),
        ("en", "doppio.beans", 3, {}, "3 beans"),
        ("fr", "doppio.beans", 1, {}, "1 grain"),
        ("fr", "doppio.beans", 0, {}, "0 grain"),  # French: 0 is singular
        ("de", "doppio.beans", 1, {}, "1 Bohne"),
        ("es", "doppio.beans", 2, {}, "2 granos"),
        (
            "en",
            "doppio.log.scored",
            1,
            {"name": "Ada", "card": "#6"},
            "Ada scored “#6” for 1 bean.",
        ),
        (
            "en",
            "doppio.log.scored",
            4,
            {"name": "Ada", "card": "#6"},
            "Ada scored “#6” for 4 beans.",
        ),
    ]
    page.goto(f"{server.url}/#/rules/doppio")  # the rules page registers every game's strings
    page.wait_for_selector(f"{tid('rules-body')} h1")
    got = page.evaluate(PLURALS, [c[:4] for c in cases])
    assert got == [c[4] for c in cases]
    more = [
        ("en", "fika.handCount", 1, {}, "1 card in hand"),
        ("de", "fika.handCount", 5, {}, "5 Karten auf der Hand"),
        ("en", "fika.tipsCount", 1, {"name": "Ada"}, "Ada: 1 tip"),
        ("es", "fika.tipsCount", 2, {"name": "Ada"}, "Ada: 2 propinas"),
        ("en", "cafe.cubes.red", 1, {}, "1 red cube"),
        ("fr", "cafe.cubes.green", 3, {}, "3 cubes verts"),
        ("en", "cafe.actionsLeft", 1, {}, "1 action left."),
        ("es", "cafe.actionsLeft", 2, {}, "Te quedan 2 acciones."),
        ("en", "espresso.log.points", 1, {"name": "Bo"}, "Bo: 1 point"),
        ("fr", "espresso.log.points", 12, {"name": "Bo"}, "Bo : 12 points"),
    ]
    assert page.evaluate(PLURALS, [c[:4] for c in more]) == [c[4] for c in more]
    # Espresso's log: a round's end, the points of each seat agreeing with their number.
    line = page.evaluate(
        """async () => {
            const log = await import('/static/games/espresso/log.js');
            const ev = {type: 'round_over', round: 2, finito: 1, points: [1, 7]};
            return String(log.logLine(ev, ['Ada', 'Bo']));
        }"""
    )
    assert "Bo called FINITO!" in line and "Round 2 is over — Ada: 1 point, Bo: 7 points." in line


def test_no_board_string_is_glued_or_half_plural(page: Page, server: Server) -> None:
    """No "(s)" to count with, no possessive glued to "(you)"; each counted key has
    its forms, each touch hint its mouse one, in every language."""
    page.goto(server.url + "/#/rules/cafe")
    page.wait_for_selector(f"{tid('rules-body')} h1")
    tables = page.evaluate(
        """async () => {
            const out = {};
            for (const game of ['espresso', 'doppio', 'fika', 'cafe']) {
                out[game] = (await import(`/static/games/${game}/i18n.js`)).default;
            }
            return out;
        }"""
    )
    # fika.tipsOf: the tips' tooltip, which test_hostile.py pins as "…: 0 tip(s)";
    # the visible lists use fika.tipsCount.
    pinned = {"fika.tipsOf"}
    half = ("(s)", "(en)", "(er)", "(es)", "(n)", "/les ", "el/los", "Platz/Plätze")
    for game, langs in tables.items():
        assert set(langs) == {"en", "fr", "de", "es"}, game
        for lang, strings in langs.items():
            assert sorted(strings) == sorted(langs["en"]), (game, lang)
            for key, text in strings.items():
                if key not in pinned:
                    assert not any(bit in text for bit in half), (game, lang, key, text)
                assert "(you)'s" not in text, (game, lang, key)
            for key in strings:
                if key.endswith(".one"):
                    assert key[: -len(".one")] + ".other" in strings, (game, lang, key)
                if key.endswith(".touch"):
                    assert key[: -len(".touch")] in strings, (game, lang, key)


def test_doppio_breakdown_from_a_short_log(page: Page, server: Server) -> None:
    """The log may no longer reach back to round 1: its total stays exact, its cards unknown."""
    page.goto(server.url + "/#/rules/doppio")
    page.wait_for_selector(f"{tid('rules-body')} h1")
    view = {
        "solo": False,
        "round": 2,
        "players": [
            {"beans": 11, "scored": [{"id": 4}, {"id": 9}]},
            {"beans": 6, "scored": [{"id": 2}]},
        ],
    }
    full = [
        {"type": "scored", "seat": 0, "card": 1, "beans": 3, "matches": 1},
        {"type": "scored", "seat": 1, "card": 7, "beans": 4, "matches": 2},
        {"type": "scored", "seat": 0, "card": 3, "beans": 2, "matches": 1},
        {"type": "round_over", "round": 1, "seat": 0},
        {"type": "scored", "seat": 0, "card": 4, "beans": 4, "matches": 2, "turned": True},
        {"type": "scored", "seat": 1, "card": 2, "beans": 2, "matches": 1},
        {"type": "scored", "seat": 0, "card": 9, "beans": 2, "matches": 1},
    ]
    script = """async ([view, log]) =>
        (await import('/static/games/doppio/breakdown.js')).breakdown(view, log)"""
    whole = page.evaluate(script, [view, full])
    assert [[r["beans"] for r in s["rounds"]] for s in whole] == [[5, 6], [4, 2]]
    assert [c["card"] for c in whole[0]["rounds"][0]["cards"]] == [1, 3]
    assert whole[0]["rounds"][1]["cards"][0] == {
        "card": 4,
        "beans": 4,
        "matches": 2,
        "turned": True,
    }
    short = page.evaluate(script, [view, full[2:]])  # seat 1's round-1 card fell off
    assert [[r["beans"] for r in s["rounds"]] for s in short] == [[5, 6], [4, 2]]
    assert short[1]["rounds"][0]["cards"] is None and short[0]["rounds"][0]["cards"] is None
    assert short[1]["rounds"][1]["cards"] == [
        {"card": 2, "beans": 2, "matches": 1, "turned": False}
    ]
    tail = page.evaluate(script, [view, full[4:]])  # not even the end of round 1
    assert all(r["beans"] is None for s in tail for r in s["rounds"])
    assert json.dumps(tail).count('"cards": null') == 4
