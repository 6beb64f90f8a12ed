"""Fair races against programs (issue 27): in a real-time game a bot account's action
counts no sooner than ``min_reaction`` after the state it answers, at a table where a
person sits; tables of programs alone may lift it."""

from __future__ import annotations

import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest

from coffeetable import games
from coffeetable.engine import IllegalAction
from coffeetable.server.tables import reaction
from coffeetable.server.tables.connections import Offer
from coffeetable.server.tables.seats import Seat

from .conftest import Browser, Client, Message, ServerThread
from .test_bot_accounts_play import make_bot
from .test_ws import FAST, play_prefix, race, race_position


def both_ways_conflict(seed: int) -> tuple[list[tuple[int, Message]], Message, Message] | None:
    """A race position (``test_ws.race_position``) where whichever of the two actions
    lands first, the other is refused."""
    found = race_position(seed)
    if found is None:
        return None
    prefix, first, second = found
    state = games.get("espresso").new_state(players=2, seed=seed)
    for seat, action in prefix:
        state.apply(seat, action)
    state.apply(1, second)
    try:
        state.apply(0, first)
    except IllegalAction:
        return found
    return None


def program_and_person(
    server: ServerThread, browsers: Callable[[str], Browser], clients: list[Client], **body: Any
) -> tuple[str, Client, Client]:
    """An Espresso table made by alice's bot (seat 0) and joined by a guest (seat 1), both
    connected; its id and the two sockets (the program's by its API key)."""
    alice = browsers(server.url)
    alice.sign_up("alice")
    key = make_bot(alice)
    headers = {"Authorization": f"Bearer {key}"}
    body = {"game": "espresso", "players": 2, "rated": False, **body}
    created = server.http.post("/api/tables", json=body, headers=headers)
    assert created.status_code == 200, created.text
    table_id = created.json()["table_id"]
    assert created.json()["seat"] == 0
    joined = server.join(table_id)
    program = Client(f"{server.ws_url}/ws/tables/{table_id}", headers=headers)
    person = server.client(table_id, joined["token"])
    clients += [program, person]
    for client in (program, person):
        client.until(lambda m: m["type"] == "state")
    return table_id, program, person


def test_a_person_answering_later_than_a_program_but_within_a_reaction_wins(
    start_server: Callable[..., ServerThread],
    browsers: Callable[[str], Browser],
    clients: list[Client],
) -> None:
    """Both race for one stack on the same state; the program's answer is sent first,
    the person's right after it (well within 0.3 s): the person's lands, the program's
    is refused "too slow", as any late answer. (Before: the program won every race.)"""
    seed, found = next((s, f) for s in range(500) if (f := both_ways_conflict(s)) is not None)
    prefix, first, second = found
    server = start_server()
    _, program, person = program_and_person(server, browsers, clients, seed=seed, options=FAST)
    by_seat = {0: program, 1: person}
    seq = play_prefix(by_seat, prefix)
    results = race(by_seat, {0: first, 1: second}, seq)
    assert results[1]["type"] == "played", results
    assert results[0]["type"] == "rejected", results
    assert results[0]["code"] == "too_slow" and results[0]["reason"] == "too slow"


def test_a_programs_answer_lands_no_sooner_than_min_reaction_after_its_state(
    start_server: Callable[..., ServerThread],
    browsers: Callable[[str], Browser],
    clients: list[Client],
) -> None:
    """The program answers at once; the state holding its action (``yours``) comes no
    sooner than ``min_reaction`` after the state it answered (a lower bound only: the
    hold starts when the server sent that state, a little before it arrived)."""
    server = start_server()
    _, program, person = program_and_person(
        server, browsers, clients, options={**FAST, "min_reaction": 0.5}
    )
    for client in (program, person):
        client.playable()
        client.act({"type": "ready"})
    state = program.state_until(lambda m: m["view"]["phase"] == "play" and bool(m["legal"]))
    answered = time.monotonic()
    program.send({"type": "act", "action": state["legal"][0], "seq": state["seq"]})
    program.until(lambda m: m["type"] == "state" and m.get("yours") is True)
    assert time.monotonic() - answered >= 0.45


