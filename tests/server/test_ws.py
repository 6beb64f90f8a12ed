"""The WebSocket protocol: states, events, refusals, races, seats and secrecy."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from coffeetable import games
from coffeetable.engine import IllegalAction, State
from coffeetable.server.tables.connections import OFFERS_KEPT
from coffeetable.store import Database

from .conftest import Client, Message, ServerThread, event_in, first_move

FAST = {"bot_speed": 1000}
READY = {"type": "ready"}


def seated_pair(server: ServerThread, clients: list[Client], **body: Any) -> tuple[Client, Client]:
    """A two-seat table, both people connected and past their first state."""
    body.setdefault("options", FAST)
    created = server.create(players=2, **body)
    joined = server.join(created["table_id"])
    ada = server.client(created["table_id"], created["token"])
    bea = server.client(created["table_id"], joined["token"])
    clients += [ada, bea]
    for client in (ada, bea):
        client.until(lambda m: m["type"] == "state")
    return ada, bea


def start_round(ada: Client, bea: Client) -> None:
    """Both ready; wait until the countdown is over and both may play."""
    for client in (ada, bea):
        client.playable()
        client.act(READY)
    for client in (ada, bea):
        client.state_until(lambda m: m["view"]["phase"] == "play" and bool(m["legal"]))


def test_connect_sends_table_then_state(server: ServerThread, clients: list[Client]) -> None:
    created = server.create(players=2, name="Ada", options=FAST)
    ada = server.client(created["table_id"], created["token"])
    clients.append(ada)
    table = ada.recv()
    assert table["type"] == "table" and table["table"]["seats"][0]["name"] == "Ada"
    state = ada.until(lambda m: m["type"] == "state")
    assert state["seq"] == 0 and state["view"]["seat"] == 0
    assert state["legal"] == [] and state["actors"] == []  # waiting for a second player
    server.join(created["table_id"])
    state = ada.state_until(lambda m: bool(m["legal"]))
    assert state["legal"] == [READY] and state["actors"] == [0, 1]


def test_malformed_messages_get_an_error_and_change_nothing(
    server: ServerThread, clients: list[Client]
) -> None:
    ada, _ = seated_pair(server, clients)
    for bad in ("not json", "[1, 2]", '{"no": "type"}', '{"type": "dance"}', '{"type": "act"}'):
        ada.send(bad)
        error = ada.until(lambda m: m["type"] in ("error", "state"))
        assert error["type"] == "error" and error["reason"] and error["code"] == "bad_message"
    ada.ws.send(b"\x00\x01")
    assert ada.until(lambda m: m["type"] in ("error", "state"))["type"] == "error"
    ada.send({"type": "ping"})
    assert ada.until(lambda m: m["type"] != "table")["type"] == "pong"
    assert ada.state is not None and ada.state["seq"] == 0


def test_illegal_action_is_rejected_with_the_game_reason(
    server: ServerThread, clients: list[Client]
) -> None:
    ada, _ = seated_pair(server, clients)
    ada.act({"type": "flip", "count": 3})
    rejected = ada.until(lambda m: m["type"] == "rejected")
    assert rejected["action"] == {"type": "flip", "count": 3}
    assert "ready" in rejected["reason"] and rejected["code"] == "illegal"
    assert "retry_after" not in rejected  # waiting does not make it legal


def test_spectators_cannot_act_and_bad_tokens_are_closed(
    server: ServerThread, clients: list[Client]
) -> None:
    created = server.create(players=2, options=FAST)
    table_id = created["table_id"]
    watcher = server.client(table_id)
    clients.append(watcher)
    state = watcher.until(lambda m: m["type"] == "state")
    assert state["view"]["seat"] is None and state["legal"] == []
    watcher.act(READY)
    refused = watcher.until(lambda m: m["type"] == "rejected")
    assert refused["reason"] == "spectators cannot act" and refused["code"] == "spectator"

    for url, code in (
        (f"/ws/tables/{table_id}?token=forged", 4403),
        ("/ws/tables/nope", 4404),
    ):
        client = Client(server.ws_url + url)
        error = client.recv()
        assert error["type"] == "error"
        assert error["code"] == {4403: "forbidden", 4404: "not_found"}[code]
        with pytest.raises(ConnectionClosed) as closed:
            client.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == code


def test_round_start_broadcasts_events_countdown_then_state(
    server: ServerThread, clients: list[Client]
) -> None:
    """At bot_speed 1 the countdown holds play 3 s: actions meanwhile are refused."""
    ada, bea = seated_pair(server, clients, options={"bot_speed": 1})
    ada.act(READY)
    ada.event_until(lambda e: e == {"type": "ready", "seat": 0})
    bea.act(READY)
    held = bea.until(lambda m: m["type"] == "state" and m["seq"] == 2)
    # One frame: the action's events, the countdown last, in the state that follows them.
    kinds = [event["type"] for event in held["events"]]
    assert kinds[0] == "ready" and kinds[-2:] == ["round_started", "countdown"]
    assert held["events"][-1] == {"type": "countdown", "seconds": 3.0}
    assert not [m for m in bea.messages if m["type"] == "event"]
    assert held["legal"] == [] and held["actors"] == []
    assert held["view"]["phase"] == "play"
    bea.act({"type": "flip", "count": 3})
    wait = bea.until(lambda m: m["type"] == "rejected")
    assert wait["reason"] == "wait for ESPRESSO!" and wait["code"] == "wait"
    assert 0 < wait["retry_after"] <= 3.0  # what is left of the countdown
    after = bea.playable(timeout=30)
    assert after["seq"] == 2 and {"type": "flip", "count": 3} in after["legal"]
    assert after["events"] == []  # the hold's end is no action: nothing new happened


def test_one_frame_per_client_per_action(server: ServerThread, clients: list[Client]) -> None:
    """An accepted action reaches each player and spectator as one frame: the state,
    carrying the action's events (the same public events for every seat); only the
    sender's says it holds its action ("yours")."""
    ada, bea = seated_pair(server, clients)
    table_id = server.http.get("/api/tables").json()[-1]["table_id"]
    watcher = server.client(table_id)
    clients.append(watcher)
    start_round(ada, bea)
    seq = ada.state_until(lambda m: bool(m["legal"]))["seq"]
    for client in (bea, watcher):
        client.state_until(lambda m, seq=seq: m["seq"] == seq and bool(m["actors"]))
    ada.act(ada.state["legal"][0] if ada.state else READY)
    frames = {}
    for name, client in (("ada", ada), ("bea", bea), ("watcher", watcher)):
        frame = client.recv()
        assert frame["type"] == "state" and frame["seq"] == seq + 1, frame
        assert frame["events"] and all(e.get("seat") == 0 for e in frame["events"])
        frames[name] = frame
        with pytest.raises(TimeoutError):  # nothing else for this action
            client.ws.recv(timeout=0.3)
    assert frames["ada"]["events"] == frames["bea"]["events"] == frames["watcher"]["events"]
    assert frames["ada"]["yours"] is True
    assert "yours" not in frames["bea"] and "yours" not in frames["watcher"]


