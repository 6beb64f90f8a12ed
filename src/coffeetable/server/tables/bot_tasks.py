"""Bot seats: a task per bot that plays through the same queue as people.

The model is the real-time simulator's (``coffeetable.sim.realtime``), on the
wall clock: a bot *looks* at the table when it changes, chooses an action from
what its seat sees (``bot.act``), waits its reaction time for that action
(``bot.reaction_time_for(action, rng) / bot_speed``; the ready check has its
own), then submits it with the meaning it had at look time. If another action
landed first the table refuses it "too slow", as it would a person's, and the
bot looks again at the new table. A bot that sees nothing to do waits for the
next change. Each decision's generator is derived from the table's seed, the seat and
the log's length (so a search bot's choices replay, across restarts too).
A bot that thinks slowly (``THREAD_AFTER``) chooses on a copy of the state on a
worker thread, so the event loop and the other tables never wait for it.

A stand-in (``stand_ins.py``) is the same task, started when it takes an absent
person's seat and cancelled (``stop_bot``) when they come back. Bots submit
straight to the table, not through a socket: the sockets' rate limits are not
theirs.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time

from coffeetable import bots
from coffeetable.server.tables.face import TableFace
from coffeetable.server.tables.submission import Submission

log = logging.getLogger("coffeetable.server")

#: A bot whose choice took longer than this (seconds) thinks on a worker thread
#: from then on (e.g. ISMCTS), so that it never stalls the other tables.
THREAD_AFTER = 0.02


def start_bots(table: TableFace) -> None:
    """Start a task for every seat of ``table`` a bot plays (its own, or a stand-in
    for its absent person) that has none yet."""
    loop = asyncio.get_running_loop()
    for seat in table.seats:
        level = seat.bot_level
        if level is not None and seat.index not in table.bots:
            task = loop.create_task(play(table, seat.index, level))
            table.bots[seat.index] = task


def stop_bot(table: TableFace, index: int) -> None:
    task = table.bots.pop(index, None)
    if task is not None:
        task.cancel()


async def play(table: TableFace, index: int, level: str) -> None:
    """Play seat ``index`` of ``table`` at ``level`` until the match ends."""
    try:
        await _play(table, index, level)
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("table %s: the %s bot in seat %d stopped", table.id, level, index)


async def _play(table: TableFace, index: int, level: str) -> None:
    bot = bots.make(level, table.game.name)
    seen = -1
    slow = False  # set once a choice took longer than THREAD_AFTER
    while table.status == "running":
        await table.wait_change(seen)
        seen = table.version
        legal = table.legal_for(index)
        if not legal:
            continue
        look_round = table.state.round
        # Each decision's own generator, from the table's seed, the seat and the log's
        # length: a search bot's choice can be replayed from the log, restart or not.
        rng = random.Random(f"coffeetable-bot:{table.seed}:{index}:{table.seq}")
        if slow:  # think on a thread, on a copy the table cannot change meanwhile
            look = table.state.clone()
            action = await asyncio.to_thread(bot.act, look, index, rng)
            key = table.action_key(index, action, look) if action is not None else None
        else:
            began = time.perf_counter()
            action = bot.act(table.state, index, rng)
            slow = time.perf_counter() - began > THREAD_AFTER
            key = table.action_key(index, action) if action is not None else None
        if action is None:
            continue  # nothing it can judge: wait for the table to move
        await asyncio.sleep(bot.reaction_time_for(action, rng) / table.bot_speed)
        if table.state.round != look_round:
            continue  # sent before the round ended: it does not count
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        table.submit(Submission(index, action, basis=legal, key=key, done=done))
        # One action in flight. Once it landed or was refused, the next
        # wait_change(seen) returns at once if the table moved since the look.
        await done
