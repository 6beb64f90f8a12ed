"""Review with the bot: each person's decisions judged by a seeded search from what
they saw, in the background, only once the match is over."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from types import SimpleNamespace
from typing import Any

import pytest

from coffeetable import games
from coffeetable.bots.ismcts import action_key
from coffeetable.bots.review import decisions, judge, judge_many, mistakes_first, review_bot
from coffeetable.engine import MatchLog, replay
from coffeetable.server.api.review_jobs import Reviews
from coffeetable.server.errors import TableError

from ..bots.test_doppio_no_waste import BEFORE, mid_turn
from .conftest import TEST_LIMITS, TIMEOUT, ServerThread
from .test_rematch import finished

#: Small budgets: the tests judge, they do not need strong play.
LIMITS = dataclasses.replace(TEST_LIMITS, review_iterations=24)


# -- the judgement, on a hand-made position ------------------------------------


def free_score_position() -> Any:
    """Doppio, seat 0 mid-turn: two cards of its own are met (a free score each, the
    reserve full), and ending the turn now throws the beans away."""
    state = mid_turn(BEFORE, [16, 5, 2], [11, 15, 13], actions_taken=3)
    legal = state.legal_actions(0)
    assert {"type": "end_turn"} in legal
    assert [a["type"] for a in legal].count("score") == 2
    return state


def test_ending_the_turn_past_a_free_score_costs_and_the_score_costs_nothing() -> None:
    state = free_score_position()
    before = state.view(0), state.view(1)
    bot = review_bot("doppio", iterations=60)
    wasted = judge(bot, state, 0, {"type": "end_turn"}, seed=3, index=7)
    assert wasted is not None
    assert wasted.best["type"] == "score"  # the bot names a scoring move
    assert wasted.cost is not None and wasted.cost > 0.05
    assert wasted.played_value is not None and wasted.best_value is not None
    assert wasted.best_value > wasted.played_value
    assert (wasted.index, wasted.seat, wasted.choices) == (7, 0, 3)
    # Scoring is (about) what the bot would do: no cost, or next to none.
    for action in state.legal_actions(0):
        if action["type"] == "score":
            scored = judge(bot, state, 0, action, seed=3)
            assert scored is not None and scored.cost is not None and scored.cost < 0.01
    best = judge(bot, state, 0, wasted.best, seed=3)
    assert best is not None and best.cost == 0.0 and best.best == wasted.best
    # Judging reads the position and changes nothing.
    assert (state.view(0), state.view(1)) == before


def test_the_same_decision_is_judged_the_same_and_undo_is_no_decision() -> None:
    state = free_score_position()
    first = judge(review_bot("doppio", 40), state, 0, {"type": "end_turn"}, seed=11)
    again = judge(review_bot("doppio", 40), state, 0, {"type": "end_turn"}, seed=11)
    assert first == again
    assert judge(review_bot("doppio", 40), state, 0, {"type": "undo"}, seed=11) is None


def test_a_move_taken_back_with_undo_is_not_judged() -> None:
    """Doppio: a person moves, takes it back, and plays on; only what they kept counts."""
    state, rng, actions = games.get("doppio").new_state(players=2, seed=2), random.Random(2), []
    undone: list[int] = []
    while len(actions) < 80 and not state.is_over:
        seat = state.actors()[0]
        legal = state.legal_actions(seat)
        just_moved = seat == 0 and bool(actions) and actions[-1][0] == 0
        just_moved = just_moved and actions[-1][1]["type"] in ("move", "exchange")
        if just_moved and {"type": "undo"} in legal and len(undone) < 3:
            undone.append(len(actions) - 1)  # the move just made is taken back
            action = {"type": "undo"}
        else:
            action = rng.choice([a for a in legal if a["type"] != "undo"])
        state.apply(seat, action)
        actions.append((seat, action))
    assert len(undone) == 3
    log = MatchLog("doppio", 2, 2, {}, actions)
    kept = decisions(log, {0})
    assert not set(undone) & set(kept)
    assert all(actions[i][1]["type"] != "undo" for i in kept)
    standing = [i for i, (s, a) in enumerate(actions) if s == 0 and a["type"] != "undo"]
    assert kept == [i for i in standing if i not in undone]


#: Every game a review judges (turn-based: a real-time match has no decisions to weigh).
REVIEWED = [name for name in games.names() if not games.get(name).realtime]


@pytest.mark.parametrize("game", REVIEWED)
def test_a_decision_is_judged_from_what_the_seat_saw_not_the_hidden_cards(game: str) -> None:
    """Two positions the seat cannot tell apart (hidden cards re-dealt) get the same
    judgement: the search never reads the cards the finished log reveals."""
    for seed in range(3):
        state = games.get(game).new_state(players=2, seed=seed)
        rng = random.Random(seed)
        for _ in range(6):  # some random play, never to the end (a short game's)
            actor = state.actors()[0]
            after = state.clone()
            after.apply(actor, rng.choice(state.legal_actions(actor)))
            if after.is_over:
                break
            state = after
        seat = state.actors()[0]
        other = state.determinize(seat, random.Random(1000 + seed))
        assert other.view(seat) == state.view(seat)
        if game == "fika":  # the other hand is re-dealt (Doppio, Café: the piles' order)
            assert other.view(1 - seat) != state.view(1 - seat)
        played = state.legal_actions(seat)[-1]
        bot = review_bot(game, 30)
        assert judge(bot, state, seat, played, seed=seed) == judge(
            bot, other, seat, played, seed=seed
        )


def fika_log(seed: int, length: int) -> MatchLog:
    """The first ``length`` actions of a seeded Fika match: seat 0 at random, seat 1 a
    small search."""
    state, rng, actions = games.get("fika").new_state(players=2, seed=seed), random.Random(seed), []
    bot = review_bot("fika", 8)
    while not state.is_over and len(actions) < length:
        seat = state.actors()[0]
        legal = state.legal_actions(seat)
        action = rng.choice(legal) if seat == 0 else bot.choose(state, seat, rng)
        state.apply(seat, action)
        actions.append((seat, action))
    return MatchLog("fika", 2, seed, {}, actions)


def test_a_whole_log_is_judged_decision_by_decision_reproducibly() -> None:
    """A seeded Fika match, seat 0 played at random: every judged decision is seat 0's,
    names a legal best move, costs nothing when it is the bot's, and a second run
    gives the same figures."""
    log = fika_log(5, 40)
    actions = log.actions
    indices = decisions(log, {0})
    assert indices and all(actions[i][0] == 0 for i in indices)
    seen: list[int] = []
    judged = judge_many(log, indices, iterations=12, seed=1, on_each=seen.append)
    assert seen == indices
    assert judged == judge_many(log, indices, iterations=12, seed=1)
    assert judged and {j.index for j in judged} <= set(indices)
    for j in judged:
        position = replay("fika", 2, 5, actions[: j.index])
        legal = [action_key(a) for a in position.legal_actions(0)]
        assert action_key(j.best) in legal and action_key(j.played) in legal
        assert j.played == actions[j.index][1] and j.choices >= 2
        assert j.cost is None or j.cost >= 0
        if j.played == j.best:
            assert j.cost == 0.0
        # What each move causes, as the log tells it: the played move's events are
        # those of the match, the best move's those it causes from the same position.
        assert j.played_events == position.clone().apply(0, j.played)
        assert j.best_events == position.clone().apply(0, j.best)
        assert j.played_events and j.best_events
    ordered = mistakes_first(judged)
    costs = [j.cost for j in ordered if j.cost is not None]
    assert costs == sorted(costs, reverse=True)


# -- the server: background, progress, refusals, cache ------------------------


def wait_done(server: ServerThread, table_id: str) -> dict[str, Any]:
    """Poll the review until it is done; check the progress only grows."""
    deadline = time.monotonic() + TIMEOUT * 3
    last = -1
    while True:
        response = server.http.get(f"/api/tables/{table_id}/review")
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        assert body["status"] in ("running", "done"), body
        assert last <= body["done"] <= body["total"]
        last = body["done"]
        if body["status"] == "done":
            return body
        assert time.monotonic() < deadline, "the review did not finish"
        time.sleep(0.1)


def start(server: ServerThread, table_id: str) -> Any:
    return server.http.post(f"/api/tables/{table_id}/review")


def test_a_finished_match_is_reviewed_in_the_background_as_the_search_would_judge_it(
    start_server: Callable[..., ServerThread],
) -> None:
    server = start_server(limits=LIMITS)
    table_id = str(finished(server, {"1": "greedy"})["table_id"])
    assert server.http.get(f"/api/tables/{table_id}/review").status_code == 404
    first = start(server, table_id)
    assert first.status_code == 200, first.text
    assert first.json()["status"] in ("running", "done") and first.json()["iterations"] == 24
    # Play goes on meanwhile: a new table is created and answered at once.
    assert server.summary(server.create("fika", 2)["table_id"])["status"] == "open"
    body = wait_done(server, table_id)
    log = MatchLog.from_json(server.http.get(f"/api/tables/{table_id}/log").json())
    indices = decisions(log, {0})  # seat 1 is the bot: never judged
    assert body["done"] == body["total"] == len(indices) > 0
    judged = body["decisions"]
    assert judged and all(j["seat"] == 0 and j["index"] in indices for j in judged)
    costs = [j["cost"] for j in judged if j["cost"] is not None]
    assert costs == sorted(costs, reverse=True)  # the biggest mistakes first
    # The worker process judged exactly as this process does: seeded, reproducible.
    here = mistakes_first(judge_many(log, indices, iterations=24, seed=log.seed))
    assert judged == [j.to_json() for j in here]
    # Asked again, the review is the one kept, not a new search.
    again = start(server, table_id).json()
    assert again["status"] == "done" and again["decisions"] == judged


def test_a_review_is_refused_before_the_end_and_for_real_time_games(
    start_server: Callable[..., ServerThread],
) -> None:
    server = start_server(limits=LIMITS)
    running = server.create("fika", 2, bots={"1": "greedy"})["table_id"]
    for response in (start(server, running), server.http.get(f"/api/tables/{running}/review")):
        assert response.status_code == 409, response.text
        assert "over" in response.json()["detail"]
    espresso = server.create(
        "espresso", 2, bots={"0": "hard", "1": "hard"}, options={"bot_speed": 10_000}
    )
    espresso_id = espresso["table_id"]
    deadline = time.monotonic() + TIMEOUT * 3
    while server.summary(espresso_id)["status"] != "over":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    refused = start(server, espresso_id)
    assert refused.status_code == 409 and "real time" in refused.json()["detail"]
    assert start(server, "nope").status_code == 404
    assert server.http.post("/api/tables/bad id!/review").status_code == 422
    foreign = server.http.post(
        f"/api/tables/{running}/review", headers={"Origin": "https://elsewhere.example"}
    )
    assert foreign.status_code == 403


# -- the reviews' bounds, with a worker that waits to be let through ------------


class Gate(Executor):
    """Runs each job on a thread once ``release`` is set (a review caught running)."""

    def __init__(self) -> None:
        self.release = threading.Event()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()

        def run() -> None:
            self.release.wait(TIMEOUT)
            try:
                future.set_result(fn(*args, **kwargs))
            except Exception as error:
                future.set_exception(error)

        threading.Thread(target=run, daemon=True).start()
        return future


@dataclasses.dataclass
class FakeTable:
    """What ``Reviews`` reads of a table."""

    id: str
    log: MatchLog
    live: bool = False
    bots: tuple[str | None, ...] = (None, "greedy")

    @property
    def game(self) -> Any:
        return games.get(self.log.game)

    @property
    def seats(self) -> list[SimpleNamespace]:
        return [SimpleNamespace(index=i, bot=bot) for i, bot in enumerate(self.bots)]

    def match_log(self) -> MatchLog:
        return self.log


class FakeLobby:
    def __init__(self, *tables: FakeTable) -> None:
        self.tables = {table.id: table for table in tables}

    async def peek(self, table_id: str) -> FakeTable:
        if table_id not in self.tables:
            raise TableError(404, f"no table {table_id!r}")
        return self.tables[table_id]


def test_reviews_at_once_the_cache_and_a_failure_are_bounded_and_said() -> None:
    log = fika_log(9, 12)
    broken = MatchLog("fika", 2, 9, {}, [(0, {"type": "nonsense"}), *log.actions])
    lobby = FakeLobby(
        FakeTable("a", log),
        FakeTable("b", log),
        FakeTable("live", log, live=True),
        FakeTable("broken", broken),
    )
    limits = dataclasses.replace(
        TEST_LIMITS, reviews_at_once=1, review_cache=1, review_iterations=6
    )
    gate = Gate()

    async def scenario() -> None:
        reviews = Reviews(lobby, limits, executor=gate)  # type: ignore[arg-type]
        first = await reviews.start("a")
        assert (first.status, first.done, first.total) == ("running", 0, len(decisions(log, {0})))
        with pytest.raises(TableError) as busy:
            await reviews.start("b")
        assert busy.value.status == 429 and "already reviewing 1" in busy.value.detail
        assert await reviews.start("a") is first  # the same review, no second search
        with pytest.raises(TableError) as live:
            await reviews.start("live")
        assert live.value.status == 409
        with pytest.raises(TableError) as none:
            await reviews.get("b")
        assert none.value.status == 404
        gate.release.set()
        assert first.task is not None
        await first.task
        assert first.status == "done" and first.done == first.total
        assert first.json()["decisions"] == first.decisions and first.decisions
        second = await reviews.start("b")
        assert second.task is not None
        await second.task
        # One finished review is kept: the older one is forgotten (and made again if asked).
        with pytest.raises(TableError):
            await reviews.get("a")
        assert (await reviews.get("b")).status == "done"
        failed = await reviews.start("broken")
        assert failed.task is not None
        await failed.task
        assert failed.status == "failed" and failed.error and failed.json()["decisions"] == []
        retried = await reviews.start("broken")  # a failed review may be asked for again
        assert retried is not failed
        await reviews.close()
        assert retried.status == "failed"

    asyncio.run(scenario())


def test_one_client_or_account_holds_at_most_reviews_per_client() -> None:
    """Issue #27: one client's two requests held both review slots for 150 s."""
    log = fika_log(9, 12)
    lobby = FakeLobby(*(FakeTable(name, log) for name in "abcd"))
    limits = dataclasses.replace(TEST_LIMITS, reviews_at_once=3, review_iterations=6)
    gate = Gate()

    async def scenario() -> None:
        reviews = Reviews(lobby, limits, executor=gate)  # type: ignore[arg-type]
        first = await reviews.start("a", "10.0.0.1")
        assert first.status == "running"
        with pytest.raises(TableError) as mine:
            await reviews.start("b", "10.0.0.1")
        assert mine.value.status == 429 and "you already have 1 review running" in (
            mine.value.detail
        )
        assert await reviews.start("a", "10.0.0.1") is first  # the kept one: no new slot
        await reviews.start("b", "10.0.0.2", user_id=7)  # another client
        with pytest.raises(TableError) as account:  # the same account, from elsewhere
            await reviews.start("c", "10.0.0.3", user_id=7)
        assert account.value.status == 429
        assert reviews.running() == 2 and "c" not in reviews.reviews  # nothing counted
        tasks = [review.task for review in reviews.reviews.values() if review.task]
        gate.release.set()
        await asyncio.gather(*tasks)
        third = await reviews.start("c", "10.0.0.1", user_id=7)  # theirs are done
        assert third.task is not None
        await third.task
        assert reviews.clients.held == {}  # every count given back
        await reviews.close()

    asyncio.run(scenario())


