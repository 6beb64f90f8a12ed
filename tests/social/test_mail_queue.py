"""The mail queue without a web server: what a notice queues (verified addresses, the kinds
chosen, one "your turn" per table until the player plays, the hourly limit), and senders
that share the queue send each mail once, retrying a failing server with backoff."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from coffeetable.server.limits import Limits
from coffeetable.server.social import Social
from coffeetable.server.social.mail import LEASE, MailConfig, Mailer
from coffeetable.server.social.mail import MailServer as Smtp
from coffeetable.server.tables.news import TableNews
from coffeetable.store import Store, players
from coffeetable.store import mail as db
from tests.social.smtp import MailServer, free_port


@pytest.fixture
def smtp() -> Iterator[MailServer]:
    server = MailServer()
    yield server
    server.stop()


def _config(url: str) -> MailConfig:
    return MailConfig(Smtp.from_url(url), "https://coffee.example", "coffeetable@coffee.example")


def _account(store: Store, name: str, email: str | None) -> int:
    def write(conn: Any) -> int:
        user = players.create_account(conn, name, name, name, "x")
        if email is not None:
            db.set_address(conn, user, email, ["your_turn"])
            db.start_verification(conn, user, email, f"h-{name}", time.time() + 60)
            db.verify(conn, f"h-{name}", time.time())
        return user

    return asyncio.get_event_loop().run_until_complete(store.write(write))


def _queue(store: Store) -> list[Any]:
    async def read() -> list[Any]:
        return await store.read(
            lambda conn: conn.execute(sa.select(db.mail_queue).order_by(db.mail_queue.c.id)).all()
        )

    return asyncio.get_event_loop().run_until_complete(read())


def test_what_a_notice_queues(tmp_path: Path, loop: asyncio.AbstractEventLoop) -> None:
    store = Store(f"sqlite:///{tmp_path / 'mail.sqlite3'}")
    social = Social(store, Limits(mails_per_hour=3), _config("smtp://127.0.0.1:1"))
    ana = _account(store, "ana", "ana@example.org")  # verified, mails "your_turn" only
    bob = _account(store, "bob", None)  # no address

    def tell(news: TableNews) -> None:
        loop.run_until_complete(store.write(lambda conn: social.table_news(conn, news)))

    tell(TableNews("t1", "Fika", turn=(ana, bob)))
    tell(TableNews("t1", "Fika", turn=(ana,)))  # not played since: no second mail
    tell(TableNews("t1", "Fika", results=((ana, {"result": "won", "score": 3}),)))  # not wanted
    assert [(row.address, row.kind, row.subject) for row in _queue(store)] == [
        ("ana@example.org", "your_turn", "Your turn at Fika")
    ]
    tell(TableNews("t1", "Fika", played=ana))
    tell(TableNews("t1", "Fika", turn=(ana,)))  # she played: mailed again
    tell(TableNews("t2", "Café", turn=(ana,)))  # the hour's third
    tell(TableNews("t3", "Café", turn=(ana,)))  # past Limits.mails_per_hour: site only
    rows = _queue(store)
    assert [row.subject for row in rows] == ["Your turn at Fika"] * 2 + ["Your turn at Café"]
    assert all(row.state == "queued" and row.unsubscribe is None for row in rows)  # no token
    assert "https://coffee.example/#/table/t1" in rows[0].body
    loop.run_until_complete(store.close())


def test_senders_sharing_the_queue_send_each_mail_once(
    tmp_path: Path, loop: asyncio.AbstractEventLoop, smtp: MailServer
) -> None:
    url = f"sqlite:///{tmp_path / 'mail.sqlite3'}"
    stores = [Store(url), Store(url)]
    ana = _account(stores[0], "ana", "ana@example.org")

    def fill(conn: Any) -> None:
        for n in range(12):
            db.enqueue(conn, ana, "ana@example.org", "your_turn", f"mail {n}", "hi")

    loop.run_until_complete(stores[0].write(fill))
    senders = [Mailer(store, _config(smtp.url)) for store in stores]

    async def both() -> list[int]:
        return list(await asyncio.gather(*(sender.send_due() for sender in senders)))

    counts = loop.run_until_complete(both())
    assert sum(counts) == 12
    subjects = sorted(mail["Subject"] for mail in smtp.inbox.mails)
    assert subjects == sorted(f"mail {n}" for n in range(12))  # each once
    rows = _queue(stores[0])
    assert {row.state for row in rows} == {"sent"} and {row.body for row in rows} == {""}
    assert all(len(row.unsubscribe) == 64 for row in rows)  # only the token's hash is kept
    assert len({mail["Message-ID"] for mail in smtp.inbox.mails}) == 12
    mail = smtp.inbox.mails[0]
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert mail["List-Unsubscribe"].startswith("<https://coffee.example/api/mail/unsubscribe?")
    assert loop.run_until_complete(both()) == [0, 0]  # nothing left
    for store in stores:
        loop.run_until_complete(store.close())


def test_a_claim_is_one_senders_and_never_taken_again(
    tmp_path: Path, loop: asyncio.AbstractEventLoop
) -> None:
    store = Store(f"sqlite:///{tmp_path / 'mail.sqlite3'}")
    ana = _account(store, "ana", None)

    def run(work: Any) -> Any:
        return loop.run_until_complete(store.write(work))

    mail_id = run(lambda conn: db.enqueue(conn, ana, "a@b.org", "invited", "s", "b"))
    now = time.time()
    claimed = run(lambda conn: db.claim(conn, mail_id, now, LEASE))
    assert claimed is not None and claimed.attempts == 1  # counted before it is sent
    assert run(lambda conn: db.claim(conn, mail_id, now + 1, LEASE)) is None  # it is held
    # The sender died (kill -9) holding it: once the lease is over nobody sends it again.
    later = now + LEASE + 1
    assert run(lambda conn: db.due(conn, later, 10)) == []
    assert run(lambda conn: db.abandon(conn, now + 1)) == []  # the lease still runs
    assert run(lambda conn: db.abandon(conn, later)) == [mail_id]
    assert run(lambda conn: db.abandon(conn, later)) == []  # once
    assert run(lambda conn: db.claim(conn, mail_id, later, LEASE)) is None
    assert _queue(store)[0].state == "uncertain"
    # A sender that outlived its lease and then heard "taken" still says so.
    run(lambda conn: db.mark_sent(conn, mail_id, later))
    assert _queue(store)[0].state == "sent"
    assert run(lambda conn: db.claim(conn, mail_id, later + 2 * LEASE, LEASE)) is None
    loop.run_until_complete(store.close())


def test_a_failing_server_is_retried_later_then_given_up(
    tmp_path: Path, loop: asyncio.AbstractEventLoop
) -> None:
    store = Store(f"sqlite:///{tmp_path / 'mail.sqlite3'}")
    ana = _account(store, "ana", None)
    loop.run_until_complete(
        store.write(lambda conn: db.enqueue(conn, ana, "a@b.org", "invited", "s", "b"))
    )
    sender = Mailer(store, _config(f"smtp://127.0.0.1:{free_port()}"))  # nobody listens
    started = time.time()
    assert loop.run_until_complete(sender.send_due()) == 0
    (row,) = _queue(store)
    assert row.state == "queued" and row.attempts == 1 and row.error
    assert row.unsubscribe is None  # that attempt's link went nowhere
    assert row.next_at >= started + 30  # the first wait
    assert loop.run_until_complete(sender.send_due()) == 0  # not due yet: not tried
    assert _queue(store)[0].attempts == 1
    loop.run_until_complete(store.close())
