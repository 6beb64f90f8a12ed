"""Mail: what is mailed, and the sender that works through the queue.

Only where the operator names a mail server (``COFFEETABLE_SMTP_URL``:
``smtp://user:pass@host:587``, STARTTLS whenever the server offers it, or ``smtps://``
for TLS from the start; none by default, and then no mail is ever queued or attempted).
``COFFEETABLE_SITE_URL`` is the address the links in mails point to, and
``COFFEETABLE_MAIL_FROM`` the sender (default ``coffeetable@`` the site's host).

Nothing here blocks a table: a notice queues a row (``store.mail``) in the transaction
that writes it, and ``Mailer`` (a background task of each process) claims due rows one by
one with a lease (``store.mail.claim``: one UPDATE naming the state it leaves, so that two
processes never claim one mail), sends it on a thread, then marks it sent. A failure is
tried again later, waiting twice as long each time (``RETRY_FIRST`` seconds, then 2x, up
to ``MAIL_ATTEMPTS`` attempts). A sender killed after the server took a mail but before
marking it sent leaves a claim whose lease runs out: that mail is sent again (at most
once more per lease); a mail is never sent twice otherwise.

Every mail but the address's verification carries a one-click unsubscribe link (in its
text, and as ``List-Unsubscribe`` with ``List-Unsubscribe-Post``, RFC 8058): its token is
random per mail and only its SHA-256 is kept once the mail is sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import secrets
import smtplib
import ssl
import time
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.utils import make_msgid
from functools import partial
from typing import Any
from urllib.parse import unquote, urlsplit

from coffeetable.store import Store
from coffeetable.store import mail as db

log = logging.getLogger("coffeetable.server")

SMTP_ENV = "COFFEETABLE_SMTP_URL"
SITE_ENV = "COFFEETABLE_SITE_URL"
FROM_ENV = "COFFEETABLE_MAIL_FROM"
#: Attempts at one mail before it is given up, and the first wait between two.
MAIL_ATTEMPTS = 6
RETRY_FIRST = 30.0
#: Seconds a sender holds a claimed mail (longer than one SMTP conversation takes).
LEASE = 120.0
#: Seconds one SMTP conversation may take.
SMTP_TIMEOUT = 30.0
#: Sent and failed mails are forgotten (and their unsubscribe links with them) after this.
KEEP_SENT = 60 * 24 * 3600.0
SMTP_POLICY = policy.SMTP.clone(max_line_length=998)
#: The kind of the verification mail (not a notification kind: never unsubscribed).
VERIFY = "verify"


@dataclass(frozen=True)
class MailServer:
    """Where mail goes: host, port, TLS from the start or STARTTLS, credentials."""

    host: str
    port: int
    tls: bool
    user: str | None = None
    password: str | None = None

    @classmethod
    def from_url(cls, url: str) -> MailServer:
        """``smtp://[user:pass@]host[:port]`` (587) or ``smtps://...`` (465); ValueError
        for anything else (the server does not start with a mistake in it)."""
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError(f"{SMTP_ENV}: smtp://host:port or smtps://host:port, not {url!r}")
        tls = parts.scheme == "smtps"
        user = unquote(parts.username) if parts.username else None
        password = unquote(parts.password) if parts.password else None
        return cls(parts.hostname, parts.port or (465 if tls else 587), tls, user, password)

    def send(self, message: EmailMessage) -> None:
        """Send one mail (blocking: run it on a thread)."""
        context = ssl.create_default_context()
        if self.tls:
            client: smtplib.SMTP = smtplib.SMTP_SSL(
                self.host, self.port, timeout=SMTP_TIMEOUT, context=context
            )
        else:
            client = smtplib.SMTP(self.host, self.port, timeout=SMTP_TIMEOUT)
        with client:
            client.ehlo()
            secure = self.tls
            if not secure and client.has_extn("starttls"):
                client.starttls(context=context)
                client.ehlo()
                secure = True
            if self.user is not None:
                if not secure:
                    raise smtplib.SMTPException("no TLS: the password is not sent in clear")
                client.login(self.user, self.password or "")
            client.send_message(message)


@dataclass(frozen=True)
class MailConfig:
    """The site's mail settings (None from ``from_env``: no mail at all)."""

    server: MailServer
    site_url: str
    sender: str

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> MailConfig | None:
        env = os.environ if environ is None else environ
        url = env.get(SMTP_ENV)
        if not url:
            return None
        site = (env.get(SITE_ENV) or "http://127.0.0.1:8000").rstrip("/")
        host = urlsplit(site).hostname or "localhost"
        return cls(MailServer.from_url(url), site, env.get(FROM_ENV) or f"coffeetable@{host}")


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> tuple[str, str]:
    """A token for a link and its stored SHA-256."""
    token = secrets.token_urlsafe(32)
    return token, hash_token(token)


