"""Fuzzing a live table's WebSocket, one game at a time: seeded, bounded, deterministic.

A fuzzer holding a seat sends broken JSON, deep nesting, huge and binary
frames, wrong types, other seats' moves, stale and future seqs and unknown
types. Every message must be answered (``error``, ``rejected`` or ``pong``),
the socket must live (or close with a clear code, never 1006 or 1011), the
table must not move (same seq, same view) and the server must log no
traceback.

The table is dealt from a known seed and mirrored by a local state, so that
the fuzz never sends an action the match would take (say one that leaves out
an optional field): whatever it sends must be refused.
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from coffeetable import games
from coffeetable.engine import IllegalAction, State

from .conftest import WS_MAX_SIZE, Client, Message, ServerThread, announce_frame

#: Frames per game (well under a second each on loopback).
ROUNDS = 300
SEED = 20_251_201
MAX_MESSAGE = 16 * 1024  # Limits.max_message_bytes: the test servers keep the default
GAMES: dict[str, dict[str, Any]] = {
    "espresso": {"bot_speed": 1000},
    "doppio": {},
    "fika": {},
    "cafe": {},
}
READY = {"type": "ready"}
PING = {"type": "ping"}
#: Values that do not belong where a number, a name or a card does.
WRONG_VALUES: list[Any] = [
    1.5,
    -1,
    0.0,
    True,
    False,
    None,
    "",
    "1",
    "x" * 200,
    2**63,
    2**64 - 1,
    10**30,
    -(10**30),
    1e308,
    [],
    [1],
    {},
    {"type": "play"},
]
#: The same frames whatever the game (each wants one answer).
FIXED_FRAMES: list[str | bytes] = [
    "",
    "not json",
    "{",
    '{"type": "act", "action": {"type": "ready"}',
    '{"type": "ping",}',
    "[" * 2000 + "1" + "]" * 2000,
    '{"a":' * 2000 + "1" + "}" * 2000,
    '{"type": "act", "action": ' + "[" * 20 + "1" + "]" * 20 + "}",
    '{"type": "act", "action": {"type": "ready", "n": NaN}}',
    '{"type": "act", "action": {"type": "ready", "n": Infinity}}',
    '{"type": "act", "action": {"type": "ready", "n": 1e400}}',
    '"\\ud800"',
    "1",
    '"act"',
    "[]",
    "null",
    "true",
    '{"type": 1}',
    '{"type": null}',
    '{"type": ["act"]}',
    '{"type": "act"}',
    '{"type": "act", "action": [1, 2]}',
    '{"type": "act", "action": "ready"}',
    '{"type": "act", "action": null}',
    '{"type": "act", "action": 7}',
    '{"type": "dance"}',
    '{"type": ""}',
    '{"type": "ACT", "action": {"type": "ready"}}',
    json.dumps({"type": "x" * 5000}),
    "x" * (MAX_MESSAGE + 1),
    json.dumps({"type": "act", "action": {"type": "ready", "pad": "y" * MAX_MESSAGE}}),
    b"",
    b"\x00\xff" * 10,
    b'{"type": "ping"}',
    b"z" * (MAX_MESSAGE + 1),
]
Refused = Callable[[Any], bool]


class Tracebacks(logging.Handler):
    """Every record logged with an exception, or at ERROR and above."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info or record.levelno >= logging.ERROR:
            self.records.append(record)


@pytest.fixture
def tracebacks() -> Iterator[Tracebacks]:
    handler = Tracebacks()
    loggers = [logging.getLogger(name) for name in ("coffeetable", "uvicorn", "uvicorn.error")]
    for logger in loggers:
        logger.addHandler(handler)
    yield handler
    for logger in loggers:
        logger.removeHandler(handler)


def seat_everyone(
    server: ServerThread, game: str, seed: int
) -> tuple[str, dict[int, str], dict[int, Client], State]:
    """A two-seat table dealt from ``seed``, every seat a person with a client (so
    nobody stands in), and the same match as a local state."""
    created = server.create(game=game, players=2, options=GAMES[game], seed=seed)
    table_id = created["table_id"]
    tokens = {0: created["token"], 1: server.join(table_id)["token"]}
    by_seat = {seat: server.client(table_id, token) for seat, token in tokens.items()}
    for client in by_seat.values():
        client.until(lambda m: m["type"] == "state")
    local = games.get(game).new_state(players=2, seed=seed)
    if game == "espresso":  # past the ready check: each seat has moves of its own
        for seat, client in by_seat.items():
            client.act(READY)
            client.event_until(lambda e, s=seat: e.get("seat") == s)
            local.apply(seat, READY)
        for client in by_seat.values():
            client.state_until(lambda m: m["view"]["phase"] == "play" and bool(m["legal"]))
    return table_id, tokens, by_seat, local


