"""What a table tells the site about its players after an action: whose turn it now is,
who just played, and each player's result when the match ends.

The table builds a ``TableNews`` on the event loop from its own facts (no reads), and once
the action is saved queues its ``news`` writer (set by the lobby; the site's
notifications, ``server/social/``) as a write of its own: the store's group commit
gathers it with the next writes, nothing is awaited, and a writer that fails sinks
neither an action nor the table (``store.writer`` commits a failing write alone).

Only accounts hear of it (``seat.user_id``), never programs (bot accounts) nor seats a bot
plays, and only when they are not at the table (no socket on their seat): a person
watching the board needs no notice. "Your turn" is for turn-based games only.

Presence is the table's own count of each seat's sockets, those other processes hold
included (``cluster/relay.py``: a socket there is counted before its handshake completes).
A socket closed on another process is counted out only when its goodbye crosses the bus,
so a seat whose turn begins while it is present only through other processes is asked
again (``Connection.still_open``: that process answers after anything it sent before,
its goodbye too): if its person turns out to be away, "your turn" is told then. (So is
a person whose last socket went while the action was being saved.)
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.engine import Connection

from coffeetable.server.tables.face import TableFace

log = logging.getLogger("coffeetable.server")


@dataclass(frozen=True)
class TableNews:
    """One action's news, for the notifications."""

    table_id: str
    #: The game's title (for the notice's words).
    title: str
    #: The account that just played its own seat: its "your turn" there is done.
    played: int | None = None
    #: Accounts whose turn it became, away from the table.
    turn: tuple[int, ...] = ()
    #: Match over: each account away from the table and its result
    #: (``{"result": "won" | "shared" | "lost" | "solo", "score": n}``).
    results: tuple[tuple[int, dict[str, Any]], ...] = field(default=())
    #: The match began (every seat taken): the accounts seated there, away from the table.
    full: tuple[int, ...] = ()

    def __bool__(self) -> bool:
        return self.played is not None or any((self.turn, self.results, self.full))


#: Writes a table's news inside the action's transaction.
NewsWriter = Callable[[Connection, TableNews], None]


def _away_account(table: TableFace, index: int) -> int | None:
    """The account holding seat ``index`` if a person of it is away from the table."""
    seat = table.seats[index]
    if seat.user_id is None or seat.program is not None or seat.left:
        return None
    if seat.bot_level is not None or seat.connections > 0:
        return None
    return int(seat.user_id)


def news_after(
    table: TableFace,
    seat: int | None,
    by_person: bool,
    before: Iterable[int],
    over: bool,
) -> TableNews:
    """The news of the action just applied by ``seat`` (``by_person``: its own player, not
    a stand-in); ``before``: the seats that were to act before it."""
    played = None
    if seat is not None and by_person:
        user = table.seats[seat].user_id
        played = None if user is None else int(user)
    turn: list[int] = []
    results: list[tuple[int, dict[str, Any]]] = []
    state = table.state
    if over:
        winners = set(state.winners)
        scores = list(state.scores)
        for index in range(table.players):
            account = _away_account(table, index)
            if account is not None:
                result = {"result": _result(table, index, winners), "score": int(scores[index])}
                results.append((account, result))
    elif not table.game.realtime:
        waiting = set(before)
        for index in state.actors():
            account = _away_account(table, index)
            if index not in waiting and account is not None:
                turn.append(account)
    return TableNews(table.id, table.game.title, played, tuple(turn), tuple(results))


def news_at_start(table: TableFace) -> TableNews:
    """The news of a match that begins: the table is full, and whose turn it is first
    (turn-based games)."""
    seated = (_away_account(table, index) for index in range(table.players))
    full = tuple(account for account in seated if account is not None)
    first = () if table.game.realtime else news_after(table, None, False, (), False).turn
    return TableNews(table.id, table.game.title, turn=first, full=full)


def _result(table: TableFace, index: int, winners: set[int]) -> str:
    if table.players == 1:
        return "solo"
    if index not in winners:
        return "lost"
    return "shared" if len(winners) > 1 else "won"


class Newsroom:
    """The table's part that tells the site its news: the writer the lobby sets (the
    notifications; None: nowhere), the seats that were to act after the last action
    (whose turn is new news), and the writes in flight, never awaited."""

    def __init__(self, table: TableFace) -> None:
        self.table = table
        self.writer: NewsWriter | None = None
        self.to_act: set[int] = set(table.state.actors()) if table.status == "running" else set()
        self._writes: set[asyncio.Task[Any]] = set()

    def began(self) -> None:
        """The match begins: the table is full, and whose turn it is first."""
        self.tell(news_at_start(self.table))
        self.to_act = set(self.table.state.actors())

    def after(self, seat: int | None, by_person: bool, over: bool) -> TableNews | None:
        """The news of the action just applied, built before it is saved (None: no writer)."""
        if self.writer is None:
            return None
        return news_after(self.table, seat, by_person, self.to_act, over)

    def applied(self, news: TableNews | None, over: bool) -> None:
        """The action is saved: tell its news, and remember who is to act now."""
        before, self.to_act = self.to_act, set() if over else set(self.table.state.actors())
        if news is not None:
            self.tell(news)
            if not self.table.game.realtime:
                for index in self.to_act - before:
                    self._make_sure(index, news)

    def _make_sure(self, index: int, news: TableNews) -> None:
        """Seat ``index``'s turn began and ``news`` did not tell its person (present when it
        was built): unless a socket of this process is at the seat, ask the sockets other
        processes hold whether they are still open, and tell "your turn" if the person
        turns out to be away (or left while the action was being saved)."""
        table = self.table
        seat = table.seats[index]
        user_id = seat.user_id
        if user_id is None or seat.program is not None or seat.bot_level is not None:
            return  # not a person's seat: never told
        conns = [conn for conn in table.connections if conn.seat == index]
        if int(user_id) in news.turn or any(not conn.remote for conn in conns):
            return
        account = int(user_id)

        async def confirm() -> None:
            await asyncio.gather(*(conn.still_open() for conn in conns))
            still_turn = table.status == "running" and index in table.state.actors()
            if still_turn and index in self.to_act and _away_account(table, index) == account:
                self.tell(TableNews(table.id, table.game.title, turn=(account,)))

        task = asyncio.get_running_loop().create_task(confirm())
        self._writes.add(task)
        task.add_done_callback(self._written)

    def tell(self, news: TableNews) -> None:
        """Queue the news's write (never awaited; a failing write is logged, never raised)."""
        writer = self.writer
        if writer is None or not news:
            return
        task = asyncio.get_running_loop().create_task(
            self.table.store.write(lambda conn: writer(conn, news))
        )
        self._writes.add(task)
        task.add_done_callback(self._written)

    def _written(self, task: asyncio.Task[Any]) -> None:
        self._writes.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("table %s: its news were not saved: %s", self.table.id, task.exception())
