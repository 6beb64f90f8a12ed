"""Offer a policy to the arena: ``python -m coffeetable.client.serve mybot:policy``.

The arena (``coffeetable arena GAME --bots remote:ws://127.0.0.1:8765,greedy``)
connects here once per match and sends the remote seat's states, as a table
sends them; this answers each with the policy's action, exactly as ``play``
does at a live table (the same code reads the messages). So the policy a bot
author tries offline is the one that plays on the site.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import json
import logging
import sys
from collections.abc import Sequence
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.asyncio.server import serve as ws_serve
from websockets.exceptions import ConnectionClosed

from coffeetable.client.play import Policy, _Match

log = logging.getLogger("coffeetable.client")


async def _answer(policy: Policy, socket: ServerConnection) -> None:
    """Answer one arena match's states until it closes."""
    match = _Match(None, "arena", policy)
    try:
        async for text in socket:
            reply = await match._on(json.loads(text))  # noqa: SLF001
            if reply is not None:
                await socket.send(json.dumps(reply))
    except ConnectionClosed:
        pass


async def serve(
    policy: Policy, host: str = "127.0.0.1", port: int = 8765, ready: Any = None
) -> None:
    """Serve ``policy`` until cancelled. ``ready``: an ``asyncio.Event`` set once
    listening (its ``port`` attribute is set to the port, useful with port 0)."""
    async with ws_serve(lambda s: _answer(policy, s), host, port, max_size=None) as server:
        if ready is not None:
            ready.port = next(iter(server.sockets)).getsockname()[1]
            ready.set()
        await asyncio.get_running_loop().create_future()  # until cancelled


def load_policy(spec: str) -> Policy:
    """``module:function`` -> the function (``mybot:policy``)."""
    module_name, colon, name = spec.partition(":")
    if not colon or not module_name or not name:
        raise ValueError(f"name the policy as module:function, not {spec!r}")
    policy: Policy = getattr(importlib.import_module(module_name), name)
    return policy


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m coffeetable.client.serve",
        description="offer policy(view, legal) -> action to `coffeetable arena --bots remote:URL`",
    )
    parser.add_argument("policy", help="module:function, e.g. mybot:policy")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args(argv)
    sys.path.insert(0, "")
    policy = load_policy(args.policy)
    print(f"serving {args.policy} on ws://{args.host}:{args.port}", flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(policy, args.host, args.port))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
