"""Chat at a table: players and spectators, escaped by the pages, kept, limited."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

from .conftest import TEST_LIMITS, Client, Message, ServerThread


def chat_of(client: Client) -> Message:
    return client.until(lambda m: m["type"] == "chat")["message"]


def test_a_message_reaches_the_other_player_and_a_spectator(server: ServerThread) -> None:
    created = server.create("fika", 2, name="Ana")
    table_id = created["table_id"]
    bea = server.join(table_id, "Bea")
    ana_socket = server.client(table_id, created["token"])
    bea_socket = server.client(table_id, bea["token"])
    watcher = server.client(table_id)
    hostile = "<img src=x onerror=alert(1)> \u202egg"
    ana_socket.send({"type": "chat", "text": hostile})
    for client in (ana_socket, bea_socket, watcher):
        said = chat_of(client)
        # Kept as text (the pages escape it); bidi overrides are gone.
        assert said["text"] == "<img src=x onerror=alert(1)> gg"
        assert (said["channel"], said["seat"], said["name"]) == ("players", 0, "Ana")
    watcher.send({"type": "chat", "phrase": "well_played"})
    said = chat_of(bea_socket)
    assert (said["channel"], said["seat"], said["name"]) == ("spectators", None, "Spectator")
    assert said["phrase"] == "well_played" and said["text"] is None
    # A newcomer gets the table's chat so far.
    late = server.client(table_id)
    history = late.until(lambda m: m["type"] == "chat_history")["messages"]
    expected = ["<img src=x onerror=alert(1)> gg", "well_played"]
    assert [m["text"] or m["phrase"] for m in history] == expected
    for client in (ana_socket, bea_socket, watcher, late):
        client.close()


def test_chat_survives_a_restart(start_server: Callable[..., ServerThread]) -> None:
    server = start_server()
    created = server.create("doppio", 2, bots={"1": "greedy"})
    socket = server.client(created["table_id"], created["token"])
    socket.send({"type": "chat", "text": "hello there"})
    chat_of(socket)
    socket.close()
    database = server.database_url.removeprefix("sqlite:///")
    server.stop()
    again = start_server(database=Path(database))
    late = again.client(created["table_id"])
    history = late.until(lambda m: m["type"] == "chat_history")["messages"]
    assert [m["text"] for m in history] == ["hello there"]
    late.close()


def test_bad_and_too_many_messages_are_refused(start_server: Callable[..., ServerThread]) -> None:
    limits = dataclasses.replace(TEST_LIMITS, chat_per_minute=2, chat_burst=2, chat_max_chars=10)
    server = start_server(limits=limits)
    created = server.create("fika", 2)
    socket = server.client(created["table_id"], created["token"])
    for bad in (
        {"type": "chat"},
        {"type": "chat", "text": "  \u200b "},
        {"type": "chat", "phrase": "rude"},
        {"type": "chat", "text": 5},
    ):
        socket.send(bad)
        assert socket.until(lambda m: m["type"] in ("error", "chat"))["type"] == "error"
    socket.send({"type": "chat", "text": "a" * 50})
    assert chat_of(socket)["text"] == "a" * 10  # cut at the limit
    socket.send({"type": "chat", "text": "two"})
    chat_of(socket)
    socket.send({"type": "chat", "text": "three"})
    refused = socket.until(lambda m: m["type"] in ("error", "chat"))
    assert refused["type"] == "error" and "2 chat messages a minute" in refused["reason"]
    socket.close()


def test_chat_stays_open_after_a_match_but_not_at_an_abandoned_table(
    server: ServerThread,
) -> None:
    created = server.create("fika", 2, name="Ana")
    table_id = created["table_id"]
    bea = server.join(table_id, "Bea")
    watcher = server.client(table_id)
    try:
        for token in (bea["token"], created["token"]):  # every person leaves: abandoned
            left = server.http.post(f"/api/tables/{table_id}/leave", json={"token": token})
            assert left.status_code == 200
        watcher.until(lambda m: m["type"] == "table" and m["table"]["status"] == "abandoned")
        watcher.send({"type": "chat", "text": "anyone here?"})
        refused = watcher.until(lambda m: m["type"] in ("error", "chat"))
        assert refused["type"] == "error" and "abandoned" in refused["reason"]
    finally:
        watcher.close()
    late = server.client(table_id)
    history = late.until(lambda m: m["type"] == "chat_history")["messages"]
    assert history == []  # nothing was kept either
    late.close()


def test_a_reader_who_hides_the_spectators_is_not_sent_them(server: ServerThread) -> None:
    created = server.create("fika", 2, name="Ana")
    table_id = created["table_id"]
    ana = server.client(table_id, created["token"])
    watcher, other = server.client(table_id), server.client(table_id)
    clients = (ana, watcher, other)
    try:
        watcher.send({"type": "chat", "text": "hi from the stands"})
        for client in clients:
            chat_of(client)
        ana.send({"type": "chat_mute", "channel": "spectators", "muted": True})
        shown = ana.until(lambda m: m["type"] == "chat_history")["messages"]
        assert shown == []  # the history as she now sees it
        watcher.send({"type": "chat", "phrase": "good_luck"})
        assert chat_of(other)["phrase"] == "good_luck"  # others still get it
        ana.send({"type": "chat", "text": "thanks, players only"})
        assert chat_of(ana)["text"] == "thanks, players only"  # not the spectator's line
        assert chat_of(other)["text"] == "thanks, players only"
        ana.send({"type": "chat_mute", "channel": "spectators", "muted": False})
        shown = ana.until(lambda m: m["type"] == "chat_history")["messages"]
        assert [m["channel"] for m in shown] == ["spectators", "spectators", "players"]
        ana.send({"type": "chat_mute", "channel": "players", "muted": True})
        assert "spectators" in ana.until(lambda m: m["type"] == "error")["reason"]
    finally:
        for client in clients:
            client.close()
