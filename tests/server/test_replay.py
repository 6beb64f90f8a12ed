"""Replays: a finished match frame by frame, the views exactly the engine's."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from coffeetable import games
from coffeetable.engine import MatchLog, replay
from coffeetable.server.api import replays

from .conftest import TIMEOUT, ServerThread


def finished_table(server: ServerThread, game: str, players: int) -> str:
    bots = {str(seat): "greedy" if game != "espresso" else "hard" for seat in range(players)}
    table_id: str = server.create(game, players, bots=bots, options={"bot_speed": 10_000})[
        "table_id"
    ]
    deadline = time.monotonic() + TIMEOUT * 3
    while server.summary(table_id)["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.1)
    return table_id


def test_a_replay_shows_each_frame_as_the_seat_saw_it(server: ServerThread) -> None:
    table_id = finished_table(server, "fika", 2)
    log = MatchLog.from_json(server.http.get(f"/api/tables/{table_id}/log").json())
    first = server.http.get(f"/api/tables/{table_id}/replay", params={"seat": 1, "count": 3})
    assert first.status_code == 200, first.text
    body = first.json()
    assert body["frames"] == len(log.actions) + 1
    assert body["rounds"][0] == 0 and body["rounds"] == sorted(body["rounds"])
    assert [frame["frame"] for frame in body["window"]] == [0, 1, 2]
    deal = games.get("fika").new_state(players=2, seed=log.seed, **log.options)
    assert body["window"][0]["view"] == deal.view(1)
    assert body["window"][0]["action"] is None
    assert body["window"][1]["action"] == log.actions[0][1]
    # The last frame is the end of the match, exactly as the engine replays it.
    last = body["frames"] - 1
    for seat in (0, 1, None):
        params = {"start": last, "count": 5} | ({} if seat is None else {"seat": seat})
        window = server.http.get(f"/api/tables/{table_id}/replay", params=params).json()["window"]
        assert len(window) == 1
        end = replay(log.game, log.players, log.seed, log.actions, log.options)
        assert window[0]["view"] == end.view(seat)
        assert end.is_over


def test_rounds_are_marked_for_jumping(server: ServerThread) -> None:
    table_id = finished_table(server, "espresso", 2)
    body = server.http.get(f"/api/tables/{table_id}/replay", params={"count": 1}).json()
    log = MatchLog.from_json(server.http.get(f"/api/tables/{table_id}/log").json())
    state = games.get("espresso").new_state(players=2, seed=log.seed, **log.options)
    expected, last_round = [0], state.round
    for frame, (seat, action) in enumerate(log.actions, start=1):
        state.apply(seat, action)
        if state.round != last_round:
            expected.append(frame)
            last_round = state.round
    assert body["rounds"] == expected and len(expected) >= 2


def test_no_replay_before_the_end_and_bad_requests_are_refused(server: ServerThread) -> None:
    running = server.create("fika", 2)["table_id"]
    assert server.http.get(f"/api/tables/{running}/replay").status_code == 409
    over = finished_table(server, "fika", 2)
    assert server.http.get(f"/api/tables/{over}/replay", params={"seat": 2}).status_code == 404
    assert server.http.get(f"/api/tables/{over}/replay", params={"count": 500}).status_code == 422
    assert server.http.get("/api/tables/nope/replay").status_code == 404


def counting_applies(monkeypatch: pytest.MonkeyPatch, game: str) -> list[int]:
    """Count the actions the game's states apply from now on (in this process)."""
    applied = [0]
    kind = type(games.get(game).new_state(players=2, seed=1))
    apply = kind.apply

    def counted(self: Any, seat: int | None, action: Any) -> Any:
        applied[0] += 1
        return apply(self, seat, action)

    monkeypatch.setattr(kind, "apply", counted)
    return applied


def test_a_window_replays_from_a_kept_state_not_from_the_deal(
    start_server: Callable[..., ServerThread], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue #27: every replay request replayed the whole log (70 ms of CPU for 22,664
    actions). Kept states every 10 actions here: a window costs at most 10 more."""
    monkeypatch.setattr(replays, "CHECKPOINT_EVERY", 10, raising=False)
    server = start_server()
    table_id = finished_table(server, "fika", 2)
    log = MatchLog.from_json(server.http.get(f"/api/tables/{table_id}/log").json())
    assert len(log.actions) > 40
    last = len(log.actions)
    applied = counting_applies(monkeypatch, "fika")
    url = f"/api/tables/{table_id}/replay"
    first = server.http.get(url, params={"start": last - 2, "count": 3}).json()
    for seat in (0, 1, None):  # later windows, any seat's eyes: from the kept states
        before = applied[0]
        params = {"start": last - 2, "count": 3} | ({} if seat is None else {"seat": seat})
        again = server.http.get(url, params=params).json()
        assert applied[0] - before <= 10 + 3, applied[0] - before
        if seat is None:
            assert again == first
    # Every frame is the engine's, whichever kept state a window starts from.
    state = games.get("fika").new_state(players=2, seed=log.seed, **log.options)
    expected = [state.view(0)]
    for seat, action in log.actions:
        state.apply(seat, action)
        expected.append(state.view(0))
    for start in range(0, last + 1, 7):
        window = server.http.get(url, params={"seat": 0, "start": start, "count": 9}).json()
        assert [f["view"] for f in window["window"]] == expected[start : start + 9]
        assert [f["frame"] for f in window["window"]] == list(
            range(start, min(last + 1, start + 9))
        )


def test_the_replays_kept_are_bounded() -> None:
    cache = replays.ReplayCache(2)
    log = MatchLog("fika", 2, 5, {}, [])
    for table_id in ("a", "b", "c"):
        cache.put(table_id, replays.prepare(log))
    assert list(cache.kept) == ["b", "c"] and cache.get("a") is None
    assert cache.get("b") is not None
    cache.put("d", replays.prepare(log))  # b was asked last: c goes
    assert list(cache.kept) == ["b", "d"]
