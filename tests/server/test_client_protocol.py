"""``coffeetable.client`` against a scripted table socket: one answer in flight at a time
(states before the one marked ``"yours"`` are news only), and a socket the far end closes
normally is opened again."""

from __future__ import annotations

import asyncio
import json
from typing import Any

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