class Counting(Executor):
    """Runs each job on a thread and counts how many ran at once (each lingers a little)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.now = self.most = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()

        def run() -> None:
            with self.lock:
                self.now += 1
                self.most = max(self.most, self.now)
            time.sleep(0.05)
            result = fn(*args, **kwargs)
            with self.lock:  # done before the review hears of it
                self.now -= 1
            future.set_result(result)

        threading.Thread(target=run, daemon=True).start()
        return future


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_one_review_keeps_every_worker_busy_and_no_more(workers: int) -> None:
    """A review's parts are independent: with ``review_workers`` workers, that many run
    at once (a review takes about 1/workers of the time), never more; the judgements
    are those of a review made part by part."""
    log = fika_log(9, 40)
    assert len(decisions(log, {0})) > 3 * 4  # more parts than workers
    limits = dataclasses.replace(TEST_LIMITS, review_workers=workers, review_iterations=6)
    pool = Counting()

    async def scenario() -> dict[str, Any]:
        reviews = Reviews(FakeLobby(FakeTable("a", log)), limits, executor=pool)  # type: ignore[arg-type]
        review = await reviews.start("a")
        assert review.task is not None
        await review.task
        assert review.status == "done" and review.done == review.total
        await reviews.close()
        return review.json()

    done = asyncio.run(scenario())
    assert pool.most == workers
    alone = judge_many(log, decisions(log, {0}), iterations=6, seed=log.seed)
    assert sorted(j["index"] for j in done["decisions"]) == [j.index for j in alone]


class GatePool(Gate):
    """The review pool of a test server: jobs wait for ``GatePool.release``."""

    release = threading.Event()

    def __init__(self, **_options: Any) -> None:
        pass


def test_a_second_review_from_one_address_waits_for_the_first(
    start_server: Callable[..., ServerThread], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("coffeetable.server.api.review_jobs.ProcessPoolExecutor", GatePool)
    server = start_server(limits=dataclasses.replace(LIMITS, reviews_at_once=2))
    one, two = (str(finished(server, {"1": "greedy"})["table_id"]) for _ in range(2))
    try:
        assert start(server, one).json()["status"] == "running"
        refused = start(server, two)
        assert refused.status_code == 429, refused.text
        assert "you already have 1 review running" in refused.json()["detail"]
    finally:
        GatePool.release.set()
    wait_done(server, one)
    assert start(server, two).status_code == 200
    wait_done(server, two)
