"""Chat at a table: players and spectators, each in a channel of their own.

Client -> server: ``{"type": "chat", "text": "..."}`` or ``{"type": "chat",
"phrase": "gg"}`` (a quick phrase, one of ``PHRASES``, which each reader's page
words in their own language). The channel is the sender's: ``players`` for a
seated person, ``spectators`` for a watcher; the name is the seat's, or a
signed-in watcher's username, else "Spectator". Everyone at the table gets
both channels as ``{"type": "chat", "message": {...}}``, and the last
``Limits.chat_history`` messages when they connect (``{"type":
"chat_history", "messages": [...]}``), unless they hide the spectators':
``{"type": "chat_mute", "channel": "spectators", "muted": true}`` (``false``
to show it again) and the socket is no longer sent that channel; the answer
is the chat history as that socket now sees it (a board sends it when its
player hides the channel).

Chat stays open after a match ends (post-game talk, as on Board Game Arena)
but not at an abandoned table: nobody is playing there any more. Messages are
kept with the table (``store.chat``), cleaned like names
(``text.clean_text``) and cut at ``Limits.chat_max_chars``; each socket may
say ``Limits.chat_per_minute`` of them a minute (bursts of ``chat_burst``), and so
may each seat over all its sockets; a client address over all its sockets
``address_chat_per_minute`` (``client_rates.py``).
An account a moderator muted (``server/moderation``) is refused with an error until its
mute ends.
A signed-in reader who blocked the sender's account (``server/social/``) is not sent
their messages (lines said before the reader's socket opened come in the history as kept).
Muting a player by name is the reader's choice, kept and applied by their
browser (names are not unique: the server cannot tell whom a name means).
"""

from __future__ import annotations

import time
from collections import deque
from typing import TYPE_CHECKING, Any

from coffeetable.server.tables import wire
from coffeetable.server.tables.connections import Connection, dumps
from coffeetable.server.text import clean_text
from coffeetable.store import chat as store
from coffeetable.store import moderation, social

if TYPE_CHECKING:
    from coffeetable.server.tables.face import TableFace

#: The quick phrases; their words are the pages' (web/i18n).
PHRASES = ("hello", "gg", "well_played", "oops", "thanks", "good_luck", "one_moment")
PLAYERS, SPECTATORS = "players", "spectators"


async def load(table: TableFace) -> None:
    """Read the table's recent chat from the database once (before its first client)."""
    if table.chat is not None:
        return
    limit = table.limits.chat_history
    messages = await table.store.read(lambda conn: store.recent(conn, table.id, limit))
    if table.chat is None:  # another socket may have loaded it meanwhile
        table.chat = deque((m.to_json() for m in messages), maxlen=limit)


async def say(table: TableFace, conn: Connection, message: dict[str, Any]) -> None:
    """Keep and pass on one chat message, or answer the sender with an error."""
    limits = table.limits
    if table.status == "abandoned":
        conn.send_error("this table was abandoned: its chat is closed", wire.FORBIDDEN)
        return
    text, phrase = message.get("text"), message.get("phrase")
    if phrase is not None:
        if phrase not in PHRASES or text is not None:
            conn.send_error(f"a quick phrase is one of {', '.join(PHRASES)}, without text")
            return
    elif not isinstance(text, str) or not (text := clean_text(text, limits.chat_max_chars)):
        conn.send_error(f"a chat message has a 'text' of 1 to {limits.chat_max_chars} characters")
        return
    if muted := await _muted(table, conn):
        conn.send_error(muted, wire.FORBIDDEN)
        return
    bucket = conn.throttle.chat
    if not bucket.take():
        reason = f"slow down: at most {limits.chat_per_minute} chat messages a minute"
        conn.send_error(reason, wire.RATE, bucket.wait())
        return
    if conn.rates is not None and (
        refusal := conn.rates.chat_refusal(table.id, conn.seat, conn.address)
    ):  # the seat's or the address's other sockets said them
        conn.send_error(refusal[0], wire.RATE, refusal[1])
        return
    seat = conn.seat
    said = store.ChatMessage(
        table_id=table.id,
        channel=SPECTATORS if seat is None else PLAYERS,
        seat=seat,
        name=conn.viewer_name if seat is None else (table.seats[seat].name or "Player"),
        text=text if phrase is None else None,
        phrase=phrase,
    )
    await table.store.write(lambda db: store.insert(db, said))
    out = said.to_json()
    if table.chat is not None:
        table.chat.append(out)
    deaf = await _blocking(table, conn)
    text = dumps(wire.chat(out))
    for reader in table.connections:
        if said.channel not in reader.muted and _account(table, reader) not in deaf:
            reader.send(text)


async def _muted(table: TableFace, conn: Connection) -> str | None:
    """Why the sender may not chat now: a moderator muted its account (``store.moderation``)."""
    speaker = _account(table, conn)
    if speaker is None:
        return None
    found = await table.store.read(lambda db: moderation.standing(db, speaker))
    until = None if found is None else found.muted_until
    if until is None or until <= time.time():
        return None
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(until))
    return f"a moderator muted your chat until {when}"


def _account(table: TableFace, conn: Connection) -> int | None:
    """The account a socket speaks or reads for: its own, else its seat's."""
    if conn.user_id is not None:
        return conn.user_id
    return None if conn.seat is None else table.seats[conn.seat].user_id


async def _blocking(table: TableFace, sender: Connection) -> set[int | None]:
    """The accounts at the table that blocked the sender's (``store.social``): they are not
    sent its messages."""
    speaker = _account(table, sender)
    if speaker is None:
        return set()
    readers = {_account(table, reader) for reader in table.connections} - {None, speaker}
    found = await table.store.read(
        lambda db: social.blockers_of(db, speaker, {r for r in readers if r is not None})
    )
    return set(found)


def mute(table: TableFace, conn: Connection, message: dict[str, Any]) -> None:
    """Hide (or show again) the spectators' channel from this socket; answer with the
    chat history as it now sees it."""
    channel, muted = message.get("channel"), message.get("muted", True)
    if channel != SPECTATORS or not isinstance(muted, bool):
        conn.send_error('\'chat_mute\' takes "channel": "spectators" and "muted": true or false')
        return
    if muted:
        conn.muted.add(channel)
    else:
        conn.muted.discard(channel)
    shown = [m for m in table.chat or () if m.get("channel") not in conn.muted]
    conn.send_json(wire.chat_history(shown))
