"""The benchmark's echo socket: back to its sender, or relayed to its group."""

from __future__ import annotations

from collections.abc import Callable

from coffeetable.server.echo import MAX_GROUP

from .conftest import Client, ServerThread
from .test_ws_limits import closed_code


def test_a_frame_comes_back_to_its_sender_alone(
    start_server: Callable[..., ServerThread],
) -> None:
    server = start_server()
    first, second = (Client(server.ws_url + "/ws/echo") for _ in range(2))
    first.ws.send('{"n": 1}')
    assert first.recv() == {"n": 1}
    second.ws.send('{"n": 2}')
    assert second.recv() == {"n": 2}
    first.ws.send('{"n": 3}')  # second gets nothing of first's
    assert first.recv() == {"n": 3}
    second.ws.send('{"n": 4}')
    assert second.recv() == {"n": 4}
    first.close()
    second.close()


def test_a_group_relays_every_frame_to_each_member_in_order(
    start_server: Callable[..., ServerThread],
) -> None:
    server = start_server()
    group = [Client(server.ws_url + "/ws/echo?group=t1") for _ in range(4)]
    other = Client(server.ws_url + "/ws/echo?group=t2")
    for n, sender in enumerate(group):
        sender.ws.send(f'{{"n": {n}}}')
    for member in group:  # the sender's own frame too, each in the order sent
        assert [member.recv()["n"] for _ in range(4)] == [0, 1, 2, 3]
    other.ws.send('{"n": 9}')  # another group: only its own
    assert other.recv() == {"n": 9}
    group[0].ws.send("not json, still echoed")  # the echo does not read what it relays
    assert all(member.ws.recv(timeout=5) == "not json, still echoed" for member in group)
    for client in (*group, other):
        client.close()


def test_a_full_group_and_a_bad_name_are_refused(
    start_server: Callable[..., ServerThread],
) -> None:
    server = start_server()
    members = [Client(server.ws_url + "/ws/echo?group=full") for _ in range(MAX_GROUP)]
    for member in members:  # every one is in before the next knocks
        member.ws.send("{}")
        assert member.recv() == {}
    extra = Client(server.ws_url + "/ws/echo?group=full")
    error = extra.recv()
    assert error["type"] == "error" and f"at most {MAX_GROUP}" in error["reason"]
    assert closed_code(extra) == 1013
    bad = Client(server.ws_url + "/ws/echo?group=" + "x" * 65)
    assert "printable characters" in bad.recv()["reason"]
    assert closed_code(bad) == 1008
    for member in members:
        member.close()
