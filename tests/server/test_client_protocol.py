"""``coffeetable.client`` against a scripted table socket: one answer in flight at a time
(states before the one marked ``"yours"`` are news only), and a socket the far end closes
normally is opened again."""

from __future__ import annotations

import asyncio
import inspect
import json
import sys
from typing import Any

import pytest
from websockets.asyncio.server import ServerConnection, serve

from coffeetable import client
from coffeetable.client.http import Site
from coffeetable.client.play import _Match

Message = dict[str, Any]
PICKS = [{"type": "pick", "card": 1}, {"type": "pick", "card": 2}]
OVER = {"type": "table", "table": {"game": "fika", "status": "over"}}


def state(seq: int, legal: list[Message], **more: Any) -> str:
    view = {"game": "fika", "winners": [0] if not legal else []}
    return json.dumps(
        {"type": "state", "seq": seq, "seat": 0, "view": view, "legal": legal, **more}
    )


async def play_against(script: Any) -> tuple[client.MatchResult, list[Message]]:
    """Run ``script(socket, answers)`` as the table for each connection the client opens;
    the match's result and every answer the client sent."""
    answers: list[Message] = []

    async def table(socket: ServerConnection) -> None:
        await script(socket, answers)

    async with serve(table, "127.0.0.1", 0) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        site = Site(f"http://127.0.0.1:{port}", "ctb_test")

        def policy(view: Message, legal: list[Message]) -> Message:
            return legal[-1]

        result = await asyncio.wait_for(_Match(site, "T1", policy).run(), 10)
    return result, answers


async def receive(socket: ServerConnection, answers: list[Message]) -> Message:
    answer: Message = json.loads(await asyncio.wait_for(socket.recv(), 5))
    answers.append(answer)
    return answer


def test_a_state_that_comes_while_the_answer_travels_is_not_answered() -> None:
    async def script(socket: ServerConnection, answers: list[Message]) -> None:
        await socket.send(state(2, PICKS))
        await receive(socket, answers)  # the pick, sent on state 2
        # The other player's pick, which the table applied before the bot's arrived: it
        # still offers picks, but the bot's answer is on its way.
        await socket.send(state(3, PICKS))
        await asyncio.sleep(0.3)  # time for a (wrong) second answer to arrive
        await socket.send(state(4, [], yours=True))  # the bot's pick, applied
        await socket.send(state(5, PICKS))  # the next round's picks: answered
        await receive(socket, answers)
        await socket.send(state(6, [], yours=True))
        await socket.send(json.dumps(OVER))
        await socket.wait_closed()

    result, answers = asyncio.run(play_against(script))
    assert [answer["seq"] for answer in answers] == [2, 5]
    assert result.status == "over" and result.actions == 2 and result.rejected == 0


def test_a_refused_answer_lets_the_newer_state_be_answered() -> None:
    async def script(socket: ServerConnection, answers: list[Message]) -> None:
        await socket.send(state(2, PICKS))
        first = await receive(socket, answers)
        await socket.send(state(3, PICKS))  # comes while the answer travels: news only
        reason = {"type": "rejected", "reason": "too slow", "action": first["action"]}
        await socket.send(json.dumps(reason))
        await receive(socket, answers)  # now state 3 is answered
        await socket.send(state(4, [], yours=True))
        await socket.send(json.dumps(OVER))
        await socket.wait_closed()

    result, answers = asyncio.run(play_against(script))
    assert [answer["seq"] for answer in answers] == [2, 3]
    assert result.rejected == 1 and result.actions == 1


def test_a_socket_closed_normally_is_opened_again() -> None:
    connections: list[int] = []

    async def script(socket: ServerConnection, answers: list[Message]) -> None:
        connections.append(1)
        if len(connections) == 1:
            await socket.send(state(1, []))
            await socket.close(1001, "going away")  # a proxy restarting, say
            return
        await socket.send(json.dumps(OVER))
        await socket.wait_closed()

    result, _ = asyncio.run(play_against(script))
    assert len(connections) == 2
    assert result.reconnects == 1 and result.status == "over"


def test_a_rate_refusal_is_waited_out_exactly_and_slows_nothing_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Refused ``rate`` with ``retry_after``, the client waits exactly that long, sends
    the same answer again, and answers the states after it at once (a refusal used to
    slow every later answer of the series by 10x); ``stale_seq`` waits for a new state."""
    waits: list[float] = []
    real_sleep = asyncio.sleep

    async def recorded(seconds: float) -> None:
        waits.append(seconds)
        await real_sleep(seconds)

    # (``coffeetable.client.play`` is also the name of the function the package exports)
    monkeypatch.setattr(sys.modules[_Match.__module__], "_sleep", recorded)

    async def script(socket: ServerConnection, answers: list[Message]) -> None:
        await socket.send(state(2, PICKS))
        first = await receive(socket, answers)
        refusal = {"type": "rejected", "reason": "slow down: at most 10 actions a second"}
        await socket.send(json.dumps({**refusal, "code": "rate", "retry_after": 0.137}))
        again = await receive(socket, answers)
        assert again["action"] == first["action"] and again["seq"] == 2
        await socket.send(state(3, [], yours=True))
        for seq in (4, 6, 8):  # three more answers: none of them waits
            await socket.send(state(seq, PICKS))
            await receive(socket, answers)
            await socket.send(state(seq + 1, [], yours=True))
        await socket.send(state(10, PICKS))
        stale = await receive(socket, answers)
        reason = "seq 10 is not one of the last 8 states sent to this socket"
        await socket.send(
            json.dumps(
                {
                    "type": "rejected",
                    "reason": reason,
                    "code": "stale_seq",
                    "action": stale["action"],
                }
            )
        )
        await socket.send(state(11, PICKS))  # decided again on the newest state
        await receive(socket, answers)
        await socket.send(state(12, [], yours=True))
        await socket.send(json.dumps(OVER))
        await socket.wait_closed()

    result, answers = asyncio.run(play_against(script))
    assert waits == [0.137]
    assert [answer["seq"] for answer in answers] == [2, 2, 4, 6, 8, 10, 11]
    assert result.rejected == 2 and result.actions == 5


def test_each_match_of_a_series_starts_at_full_pace() -> None:
    """A match's refusals leave the next match alone: a new ``_Match`` has nothing to
    keep a pace with (``play_async`` used to hand each match the last one's pace)."""
    assert "pace" not in inspect.signature(_Match).parameters
