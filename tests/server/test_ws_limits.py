"""The WebSocket limits: Origin, message size, rates, floods and sockets per address."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from coffeetable.server.tables.connections import Connection, encode

from .conftest import (
    TEST_LIMITS,
    TIMEOUT,
    WS_MAX_SIZE,
    Client,
    Message,
    ServerThread,
    announce_frame,
)

FAST = {"bot_speed": 1000}
READY = {"type": "ready"}
FLIP = {"type": "flip", "count": 3}


def limits(**changes: Any) -> Any:
    return dataclasses.replace(TEST_LIMITS, **changes)


def closed_code(client: Client) -> int:
    """Read until the server closes the socket; its close code."""
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            client.recv()
    assert closed.value.rcvd is not None, "the server did not send a close frame"
    return closed.value.rcvd.code


def answer(client: Client) -> Message:
    """The next answer to a message: an error, a refusal or a pong."""
    return client.until(lambda m: m["type"] in ("error", "rejected", "pong"))


def pair(server: ServerThread, clients: list[Client]) -> tuple[str, Client, Client]:
    """An Espresso table of two people, both connected, in the ready check."""
    created = server.create(players=2, options=FAST)
    table_id = created["table_id"]
    joined = server.join(table_id)
    ada = server.client(table_id, created["token"])
    bea = server.client(table_id, joined["token"])
    clients += [ada, bea]
    for client in (ada, bea):
        client.playable()
    return table_id, ada, bea


def in_play(ada: Client, bea: Client) -> None:
    for client in (ada, bea):
        client.act(READY)
    for client in (ada, bea):
        client.state_until(lambda m: m["view"]["phase"] == "play" and bool(m["legal"]))


# -- Origin -------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/ws/tables/{table_id}", "/ws/echo"])
def test_only_the_sites_own_pages_may_open_a_socket(
    start_server: Callable[..., ServerThread], path: str
) -> None:
    server = start_server(limits=limits(allowed_origins=("https://friend.example",)))
    table_id = server.create(options=FAST)["table_id"]
    url = server.ws_url + path.format(table_id=table_id)
    own = server.url  # http://127.0.0.1:port: the page the site serves
    for origin in (own, own.upper(), own + "/", "https://friend.example:443"):
        client = Client(url, origin)
        client.ws.send('{"type": "ping"}')
        reply = client.recv()
        assert reply["type"] in ("table", "ping"), (origin, reply)  # a table, or the echo
        client.close()
    foreign = ("https://evil.example", "null", own.replace("http:", "https:"), own + "1")
    for origin in (*foreign, own.replace("127.0.0.1", "localhost")):
        client = Client(url, origin)
        error = client.recv()
        assert error["type"] == "error" and "own pages" in error["reason"], origin
        assert closed_code(client) == 4403
    # No Origin at all: a program (bots, these tests), not a page.
    client = Client(url)
    client.ws.send('{"type": "ping"}')
    assert client.recv()["type"] in ("table", "ping")
    client.close()


def test_allowed_origins_star_lets_any_page_in(start_server: Callable[..., ServerThread]) -> None:
    server = start_server(limits=limits(allowed_origins=("*",)))
    client = Client(server.ws_url + "/ws/echo", "https://anywhere.example")
    client.ws.send('{"type": "ping"}')
    assert client.recv() == {"type": "ping"}
    client.close()


# -- sizes and frames -----------------------------------------------------------


def test_a_message_over_the_size_limit_gets_an_error_and_the_socket_lives(
    start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    server = start_server(limits=limits(max_message_bytes=1000))
    table_id, ada, _ = pair(server, clients)
    seq = server.summary(table_id)["seq"]
    big = '{"type": "act", "action": {"type": "ready", "pad": "' + "x" * 1000 + '"}}'
    for frame in (big, big.encode(), "é" * 600, b"\x00" * 1001):
        ada.ws.send(frame)
        error = answer(ada)
        reason = "a message is at most 1000 bytes"
        assert error == {"type": "error", "reason": reason, "code": "bad_message"}
    ada.ws.send(b'{"type": "ping"}')  # binary, small: an error, not a crash
    assert "text frames" in answer(ada)["reason"]
    ada.send({"type": "ping"})
    assert answer(ada) == {"type": "pong"}
    assert server.summary(table_id)["seq"] == seq
    # Beyond uvicorn's ws_max_size the socket is closed: 1009, message too big.
    announce_frame(ada, WS_MAX_SIZE + 1)
    assert closed_code(ada) == 1009


class _Socket:
    """Stands for a Starlette WebSocket: records what it was sent."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(text)


