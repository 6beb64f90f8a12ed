"""Mail through the API with a real SMTP server (aiosmtpd on loopback): an address is
verified by its mailed link (once), "your turn" is mailed with a one-click unsubscribe, a
slow mail server never holds up a move; without a mail server no mail is attempted."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from email.message import Message
from urllib.parse import urlsplit

import pytest

from coffeetable.server.social.mail import hash_token
from tests.social.conftest import Browser, ServerThread, database_text, wait_for
from tests.social.smtp import MailServer, body


@pytest.fixture
def smtp(monkeypatch: pytest.MonkeyPatch) -> Iterator[MailServer]:
    server = MailServer()
    monkeypatch.setenv("COFFEETABLE_SMTP_URL", server.url)
    monkeypatch.setenv("COFFEETABLE_SITE_URL", "https://coffee.example")
    yield server
    server.stop()


def _person(server: ServerThread, browsers: Callable[[str], Browser], name: str) -> Browser:
    browser = browsers(server.url)
    browser.sign_up(name)
    return browser


def _mail(smtp: MailServer, address: str, subject: str) -> Message:
    def found() -> Message | None:
        return next((m for m in smtp.inbox.to(address) if m["Subject"] == subject), None)

    mail: Message = wait_for(found, f"{subject!r} to {address}")
    return mail


def _verify(smtp: MailServer, browser: Browser, address: str) -> None:
    assert browser.http.put("/api/me/email", json={"email": address}).status_code == 200
    mail = _mail(smtp, address, "Your Coffee Table address")
    assert mail["List-Unsubscribe"] is None  # the verification is no notice
    (link,) = re.findall(r"https://coffee\.example(\S+)", body(mail))
    answer = browser.http.get(link)
    assert answer.json() == {"email": address, "verified": True}


def test_no_mail_server_no_mail(
    start_server: Callable[..., ServerThread], browsers: Callable[[str], Browser]
) -> None:
    server = start_server()
    ana = _person(server, browsers, "ana")
    assert ana.http.get("/api/me/email").json() == {
        "email": None,
        "verified": False,
        "notify": ["your_turn", "invited", "friend_request", "match_over"],
        "mail": False,
    }
    refused = ana.http.put("/api/me/email", json={"email": "ana@example.org"})
    assert refused.status_code == 409 and "no mail" in refused.json()["detail"]
    assert ana.http.get("/api/me/email").json()["email"] is None
    assert server.server.config.app.state.social.mailer is None  # no sender at all


def test_an_address_is_verified_once_by_its_link(
    smtp: MailServer, start_server: Callable[..., ServerThread], browsers: Callable[[str], Browser]
) -> None:
    server = start_server()
    ana = _person(server, browsers, "ana")
    for bad in ("not an address", "ana@example.org\r\nBcc: all@example.org", "a@b"):
        refused = ana.http.put("/api/me/email", json={"email": bad})
        assert refused.status_code == 400, bad
    assert ana.http.get("/api/me/email").json()["email"] is None
    assert ana.http.put("/api/me/email", json={"email": 7}).status_code == 422
    in_flight: list[str] = []  # the database as the mail server receives the mail
    smtp.inbox.on_mail = lambda mail: in_flight.append(database_text(server.database_url))
    assert ana.http.put("/api/me/email", json={"email": "ana@example.org"}).json() == {
        "email": "ana@example.org",
        "verified": False,
        "notify": ["your_turn", "invited", "friend_request", "match_over"],
        "mail": True,
    }
    mail = _mail(smtp, "ana@example.org", "Your Coffee Table address")
    (link,) = re.findall(r"https://coffee\.example(\S+)", body(mail))
    assert "ana" in body(mail)
    (token,) = re.findall(r"token=(\S+)", link)
    stored = [*in_flight, database_text(server.database_url)]
    assert len(stored) == 2 and not any(token in text for text in stored)  # never in clear
    assert hash_token(token) in stored[-1]  # only its SHA-256
    assert server.http.get(link).json() == {"email": "ana@example.org", "verified": True}
    assert server.http.get(link).status_code == 404  # once
    wrong = server.http.get("/api/me/email/verify", params={"token": "x" * 43})
    assert wrong.status_code == 404
    assert ana.http.get("/api/me/email").json()["verified"] is True
    chosen = ana.http.put("/api/me/notify", json={"mail": ["your_turn", "invited", "invited"]})
    assert chosen.json()["notify"] == ["invited", "your_turn"]
    assert ana.http.put("/api/me/notify", json={"mail": ["spam"]}).status_code == 422


def test_your_turn_is_mailed_and_unsubscribed_in_one_click(
    sugar: str,
    smtp: MailServer,
    start_server: Callable[..., ServerThread],
    browsers: Callable[[str], Browser],
) -> None:
    server = start_server()
    ana, bob = _person(server, browsers, "ana"), _person(server, browsers, "bob")
    _verify(smtp, ana, "ana@example.org")
    _verify(smtp, bob, "bob@example.org")
    smtp.inbox.delay = 5.0  # from now on the mail server is slow
    table_id = ana.http.post("/api/tables", json={"game": "sugar", "players": 2}).json()["table_id"]
    assert bob.http.post(f"/api/tables/{table_id}/join", json={}).status_code == 200
    # ana's turn: mailed (5 s at the server); meanwhile the match goes on at once.
    started = time.monotonic()
    sockets = [ana.socket(table_id), bob.socket(table_id)]
    sockets[0].playable()
    sockets[0].act({"type": "take", "n": 1})
    sockets[1].playable()
    sockets[1].act({"type": "take", "n": 1})
    sockets[0].state_until(lambda m: m["seq"] == 2)
    assert smtp.inbox.to("ana@example.org")[-1]["Subject"] != "Your turn at Sugar"
    assert time.monotonic() - started < 5.0  # no move waited for the mail
    for client in sockets:
        client.close()

    mail = _mail(smtp, "ana@example.org", "Your turn at Sugar")
    assert f"https://coffee.example/#/table/{table_id}" in body(mail)
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    link = mail["List-Unsubscribe"].strip("<>")
    assert link in body(mail)
    parts = urlsplit(link)
    one_click = server.http.post(f"{parts.path}?{parts.query}")
    assert one_click.json() == {"unsubscribed": True}
    assert ana.http.get("/api/me/email").json()["notify"] == []
    assert bob.http.get("/api/me/email").json()["notify"] != []
