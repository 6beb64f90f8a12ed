"""The rest of the site: languages, rules pages, watching a table, reconnecting."""

from __future__ import annotations

import pytest

from tests.browser.helpers import LONG, centre_cards, get_ready, open_table_from_lobby, tid

pytestmark = pytest.mark.browser


def test_switching_language_changes_the_text_and_is_remembered(page, server):
    page.goto(server.url + "/#/")
    page.wait_for_selector(tid("create-form"))
    assert page.inner_text(tid("nav-rules")) == "Rules"
    assert page.inner_text(tid("create-submit")) == "Open the table"
    page.select_option(tid("lang-select"), "fr")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=create-submit]')?.textContent"
        " === 'Ouvrir la table'"
    )
    assert page.inner_text(tid("nav-rules")) == "Règles"
    assert page.evaluate("document.documentElement.lang") == "fr"
    page.reload()
    page.wait_for_selector(tid("create-form"))
    assert page.inner_text(tid("create-submit")) == "Ouvrir la table"
    # A table in French, and switching while seated keeps the seat and the connection.
    open_table_from_lobby(page, server.url, bots=1, speed="5")
    assert page.inner_text(tid("ready-button")) == "Prêt !"
    page.select_option(tid("lang-select"), "de")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=ready-button]')?.textContent === 'Bereit!'"
    )
    assert page.get_attribute(tid("connection-status"), "data-status") == "open"
    get_ready(page)
    assert "Hilfskarten" in page.inner_text(tid("shortcuts"))


def test_the_language_follows_the_browser(new_page, server):
    page = new_page(locale="es-ES")
    page.goto(server.url + "/#/")
    page.wait_for_selector(tid("create-form"))
    assert page.inner_text(tid("create-submit")) == "Abrir la mesa"
    assert page.evaluate("document.documentElement.lang") == "es"


@pytest.mark.parametrize(
    ("language", "heading"),
    [("en", "Your cards"), ("fr", "Vos cartes"), ("de", "Deine Karten"), ("es", "Tus cartas")],
)
def test_the_rules_page_in_every_language(page, server, language, heading):
    page.goto(server.url + "/#/rules/espresso")
    page.select_option(tid("lang-select"), language)
    body = page.locator(tid("rules-body"))
    body.get_by_text(heading, exact=True).wait_for()
    assert body.locator("svg.card.face").count() == 4  # the four colours with their symbols
    assert "FINITO" in body.inner_text()


def test_every_string_exists_in_every_language(page, server):
    page.goto(server.url + "/#/rules/espresso")
    page.wait_for_selector(f"{tid('rules-body')} h1")
    keys = page.evaluate(
        """async () => {
            const i18n = await import('/static/js/i18n.js');
            return i18n.keysByLanguage();
        }"""
    )
    assert set(keys) == {"en", "fr", "de", "es"}
    for language in ("fr", "de", "es"):
        assert keys[language] == keys["en"], language


def test_a_spectator_sees_the_game_but_cannot_act(new_page, server):
    created = server.post(
        "/api/tables",
        {
            "game": "espresso",
            "players": 3,
            "bots": {"0": "easy", "1": "easy", "2": "easy"},
            "options": {"bot_speed": 5},
        },
    )
    assert created["token"] is None  # a table of bots: its creator only watches
    table_id = created["table_id"]
    page = new_page()
    page.goto(server.url + "/#/")
    page.click(tid(f"watch-{table_id}"))
    page.wait_for_selector(tid("spectator-badge"))
    page.wait_for_selector(f'{tid("centre")}:not([data-cards="0"])', timeout=LONG)
    seen = centre_cards(page)
    page.wait_for_function(
        f"() => Number(document.querySelector('[data-testid=centre]').dataset.cards) !== {seen}",
        timeout=LONG,
    )
    assert page.locator(tid("ready-button")).count() == 0
    assert page.locator(tid("shortcuts")).count() == 0
    assert page.locator(".place.pickable").count() == 0
    assert page.locator(tid("player-0")).is_visible() and page.locator(tid("player-2")).is_visible()


def test_a_reload_takes_the_same_seat(page, server):
    table_id = open_table_from_lobby(page, server.url, name="Bea", bots=1, speed="5")
    page.reload()
    page.wait_for_selector(tid("ready-button"))
    assert "Bea" in page.inner_text(tid("player-0"))
    assert page.locator(tid("spectator-badge")).count() == 0
    assert page.evaluate("location.hash") == f"#/table/{table_id}"


def test_a_dropped_connection_comes_back_by_itself(page, server):
    open_table_from_lobby(page, server.url, bots=1, speed="5")
    page.wait_for_selector(f'{tid("connection-status")}[data-status="open"]')
    page.evaluate(
        """() => {
            window.bannerTexts = [];
            const banner = document.getElementById('banner');
            const note = () => window.bannerTexts.push(banner.hidden ? '' : banner.textContent);
            new MutationObserver(note).observe(
              banner, { attributes: true, childList: true, characterData: true, subtree: true });
            window.coffeetable.view.connection.drop();
        }"""
    )
    page.wait_for_function("() => window.bannerTexts.some((text) => text.includes('reconnecting'))")
    page.wait_for_selector(f'{tid("connection-status")}[data-status="open"]')
    page.wait_for_selector(f"{tid('banner')}[hidden]", state="attached")
    get_ready(page)  # still seated: the server takes our action


def test_a_restarted_server_is_rejoined_in_the_same_seat(page, own_server):
    open_table_from_lobby(page, own_server.url, name="Cy", bots=1, speed="5")
    page.wait_for_selector(f'{tid("connection-status")}[data-status="open"]')
    own_server.stop()
    page.wait_for_selector(f"{tid('banner')}:not([hidden])")
    assert "reconnecting" in page.inner_text(tid("banner"))
    own_server.start()
    page.wait_for_selector(f'{tid("connection-status")}[data-status="open"]', timeout=LONG)
    page.wait_for_selector(f"{tid('banner')}[hidden]", state="attached")
    assert "Cy" in page.inner_text(tid("player-0"))
    get_ready(page)


def test_an_unknown_table_says_so(page, server):
    page.goto(server.url + "/#/table/no-such-table")
    page.wait_for_selector(tid("table-missing"))
    page.click(tid("nav-rules"))
    page.wait_for_selector(tid("rules-tab-espresso"))
    assert page.evaluate("location.hash") == "#/rules"


def test_a_second_player_joins_from_the_lobby(new_page, server):
    host = new_page()
    table_id = open_table_from_lobby(host, server.url, name="Host", bots=0, players=2)
    assert host.locator(tid("ready-button")).count() == 0  # the match waits for a second player
    guest = new_page(locale="fr-FR")
    guest.goto(server.url + "/#/")
    guest.fill(tid("create-name"), "Invitée")
    guest.click(tid(f"join-{table_id}"))
    guest.wait_for_selector(tid("ready-button"))
    assert "Invitée" in guest.inner_text(tid("player-1"))
    host.wait_for_selector(tid("ready-button"))  # the host sees the match begin
    assert "Invitée" in host.inner_text(tid("player-1"))
    host.click(tid("ready-button"))
    get_ready(guest)  # the round starts once both are ready
    host.wait_for_selector(f'{tid("espresso")}[data-phase="play"]')
