"""Ending a session or revoking an API key closes the sockets it opened, on every process.

A table socket resolves its account once, at the handshake, so each socket remembers
the credentials it was opened with (``credentials_of``): ``session:<id>`` and
``sessions-of:<user>`` for a person's session cookie, ``key:<id>`` for a program's API
key (a socket opened with a seat token has none: the token is its credential). Signing
out (this browser, one session, or everywhere), signing in over an old session, and
revoking a key call ``SocketRevocations.revoke``: every socket of this process opened
by one of those credentials is sent an ``error`` saying why and closed with 4403, and
with several processes the revocation is broadcast on the cluster's bus, so that every
other process closes its own at once. Frames a closed socket still sends are ignored.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from coffeetable.server.players.api_keys import ProgramAccount
from coffeetable.server.players.sessions import Account


class RevocableSocket(Protocol):
    """A socket as revocation sees it (``tables.connections.Connection``)."""

    closed: bool

    def refuse(self, reason: str, code: int) -> None:
        """Say why with an ``error`` (code ``forbidden``), then close with ``code``."""


log = logging.getLogger("coffeetable.server")

#: The close code of a socket whose session or key ended (as a refused handshake's).
REVOKED = 4403
#: The bus message kind of a revocation (``cluster/bus.py``).
KIND = "revoke"

SESSION_ENDED = "your session ended (signed out): sign in again to play"
SIGNED_OUT_EVERYWHERE = "you signed out everywhere: sign in again to play"
KEY_REVOKED = "this API key was revoked"
#: Seconds a revocation is remembered for sockets still in their handshake (far longer
#: than a handshake takes; a new session or key has another id anyway).
REMEMBER = 60.0


def session(session_id: str) -> str:
    """The credential of one session."""
    return f"session:{session_id}"


def sessions_of(user_id: int) -> str:
    """The credential every session of an account shares (sign out everywhere)."""
    return f"sessions-of:{user_id}"


def api_key(key_id: str) -> str:
    """The credential of one API key."""
    return f"key:{key_id}"


def credentials_of(account: Account | None) -> tuple[str, ...]:
    """What a socket signed in as ``account`` was opened with (none: a guest)."""
    if account is None:
        return ()
    if isinstance(account, ProgramAccount):
        return (api_key(account.key_id),)
    return (session(account.session_id), sessions_of(account.user_id))


class SocketRevocations:
    """The open sockets of this process by credential; ``revoke`` closes them everywhere.

    ``cluster``: this process's ``Cluster`` (None: a single process).
    """

    def __init__(self, cluster: Any = None) -> None:
        self.cluster = cluster
        self._open: dict[str, set[RevocableSocket]] = {}
        #: Credentials revoked lately, with when (``time.monotonic``): a socket whose
        #: handshake began before a revocation and registers after it is closed too.
        self._revoked: dict[str, float] = {}
        if cluster is not None:
            cluster.bus.handlers[KIND] = self._on_bus

    def opened_by(self, account: Account | None, since: float) -> OpenedBy:
        """What a socket whose handshake began at ``since`` was opened with."""
        return OpenedBy(self, credentials_of(account), since)

    def _add(self, conn: RevocableSocket, opened: OpenedBy) -> None:
        for credential in opened.credentials:
            self._open.setdefault(credential, set()).add(conn)
        late = [c for c in opened.credentials if self._revoked.get(c, -1.0) >= opened.since]
        if late:  # revoked while this socket's handshake was under way
            self.close_here(late, SESSION_ENDED if late[0].startswith("session") else KEY_REVOKED)

    def _remove(self, conn: RevocableSocket, opened: OpenedBy) -> None:
        for credential in opened.credentials:
            conns = self._open.get(credential)
            if conns is not None:
                conns.discard(conn)
                if not conns:
                    del self._open[credential]

    def close_here(self, credentials: Iterable[str], reason: str) -> int:
        """Close this process's sockets opened by any of ``credentials``; how many."""
        closed = 0
        now = time.monotonic()
        for credential in [c for c in self._revoked if now - self._revoked[c] > REMEMBER]:
            del self._revoked[credential]
        for credential in credentials:
            self._revoked[credential] = now
            for conn in list(self._open.get(credential, ())):
                if not conn.closed:
                    conn.refuse(reason, REVOKED)
                    closed += 1
        return closed

    def revoke(self, credentials: Iterable[str], reason: str) -> None:
        """Close every socket opened by ``credentials``, here and on every other process."""
        listed = list(credentials)
        closed = self.close_here(listed, reason)
        if closed:
            log.info("closed %d sockets of an ended session or key", closed)
        if self.cluster is not None:
            message = {"kind": KIND, "credentials": listed, "reason": reason}
            self.cluster.bus.broadcast({**message, "from": self.cluster.me})

    def _on_bus(self, message: dict[str, Any]) -> None:
        if message.get("from") == self.cluster.me:
            return  # closed here already
        credentials = [str(c) for c in message.get("credentials") or ()]
        self.close_here(credentials, str(message.get("reason") or "revoked"))


@dataclass(frozen=True)
class OpenedBy:
    """The credentials one socket was opened with, and when its handshake began."""

    registry: SocketRevocations
    credentials: tuple[str, ...]
    since: float

    def attach(self, conn: RevocableSocket) -> None:
        """``conn`` is open: a revocation of its credentials closes it (at once if one
        came since its handshake began)."""
        if self.credentials:
            self.registry._add(conn, self)

    def detach(self, conn: RevocableSocket) -> None:
        """``conn`` closed."""
        if self.credentials:
            self.registry._remove(conn, self)
