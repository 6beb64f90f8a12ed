"""Mail: what is mailed, and the sender that works through the queue.

Only where the operator names a mail server (``COFFEETABLE_SMTP_URL``:
``smtp://user:pass@host:587``, STARTTLS whenever the server offers it, or ``smtps://``
for TLS from the start; none by default, and then no mail is ever queued or attempted).
``COFFEETABLE_SITE_URL`` is the address the links in mails point to, and
``COFFEETABLE_MAIL_FROM`` the sender (default ``coffeetable@`` the site's host).

Nothing here blocks a table: a notice queues a row (``store.mail``) in the transaction
that writes it, and ``Mailer`` (a background task of each process) claims due rows one by
one with a lease (``store.mail.claim``: one UPDATE naming the state it leaves, so that two
processes never claim one mail), sends it on a thread, then marks it sent.

A mail goes at most once (the issue: "never sent twice"): the claim, which counts the
attempt, is committed before the mail is handed to the server. A server that refuses it,
or cannot be reached, said so to a living sender: that mail is tried again later, waiting
twice as long each time (``RETRY_FIRST`` seconds, then 2x, up to ``MAIL_ATTEMPTS``
attempts). But a claim whose lease runs out (the sender was killed, perhaps after the
server took the mail) and a mail whose server's answer was lost (``MaybeSent``) may have
gone: they are marked ``uncertain``, logged and counted (``Mailer.uncertain``), never sent
again. Each mail's ``Message-ID`` comes from its row, so a receiver can drop a copy too.

The queue holds no secret: the sender draws each link's token as it sends. A verification
mail's token is hashed into the account's settings (it works once, ``VERIFY_HOURS`` from
the sending); every other mail carries a one-click unsubscribe link (in its text, and as
``List-Unsubscribe`` with ``List-Unsubscribe-Post``, RFC 8058) whose token is random per
mail and kept only as its SHA-256.
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
from functools import partial
from typing import Any
from urllib.parse import unquote, urlsplit

from coffeetable.store import Store
from coffeetable.store import mail as db
from coffeetable.store.mail import Outgoing

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
#: Hours a verification link works, from the sending of its mail.
VERIFY_HOURS = 24
#: Where the verification mail's link goes in its queued text (the sender puts it there).
LINK = "{link}"


class MaybeSent(Exception):
    """The mail's content went out but the server's answer did not come back: it may have
    been taken."""


class _Client(smtplib.SMTP):
    """smtplib's client, noting when the mail's content starts going out."""

    data_begun = False

    def data(self, msg: Any) -> tuple[int, bytes]:
        self.data_begun = True
        return super().data(msg)


class _TLSClient(smtplib.SMTP_SSL, _Client):
    """The same over TLS from the start."""


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
        """Send one mail (blocking: run it on a thread). Any error but ``MaybeSent`` means
        the server did not take it; ``MaybeSent``, that it may have."""
        context = ssl.create_default_context()
        if self.tls:
            client: _Client = _TLSClient(
                self.host, self.port, timeout=SMTP_TIMEOUT, context=context
            )
        else:
            client = _Client(self.host, self.port, timeout=SMTP_TIMEOUT)
        taken = False
        try:
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
                taken = True
        except OSError as error:  # smtplib's errors are OSErrors
            if taken:
                return  # only the goodbye failed
            if client.data_begun and not isinstance(error, smtplib.SMTPResponseException):
                raise MaybeSent(f"{type(error).__name__}: {error}") from error
            raise  # refused in words, or before the content went: not taken


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
        #: Mails this sender gave up as perhaps sent (never sent again).
        self.uncertain = 0

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
        """Give up mails left in flight, then claim and send every mail due now; return
        how many went."""
        for mail_id in await self.store.write(partial(db.abandon, now=time.time())):
            self.uncertain += 1
            log.warning("mail %d: its sender stopped while sending it: not sent again", mail_id)
        sent = 0
        while True:
            ids = await self.store.read(partial(db.due, now=time.time(), limit=20))
            if not ids:
                return sent
            for mail_id in ids:
                unsubscribe, verify = new_token(), new_token()
                claimed = await self.store.write(
                    partial(self._take, mail_id=mail_id, unsubscribe=unsubscribe, verify=verify)
                )
                if claimed is not None:  # else another sender has it
                    token = verify[0] if claimed.kind == VERIFY else unsubscribe[0]
                    sent += await self._send(claimed, token)

    @staticmethod
    def _take(
        conn: Any, mail_id: int, unsubscribe: tuple[str, str], verify: tuple[str, str]
    ) -> Outgoing | None:
        """Claim the mail and store its link's token's hash, in one transaction committed
        before it is sent; None if another sender has it, or it is no longer wanted."""
        now = time.time()
        mail = db.claim(conn, mail_id, now, LEASE)
        if mail is None:
            return None
        if mail.kind != VERIFY:
            db.set_unsubscribe(conn, mail.id, unsubscribe[1])
            return mail
        expires = now + VERIFY_HOURS * 3600
        if not db.start_verification(conn, mail.player_id, mail.address, verify[1], expires):
            db.mark_failed(conn, mail.id, "the address changed or is verified already", None)
            return None
        return mail

    async def _send(self, mail: Outgoing, token: str) -> int:
        """Hand the claimed mail, its link made with ``token``, to the server."""
        try:
            await asyncio.to_thread(self.config.server.send, self._message(mail, token))
        except MaybeSent as error:
            self.uncertain += 1
            reason = f"the server's answer was lost: not sent again ({error})"
            log.warning("mail %d: %s", mail.id, reason)
            await self.store.write(lambda conn: db.mark_uncertain(conn, mail.id, reason))
            return 0
        except Exception as error:
            retry = None
            if mail.attempts < MAIL_ATTEMPTS:
                retry = time.time() + RETRY_FIRST * 2 ** (mail.attempts - 1)
            reason = f"{type(error).__name__}: {error}"
            log.warning("mail %d: attempt %d failed: %s", mail.id, mail.attempts, reason)
            await self.store.write(lambda conn: db.mark_failed(conn, mail.id, reason, retry))
            return 0
        await self.store.write(lambda conn: db.mark_sent(conn, mail.id, time.time()))
        return 1

    def message_id(self, mail: Outgoing) -> str:
        """The mail's ``Message-ID``, the same at every attempt: from its row."""
        host = urlsplit(self.config.site_url).hostname or "localhost"
        return f"<mail.{mail.id}.{int(mail.created * 1000)}@{host}>"

    def _message(self, mail: Outgoing, token: str) -> EmailMessage:
        # Headers up to SMTP's 998 characters: a folded link would become an encoded word,
        # which no mail client takes as a List-Unsubscribe URL.
        message = EmailMessage(policy=SMTP_POLICY)
        message["From"] = self.config.sender
        message["To"] = mail.address
        message["Subject"] = mail.subject
        message["Message-ID"] = self.message_id(mail)
        site = self.config.site_url
        if mail.kind == VERIFY:
            body = mail.body.replace(LINK, f"{site}/api/me/email/verify?token={token}")
        else:
            link = f"{site}/api/mail/unsubscribe?token={token}"
            message["List-Unsubscribe"] = f"<{link}>"
            message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
            body = f"{mail.body}\n\nNo more mail from Coffee Table: {link}\n"
        message.set_content(body)
        return message