def test_a_refusal_whose_action_cannot_be_encoded_is_sent_without_it() -> None:
    socket = _Socket()
    conn = Connection(socket, 0)  # type: ignore[arg-type]
    conn.send_json({"type": "rejected", "reason": "no", "action": {"n": 2**64}})
    assert socket.sent == ['{"type":"rejected","reason":"no"}']
    assert encode({"type": "pong"}) == '{"type":"pong"}'


# -- rates ------------------------------------------------------------------------


def test_a_burst_of_actions_over_the_limit_is_refused_and_nothing_of_it_applied(
    start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    rate, burst, sent = 2.0, 4, 12
    server = start_server(limits=limits(actions_per_second=rate, action_burst=burst))
    table_id, ada, bea = pair(server, clients)
    in_play(ada, bea)
    time.sleep(1.5 / rate)  # "ready" spent a token: let it refill
    before = server.summary(table_id)["seq"]
    began = time.monotonic()
    for _ in range(sent):
        ada.act(FLIP)
    elapsed = time.monotonic() - began
    outcomes = [answer_or_state(ada) for _ in range(sent)]
    refused = [m for m in outcomes if m["type"] == "rejected" and m["reason"].startswith("slow")]
    assert refused and refused[0]["reason"] == "slow down: at most 2 actions a second"
    assert refused[0]["action"] == FLIP and refused[0]["code"] == "rate"
    # The wait until the bucket lets one through: at most one token's time at 2 a second.
    assert all(0 < m["retry_after"] <= 1 / rate for m in refused)
    assert burst <= sent - len(refused) <= burst + int(elapsed * rate) + 1
    applied = sum(1 for m in outcomes if m["type"] == "state")  # (the game may refuse some)
    assert 0 < applied <= sent - len(refused)
    assert server.summary(table_id)["seq"] == before + applied  # none of the refused ones
    time.sleep(1.5 / rate)  # the bucket refills: actions work again
    state = ada.playable()
    ada.act(state["legal"][0])
    reply = ada.until(
        lambda m: m["type"] == "rejected" or (m["type"] == "state" and m["seq"] > state["seq"])
    )
    assert reply["type"] == "state", reply


def answer_or_state(client: Client) -> Message:
    """The outcome of one act: a refusal, or the state after it was applied."""
    return client.until(lambda m: m["type"] in ("rejected", "error", "state"))


def test_messages_over_the_rate_get_an_error(
    start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    server = start_server(limits=limits(messages_per_second=1.0, message_burst=3))
    _, ada, _ = pair(server, clients)
    for _ in range(6):
        ada.send({"type": "ping"})
    replies = [answer(ada) for _ in range(6)]
    assert [m["type"] for m in replies[:3]] == ["pong"] * 3
    errors = [m for m in replies if m["type"] == "error"]
    assert errors and errors[0]["reason"] == "slow down: at most 1 messages a second"
    assert errors[0]["code"] == "rate" and 0 < errors[0]["retry_after"] <= 1.0
    time.sleep(1.5)
    ada.send({"type": "ping"})
    assert answer(ada) == {"type": "pong"}


def test_a_socket_that_keeps_flooding_is_closed(
    start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    server = start_server(limits=limits(messages_per_second=1.0, message_burst=2, flood_bursts=3))
    _, ada, _ = pair(server, clients)
    with pytest.raises(ConnectionClosed):
        for _ in range(200):
            ada.send({"type": "ping"})
            time.sleep(0.001)
    code = closed_code(ada)
    assert code == 1008
    errors = [m for m in ada.messages if m["type"] == "error"]
    assert errors and all(m["reason"].startswith("slow down") for m in errors)


# -- sockets per address ------------------------------------------------------------


def test_one_address_holds_a_limited_number_of_sockets(
    start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    server = start_server(limits=limits(sockets_per_client=2))
    table_id = server.create(options=FAST)["table_id"]
    first, second = server.client(table_id), server.client(table_id)
    clients += [first, second]
    for client in (first, second):
        client.until(lambda m: m["type"] == "state")
    third = server.client(table_id)
    error = third.recv()
    assert error["type"] == "error" and "at most 2" in error["reason"]
    assert error["code"] == "too_many_sockets"
    assert closed_code(third) == 1013
    echo = Client(server.ws_url + "/ws/echo")
    assert echo.recv()["type"] == "error" and closed_code(echo) == 1013
    second.close()
    deadline = time.monotonic() + TIMEOUT
    while True:  # the server counts the closed socket out soon after
        again = server.client(table_id)
        if again.recv()["type"] == "table":
            clients.append(again)
            break
        assert time.monotonic() < deadline, "the closed socket was never counted out"
        again.close()
        time.sleep(0.05)


# -- actions and chat per seat and per address, whatever the sockets -----------------


def said_or_refused(client: Client, text: str) -> Message:
    """The answer to this socket's chat ``text``: its chat message, or an error."""
    return client.until(
        lambda m: m["type"] == "error" or (m["type"] == "chat" and m["message"]["text"] == text)
    )


def test_one_seat_on_many_sockets_acts_at_one_sockets_rate(
    start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    """Issue #27: one seat on 60 sockets had 62 actions a second applied (one: 5)."""
    rate, burst, sockets = 0.5, 3, 10
    server = start_server(limits=limits(actions_per_second=rate, action_burst=burst))
    created = server.create(players=2, options=FAST)
    table_id = created["table_id"]
    bea = server.client(table_id, server.join(table_id)["token"])
    ada = [server.client(table_id, created["token"]) for _ in range(sockets)]
    clients += [bea, *ada]
    began = time.monotonic()
    in_play(ada[0], bea)
    for client in ada:  # one action each: every socket's own rate lets it through
        client.act(FLIP)
    elapsed = time.monotonic() - began
    outcomes = [
        client.until(
            lambda m: m["type"] == "rejected" or bool(m["type"] == "state" and m.get("yours"))
        )
        for client in ada
    ]
    slow = [m for m in outcomes if m["type"] == "rejected" and m["reason"].startswith("slow")]
    assert slow and slow[0]["reason"] == "slow down: at most 0.5 actions a second a seat"
    # The seat's one bucket: "ready" and the flips together, at most its burst and refill.
    assert sockets - len(slow) + 1 <= burst + int(elapsed * rate) + 1


def test_one_address_acts_at_its_rate_over_all_its_seats(
    start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    server = start_server(limits=limits(address_actions_per_second=0.1, address_action_burst=2))
    _, ada, bea = pair(server, clients)  # both seats from this address
    for client in (ada, bea):
        client.act(READY)  # the address's two actions
    ada.state_until(lambda m: m["view"]["phase"] == "play" and bool(m["legal"]))
    ada.act(FLIP)  # legal, and within the socket's and the seat's rates
    refused = answer(ada)
    assert refused["type"] == "rejected"
    assert refused["reason"] == "slow down: at most 0.1 actions a second from your address"


def test_chat_per_seat_and_per_address_whatever_the_sockets(
    start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    """Issue #27: 64 sockets of one address stored 1,024 chat lines a minute."""
    server = start_server(
        limits=limits(
            chat_per_minute=2, chat_burst=2, address_chat_per_minute=4, address_chat_burst=4
        )
    )
    created = server.create("fika", 2, name="Ana")
    table_id = created["table_id"]
    ana = [server.client(table_id, created["token"]) for _ in range(3)]
    watchers = [server.client(table_id) for _ in range(3)]
    clients += [*ana, *watchers]
    for index, client in enumerate(ana):  # each socket says its first line
        client.send({"type": "chat", "text": f"ana {index}"})
        said_or_refused(client, f"ana {index}")
    refused = ana[2].messages[-1]
    assert refused["type"] == "error" and refused["code"] == "rate"
    assert refused["reason"] == "slow down: at most 2 chat messages a minute a seat"
    assert 0 < refused["retry_after"] <= 30  # a chat message every 30 s at 2 a minute
    for index, client in enumerate(watchers):  # spectators: no seat, the same address
        client.send({"type": "chat", "text": f"watcher {index}"})
        said_or_refused(client, f"watcher {index}")
    assert [w.messages[-1]["type"] for w in watchers] == ["chat", "chat", "error"]
    assert watchers[2].messages[-1]["reason"] == (
        "slow down: at most 4 chat messages a minute from your address"
    )
    history = server.client(table_id)
    clients.append(history)
    kept = history.until(lambda m: m["type"] == "chat_history")["messages"]
    assert [m["text"] for m in kept] == ["ana 0", "ana 1", "watcher 0", "watcher 1"]


def test_the_counts_per_seat_and_address_forget_what_refilled() -> None:
    """Memory: a bucket as full as a new one is forgotten, so the keys kept stay few."""
    from coffeetable.server.tables.client_rates import PRUNE_AT, KeyedBuckets

    buckets = KeyedBuckets(rate=1e9, burst=5)  # refills at once
    for key in range(20 * PRUNE_AT):
        assert buckets.take(key)
    assert len(buckets.buckets) <= PRUNE_AT + 1
    slow = KeyedBuckets(rate=1e-9, burst=1)  # never refills: each key is kept, and refused
    for key in range(3 * PRUNE_AT):
        assert slow.take(key) and not slow.take(key)
    assert len(slow.buckets) == 3 * PRUNE_AT
