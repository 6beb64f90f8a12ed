"""Players in the browser: signing up, in and out, sessions, a guest's seats kept by
signing up, profiles, leaderboards, recent matches, a rated match played to the end
by two people, and a seat continued from a second browser.

Each test has a server of its own (sign-ups are limited per address and hour, and
the leaderboards start empty). Profiles and leaderboards are checked on matches
recorded straight into the server's database (as the table code records them),
with hostile guest names among the players; the rated match and the second
browser go through the real tables. Every new page must fit a 360 px wide phone.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from tests.browser import test_doppio as doppio
from tests.browser import test_fika as fika
from tests.browser.conftest import Server
from tests.browser.helpers import LONG, tid
from tests.browser.test_hostile import HOSTILE, Guard

pytestmark = pytest.mark.browser

PASSWORD = "correct horse battery"
PHONE = {"width": 360, "height": 740}
ESP0 = "[data-table='esp0']"  # a recorded match in the lists, by its table


@pytest.fixture
def guard(page_problems) -> Guard:  # type: ignore[no-untyped-def]
    return Guard(page_problems)


# -- steps -----------------------------------------------------------------------


def submit_auth(page: Page, server: Server, mode: str, username: str, password: str) -> None:
    page.goto(f"{server.url}/#/{mode}")
    page.fill(tid("auth-username"), username)
    page.fill(tid("auth-password"), password)
    page.click(tid("auth-submit"))


def sign_up(page: Page, server: Server, username: str, password: str = PASSWORD) -> None:
    submit_auth(page, server, "signup", username, password)
    page.wait_for_selector(f"{tid('nav-username')}:text-is('{username}')")


def sign_in(
    page: Page, server: Server, username: str, password: str = PASSWORD, shown: str | None = None
) -> None:
    submit_auth(page, server, "signin", username, password)
    page.wait_for_selector(f"{tid('nav-username')}:text-is('{shown or username}')")


def auth_error(page: Page) -> str:
    page.wait_for_selector(f"{tid('auth-error')}:not([hidden])")
    return page.inner_text(tid("auth-error"))


def open_menu(page: Page) -> None:
    page.click(tid("user-menu-button"))
    page.wait_for_selector(tid("menu-sign-out"))


def fits_the_phone(page: Page, ready: str) -> None:
    """At 360 x 740 the page (once `ready` shows) scrolls only up and down."""
    page.set_viewport_size(PHONE)
    page.wait_for_selector(ready)
    page.wait_for_timeout(100)  # a layout pass after the resize
    wide = page.evaluate(
        """() => {
            const doc = document.documentElement;
            const over = [...document.querySelectorAll('body *')]
              .filter((el) => el.getBoundingClientRect().right > doc.clientWidth + 1)
              .map((el) => `${el.localName}.${el.className.baseVal ?? el.className}`);
            return {scroll: doc.scrollWidth, client: doc.clientWidth, over: over.slice(0, 5)};
        }"""
    )
    assert wide["scroll"] <= wide["client"], (page.url, wide)


def record_match(
    server: Server,
    table_id: str,
    game: str,
    seats: list[tuple[str, int, str | None, str | None]],
    winners: list[int],
    rated: bool = True,
) -> None:
    """Record a finished match in the server's database, as the table code does at
    the end of a match. seats: (name, score, account username or None, bot level or None)."""
    from coffeetable.server.players.ratings import MatchSummary, SeatResult, finish_match
    from coffeetable.store import Database, SeatRecord, TableRecord
    from coffeetable.store import players as accounts

    db = Database(f"sqlite:///{server.database}")
    try:
        with db.engine.begin() as conn:
            results = []
            for index, (name, score, username, bot) in enumerate(seats):
                user_id = None
                if username is not None:
                    found = accounts.player_by_key(conn, username.casefold())
                    assert found is not None, username
                    user_id = found.id
                results.append(SeatResult(index, name, score, user_id, bot))
            record = TableRecord(
                id=table_id,
                game=game,
                players=len(seats),
                seed=1,
                options={},
                settings={},
                name=f"{game} table",
                status="over",
                seats=[SeatRecord(s.seat, s.name, bot=s.bot) for s in results],
            )
            db.insert_table(conn, record)
            summary = MatchSummary(table_id, game, len(seats), results, winners, rated)
            assert finish_match(conn, summary) is not None
    finally:
        db.close()


# -- signing up, in and out ----------------------------------------------------------


def test_sign_up_sign_out_and_sign_in_with_one_message_for_mistakes(
    new_page,  # type: ignore[no-untyped-def]
    own_server: Server,
) -> None:
    page = new_page()
    page.goto(own_server.url + "/#/")
    page.wait_for_selector(tid("nav-signin"))
    page.wait_for_selector(tid("create-form"))
    assert page.locator(tid("create-rated")).count() == 0  # a guest plays unrated
    assert page.locator(tid("my-tables")).is_hidden()
    page.click(tid("nav-signup"))
    fits_the_phone(page, tid("signup-page"))
    sign_up(page, own_server, "Bea")
    assert page.locator(tid("toast-info")).first.inner_text() == "Welcome, Bea!"
    # Signed in, the lobby plays under the username and lists our tables (none yet).
    page.wait_for_selector(tid("my-tables"))
    assert page.get_attribute(tid("create-name"), "readonly") is not None
    assert page.input_value(tid("create-name")) == "Bea"
    page.wait_for_selector(tid("no-my-tables"))
    assert page.is_checked(tid("create-rated"))  # rated by default when signed in
    page.click(tid("new-table-doppio"))
    page.select_option(tid("create-players"), "1")
    page.wait_for_selector(tid("create-players"))
    assert page.locator(tid("create-rated")).count() == 0  # a solo game is never rated
    # The name is taken now, whatever its case.
    other = new_page()
    submit_auth(other, own_server, "signup", "BEA", PASSWORD)
    assert auth_error(other) == "This username, or one that looks like it, is taken."
    # Sign out from the menu.
    open_menu(page)
    page.click(tid("menu-sign-out"))
    page.wait_for_selector(tid("nav-signin"))
    assert page.locator(tid("nav-username")).count() == 0
    # A wrong password and an unknown username get the same one message.
    submit_auth(page, own_server, "signin", "Bea", "not the password")
    assert auth_error(page) == "Wrong username or password."
    submit_auth(page, own_server, "signin", "Nobody", PASSWORD)
    assert auth_error(page) == "Wrong username or password."
    fits_the_phone(page, tid("auth-error"))
    page.set_viewport_size({"width": 1366, "height": 768})
    sign_in(page, own_server, "bea", shown="Bea")  # any case; the name shows as made
    page.wait_for_selector(tid("my-tables"))


def test_too_many_wrong_passwords_say_how_long_to_wait(new_page, own_server: Server) -> None:  # type: ignore[no-untyped-def]
    page = new_page(locale="fr-FR")
    sign_up(page, own_server, "Cyd")
    open_menu(page)
    page.click(tid("menu-sign-out"))
    page.wait_for_selector(tid("nav-signin"))
    for _ in range(5):  # five free failures per username
        submit_auth(page, own_server, "signin", "Cyd", "wrong password")
        assert auth_error(page) == "Nom d’utilisateur ou mot de passe incorrect."
    submit_auth(page, own_server, "signin", "Cyd", PASSWORD)  # even the right one waits now
    message = auth_error(page)
    assert re.fullmatch(r"Trop de tentatives\. Réessayez dans \d+ secondes\.", message), message
    assert page.locator(tid("nav-signin")).count() == 1


def test_plurals_follow_each_language(page: Page, server: Server) -> None:
    page.goto(server.url + "/#/")
    page.wait_for_selector(tid("create-form"))
    said = page.evaluate(
        """async () => {
            const i18n = await import('/static/js/i18n.js');
            const out = {};
            for (const code of ['en', 'fr', 'de', 'es']) {
              i18n.setLang(code);
              out[code] = [0, 1, 2].map((count) => i18n.t('players.points', { count }));
              out[code].push(i18n.t('auth.tooManyWait', { count: 1 }));
            }
            i18n.setLang('en');
            return out;
        }"""
    )
    assert said["en"] == [
        "0 points",
        "1 point",
        "2 points",
        "Too many attempts. Try again in 1 second.",
    ]
    assert said["fr"][:3] == ["0 point", "1 point", "2 points"]  # French: 0 is singular
    assert said["de"][:3] == ["0 Punkte", "1 Punkt", "2 Punkte"]
    assert said["es"][:3] == ["0 puntos", "1 punto", "2 puntos"]


# -- sessions ---------------------------------------------------------------------------


def test_the_sessions_page_lists_both_browsers_and_revoking_one_signs_it_out(
    new_page,  # type: ignore[no-untyped-def]
    own_server: Server,
) -> None:
    here = new_page()
    sign_up(here, own_server, "Dee")
    there = new_page(locale="de-DE")
    sign_in(there, own_server, "Dee")
    open_menu(here)
    here.click(tid("menu-sessions"))
    here.wait_for_selector(tid("sessions-count"))
    assert here.inner_text(tid("sessions-count")) == "Signed in on 2 browsers."
    sessions = here.locator(tid("session"))
    assert sessions.count() == 2
    current = here.locator(f"{tid('session')}[data-current='true']")
    assert current.count() == 1 and "this browser" in current.inner_text()
    assert "HeadlessChrome" in here.inner_text(tid("sessions"))  # the user agent
    assert re.search(r"Signed in .*20\d\d.*last seen .*20\d\d", here.inner_text(tid("sessions")))
    fits_the_phone(here, tid("sessions-count"))
    # End the other browser's session: it is a guest at its next request.
    here.click(f"{tid('session')}[data-current='false'] {tid('revoke-session')}")
    here.wait_for_function("() => document.querySelectorAll('[data-testid=session]').length === 1")
    assert here.inner_text(tid("sessions-count")) == "Signed in on 1 browser."
    there.reload()
    there.wait_for_selector(tid("nav-signin"))
    assert there.inner_text(tid("nav-signin")) == "Anmelden"
    # Sign out everywhere: this browser too.
    here.click(tid("sign-out-everywhere"))
    here.wait_for_selector(tid("signin-page"))
    here.wait_for_selector(tid("nav-signin"))
    here.goto(own_server.url + "/#/sessions")
    here.wait_for_selector(tid("sessions-signed-out"))


# -- a guest's seats ----------------------------------------------------------------


def test_a_guest_who_signs_up_keeps_the_seat(page: Page, own_server: Server) -> None:
    page.goto(own_server.url + "/#/")
    page.click(tid("new-table-doppio"))
    page.fill(tid("create-name"), "Guest Ed")
    page.select_option(tid("create-players"), "2")
    page.select_option(tid("seat-select-1"), "open")  # seat 1 stays open: the table waits
    page.click(tid("create-submit"))
    page.wait_for_selector(tid("doppio"))
    table_id = page.evaluate("location.hash").split("/")[-1]
    assert page.locator(tid("spectator-badge")).count() == 0
    page.click(tid("nav-signup"))
    sign_up(page, own_server, "Eddy")
    # Back where we were, the seat now the account's; the lobby lists it as ours.
    page.wait_for_selector(tid("doppio"))
    assert page.evaluate("location.hash") == f"#/table/{table_id}"
    assert "Your seat at 1 table is now your account’s." in page.inner_text("#toasts")
    page.click(tid("nav-lobby"))
    page.wait_for_selector(tid(f"my-table-{table_id}"))
    assert "Seat 1" in page.inner_text(tid(f"my-table-{table_id}"))
    fits_the_phone(page, tid(f"continue-{table_id}"))
    page.click(tid(f"continue-{table_id}"))
    page.wait_for_selector(tid("doppio"))
    page.wait_for_selector(f"{tid('seat-0')}.me")
    assert page.locator(tid("spectator-badge")).count() == 0


# -- profiles, leaderboards, recent matches --------------------------------------------


def test_profiles_leaderboards_and_recent_matches_show_hostile_names_as_text(
    new_page,  # type: ignore[no-untyped-def]
    own_server: Server,
    guard: Guard,
) -> None:
    page = guard.watch(new_page())
    sign_up(page, own_server, "Fay")
    other = guard.watch(new_page())
    sign_up(other, own_server, "Gus")
    # Espresso, 3 players: Fay, the hard bot and a hostile guest; Fay wins two of three.
    for n, hostile in enumerate(HOSTILE[:3]):
        winner = 0 if n != 1 else 1
        scores = [100 if winner == 0 else 60, 100 if winner == 1 else 70, 10]
        record_match(
            own_server,
            f"esp{n}",
            "espresso",
            [
                ("Fay", scores[0], "Fay", None),
                ("Hard bot", scores[1], None, "hard"),
                (hostile, 10, None, None),
            ],
            [winner],
        )
    # Doppio, 2 players: Gus beats Fay; and a Café solo game of Fay's.
    record_match(
        own_server, "dop1", "doppio", [("Fay", 9, "Fay", None), ("Gus", 14, "Gus", None)], [1]
    )
    record_match(own_server, "solo1", "cafe", [("Fay", 21, "Fay", None)], [0], rated=False)

    page.goto(f"{own_server.url}/#/players/Fay")
    page.wait_for_selector(tid("profile-matches"))
    assert page.inner_text(tid("profile-name")) == "Fay"
    espresso = page.locator(tid("rating-espresso-3-4"))
    assert "3–4 players" in espresso.inner_text()
    assert "3 rated games" in espresso.inner_text() and "2 wins" in espresso.inner_text()
    assert espresso.locator(tid("provisional")).count() == 1
    assert espresso.locator(tid("sparkline")).get_attribute("data-points") == "3"
    assert espresso.locator("svg.sparkline polyline").count() == 1
    doppio_rating = page.locator(tid("rating-doppio-2"))
    assert "1 rated game" in doppio_rating.inner_text() and "0 wins" in doppio_rating.inner_text()
    assert int(doppio_rating.locator(tid("rating")).get_attribute("data-rating")) < 1500
    assert page.inner_text(f"{tid('games-espresso')} {tid('played')}") == "3"
    assert page.inner_text(f"{tid('games-espresso')} {tid('won')}") == "2"
    assert page.inner_text(f"{tid('solo-cafe')} {tid('best')}") == "21"
    assert page.inner_text(f"{tid('solo-cafe')} {tid('solo-rank')}") == "Coffee baron"
    matches = page.locator(f"{tid('profile-matches')} > li")
    assert matches.count() == 5
    results = [
        m.inner_text() for m in page.locator(f"{tid('profile-matches')} {tid('result')}").all()
    ]
    assert results == ["Solo", "Lost", "Won", "Lost", "Won"]
    text = page.inner_text(tid("profile-matches"))
    for hostile in HOSTILE[:3]:
        assert hostile in text  # as text, exactly as typed
    # Accounts and bots link to their profiles (with the robot mark); guests do not.
    links = page.locator(f"{tid('profile-matches')} {tid('player-link')}")
    assert {links.nth(i).get_attribute("data-player") for i in range(links.count())} == {
        "Fay",
        "Gus",
        "hard",
    }
    assert page.locator(f"{ESP0} {tid('robot-mark')}").count() == 1
    assert page.get_attribute(f"{ESP0} {tid('match-link')}", "href") == "#/table/esp0"
    assert page.locator(f"{ESP0} {tid('rating-change')}").count() == 2
    fits_the_phone(page, tid("profile-matches"))

    # The bot's profile, from a link.
    page.locator(f"{ESP0} [data-player='hard']").click()
    page.wait_for_selector(f"{tid('profile-name')} {tid('robot-mark')}")
    assert page.inner_text(tid("profile-name")) == "hard"
    assert page.locator(tid("rating-espresso-3-4")).count() == 1

    # The leaderboards: a tab per group, our own line highlighted, bots marked.
    page.goto(f"{own_server.url}/#/")
    page.click(tid("leaderboard-link-espresso"))
    page.wait_for_selector(tid("board-groups"))
    assert page.locator(f"{tid('board-groups')} a").count() == 3
    page.wait_for_selector(tid("board-empty"))  # 2 players: nobody yet
    page.click(tid("board-group-3-4"))
    page.wait_for_selector(tid("leaderboard"))
    rows = page.locator(tid("board-row"))
    assert [rows.nth(i).get_attribute("data-name") for i in range(rows.count())] == ["Fay", "hard"]
    assert rows.nth(0).get_attribute("data-me") == "true" and "me" in (
        rows.nth(0).get_attribute("class") or ""
    )
    assert rows.nth(1).locator(tid("robot-mark")).count() == 1
    assert page.inner_text(tid("board-my-place")) == "Your place: 1"
    fits_the_phone(page, tid("leaderboard"))
    other.goto(f"{own_server.url}/#/leaderboards/doppio")
    other.wait_for_selector(tid("leaderboard"))
    assert page.locator(tid("board-groups")).count() == 1  # (page still on Espresso)
    assert other.locator(tid("board-groups")).count() == 0  # Doppio has one group
    assert other.inner_text(tid("board-my-place")) == "Your place: 1"
    other_rows = other.locator(tid("board-row"))
    assert other_rows.nth(0).get_attribute("data-name") == "Gus"
    assert other_rows.nth(0).get_attribute("data-me") == "true"

    # The lobby's recent matches, hostile names as text; and the profile in French.
    other.goto(f"{own_server.url}/#/")
    other.wait_for_selector(tid("recent-matches-list"))
    recent = other.inner_text(tid("recent-matches-list"))
    for hostile in HOSTILE[:3]:
        assert hostile in recent
    assert other.locator(f"{tid('recent-matches-list')} > li").count() == 5
    fits_the_phone(other, tid("recent-matches-list"))
    other.select_option(tid("lang-select"), "fr")
    other.goto(f"{own_server.url}/#/players/Fay")
    other.wait_for_selector(tid("profile-matches"))
    assert "3 parties classées" in other.inner_text(tid("rating-espresso-3-4"))
    assert "1 partie classée" in other.inner_text(tid("rating-doppio-2"))
    guard.check()


def test_an_unknown_player_says_so(page: Page, server: Server) -> None:
    page.goto(server.url + "/#/players/%3Cb%3Enobody%3C%2Fb%3E")
    page.wait_for_selector(tid("profile-missing"))
    assert page.inner_text(tid("profile-missing")) == "There is no player called “<b>nobody</b>”."


# -- through the tables: a rated match, a second browser ---------------------------------


def play_both_to_the_end(pages: list[Page], timeout: float = fika.GAME_TIMEOUT) -> None:
    """Two people play Fika through the board's own controls until it is over."""
    over = tid("end-screen")
    counts: list[dict[str, int]] = [{}, {}]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(p.locator(over).count() for p in pages):
            return
        moved = False
        for p, count in zip(pages, counts, strict=True):
            try:
                moved = fika.act_once(p, count) or moved
            except PlaywrightError:
                moved = True  # the board was redrawn under the click: look again
        pages[0].wait_for_timeout(50 if moved else 100)
    raise AssertionError(f"the match did not end within {timeout:.0f} s ({counts})")


