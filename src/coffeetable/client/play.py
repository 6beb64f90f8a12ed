"""Playing matches on the site as a bot account: ``play`` and ``play_table``.

A match is the table's WebSocket (``/ws/tables/{id}``, the key in the
handshake's ``Authorization`` header). For every state that offers the bot
something (``legal`` not empty) the policy is asked once, ``policy(view,
legal) -> action``, and its answer sent with the state's ``seq``; a state
with nothing to do is only read, and so is one that comes while the bot's
answer is in flight (before the state that holds it, ``"yours"``, or its
refusal): one answer in flight at a time. Refusals are told apart by their
``code``: an answer refused ``too_slow`` or ``stale_seq`` (Espresso: the stack
moved) waits for the next state, as at the table; one refused as not legal
(``illegal``, ``not_your_turn``) asks the policy again, then plays the first
legal action, so a buggy policy never stalls its seat. One refused for the
site's rate (``rate``, or ``busy``) is sent again, the same answer, after
exactly the ``retry_after`` seconds the refusal says; nothing slows the answers
that follow, and each match starts at full pace. A dropped connection is
opened again (waits of 0.5 s doubling to 10 s), and the server sends the
state as it is now: the table's clock runs meanwhile, and past the table's
grace a greedy stand-in plays the seat until the bot is back.

Where the matches come from (``play``): ``opponents=["greedy"]`` makes a
table per match with the site's bots (the bot's seat turns round the
table); ``play_now=True`` waits in the Play now queue; otherwise the bot
plays the tables it is invited to (``GET /api/me`` lists its seats).
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from coffeetable.client.http import Site, SiteError

log = logging.getLogger("coffeetable.client")

Action = dict[str, Any]
#: ``policy(view, legal) -> action``: one of ``legal`` (or a coroutine of one).
Policy = Callable[[dict[str, Any], list[Action]], Action | Awaitable[Action]]
#: Close codes that mean "do not come back": refused (bad key, no seat), no table.
FATAL = {4403, 4404, 1008}
#: How often (seconds) invitations and Play now tickets are asked about.
POLL = 0.5
#: The longest wait between two reconnections (seconds).
MAX_BACKOFF = 10.0
#: Refusal codes (the server's ``server/tables/wire.py``) after which the same answer is sent again
#: once ``retry_after`` has passed, and those after which a newer state is waited for.
SEND_AGAIN = {"rate", "busy"}
DECIDE_AGAIN_LATER = {"too_slow", "stale_seq"}
#: The wait before sending again when a refusal says no ``retry_after`` (older servers).
DEFAULT_RETRY = 0.1


class PlayError(Exception):
    """The bot cannot play this table (refused, or the site went away for good)."""


@dataclass
class MatchResult:
    """How one match went for the bot."""

    table_id: str
    game: str
    seat: int | None
    status: str = "running"  # over | abandoned (or running, if it stopped early)
    winners: list[int] = field(default_factory=list)
    view: dict[str, Any] = field(default_factory=dict)  # the seat's last view
    actions: int = 0  # actions of the bot the table accepted
    rejected: int = 0  # answers refused (too slow, not legal, ...)
    reconnects: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)

    @property
    def won(self) -> bool:
        """True if the bot is among the winners (a shared win counts)."""
        return self.seat is not None and self.seat in self.winners


async def _decide(policy: Policy, view: dict[str, Any], legal: list[Action]) -> Action:
    answer = policy(view, legal)
    if inspect.isawaitable(answer):
        answer = await answer
    return answer


class _Match:
    """One table's socket and what the bot did there."""

    def __init__(self, site: Site | None, table_id: str, policy: Policy) -> None:
        self.site, self.table_id, self.policy = site, table_id, policy
        self.result = MatchResult(table_id, "", None)
        self.acted: int | None = None  # seq of the last state answered
        #: An answer was sent and neither its state (``"yours"``) nor a refusal came yet.
        self.in_flight = False
        self.tries = 0  # refusals on that state (not "too slow")
        #: The last answer sent (sent again after a refusal for the site's rate).
        self.last_action: Action | None = None
        self.state: dict[str, Any] | None = None
        self.over = False
        self.last_error = ""  # the server's last "error" sentence (why it refuses us)

    async def run(self) -> MatchResult:
        backoff = 0.5
        while not self.over:
            try:
                await self._connect()
                backoff = 0.5
            except PlayError:
                raise
            except (TimeoutError, OSError, ConnectionClosed, InvalidStatus) as error:
                if isinstance(error, ConnectionClosed) and _code(error) in FATAL:
                    raise PlayError(self.last_error or _reason(error)) from None
                if self.over:
                    break
                self.result.reconnects += 1
                log.info(
                    "table %s: connection lost (%s); again in %.1f s", self.table_id, error, backoff
                )
                await asyncio.sleep(backoff)
                backoff = min(MAX_BACKOFF, backoff * 2)
        return self.result

    async def _connect(self) -> None:
        assert self.site is not None
        url = f"{self.site.ws_url}/ws/tables/{self.table_id}"
        async with connect(url, additional_headers=self.site.headers(), max_size=None) as ws:
            self.acted, self.in_flight = None, False  # a new socket: its states are new
            async for text in ws:
                message = json.loads(text)
                reply = await self._on(message)
                if reply is not None:
                    await ws.send(json.dumps(reply))
                if self.over:
                    await ws.close()
                    return
            raise ws.close_exc  # closed normally (1000, 1001): open it again all the same

    async def _on(self, message: dict[str, Any]) -> dict[str, Any] | None:
        kind = message.get("type")
        if kind == "error":
            self.last_error = str(message.get("reason", ""))[:300]
            log.warning("table %s: %s", self.table_id, self.last_error)
        elif kind == "table":
            summary = message["table"]
            self.result.game = summary.get("game", self.result.game)
            if summary.get("status") in ("over", "abandoned"):
                self.result.status = summary["status"]
                self.over = True
        elif kind == "history":
            self.result.events.extend(message.get("events", []))
        elif kind == "event":  # servers before the events travelled inside states
            self.result.events.append(message["event"])
        elif kind == "state":
            self.result.events.extend(message.get("events", []))
            return await self._on_state(message)
        elif kind == "rejected":
            return await self._on_rejected(message)
        return None

    async def _on_state(self, state: dict[str, Any]) -> dict[str, Any] | None:
        self.state = state
        self.result.seat = state.get("seat")
        view = state.get("view") or {}
        self.result.view = view
        self.result.winners = list(view.get("winners") or [])
        if self.result.seat is None:
            raise PlayError("this socket holds no seat (is the bot seated at this table?)")
        if state.get("yours"):
            self.in_flight = False  # this state holds the answer sent
        return await self._answer()

    async def _answer(self) -> dict[str, Any] | None:
        """Answer the newest state if it offers something and was not answered yet, and
        no answer is in flight: a state that came before the one holding the bot's
        answer (``"yours"``) is news only, as the answer may change or end what it
        offers (Fika: the other player's pick, sent while the bot's pick travelled)."""
        state = self.state
        assert state is not None
        legal = state.get("legal") or []
        if not legal or self.in_flight or state.get("seq") == self.acted:
            return None
        self.acted, self.tries = state.get("seq"), 0
        return await self._act(state.get("view") or {}, legal)

    async def _act(
        self, view: dict[str, Any], legal: list[Action], action: Action | None = None
    ) -> dict[str, Any]:
        """The answer to send: ``action`` if given (sent again), else the policy's."""
        if action is None and self.tries >= 2:
            action = legal[0]  # the policy keeps failing: never leave the seat stuck
        elif action is None:
            action = await _decide(self.policy, view, legal)
        self.last_action = action
        self.result.actions += 1
        self.in_flight = True
        return {"type": "act", "action": action, "seq": self.acted}

    async def _on_rejected(self, message: dict[str, Any]) -> dict[str, Any] | None:
        self.result.actions -= 1
        self.result.rejected += 1
        reason = str(message.get("reason", ""))
        code = _refusal_code(message)
        self.in_flight = False
        send_again = code in SEND_AGAIN
        if send_again:  # the site's rate, not the answer: wait exactly what it says
            await _sleep(_retry_after(message))
        state = self.state
        if state is None:
            return None
        if state.get("seq") != self.acted:  # a newer state came while the answer travelled
            return await self._answer()
        if code in DECIDE_AGAIN_LATER:
            return None  # the table moved on: a newer state is on its way
        view, legal = state.get("view") or {}, state.get("legal") or []
        if send_again and self.last_action is not None:
            return await self._act(view, legal, self.last_action)  # the same answer again
        log.info("table %s: refused %r: %s", self.table_id, message.get("action"), reason)
        self.tries += 1
        return await self._act(view, legal) if legal else None


