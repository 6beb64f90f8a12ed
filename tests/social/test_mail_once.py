"""A mail goes at most once (issue #30: "never sent twice"), against a real SMTP server
(aiosmtpd on loopback): a sender that dies in flight leaves its mail to nobody, a lost
answer is not retried, a refusal is; and the queue never holds a link's token."""

from __future__ import annotations

import asyncio
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from email.message import Message
from typing import Any

import pytest
import sqlalchemy as sa

from coffeetable.server.social import mail as mailing
from coffeetable.server.social.mail import LINK, VERIFY, MailConfig, Mailer, hash_token
from coffeetable.server.social.mail import MailServer as Smtp
from coffeetable.store import Store, players
from coffeetable.store import mail as db
from tests.social.conftest import database_text
from tests.social.smtp import MailServer, body


@pytest.fixture
def smtp() -> Iterator[MailServer]:
    server = MailServer()
    yield server
    server.stop()


class Site:
    """A store (SQLite, then PostgreSQL), one account, and senders to the test's SMTP server."""

    def __init__(self, url: str, loop: asyncio.AbstractEventLoop, smtp: MailServer) -> None:
        self.url = url
        self.store = Store(self.url)
        self.loop = loop
        self.config = MailConfig(
            Smtp.from_url(smtp.url), "https://coffee.example", "coffeetable@coffee.example"
        )
        self.ana = self.run(lambda conn: players.create_account(conn, "ana", "ana", "ana", "x"))

    def run(self, work: Any) -> Any:
        return self.loop.run_until_complete(self.store.write(work))

    def sender(self) -> Mailer:
        return Mailer(self.store, self.config)

    def send_due(self, sender: Mailer) -> int:
        return self.loop.run_until_complete(sender.send_due())

    def queue(self) -> list[Any]:
        return list(self.run(lambda conn: conn.execute(sa.select(db.mail_queue)).all()))

    def expire_leases(self) -> None:
        """As if the lease (2 minutes) had run out since."""
        self.run(lambda conn: conn.execute(db.mail_queue.update().values(lease_until=1.0)))

    def due_now(self) -> None:
        self.run(lambda conn: conn.execute(db.mail_queue.update().values(next_at=0.0)))

    def dump(self) -> str:
        return database_text(self.url)

    def close(self) -> None:
        self.loop.run_until_complete(self.store.close())


@pytest.fixture
def site(database_url: str, loop: asyncio.AbstractEventLoop, smtp: MailServer) -> Iterator[Site]:
    made = Site(database_url, loop, smtp)
    yield made
    made.close()


def _notice(site: Site, subject: str = "Your turn at Fika") -> int:
    mail_id: int = site.run(
        lambda conn: db.enqueue(conn, site.ana, "ana@example.org", "your_turn", subject, "hi")
    )
    return mail_id


def _token(mail: Message) -> str:
    found: list[str] = re.findall(r"\?token=([A-Za-z0-9_-]+)", body(mail))
    (token,) = found
    return token