def open_fika_for_two(page: Page, server: Server) -> str:
    """Signed in: a Fika table with seat 1 open for the second person (rated: the default)."""
    page.goto(server.url + "/#/")
    page.click(tid("new-table-fika"))
    page.wait_for_selector(tid("create-rated"))
    assert page.is_checked(tid("create-rated"))
    page.select_option(tid("seat-select-1"), "open")  # the form's default is a bot
    page.click(tid("create-submit"))
    page.wait_for_selector(tid("fika"))
    return str(page.evaluate("location.hash").split("/")[-1])


def rating_of(page: Page, server: Server, name: str) -> dict[str, Any]:
    page.goto(f"{server.url}/#/players/{name}")
    page.wait_for_selector(tid("profile-matches"))
    item = page.locator(tid("rating-fika-2"))
    return {
        "rating": int(item.locator(tid("rating")).get_attribute("data-rating") or 0),
        "text": item.inner_text(),
    }


def test_two_people_play_a_rated_match_and_see_their_new_ratings(
    new_page,  # type: ignore[no-untyped-def]
    own_server: Server,
) -> None:
    host = new_page()
    sign_up(host, own_server, "Hal")
    guest = new_page()
    sign_up(guest, own_server, "Ivy")
    table_id = open_fika_for_two(host, own_server)
    guest.goto(own_server.url + "/#/")
    guest.click(tid(f"join-{table_id}"))
    guest.wait_for_selector(tid("fika"))
    host.wait_for_selector(f"{tid('fika')}[data-phase]", timeout=LONG)
    play_both_to_the_end([host, guest])
    winner = host.get_attribute(tid("end-screen"), "data-winner")
    # Each end screen says how the ratings moved (both start at 1500), ours first.
    for page, seat in ((host, 0), (guest, 1)):
        changes = page.locator(f"{tid('end-screen')} {tid('rating-changes')}")
        changes.wait_for()
        mine = changes.locator("li").first
        assert mine.get_attribute("data-testid") == f"rating-change-{seat}"
        assert mine.inner_text().startswith("Your rating: 1500 → ")
        assert (int(mine.get_attribute("data-delta") or 0) > 0) == (str(seat) == winner)
        assert (
            changes.locator(tid(f"rating-change-{1 - seat}"))
            .inner_text()
            .startswith(f"{'Ivy' if seat == 0 else 'Hal'}: 1500 → ")
        )
    # The match is recorded and rated: each sees it on the profiles and the board.
    hal = rating_of(host, own_server, "Hal")
    ivy = rating_of(guest, own_server, "Ivy")
    assert "1 rated game" in hal["text"] and "1 rated game" in ivy["text"]
    if winner == "0":
        assert hal["rating"] > 1500 > ivy["rating"]
    else:
        assert ivy["rating"] > 1500 > hal["rating"]
    assert (
        host.get_attribute(f"{tid('profile-matches')} > li:first-child {tid('match-link')}", "href")
        == f"#/table/{table_id}"
    )
    for page, name in ((host, "Hal"), (guest, "Ivy")):
        page.goto(f"{own_server.url}/#/leaderboards/fika")
        page.wait_for_selector(tid("leaderboard"))
        names = [r.get_attribute("data-name") for r in page.locator(tid("board-row")).all()]
        assert sorted(names) == ["Hal", "Ivy"]
        mine = page.locator(f"{tid('board-row')}[data-me='true']")
        assert mine.get_attribute("data-name") == name