#: How the client waits (a seam for tests: they record the waits).
_sleep = asyncio.sleep


def _refusal_code(message: dict[str, Any]) -> str:
    """A refusal's ``code``; for servers before codes, from its sentence."""
    code = message.get("code")
    if isinstance(code, str):
        return code
    reason = str(message.get("reason", ""))
    if reason.startswith("slow down"):
        return "rate"
    return "too_slow" if reason == "too slow" else "illegal"


def _retry_after(message: dict[str, Any]) -> float:
    """The seconds a refusal says to wait (``DEFAULT_RETRY`` if it says none)."""
    wait = message.get("retry_after")
    if isinstance(wait, bool) or not isinstance(wait, int | float) or wait < 0:
        return DEFAULT_RETRY
    return float(wait)


def _code(error: ConnectionClosed) -> int | None:
    frame = error.rcvd
    return None if frame is None else frame.code


def _reason(error: ConnectionClosed) -> str:
    frame = error.rcvd
    return "closed" if frame is None else f"closed {frame.code}: {frame.reason}"


async def play_table(url: str, key: str, table_id: str, policy: Policy) -> MatchResult:
    """Play the bot's seat at one table until its match ends."""
    return await _Match(Site(url, key), table_id, policy).run()


async def play_async(
    url: str,
    key: str,
    policy: Policy,
    game: str | None = None,
    games: int = 1,
    *,
    opponents: Sequence[str] | None = None,
    options: Mapping[str, Any] | None = None,
    play_now: bool = False,
    players: int = 2,
    on_match: Callable[[MatchResult], None] | None = None,
) -> list[MatchResult]:
    """``play`` in a running event loop."""
    if games < 1:
        raise ValueError("games is at least 1")
    if (opponents is not None or play_now) and game is None:
        raise ValueError("name the game to make tables or queue for")
    site = Site(url, key)
    results: list[MatchResult] = []
    played: set[str] = set()
    while len(results) < games:
        if opponents is not None:
            assert game is not None
            table_id = await _new_table(site, game, list(opponents), options, len(results))
        elif play_now:
            assert game is not None
            table_id = await _queue(site, game, players)
        else:
            table_id = await _invitation(site, game, played)
        played.add(table_id)
        result = await _Match(site, table_id, policy).run()  # each at full pace
        results.append(result)
        if on_match is not None:
            on_match(result)
    return results