def race_position(seed: int) -> tuple[list[tuple[int, Message]], Message, Message] | None:
    """Actions leading (from ``seed``) to a position where seats 0 and 1 can both
    play onto one stack, and only one of them can: (prefix, action 0, action 1)."""
    rng = random.Random(seed)
    state = games.get("espresso").new_state(players=2, seed=seed)
    prefix: list[tuple[int, Message]] = [(0, READY), (1, READY)]
    for seat, action in prefix:
        state.apply(seat, action)
    for _ in range(200):
        race = find_race(state)
        if race:
            return prefix, race[0], race[1]
        seat = rng.randrange(2)
        legal = state.legal_actions(seat)
        flips = [a for a in legal if a["type"] in ("flip", "recycle")]
        action = rng.choice(flips) if flips and rng.random() < 0.7 else rng.choice(legal)
        state.apply(seat, action)
        prefix.append((seat, action))
        if state.view(None)["phase"] != "play":
            return None
    return None


def find_race(state: State) -> tuple[Message, Message] | None:
    for first in state.legal_actions(0):
        if first["type"] != "play" or first["target"] == "new":
            continue
        for second in state.legal_actions(1):
            if second["type"] == "play" and second["target"] == first["target"]:
                after = state.clone()
                after.apply(0, first)
                try:
                    after.apply(1, second)
                except IllegalAction:
                    return first, second
    return None