def test_a_signed_in_player_continues_the_seat_in_another_browser(
    new_page,  # type: ignore[no-untyped-def]
    own_server: Server,
) -> None:
    first = new_page()
    sign_up(first, own_server, "Joe")
    first.goto(own_server.url + "/#/")
    first.click(tid("new-table-doppio"))
    first.select_option(tid("create-players"), "2")
    first.select_option(tid("seat-select-1"), "bot:casual")
    first.click(tid("create-submit"))
    first.wait_for_selector(f'{tid("doppio")}[data-can-act="true"]', timeout=LONG)
    table_id = first.evaluate("location.hash").split("/")[-1]
    # Another browser: no token for the table, only the account.
    second = new_page()
    second.set_viewport_size(PHONE)
    sign_in(second, own_server, "Joe")
    second.goto(own_server.url + "/#/")
    second.wait_for_selector(tid(f"continue-{table_id}"))
    fits_the_phone(second, tid(f"continue-{table_id}"))
    second.click(tid(f"continue-{table_id}"))
    second.wait_for_selector(f"{tid('seat-0')}.me", timeout=LONG)
    assert second.locator(tid("spectator-badge")).count() == 0
    assert second.evaluate("localStorage.getItem('coffeetable.seats')") in (None, "{}")
    # And it plays: a step from the second browser is taken by the server.
    second.wait_for_selector(f'{tid("doppio")}[data-can-act="true"]', timeout=LONG)
    seq = doppio.attr(second, "seq")
    doppio.step(second, 0)
    second.wait_for_function(
        f"() => document.querySelector('[data-testid=doppio]').dataset.seq !== '{seq}'"
    )
