"""The tournament package is pure: it imports no I/O, clock, database or web module."""

from __future__ import annotations

import ast
from pathlib import Path

import coffeetable.tournaments

#: What its modules may import: plain data and arithmetic, and one another.
#: ``random`` only as a generator seeded by the inputs (``tables``: the same field, the same
#: rounds), never the module's shared one.
ALLOWED = {
    *("__future__", "collections", "dataclasses", "fractions", "math", "random", "coffeetable"),
}


def test_the_tournament_package_imports_only_pure_modules() -> None:
    folder = Path(coffeetable.tournaments.__file__).parent
    imported = set()
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                imported |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
    roots = {name.split(".")[0] for name in imported}
    assert roots <= ALLOWED, roots - ALLOWED
    ours = {name for name in imported if name.startswith("coffeetable")}
    assert all(name.startswith("coffeetable.tournaments") for name in ours), ours