def applies(local: State, seat: int, action: Any) -> bool:
    """Whether the match would take ``action`` from ``seat``."""
    try:
        local.clone().apply(seat, action)
    except IllegalAction:
        return False
    return True


def mutations(action: Message, rng: random.Random) -> list[Message]:
    """``action`` with a field given a value of the wrong kind, or left out, or one more."""
    out = []
    for key in action:
        out.append({**action, key: rng.choice(WRONG_VALUES)})
        out.append({k: v for k, v in action.items() if k != key})
    out.append({**action, "extra": rng.choice(WRONG_VALUES)})
    return out


def frames(
    rng: random.Random, own: list[Message], others: list[Message], seq: int, refused: Refused
) -> Iterator[str | bytes | Message]:
    """The fuzz: text frames (str), binary frames (bytes) and pings (PING). ``refused``:
    whether the fuzzer's seat may not take an action (it sends no other)."""
    legal = own + others or [READY]
    yield from FIXED_FRAMES
    for _ in range(ROUNDS - len(FIXED_FRAMES)):
        pick, base = rng.random(), rng.choice(legal)
        if pick < 0.35:
            bad = [action for action in mutations(base, rng) if refused(action)]
            yield json.dumps({"type": "act", "action": rng.choice(bad)}) if bad else PING
        elif pick < 0.5 and others:  # another seat's move
            yield json.dumps({"type": "act", "action": rng.choice(others)})
        elif pick < 0.65:  # a move of its own, decided on a state it was never sent
            stale = rng.choice([-1, seq + 1, seq + 1000, 2**63 - 1, 2**64 - 1, 1.0, True, "0"])
            yield json.dumps({"type": "act", "action": rng.choice(legal), "seq": stale})
        elif pick < 0.8:
            text = json.dumps({"type": "act", "action": base, "seq": seq})
            yield text[: rng.randrange(1, len(text))]  # truncated
        elif pick < 0.9:
            yield PING
        else:
            yield bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))


def answer(client: Client) -> Message:
    message = client.until(lambda m: m["type"] != "table")
    assert message["type"] in ("error", "rejected", "pong"), message
    return message


@pytest.mark.parametrize("game", list(GAMES))
def test_fuzzing_a_live_table_changes_nothing(
    server: ServerThread, clients: list[Client], tracebacks: Tracebacks, game: str
) -> None:
    rng = random.Random(f"{SEED}:{game}")
    table_id, tokens, by_seat, local = seat_everyone(server, game, rng.randrange(2**52))
    clients += by_seat.values()
    actors = local.actors()
    # The fuzzer sits where nobody waits on it if it can (turn-based games).
    seat = next((s for s in by_seat if s not in actors), 0)
    fuzzer, other = by_seat[seat], by_seat[1 - seat]
    assert fuzzer.state is not None and other.state is not None
    before = server.summary(table_id)
    view, own = fuzzer.state["view"], fuzzer.state["legal"]
    assert json.loads(json.dumps(local.view(seat))) == view  # the local copy is the match

    def refused(action: Any) -> bool:
        return not applies(local, seat, action)

    others = [action for action in other.state["legal"] if refused(action)]
    start = len(fuzzer.messages)
    sent = 0
    for frame in frames(rng, own, others, before["seq"], refused):
        if frame is PING:
            fuzzer.send(PING)
        else:
            fuzzer.ws.send(frame)  # type: ignore[arg-type]
        answer(fuzzer)
        sent += 1
    assert sent == ROUNDS
    fuzzer.send(PING)
    assert answer(fuzzer) == {"type": "pong"}  # it lives
    assert not [m for m in fuzzer.messages if m["type"] == "event"]  # events ride in states
    assert not [m for m in fuzzer.messages[start:] if m["type"] == "state"]
    after = server.summary(table_id)
    assert (after["seq"], after["status"]) == (before["seq"], before["status"])
    again = server.client(table_id, tokens[seat])
    clients.append(again)
    assert again.until(lambda m: m["type"] == "state")["view"] == view
    # Beyond uvicorn's hard cap: closed, with "message too big".
    announce_frame(fuzzer, WS_MAX_SIZE + 1)
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            fuzzer.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    assert server.summary(table_id)["seq"] == before["seq"]
    assert not tracebacks.records, [record.getMessage() for record in tracebacks.records]
