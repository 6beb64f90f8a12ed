"""A real SMTP server for the tests: aiosmtpd on a free loopback port, keeping every mail."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from email import message_from_bytes
from email.message import Message
from typing import Any

from aiosmtpd.controller import Controller


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Inbox:
    """The aiosmtpd handler: every mail it took, parsed; ``delay`` seconds before it
    answers each (a slow server); the next ``refuse`` mails refused (451, kept in
    ``refused``); ``on_mail`` called with each mail as it arrives (on the server's thread)."""

    def __init__(self, delay: float = 0.0) -> None:
        self.mails: list[Message] = []
        self.delay = delay
        self.refuse = 0
        self.refused: list[Message] = []
        self.on_mail: Callable[[Message], None] | None = None

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        mail = message_from_bytes(envelope.content)
        if self.on_mail is not None:
            self.on_mail(mail)
        if self.refuse:
            self.refuse -= 1
            self.refused.append(mail)
            return "451 Try again later"
        if self.delay:
            await asyncio.sleep(self.delay)
        self.mails.append(mail)
        return "250 OK"

    def to(self, address: str) -> list[Message]:
        return [mail for mail in self.mails if mail["To"] == address]


class MailServer:
    """aiosmtpd started on a loopback port (``url``: for ``COFFEETABLE_SMTP_URL``)."""

    def __init__(self, delay: float = 0.0) -> None:
        self.inbox = Inbox(delay)
        self.port = free_port()
        self.controller = Controller(self.inbox, hostname="127.0.0.1", port=self.port)
        self.controller.start()
        self.url = f"smtp://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.controller.stop()


def body(mail: Message) -> str:
    payload = mail.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode()