def play(
    url: str,
    key: str,
    policy: Policy,
    game: str | None = None,
    games: int = 1,
    **kwargs: Any,
) -> list[MatchResult]:
    """Play ``games`` matches on the site at ``url`` as the bot whose API key is ``key``.

    ``policy(view, legal) -> action`` chooses one of the legal actions from the
    seat's view. ``opponents`` (site bot levels, e.g. ``["greedy"]``) makes a
    table per match against them, with ``options`` for the game; ``play_now``
    queues for tables of ``players``; with neither, the bot plays the tables it
    is invited to (of ``game`` if given). ``on_match`` hears each result.
    Returns the results in the order played.
    """
    return asyncio.run(play_async(url, key, policy, game, games, **kwargs))


async def _new_table(
    site: Site, game: str, opponents: list[str], options: Mapping[str, Any] | None, index: int
) -> str:
    """A table of the bot and ``opponents``; the bot's seat turns with ``index``."""
    seats = len(opponents) + 1
    mine = index % seats
    others = [seat for seat in range(seats) if seat != mine]
    body = {
        "game": game,
        "players": seats,
        "bots": {str(seat): level for seat, level in zip(others, opponents, strict=True)},
        "options": dict(options or {}),
    }
    created = await site.call("POST", "/api/tables", body)
    return str(created["table_id"])


async def _queue(site: Site, game: str, players: int) -> str:
    """Wait in the Play now queue; the table it seats the bot at."""
    status = await site.call("POST", "/api/play-now", {"game": game, "players": players})
    ticket = status["ticket"]
    while status.get("status") != "seated":
        await asyncio.sleep(POLL)
        status = await site.call("POST", "/api/play-now/status", {"ticket": ticket})
    return str(status["table_id"])


async def _invitation(site: Site, game: str | None, played: set[str]) -> str:
    """Wait until the bot is seated at a live table it has not played yet."""
    announced = False
    while True:
        try:
            me = await site.call("GET", "/api/me")
        except SiteError as error:
            if error.status in (401, 403):
                raise PlayError(error.detail) from None
            raise
        for table in me.get("tables", []):
            if table["table_id"] not in played and game in (None, table["game"]):
                return str(table["table_id"])
        if not announced:
            log.info("waiting for an invitation (%s)", me.get("username"))
            announced = True
        await asyncio.sleep(POLL)