def play_prefix(by_seat: dict[int, Client], prefix: list[tuple[int, Message]]) -> int:
    """Play ``prefix`` one action at a time; return the seq reached, once every
    client holds that state with its moves offered (the countdown is over)."""
    for seq, (seat, action) in enumerate(prefix, start=1):
        by_seat[seat].playable()
        by_seat[seat].act(action)
        for client in by_seat.values():
            client.state_until(lambda m, seq=seq: m["seq"] >= seq)
    for client in by_seat.values():
        client.state_until(lambda m: m["seq"] == len(prefix) and bool(m["legal"]))
    return len(prefix)


def race(by_seat: dict[int, Client], actions: dict[int, Message], seq: int) -> dict[int, Message]:
    """Every seat sends its action (decided on state ``seq``) at once; return each
    one's outcome: its played event or its refusal."""

    def played(seat: int) -> Callable[[Message], bool]:
        return lambda e: e["type"] == "played" and e["seat"] == seat

    for seat, action in actions.items():
        by_seat[seat].send({"type": "act", "action": action, "seq": seq})
    results = {}
    for seat in actions:
        outcome = by_seat[seat].until(
            lambda m, seat=seat: m["type"] == "rejected" or event_in(m, played(seat)) is not None
        )
        results[seat] = event_in(outcome, played(seat)) or outcome
    return results


def test_two_players_racing_for_one_stack(server: ServerThread, clients: list[Client]) -> None:
    seed, found = next((s, r) for s in range(500) if (r := race_position(s)) is not None)
    prefix, first, second = found
    ada, bea = seated_pair(server, clients, seed=seed)
    by_seat = {0: ada, 1: bea}
    seq = play_prefix(by_seat, prefix)
    results = race(by_seat, {0: first, 1: second}, seq)
    rejected = [seat for seat, message in results.items() if message["type"] == "rejected"]
    assert len(rejected) == 1, results
    assert results[rejected[0]]["reason"] == "too slow"
    assert results[rejected[0]]["code"] == "too_slow"
    won = 1 - rejected[0]
    assert results[won]["stack"] == first["target"]
    state = by_seat[won].state_until(lambda m: m["seq"] == seq + 1)
    assert state["view"]["centre"][first["target"]][-1] == results[won]["card"]


TAKE_ZERO = {"type": "play", "source": "pile", "owner": 2, "target": "new"}


def chaos_position(seed: int) -> list[tuple[int, Message]] | None:
    """With Chaos, seat 2 flips until its pile shows a 0 on top of another 0: then
    "take seat 2's pile top to a new stack" stays legal after someone took it,
    but names another card."""
    state = games.get("espresso").new_state(players=3, seed=seed, chaos=True)
    prefix: list[tuple[int, Message]] = [(seat, READY) for seat in range(3)]
    for seat, action in prefix:
        state.apply(seat, action)
    flip = {"type": "flip", "count": 3}
    for _ in range(8):
        if TAKE_ZERO in state.legal_actions(0):
            after = state.clone()
            after.apply(0, TAKE_ZERO)
            if TAKE_ZERO in after.legal_actions(1):
                return prefix
        if flip not in state.legal_actions(2):
            return None
        state.apply(2, flip)
        prefix.append((2, flip))
    return None


def test_a_card_taken_first_makes_the_other_taker_too_slow(
    server: ServerThread, clients: list[Client]
) -> None:
    seed, prefix = next((s, p) for s in range(3000) if (p := chaos_position(s)) is not None)
    created = server.create(players=3, seed=seed, options={"chaos": True, **FAST})
    table_id = created["table_id"]
    tokens = [created["token"]] + [server.join(table_id)["token"] for _ in range(2)]
    by_seat = {seat: server.client(table_id, token) for seat, token in enumerate(tokens)}
    clients += by_seat.values()
    seq = play_prefix(by_seat, prefix)
    results = race(by_seat, {0: TAKE_ZERO, 1: TAKE_ZERO}, seq)
    rejected = [seat for seat, message in results.items() if message["type"] == "rejected"]
    assert len(rejected) == 1, results
    assert results[rejected[0]]["reason"] == "too slow"


