"""Every message the server sends over a socket is built in one module,
``server/tables/wire.py`` (as lila-ws keeps its ClientOut): no other server module
writes a ``{"type": ...}`` literal of a server message or of a table event, so the
protocol's shapes live in one place beside its codes (their JSON Schemas:
``test_protocol_schema.py``)."""

from __future__ import annotations

import ast
from pathlib import Path

from coffeetable.server.api import protocol
from coffeetable.server.tables import wire

WIRE = Path(wire.__file__).resolve()
SERVER = WIRE.parents[1]
#: The table's own events that ride in states (beside the games' events).
TABLE_EVENTS = {"countdown", "clock"}


def server_message_types() -> set[str]:
    """The ``type`` of every message the served protocol says the server sends."""
    schemas = protocol.document()["components"]["schemas"]
    names = [entry["$ref"].rsplit("/", 1)[1] for entry in schemas["ServerMessage"]["oneOf"]]
    return {schemas[name]["properties"]["type"]["const"] for name in names}


def typed_literals(path: Path, kinds: set[str]) -> list[tuple[int, str]]:
    """Where ``path`` writes a dict literal whose ``"type"`` is one of ``kinds``: (line, kind)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Dict):
            continue
        for key, value in zip(node.keys, node.values, strict=True):
            is_type = isinstance(key, ast.Constant) and key.value == "type"
            if is_type and isinstance(value, ast.Constant) and value.value in kinds:
                found.append((node.lineno, value.value))
    return found


def test_the_protocol_lists_the_messages_looked_for() -> None:
    kinds = server_message_types()
    assert {"state", "rejected", "error", "table", "rematch", "chat", "pong"} <= kinds


def test_only_wire_builds_the_servers_messages() -> None:
    kinds = server_message_types() | TABLE_EVENTS
    elsewhere = [
        f"{path.relative_to(SERVER)}:{line} {kind}"
        for path in sorted(SERVER.rglob("*.py"))
        if path.resolve() != WIRE
        for line, kind in typed_literals(path, kinds)
    ]
    assert not elsewhere, "build these with server/tables/wire.py:\n" + "\n".join(elsewhere)
    built = {kind for _, kind in typed_literals(WIRE, kinds)}
    assert built == kinds, f"wire.py builds none of {sorted(kinds - built)}"


def test_the_finder_sees_a_message_literal(tmp_path: Path) -> None:
    """The check itself: a literal of a server message is found, a schema's dict is not."""
    module = tmp_path / "mod.py"
    module.write_text('A = {"type": "object"}\nB = {"type": "state", "seq": 1}\n')
    assert typed_literals(module, {"state", "error"}) == [(2, "state")]
