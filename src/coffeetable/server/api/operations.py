"""What the HTTP API does to a table or to the play-now queues, as plain functions.

Each operation takes the app's state and JSON arguments and returns JSON, so
that ``run`` can call it here or, when another process runs the table (or the
matchmaker), on that process through the cluster's bus (``cluster/``), with
the same code and the same errors. With one process, ``run`` is a plain call.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from coffeetable.server.api.replays import ReplayCache, prepare
from coffeetable.server.errors import Elsewhere, OwnerGone, TableError
from coffeetable.server.social import invites

Operation = Callable[..., Awaitable[Any]]
OPERATIONS: dict[str, Operation] = {}
#: How often ``run`` follows a table that moves before it gives up.
ATTEMPTS = 6


def operation(name: str) -> Callable[[Operation], Operation]:
    def register(function: Operation) -> Operation:
        OPERATIONS[name] = function
        return function

    return register


async def run(state: Any, operation_name: str, /, **args: Any) -> Any:
    """Run operation ``operation_name`` where its table (or the matchmaker) is."""
    name = operation_name
    cluster = getattr(state, "cluster", None)
    for attempt in range(ATTEMPTS):
        try:
            return await OPERATIONS[name](state, **args)
        except Elsewhere as moved:
            if cluster is None:
                raise
            owner = moved.owner
        try:
            outcome, value = await cluster.call(owner, name, args)
        except OwnerGone:  # it died: its lease may be taken once its heartbeat is gone
            await asyncio.sleep(min(1.0, 0.2 * (attempt + 1)))
            continue
        if outcome == "ok":
            return value
        if outcome == "error":
            raise TableError(*value)
    raise TableError(503, "the table is moving between servers: try again in a moment")


async def run_here(state: Any, name: str, args: dict[str, Any]) -> Any:
    """Run a call another process sent (``Elsewhere`` if it is not ours either)."""
    operation = OPERATIONS.get(name)
    if operation is None:
        raise TableError(400, f"no operation {name!r}")
    return await operation(state, **args)


# -- tables -------------------------------------------------------------------


@operation("table.summary")
async def summary(state: Any, table_id: str) -> dict[str, Any]:
    table_summary: dict[str, Any] = (await state.lobby.get(table_id)).summary()
    return table_summary


@operation("table.join")
async def join(state: Any, table_id: str, name: str, user_id: int | None) -> dict[str, Any]:
    seat, token = await state.lobby.join(table_id, name, user_id)
    return {"seat": seat, "token": token}


@operation("table.decline")
async def decline(state: Any, table_id: str, username: str) -> int:
    seat: int = await invites.decline(state.lobby, table_id, username)
    return seat


@operation("table.leave")
async def leave(state: Any, table_id: str, token: str, user_id: int | None) -> int:
    seat: int = await state.lobby.leave(table_id, token, user_id)
    return seat


@operation("table.seat_bot")
async def seat_bot(
    state: Any, table_id: str, seat: int, token: str, level: str, user_id: int | None
) -> None:
    await state.lobby.seat_bot(table_id, seat, token, level, user_id)


@operation("table.log")
async def match_log(state: Any, table_id: str) -> dict[str, Any]:
    table = await state.lobby.get(table_id)
    if table.live:
        raise TableError(409, "the log (and its seed) is secret until the match is over")
    log_json: dict[str, Any] = table.match_log().to_json()
    return log_json


@operation("table.replay")
async def replay(
    state: Any, table_id: str, seat: int | None, start: int, count: int
) -> dict[str, Any]:
    cache: ReplayCache = state.replays
    replayed = cache.get(table_id)  # a finished match, replayed here before
    if replayed is None:
        table = await state.lobby.get(table_id)
        if table.live:
            raise TableError(409, "a match can be replayed once it is over")
        replayed = cache.put(table_id, prepare(table.match_log(), table.summary()))
    if seat is not None and seat >= replayed.players:
        raise TableError(404, f"there is no seat {seat}")
    here = state.lobby.tables.get(table_id)  # its summary now, if this process has it
    summary = replayed.summary if here is None else here.summary()
    return {"table": summary, **replayed.window(seat, start, count)}


@operation("table.rematch")
async def rematch(state: Any, table_id: str, token: str, user_id: int | None) -> dict[str, Any]:
    result: dict[str, Any] = await state.rematches.accept(table_id, token, user_id)
    return result


@operation("players.claim_seat")
async def claim_seat(state: Any, table_id: str, token: str, user_id: int) -> int | None:
    """A guest's seat claimed by their new account (sign-up or sign-in), on the table's
    process (``PlayersService.claim_seat`` sends it there)."""
    seat: int | None = await state.players.claim_seat(table_id, token, user_id)
    return seat


# -- reviews (run and kept by one process each) -----------------------------------------


async def _reviews(state: Any, table_id: str) -> Any:
    cluster = getattr(state, "cluster", None)
    if cluster is not None:
        await cluster.take_named(f"review:{table_id}")  # else: Elsewhere
    return state.reviews


@operation("review.start")
async def review_start(
    state: Any, table_id: str, address: str | None = None, user_id: int | None = None
) -> dict[str, Any]:
    review = await (await _reviews(state, table_id)).start(table_id, address, user_id)
    result: dict[str, Any] = review.json()
    return result


@operation("review.get")
async def review_get(state: Any, table_id: str) -> dict[str, Any]:
    review = await (await _reviews(state, table_id)).get(table_id)
    result: dict[str, Any] = review.json()
    return result


# -- play now (one process runs the queues) ------------------------------------------


async def _matchmaker(state: Any) -> Any:
    cluster = getattr(state, "cluster", None)
    if cluster is not None:
        await cluster.take_matchmaker()  # else: Elsewhere
    return state.matchmaker


@operation("play_now.join")
async def play_now_join(state: Any, **request: Any) -> dict[str, Any]:
    ticket, status = await (await _matchmaker(state)).join(**request)
    return {"ticket": ticket, **status}


@operation("play_now.status")
async def play_now_status(state: Any, ticket: str) -> dict[str, Any]:
    status: dict[str, Any] = (await _matchmaker(state)).status(ticket)
    return status


@operation("play_now.cancel")
async def play_now_cancel(state: Any, ticket: str) -> None:
    (await _matchmaker(state)).cancel(ticket)


@operation("play_now.overview")
async def play_now_overview(state: Any) -> list[dict[str, Any]]:
    overview: list[dict[str, Any]] = (await _matchmaker(state)).overview()
    return overview