def test_acting_on_a_forgotten_or_future_state_is_a_stale_seq(
    server: ServerThread, clients: list[Client]
) -> None:
    """A seq the socket no longer keeps, or was never sent, is ``stale_seq`` (decide
    again on the newest state), not "too slow" (the table overtook a state you had)."""
    ada, bea = seated_pair(server, clients)
    start_round(ada, bea)
    flip = {"type": "flip", "count": 3}
    for seq in range(3, 3 + OFFERS_KEPT):  # every flip sends a state: seq 0 is forgotten
        ada.act(flip)
        ada.state_until(lambda m, seq=seq: m["seq"] == seq)
    for stale in (0, 10_000):
        ada.send({"type": "act", "action": flip, "seq": stale})
        refused = ada.until(lambda m: m["type"] == "rejected")
        assert refused["code"] == "stale_seq" and f"seq {stale} " in refused["reason"]
        assert refused["action"] == flip
    ada.send({"type": "act", "action": {"type": "flip", "count": 3}, "seq": "2"})
    assert ada.until(lambda m: m["type"] in ("error", "rejected"))["type"] == "error"


def test_reconnecting_with_the_token_gives_the_same_seat(
    server: ServerThread, clients: list[Client]
) -> None:
    created = server.create(players=3, options=FAST)
    table_id = created["table_id"]
    joined = server.join(table_id)
    first = server.client(table_id, joined["token"])
    assert first.until(lambda m: m["type"] == "state")["view"]["seat"] == 1
    first.close()
    again = server.client(table_id, joined["token"])
    clients.append(again)
    assert again.until(lambda m: m["type"] == "state")["view"]["seat"] == 1
    assert server.summary(table_id)["seats"][1]["connected"] is True


CARD_PLACES = (
    ("view", "centre", "*", "*"),
    ("view", "players", "*", "espresso", "top"),
    ("view", "players", "*", "pile", "top"),
    ("view", "last_round", "centre", "*", "*"),
    ("events", "*", "card"),
    ("events", "*", "follower"),
    ("events", "*", "centre", "*", "*"),
)