def test_a_sender_killed_after_the_server_took_the_mail_never_sends_it_again(
    site: Site, smtp: MailServer, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    _notice(site)

    def killed(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("kill -9")  # the process is gone before it marks the mail sent

    with monkeypatch.context() as patch:
        patch.setattr(db, "mark_sent", killed)
        with pytest.raises(RuntimeError, match="kill -9"):
            site.send_due(site.sender())
    assert len(smtp.inbox.mails) == 1  # the server took it
    (row,) = site.queue()
    assert row.state == "sending" and row.attempts == 1  # counted before it went

    other = site.sender()
    assert site.send_due(other) == 0  # the lease still runs: nobody touches it
    site.expire_leases()
    with caplog.at_level("WARNING", "coffeetable.server"):
        assert site.send_due(other) == 0
    assert len(smtp.inbox.mails) == 1  # not again
    (row,) = site.queue()
    assert row.state == "uncertain" and "not sent again" in row.error
    assert other.uncertain == 1
    assert f"mail {row.id}: its sender stopped" in caplog.text
    site.due_now()
    assert site.send_due(other) == 0 and len(smtp.inbox.mails) == 1 and other.uncertain == 1


# A sender process: sends what is due to the SMTP server at argv[2], on the store at argv[1].
SENDER = """
import asyncio, sys
from coffeetable.server.social.mail import MailConfig, Mailer, MailServer
from coffeetable.store import Store
config = MailConfig(MailServer.from_url(sys.argv[2]), "https://coffee.example", "c@coffee.example")
asyncio.run(Mailer(Store(sys.argv[1]), config).send_due())
"""


def test_a_sender_process_killed_mid_send_never_sends_it_again(
    site: Site, smtp: MailServer
) -> None:
    _notice(site)
    arrived = threading.Event()
    smtp.inbox.on_mail = lambda mail: arrived.set()
    smtp.inbox.delay = 60.0  # the server holds its answer: the sender waits for it
    command = [sys.executable, "-c", SENDER, site.url, smtp.url]
    sender = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        assert arrived.wait(60), "the sender process never handed the mail over"
    finally:
        sender.send_signal(signal.SIGKILL)  # kill -9, the mail's content at the server
        _, errors = sender.communicate(timeout=30)
    assert sender.returncode == -signal.SIGKILL, errors.decode()
    smtp.inbox.delay = 0.0
    site.expire_leases()
    again = threading.Event()
    smtp.inbox.on_mail = lambda mail: again.set()
    other = site.sender()
    assert site.send_due(other) == 0 and other.uncertain == 1
    assert not again.is_set()  # nothing reached the server a second time
    assert site.queue()[0].state == "uncertain"


def test_a_sender_killed_before_handing_the_mail_over_loses_it(
    site: Site, smtp: MailServer
) -> None:
    mail_id = _notice(site)
    # Claimed (in flight, committed), then the sender died before the server heard of it.
    assert site.run(lambda conn: db.claim(conn, mail_id, time.time(), mailing.LEASE))
    site.expire_leases()
    sender = site.sender()
    assert site.send_due(sender) == 0
    assert smtp.inbox.mails == [] and sender.uncertain == 1  # rather lost than doubled
    assert site.queue()[0].state == "uncertain"


def test_a_refused_mail_is_retried_with_the_same_message_id(site: Site, smtp: MailServer) -> None:
    mail_id = _notice(site)
    smtp.inbox.refuse = 1  # "451 Try again later", once
    sender = site.sender()
    assert site.send_due(sender) == 0
    (row,) = site.queue()
    assert row.state == "queued" and row.attempts == 1 and "451" in row.error
    assert row.next_at >= time.time() + 20 and row.unsubscribe is None
    site.due_now()
    assert site.send_due(sender) == 1
    (refused,), (mail,) = smtp.inbox.refused, smtp.inbox.mails
    (row,) = site.queue()
    assert row.state == "sent" and row.attempts == 2 and sender.uncertain == 0
    expected = f"<mail.{mail_id}.{int(row.created * 1000)}@coffee.example>"
    assert refused["Message-ID"] == mail["Message-ID"] == expected
    # Each attempt drew its own unsubscribe token; only the delivered one's hash is kept.
    assert _token(refused) != _token(mail)
    assert row.unsubscribe == hash_token(_token(mail))
    assert site.run(lambda conn: db.unsubscribe(conn, hash_token(_token(refused)))) is None
    assert site.run(lambda conn: db.unsubscribe(conn, hash_token(_token(mail)))) == site.ana


def test_a_lost_answer_is_not_retried(
    site: Site, smtp: MailServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    _notice(site)
    monkeypatch.setattr(mailing, "SMTP_TIMEOUT", 0.5)
    smtp.inbox.delay = 1.5  # the server takes the mail but answers after the sender gave up
    arrived: list[Message] = []
    smtp.inbox.on_mail = arrived.append
    sender = site.sender()
    assert site.send_due(sender) == 0
    (row,) = site.queue()
    assert row.state == "uncertain" and "answer was lost" in row.error
    assert sender.uncertain == 1
    time.sleep(1.5)
    site.due_now()
    assert site.send_due(sender) == 0
    assert len(arrived) == 1  # the content reached the server once, and never again


def test_no_row_ever_holds_a_link_token(site: Site, smtp: MailServer) -> None:
    text = f"Open this link within 24 hours:\n{LINK}\n"

    def address(conn: Any) -> None:
        db.set_address(conn, site.ana, "ana@example.org", ["your_turn"])
        db.enqueue(conn, site.ana, "ana@example.org", VERIFY, "Your address", text)

    site.run(address)
    _notice(site)
    dumps = [site.dump()]  # queued
    smtp.inbox.on_mail = lambda mail: dumps.append(site.dump())  # in flight
    started = time.time()
    assert site.send_due(site.sender()) == 2
    dumps.append(site.dump())  # sent
    verification, notice = smtp.inbox.mails
    assert verification["List-Unsubscribe"] is None and notice["List-Unsubscribe"]
    tokens = [_token(verification), _token(notice)]
    assert len(dumps) == 4 and all(len(token) >= 40 for token in tokens)
    for token in tokens:
        assert not any(token in dump for dump in dumps)  # not queued, in flight, or sent
        assert hash_token(token) in dumps[-1]  # only its hash
    assert LINK not in body(verification)

    # The link works once, for 24 hours from the sending.
    verify_hash = hash_token(tokens[0])
    day_after = started + 24 * 3600 + 60
    assert site.run(lambda conn: db.verify(conn, verify_hash, day_after)) is None  # expired
    assert site.run(lambda conn: db.verify(conn, verify_hash, time.time())) == (
        site.ana,
        "ana@example.org",
    )
    assert site.run(lambda conn: db.verify(conn, verify_hash, time.time())) is None  # once


def test_a_verification_for_an_address_changed_since_is_not_sent(
    site: Site, smtp: MailServer
) -> None:
    def address(email: str) -> Any:
        def write(conn: Any) -> None:
            db.set_address(conn, site.ana, email, ["your_turn"])
            db.enqueue(conn, site.ana, email, VERIFY, "Your address", f"{LINK}\n")

        return write

    site.run(address("old@example.org"))
    site.run(address("new@example.org"))
    assert site.send_due(site.sender()) == 1
    assert [mail["To"] for mail in smtp.inbox.mails] == ["new@example.org"]
    states = {row.address: (row.state, row.error) for row in site.queue()}
    assert states["old@example.org"] == ("failed", "the address changed or is verified already")
