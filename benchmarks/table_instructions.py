"""The table actor's cost in instructions: accepted Espresso actions in one process, no socket.

    PYTHONHASHSEED=0 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
        python benchmarks/table_instructions.py 1000     # then again with 0: the difference
    PYTHONPATH=/tmp/old/src ...                           # another tree's server, same loop

``ACTIONS`` accepted actions at ``TABLES`` four-player Espresso tables (SQLite on a file),
each seat a ``Connection`` over a socket that takes every frame at once, each action a
random legal one of the first seat offered any. The countdown's hold is set to 0 s, so that
nothing depends on the clock: the count is the same on a loaded machine (docs/benchmarks.md,
"``Table`` from parts"). Run with 0 for the baseline (imports and dealing).
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
import sys
import tempfile
from typing import Any

import coffeetable.server.tables.table as table_module
from coffeetable.server.limits import Limits
from coffeetable.server.lobby.lobby import Lobby
from coffeetable.server.tables.connections import Connection
from coffeetable.server.tables.submission import Submission
from coffeetable.store import Store

TABLES = 10

# No wall-clock hold: the countdown lasts 0 s (where the tree keeps it: table or countdown).
table_module.COUNTDOWN = 0.0  # type: ignore[attr-defined]
try:
    import coffeetable.server.tables.countdown as countdown_module

    countdown_module.COUNTDOWN = 0.0
except ImportError:  # a tree from before the countdown was a part of its own
    pass


class Socket:
    """A socket that takes every frame at once."""

    async def send_text(self, text: str) -> None:
        return None

    async def close(self, code: int = 1000, reason: str = "") -> None:
        return None


async def play(actions: int) -> int:
    store = Store(f"sqlite:///{tempfile.mkdtemp()}/db.sqlite3")
    limits = dataclasses.replace(Limits(), max_bot_speed=10000.0)
    lobby = Lobby(store, allow_seed=True, limits=limits)
    tables: list[tuple[Any, list[Connection]]] = []
    for t in range(TABLES):
        table, _, _ = await lobby.create("espresso", 4, {"bot_speed": 10000}, {}, f"t{t}", seed=t)
        for n in range(3):
            await lobby.join(table.id, f"p{n}")
        conns = [Connection(Socket(), seat, limits) for seat in range(4)]  # type: ignore[arg-type]
        for conn in conns:
            table.attach(conn)
        tables.append((table, conns))
    rng, done = random.Random(1), 0
    loop = asyncio.get_running_loop()
    while done < actions:
        moved = False
        for table, conns in tables:
            if table.status != "running":
                continue
            for seat in range(4):
                legal = table.legal_for(seat)
                if legal:
                    landed: asyncio.Future[bool] = loop.create_future()
                    action = rng.choice(legal)
                    table.submit(Submission(seat, action, legal, conns[seat], done=landed))
                    done += await landed
                    moved = True
                    break
            if done >= actions:
                break
        if not moved:
            await asyncio.sleep(0)  # every table holds its countdown: let the TICKs run
    for table, _ in tables:
        await table.stop()
    await store.close()
    return done


if __name__ == "__main__":
    print("actions", asyncio.run(play(int(sys.argv[1]))), file=sys.stderr)