def card_paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Where cards (dicts with a colour) appear in a message."""
    if isinstance(value, dict):
        if "colour" in value:
            return [path]
        return [p for key, item in value.items() for p in card_paths(item, (*path, key))]
    if isinstance(value, list):
        return [p for index, item in enumerate(value) for p in card_paths(item, (*path, index))]
    return []


def fits(path: tuple[Any, ...], pattern: tuple[str, ...]) -> bool:
    return len(path) == len(pattern) and all(
        want == "*" or want == str(got) for got, want in zip(path, pattern, strict=True)
    )


def check_secrecy(message: Message) -> None:
    """No card a spectator may not see: no espresso card below the top, no hand
    card, no help card before play."""
    shown = message["type"] != "state" or message["view"]["phase"] != "ready"
    for path in card_paths(message):
        help_card = fits(path, ("view", "players", "*", "help", "*"))
        assert any(fits(path, p) for p in CARD_PLACES) or (help_card and shown), path
    if message["type"] == "state":
        for player in message["view"]["players"]:
            assert set(player["hand"]) == {"count"}
            assert set(player["espresso"]) == {"count", "top"}
            if message["view"]["phase"] == "ready":
                assert player["help"] == [None, None, None]


def test_a_spectator_never_receives_a_hidden_card(
    server: ServerThread, clients: list[Client]
) -> None:
    created = server.create(
        players=3,
        bots={"1": "random", "2": "random"},
        options={"target": 8, "bot_speed": 2000},
    )
    table_id = created["table_id"]
    watcher = server.client(table_id)
    clients.append(watcher)
    ada = server.client(table_id, created["token"])
    clients.append(ada)
    while True:  # Ada plays her first legal move as long as the match lasts
        state = ada.state_until(lambda m: bool(m["legal"]) or m["view"]["phase"] == "over")
        if state["view"]["phase"] == "over":
            break
        ada.act(first_move(state["legal"]))
        ada.until(lambda m, seq=state["seq"]: m["type"] == "state" and m["seq"] > seq)
    watcher.state_until(lambda m: m["view"]["phase"] == "over")
    kinds = {m["type"] for m in watcher.messages}
    assert {"table", "state"} <= kinds and "event" not in kinds
    rounds = [m for m in watcher.messages if event_in(m, lambda e: e["type"] == "round_over")]
    assert rounds
    for message in watcher.messages:
        check_secrecy(message)


def test_the_idle_rule_ends_a_stalled_round(server: ServerThread, clients: list[Client]) -> None:
    ada, bea = seated_pair(server, clients, options={"idle_seconds": 1, **FAST})
    table_id = server.http.get("/api/tables").json()[-1]["table_id"]
    start_round(ada, bea)
    over = ada.event_until(lambda e: e["type"] == "round_over")
    assert over["finito"] is None
    state = ada.state_until(lambda m: m["seq"] == 3)
    assert state["view"]["phase"] == "ready" and state["view"]["round"] == 2
    database = Database(server.database_url)
    with database.engine.connect() as conn:
        record = database.load(conn, table_id)
    database.close()
    assert record is not None and record.actions[-1] == (None, {"type": "idle"})


def test_bots_ready_and_play_against_a_person(server: ServerThread, clients: list[Client]) -> None:
    created = server.create(players=2, bots={"1": "random"}, options=FAST)
    ada = server.client(created["table_id"], created["token"])
    clients.append(ada)
    ada.playable()
    ada.act(READY)
    bot_move = ada.event_until(lambda e: e.get("seat") == 1 and e["type"] != "ready")
    assert bot_move["type"] in ("played", "flipped", "recycled")


def test_a_bot_takes_over_from_a_disconnected_player(
    server: ServerThread, clients: list[Client]
) -> None:
    created = server.create(players=2, options={**FAST, "grace_seconds": 0.5})
    table_id = created["table_id"]
    joined = server.join(table_id)
    ada = server.client(table_id, created["token"])
    clients.append(ada)
    bea = server.client(table_id, joined["token"])
    bea.until(lambda m: m["type"] == "state")
    bea.close()
    # Seat 1's ready is looked for in every message since Bea left, also any read while
    # waiting below (the test once missed it in CI, for a reason not found).
    since = len(ada.messages)
    ada.until(lambda m: m["type"] == "table" and not m["table"]["seats"][1]["connected"])
    time.sleep(0.6)
    body = {"token": created["token"], "level": "random"}
    assert server.http.post(f"/api/tables/{table_id}/seats/1/bot", json=body).status_code == 200
    ada.playable()
    ada.act(READY)
    ada.event_since(since, lambda e: e == {"type": "ready", "seat": 1})
    # A stand-in: Bea's token still holds her seat, and coming back takes it back.
    back = Client(f"{server.ws_url}/ws/tables/{table_id}?token={joined['token']}")
    clients.append(back)
    assert back.until(lambda m: m["type"] == "state")["view"]["seat"] == 1
    assert server.summary(table_id)["seats"][1]["stand_in"] is None


def test_a_player_who_leaves_becomes_a_spectator(
    server: ServerThread, clients: list[Client]
) -> None:
    created = server.create(players=3, options=FAST)
    table_id = created["table_id"]
    server.join(table_id)
    joined = server.join(table_id)
    cy = server.client(table_id, joined["token"])
    clients.append(cy)
    cy.playable()
    assert server.http.post(f"/api/tables/{table_id}/leave", json=joined).status_code == 200
    state = cy.state_until(lambda m: m["view"]["seat"] is None)
    assert state["legal"] == []
    cy.act(READY)
    assert cy.until(lambda m: m["type"] == "rejected")["reason"] == "spectators cannot act"
