"""``coffeetable arena --bots remote:URL``: a policy served by ``coffeetable.client.serve``
plays seats in the arena, seeing only its seat's view and legal actions."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from coffeetable import bots, games
from coffeetable.client.serve import serve
from coffeetable.sim.arena import run_arena
from coffeetable.sim.remote import RemoteError

Message = dict[str, Any]
SEEN: list[tuple[Message, list[Message]]] = []


def first_legal(view: Message, legal: list[Message]) -> Message:
    SEEN.append((view, legal))
    return legal[0]


def never_legal(view: Message, legal: list[Message]) -> Message:
    return {"type": "cheat"}


def served(policy: Any) -> Iterator[str]:
    """Serve ``policy`` on a free port in a thread; yield its ws:// URL."""
    loop = asyncio.new_event_loop()
    ready = asyncio.Event()
    task = loop.create_task(serve(policy, "127.0.0.1", 0, ready))

    def run() -> None:
        with contextlib.suppress(asyncio.CancelledError):
            loop.run_until_complete(task)
        loop.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    while not ready.is_set():
        threading.Event().wait(0.01)
    yield f"ws://127.0.0.1:{ready.port}"  # type: ignore[attr-defined]
    loop.call_soon_threadsafe(task.cancel)
    thread.join(5)


@pytest.fixture
def remote() -> Iterator[str]:
    SEEN.clear()
    yield from served(first_legal)


@pytest.mark.parametrize("game", games.names())
def test_a_remote_bot_plays_in_the_arena(remote: str, game: str) -> None:
    options = dict(games.get(game).quick_options)
    # A game without heuristics (the fifth) has no greedy: the random bot always plays.
    opponent = "greedy" if "greedy" in bots.available(game) else "random"
    result = run_arena(
        game, [f"remote:{remote}", opponent], games=2, seed=1, options=options, workers=1
    )
    assert result["games"] == 2
    assert SEEN, "the remote policy was asked"
    for view, legal in SEEN:
        assert view["seat"] in (0, 1) and legal
    # It saw its seat's view only: no other seat's hidden hand.
    assert all("deck" not in view for view, _ in SEEN)


def test_a_policy_that_never_plays_legal_still_ends_its_matches() -> None:
    """The client's own rule: refused twice, it plays the first legal action."""
    for url in served(never_legal):
        result = run_arena("fika", [f"remote:{url}", "greedy"], games=1, seed=1, workers=1)
        assert result["games"] == 1


def test_a_remote_bot_nobody_serves_stops_the_arena() -> None:
    with pytest.raises(RemoteError, match="does not answer"):
        run_arena("fika", ["remote:ws://127.0.0.1:9", "greedy"], games=1, seed=1, workers=1)


def test_a_bad_remote_address_is_refused() -> None:
    with pytest.raises(ValueError, match="remote:ws://"):
        run_arena("fika", ["remote:http://x", "greedy"], games=1, seed=1, workers=1)