def test_only_a_table_of_programs_alone_may_lower_min_reaction(
    start_server: Callable[..., ServerThread], browsers: Callable[[str], Browser]
) -> None:
    server = start_server()
    alice = browsers(server.url)
    alice.sign_up("alice")
    headers = {"Authorization": f"Bearer {make_bot(alice)}"}
    lifted = {"bot_speed": 1000, "min_reaction": 0}
    # A seat left open: a person may still sit there.
    body = {"game": "espresso", "players": 2, "options": lifted}
    refused = server.http.post("/api/tables", json=body, headers=headers)
    assert refused.status_code == 400 and "programs alone" in refused.json()["detail"]
    # A guest's table with a bot: a person sits.
    refused = server.http.post("/api/tables", json={**body, "bots": {"1": "greedy"}})
    assert refused.status_code == 400
    # The program against the site's bot: programs alone.
    created = server.http.post(
        "/api/tables", json={**body, "bots": {"1": "greedy"}}, headers=headers
    )
    assert created.status_code == 200, created.text
    summary = server.summary(created.json()["table_id"])
    assert summary["settings"]["min_reaction"] == 0
    # ... but unrated: a rating is earned at a person's pace (the bots' leaderboard).
    assert summary["rated"] is False
    rated = {**body, "bots": {"1": "greedy"}, "rated": True}
    assert server.http.post("/api/tables", json=rated, headers=headers).status_code == 400
    held = {**body, "options": {"bot_speed": 1000}, "bots": {"1": "greedy"}}
    default = server.http.post("/api/tables", json=held, headers=headers).json()
    assert server.summary(default["table_id"])["rated"] is True
    too_long = {**body, "options": {"min_reaction": 2.5}, "bots": {"1": "greedy"}}
    assert server.http.post("/api/tables", json=too_long, headers=headers).status_code == 422


def fake_table(setting: float | None, *seats: Seat, realtime: bool = True) -> Any:
    settings = {} if setting is None else {reaction.SETTING: setting}
    return SimpleNamespace(game=SimpleNamespace(realtime=realtime), seats=seats, settings=settings)


def seat(index: int, kind: str) -> Seat:
    """A seat held by a program, a person, a site bot, or open."""
    made = Seat(index)
    if kind in ("program", "person"):
        made.name, made.token_hash = kind, "hash"
        made.program = "alice" if kind == "program" else None
    elif kind == "bot":
        made.name, made.bot = "Greedy bot", "greedy"
    return made


@pytest.mark.parametrize(
    ("setting", "others", "hold"),
    [
        (None, ["person"], 0.3),  # the default
        (0.0, ["person"], 0.3),  # a person sits: never below the default
        (0.0, ["open"], 0.3),  # a person may still sit
        (1.0, ["person"], 1.0),  # longer: as set
        (0.0, ["bot", "program"], None),  # programs alone: lifted
        (0.1, ["bot"], 0.1),
    ],
)
def test_the_hold_follows_the_state_answered(
    setting: float | None, others: list[str], hold: float | None
) -> None:
    seats = [seat(0, "program"), *(seat(i, kind) for i, kind in enumerate(others, start=1))]
    table = fake_table(setting, *seats)
    offer = Offer(seq=4, legal=[], sent=100.0)  # a fake clock: sent at 100 s
    due = reaction.not_before(table, 0, offer)
    assert due == (None if hold is None else pytest.approx(100.0 + hold))
    if len(seats) > 1 and seats[1].program is None and seats[1].is_person:
        assert reaction.not_before(table, 1, offer) is None  # a person is never held


def test_programs_are_held_only_in_real_time_games() -> None:
    table = fake_table(1.0, seat(0, "program"), seat(1, "person"), realtime=False)
    assert reaction.not_before(table, 0, Offer(seq=1, legal=[], sent=5.0)) is None