def words(kind: str, data: dict[str, Any]) -> str:
    """A notice in words, for a mail's subject."""
    title = str(data.get("title", "a game"))
    if kind == "your_turn":
        return f"Your turn at {title}"
    if kind == "invited":
        return f"{data.get('by', 'Someone')} invites you to {title}"
    if kind == "friend_request":
        if data.get("accepted"):
            return f"{data.get('from', 'Someone')} and you are friends now"
        return f"{data.get('from', 'Someone')} asks you to be friends"
    if kind == "warning":
        return "A moderator warns you about your conduct"
    if kind == "match_over":
        return f"Your match of {title} is over: you {data.get('result', 'finished')}"
    if kind == "table_ready":
        return f"Your table of {title} is ready in {data.get('tournament', 'a tournament')}"
    return f"Your table of {title} is full: the match begins"


class Mailer:
    """The background task that sends the queue (one per process; they share the queue)."""

    def __init__(self, store: Store, config: MailConfig, poll: float = 2.0) -> None:
        self.store = store
        self.config = config
        self.poll = poll
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._task = self._loop.create_task(self._run())

    def wake(self) -> None:
        """Something was queued: look soon rather than at the next poll (from any thread:
        the store's writes run on a thread of their own with PostgreSQL)."""
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._wake.set)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        purged = 0.0
        while True:
            try:
                await self.send_due()
                if time.time() - purged > 3600:
                    purged = time.time()
                    await self.store.write(partial(db.purge_sent, before=purged - KEEP_SENT))
            except asyncio.CancelledError:
                raise
            except Exception:  # the next round tries again
                log.exception("mail: sending failed")
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.poll)

    async def send_due(self) -> int:
        """Claim and send every mail due now; return how many went."""
        sent = 0
        while True:
            ids = await self.store.read(partial(db.due, now=time.time(), limit=20))
            if not ids:
                return sent
            for mail_id in ids:
                claim = partial(db.claim, mail_id=mail_id, now=time.time(), lease=LEASE)
                claimed = await self.store.write(claim)
                if claimed is not None:  # else another sender has it
                    sent += await self._send(claimed)

    async def _send(self, mail: db.Outgoing) -> int:
        message = self._message(mail)
        try:
            await asyncio.to_thread(self.config.server.send, message)
        except Exception as error:
            attempts = mail.attempts + 1
            retry = None
            if attempts < MAIL_ATTEMPTS:
                retry = time.time() + RETRY_FIRST * 2 ** (attempts - 1)
            reason = f"{type(error).__name__}: {error}"
            log.warning("mail %d: attempt %d failed: %s", mail.id, attempts, reason)
            await self.store.write(
                lambda conn: db.mark_failed(conn, mail.id, reason, retry, attempts)
            )
            return 0
        token_hash = None if mail.unsubscribe is None else hash_token(mail.unsubscribe)
        await self.store.write(lambda conn: db.mark_sent(conn, mail.id, token_hash, time.time()))
        return 1

    def _message(self, mail: db.Outgoing) -> EmailMessage:
        # Headers up to SMTP's 998 characters: a folded link would become an encoded word,
        # which no mail client takes as a List-Unsubscribe URL.
        message = EmailMessage(policy=SMTP_POLICY)
        message["From"] = self.config.sender
        message["To"] = mail.address
        message["Subject"] = mail.subject
        message["Message-ID"] = make_msgid(domain=urlsplit(self.config.site_url).hostname)
        body = mail.body
        if mail.unsubscribe is not None:
            link = f"{self.config.site_url}/api/mail/unsubscribe?token={mail.unsubscribe}"
            message["List-Unsubscribe"] = f"<{link}>"
            message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
            body += f"\n\nNo more mail from Coffee Table: {link}\n"
        message.set_content(body)
        return message
