"""Friends and notifications in the browser: ana asks bea by name on the friends page, the
header's badge and the page's title count bea's notification, bea accepts it on her friends
page (ana is shown online), reads her notifications, and the badge and title clear."""

from __future__ import annotations

import pytest

from tests.browser.helpers import tid
from tests.browser.test_players import sign_up

pytestmark = pytest.mark.browser


def test_two_players_become_friends_and_the_badge_follows(new_page, own_server) -> None:  # type: ignore[no-untyped-def]
    ana, bea = new_page(), new_page()
    sign_up(ana, own_server, "ana")
    sign_up(bea, own_server, "bea")
    ana.goto(f"{own_server.url}/#/friends")
    ana.fill(tid("ask-name"), "bea")
    ana.click(tid("ask-submit"))
    ana.wait_for_selector(f"{tid('friend')}[data-name='bea'] {tid('friend-remove')}")

    bea.reload()  # the badge looks at once on a new page (else within 30 s)
    bea.wait_for_selector(f"{tid('notices-count')}:text-is('1')")
    assert bea.title().startswith("(1) ")
    bea.click(tid("notices-badge"))
    bea.wait_for_selector(f"{tid('notice')}[data-kind='friend_request']:has-text('ana')")
    bea.goto(f"{own_server.url}/#/friends")
    bea.click(f"{tid('friend')}[data-name='ana'] {tid('friend-accept')}")
    bea.wait_for_selector(
        f"{tid('friend')}[data-name='ana'] {tid('friend-online')}:text-is('online')"
    )
    bea.goto(f"{own_server.url}/#/notifications")
    bea.click(tid("notices-read-all"))
    bea.wait_for_selector(f"{tid('notices-badge')}[data-unread='0']")
    assert not bea.title().startswith("(")

    ana.reload()
    ana.wait_for_selector(f"{tid('notices-count')}:text-is('1')")  # bea accepted
    ana.click(tid("notices-badge"))
    ana.wait_for_selector(f"{tid('notice')}:has-text('bea and you are friends now')")
