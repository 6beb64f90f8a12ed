"""Hostile names in the browser: whatever a player calls themself (and so their
table, "<name>'s table") shows as literal text everywhere a name appears, and
never becomes markup or script.

Each test seats a player with a name made of HTML, script and {placeholders},
watches from a second page, and goes through the places names appear: the lobby's
list, the table header, the boards, the logs, the Fika picks reveal (where a name
once ran script), Café's area label (an attribute) and each game's end screen.
It fails if a dialog opens, if any element the names could have made appears
(on* attributes, <img src=x>, foreign <script>), or if the Content-Security-Policy
reports a violation (the new_page fixture fails every test on one, too).
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page

from coffeetable import games
from tests.browser import test_cafe as cafe
from tests.browser import test_doppio as doppio
from tests.browser import test_fika as fika
from tests.browser.conftest import PageProblems, Server
from tests.browser.helpers import (
    LONG,
    get_ready,
    open_table_from_lobby,
    play_until,
    sit_at_new_table,
    tid,
)

pytestmark = pytest.mark.browser

#: Names a hostile player might choose (the server keeps 40 characters of a name).
IMG = "<img src=x onerror=alert(1)>"
SVG = '"><svg/onload=alert(2)>'
QUOTE = "'};alert(3);//"
SCRIPT = "</script><script>alert(4)</script>"
BRACES = "<b id=pwned>{name}</b> {names} &amp;"
EVERY = "& < > \" ' ` = / &lt;x&gt; &#39;"
HOSTILE = [IMG, SVG, QUOTE, SCRIPT, BRACES, EVERY]

#: Everything the names could have become if any of them were taken as markup.
INJECTED = """() => {
  const found = [];
  for (const el of document.querySelectorAll('*')) {
    for (const attr of el.attributes) {
      if (/^on/i.test(attr.name)) found.push(`<${el.localName} ${attr.name}>`);
    }
  }
  for (const el of document.querySelectorAll('img[src="x"], svg[onload], #pwned')) {
    found.push(el.outerHTML.slice(0, 80));
  }
  for (const script of document.querySelectorAll('script')) {
    const src = script.getAttribute('src') || '';
    if (!src.startsWith('/static/')) found.push(`<script src="${src}">${script.text.slice(0, 40)}`);
  }
  return found;
}"""


class Guard:
    """Watches pages for what a hostile name could do: dialogs, injected elements, CSP."""

    def __init__(self, problems: PageProblems) -> None:
        self.problems = problems
        self.dialogs: list[str] = []
        self.pages: list[Page] = []

    def watch(self, page: Page) -> Page:
        def dismiss(dialog) -> None:  # type: ignore[no-untyped-def]
            self.dialogs.append(f"{dialog.type}: {dialog.message}")
            dialog.dismiss()

        page.on("dialog", dismiss)
        self.pages.append(page)
        return page

    def check(self) -> None:
        for page in self.pages:
            assert page.evaluate(INJECTED) == [], page.url
        assert self.dialogs == []
        assert self.problems.csp == []


@pytest.fixture
def guard(page_problems: PageProblems) -> Guard:
    return Guard(page_problems)


def has_rules_page(name: str) -> bool:
    """Whether the game ships a rules page (rules.js beside its board)."""
    board = games.get(name).web_dir()
    return board is not None and (board / "rules.js").is_file()


def seat_0(game: str, name: str, bot: str) -> dict:
    """What POST /api/tables takes for two seats: seat 0 ours (named name), seat 1 a bot."""
    return {
        "game": game,
        "players": 2,
        "name": name,
        "bots": {"1": bot},
        "options": {"bot_speed": 50},
    }


def watch_table(new_page, guard: Guard, server: Server, table_id: str) -> Page:  # type: ignore[no-untyped-def]
    """A second page, a spectator of the table."""
    page = guard.watch(new_page())
    page.goto(f"{server.url}/#/table/{table_id}")
    page.wait_for_selector(tid("spectator-badge"))
    return page


def table_head_shows(page: Page, name: str) -> None:
    """The header: the table's name and seat 0's chip, both made of the hostile name."""
    assert page.inner_text(f"{tid('table-head')} h1") == f"{name}'s table"
    assert name in page.inner_text(tid("seat-0"))


def test_the_policy_watch_sees_an_inline_style(page: Page, server: Server, page_problems) -> None:  # type: ignore[no-untyped-def]
    """The CSP watch itself works: markup with style="" added behind the site's back
    is reported (then forgotten, so that this test passes)."""
    response = page.goto(server.url + "/")
    assert response is not None
    policy = response.headers.get("content-security-policy", "")
    assert "script-src 'self'" in policy and "style-src 'self'" in policy
    assert "object-src 'none'" in policy and "'unsafe-inline'" not in policy
    page.wait_for_selector(tid("create-form"))
    page.evaluate(
        """() => document.body.insertAdjacentHTML('beforeend', '<p style="color:red">x</p>')"""
    )
    # Chromium reports it twice: the event (conftest's CSP_WATCH) and a console line.
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and len(page_problems.csp) < 2:
        page.wait_for_timeout(50)
    assert any(text.startswith("style-src") for text in page_problems.csp), page_problems.csp
    assert any("Content Security Policy" in text for text in page_problems.csp)
    page_problems.csp.clear()


def test_html_escapes_every_value_and_set_html_takes_only_markup(page: Page, server: Server):
    """The helper of web/js/dom.js itself, in the page: every value escaped, in text
    and in attributes; nothing but attrs() inside a tag; no plain string into the page."""
    page.goto(server.url + "/#/")
    page.wait_for_selector(tid("create-form"))
    result = page.evaluate(
        """async (names) => {
            const { attrs, html, setHTML, trustedMarkup } = await import('/static/js/dom.js');
            const refused = (make) => { try { make(); return false; } catch { return true; } };
            const box = document.createElement('div');
            setHTML(box, html`<p title="${names}">${names.map((n) => html`<i>${n}</i>`)}</p>`);
            return {
              title: box.firstChild.getAttribute('title'),
              texts: [...box.querySelectorAll('i')].map((i) => i.textContent),
              elements: box.querySelectorAll('*').length,
              trusted: String(html`${trustedMarkup('<b>ours</b>')}`),
              attrs: String(html`<button ${attrs({ disabled: true, title: names[1] })}>`),
              plainString: refused(() => setHTML(box, '<b>x</b>')),
              joinedArray: refused(() => setHTML(box, [html`<b>x</b>`].join(''))),
              holeInTag: refused(() => html`<b ${names[1]}>`),
              unquoted: refused(() => html`<b title=${names[0]}>`),
              tagName: refused(() => html`<${names[0]}>`),
              handler: refused(() => attrs({ onclick: 'x' })),
            };
        }""",
        HOSTILE,
    )
    assert result["title"] == "".join(HOSTILE)  # an array goes in item by item
    assert result["texts"] == HOSTILE
    assert result["elements"] == 1 + len(HOSTILE)  # the <p> and one <i> per name: no more
    assert result["trusted"] == "<b>ours</b>"
    assert result["attrs"] == '<button  disabled title="&quot;&gt;&lt;svg/onload=alert(2)&gt;">'
    refusals = ("plainString", "joinedArray", "holeInTag", "unquoted", "tagName", "handler")
    assert all(result[key] for key in refusals), result


def test_the_lobby_lists_hostile_tables_as_text(new_page, server: Server, guard: Guard) -> None:  # type: ignore[no-untyped-def]
    # One open table per hostile name, across the four games.
    games = {
        IMG: "fika",
        SVG: "cafe",
        QUOTE: "espresso",
        SCRIPT: "doppio",
        BRACES: "fika",
        EVERY: "espresso",
    }
    tables = {}
    for name, game in games.items():
        body = {"game": game, "players": 2, "name": name, "options": {"bot_speed": 10}}
        tables[name] = str(server.post("/api/tables", body)["table_id"])
    page = guard.watch(new_page())
    page.goto(server.url + "/#/")
    for name, table_id in tables.items():
        row = page.locator(tid(f"table-row-{table_id}"))
        row.wait_for(timeout=LONG)  # the list refreshes every few seconds
        assert f"{name}'s table" in row.inner_text()
        assert page.locator(tid(f"join-{table_id}")).count() == 1
    guard.check()
    # Watch one: its header shows the names as text.
    page.click(tid(f"watch-{tables[IMG]}"))
    page.wait_for_selector(tid("spectator-badge"))
    table_head_shows(page, IMG)
    guard.check()
    # Join another from the lobby, under a hostile name of our own: both names show.
    page.goto(server.url + "/#/")
    page.fill(tid("create-name"), SVG)  # the lobby's field takes 24 characters: all of it
    page.click(tid(f"join-{tables[SCRIPT]}"))
    page.wait_for_selector(tid("doppio"))
    table_head_shows(page, SCRIPT)
    assert SVG in page.inner_text(tid("seat-1")) and "(you)" in page.inner_text(tid("seat-1"))
    page.wait_for_selector(f"{tid('doppio')}[data-phase]", timeout=LONG)
    assert SCRIPT in page.inner_text(tid("player-0"))  # the other player's panel
    guard.check()


@pytest.mark.parametrize("game", [n for n in games.names() if has_rules_page(n)])
def test_the_rules_pages_hold_the_policy(
    page: Page, server: Server, guard: Guard, game: str
) -> None:
    guard.watch(page)
    page.goto(f"{server.url}/#/rules/{game}")
    page.wait_for_selector(f"{tid('rules-body')} h1")
    page.wait_for_selector(f"{tid('rules-body')} svg")  # the legend, drawn through html``
    guard.check()


def test_fika_reveals_the_picks_and_ends_with_names_as_text(
    new_page, server: Server, guard: Guard
) -> None:  # type: ignore[no-untyped-def]
    page = guard.watch(new_page())
    table_id = sit_at_new_table(page, server, seat_0("fika", IMG, "random"))
    page.wait_for_selector(f"{tid('fika')}[data-phase]", timeout=LONG)
    watcher = watch_table(new_page, guard, server, table_id)
    table_head_shows(watcher, IMG)
    assert f"Café of {IMG}" in watcher.inner_text(tid("player-0"))
    assert watcher.get_attribute(tid("tips-0"), "title") == f"{IMG}: 0 tip(s)"
    # Play until both picks are revealed: the order of play names both players.
    counts: dict[str, int] = {}
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not page.locator(tid("order")).count():
        if not fika.act_once(page, counts):
            page.wait_for_timeout(50)
    order = page.inner_text(tid("order"))
    assert order.startswith("Order: ") and f"{IMG} (you)" in order, order
    assert "Revealed: " in page.inner_text(tid("log")) and IMG in page.inner_text(tid("log"))
    watcher.wait_for_selector(tid("order"))
    assert IMG in watcher.inner_text(tid("order"))
    guard.check()
    # On to the end screen, for both pages.
    fika.play_to_the_end(page)
    watcher.wait_for_selector(tid("end-screen"), timeout=LONG)
    assert f"{IMG} (you)" in page.inner_text(tid("end-screen"))
    assert f"Tips: {IMG}" in watcher.inner_text(tid("end-screen"))
    guard.check()


def test_cafe_labels_the_area_and_ends_with_names_as_text(
    new_page, server: Server, guard: Guard
) -> None:  # type: ignore[no-untyped-def]
    page = guard.watch(new_page())
    table_id = sit_at_new_table(page, server, seat_0("cafe", SVG, "greedy"))
    page.wait_for_selector(f"{cafe.ROOT}[data-phase]", timeout=LONG)
    watcher = watch_table(new_page, guard, server, table_id)
    watcher.wait_for_selector(tid("area-0"))
    # The name inside an attribute (the area's label) and as text (the panel's header).
    assert watcher.get_attribute(tid("area-0"), "aria-label") == f"Company area of {SVG}"
    assert watcher.inner_text(f"{tid('player-0')} .cf-name") == SVG
    guard.check()
    cafe.play_to_the_end(page)
    watcher.wait_for_selector(tid("end-screen"), timeout=LONG)
    assert SVG in watcher.inner_text(tid("final-row-0"))
    assert SVG in watcher.inner_text(tid("log"))
    guard.check()


def test_doppio_ends_with_names_as_text(new_page, server: Server, guard: Guard) -> None:  # type: ignore[no-untyped-def]
    page = guard.watch(new_page())
    table_id = sit_at_new_table(page, server, seat_0("doppio", BRACES, "greedy"))
    page.wait_for_selector(f"{doppio.ROOT}[data-phase]", timeout=LONG)
    watcher = watch_table(new_page, guard, server, table_id)
    table_head_shows(watcher, BRACES)
    watcher.wait_for_selector(tid("player-0"))
    assert BRACES in watcher.inner_text(tid("player-0"))
    doppio.play_to_the_end(page, tid("doppio-over"))
    over = watcher.wait_for_selector(tid("doppio-over"), timeout=LONG)
    assert BRACES in over.inner_text()  # the score table; the winner line when we won
    winners = over.get_attribute("data-winners")
    if winners == "0":  # "{names} wins.": the name, braces and all, once
        assert watcher.inner_text(tid("winner-line")) == f"{BRACES} wins."
    assert BRACES in watcher.inner_text(tid("game-log"))
    guard.check()


def test_espresso_ends_with_names_as_text(new_page, server: Server, guard: Guard) -> None:  # type: ignore[no-untyped-def]
    page = guard.watch(new_page())
    table_id = open_table_from_lobby(
        page, server.url, name=QUOTE, bots=1, level="hard", speed="10", target=5
    )
    table_head_shows(page, QUOTE)
    watcher = watch_table(new_page, guard, server, table_id)
    assert QUOTE in watcher.inner_text(tid("player-0"))
    get_ready(page)
    play_until(page, tid("match-over"), ready=True)
    assert QUOTE in page.inner_text(tid("match-over"))  # the last round's summary
    assert QUOTE in page.inner_text(tid("score-sheet"))
    watcher.wait_for_selector(tid("match-over"), timeout=LONG)
    assert QUOTE in watcher.inner_text(tid("match-over"))
    guard.check()
