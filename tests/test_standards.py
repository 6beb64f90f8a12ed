"""The code's own standards, held by the suite: ``mypy --strict`` on the whole package,
``ruff check`` and ``ruff format`` (both configured in pyproject.toml), and the house's
layout: import-linter's contracts (``[tool.importlinter]``: which layer may import
which), no import cycle between the server's modules, and a short top floor in server/.

The README's test command installs both tools (the ``dev`` extra); a bare checkout
without them skips these tests and says why.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: What ruff keeps in shape (the package, its tests and its benchmarks).
RUFF_PATHS = ["src", "tests", "benchmarks"]
#: The server's package, and the most modules it keeps at its top (besides ``__init__``):
#: the rest live in rooms by concern (ARCHITECTURE.md, "Server layout as it grows").
SERVER = ROOT / "src" / "coffeetable" / "server"
MAX_TOP_MODULES = 12


def run(module: str, *args: str) -> subprocess.CompletedProcess[str]:
    pytest.importorskip(module, reason=f"{module} is not installed (pip install -e '.[dev]')")
    command = [sys.executable, "-m", module, *args]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_mypy_strict_finds_nothing_in_the_package() -> None:
    result = run("mypy")  # files and strictness: [tool.mypy] in pyproject.toml
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_check_finds_nothing() -> None:
    result = run("ruff", "check", *RUFF_PATHS)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_changes_nothing() -> None:
    result = run("ruff", "format", "--check", *RUFF_PATHS)
    assert result.returncode == 0, result.stdout + result.stderr


def test_lint_imports_keeps_every_contract() -> None:
    """The layers (engine < games < bots < sim, interop < store < server, and the server's
    own rooms) as ``[tool.importlinter]`` writes them."""
    pytest.importorskip("importlinter", reason="import-linter is not installed (the dev extra)")
    command = [sys.executable, "-c", "from importlinter.cli import lint_imports_command as c; c()"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), *sys.path])}
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr


def module_name(path: Path, root: Path) -> str:
    """``coffeetable.server.tables.table`` for ``server/tables/table.py``."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(["coffeetable.server", *parts])


def server_imports(root: Path) -> dict[str, set[str]]:
    """Each server module's imports of other server modules: every ``import`` statement in
    the file, at the top, in functions and under ``TYPE_CHECKING`` alike. ``from package
    import name`` counts as importing the module ``package.name`` when there is one.
    ``root`` is the server's package (its modules are named as if it were there)."""
    paths = {module_name(path, root): path for path in root.rglob("*.py")}

    def owner(name: str) -> str | None:  # the module that defines ``name``
        while name and name not in paths:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        named: list[str] = []
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                named += [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, *([base] if base else [])])
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    named.append(full if full in paths else base)
        found = {owner(name) for name in named if name.startswith("coffeetable.server")}
        graph[module] = {target for target in found if target and target != module}
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The graph's cycles: each strongly connected component of two modules or more."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(module: str) -> None:  # Tarjan's algorithm
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in graph.get(module, ()):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == module:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return cycles


def test_no_import_cycle_between_the_servers_modules() -> None:
    graph = server_imports(SERVER)
    assert "coffeetable.server.tables.table" in graph  # the walk found the modules
    assert "coffeetable.server.tables.stand_ins" in graph["coffeetable.server.tables.table"]
    cycles = import_cycles(graph)
    assert not cycles, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_import_cycles_are_found_through_functions_and_relative_imports(tmp_path: Path) -> None:
    """The cycle finder itself: a cycle closed by an import inside a function counts."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "__init__.py").write_text("")
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "a.py").write_text("from coffeetable.server.pkg import b\n")
    (tmp_path / "pkg" / "b.py").write_text("def f():\n    from .. import c\n")
    (tmp_path / "c.py").write_text("import coffeetable.server.a\n")
    graph = server_imports(tmp_path)
    assert graph["coffeetable.server.pkg.b"] == {"coffeetable.server.c"}
    assert import_cycles(graph) == [
        ["coffeetable.server.a", "coffeetable.server.c", "coffeetable.server.pkg.b"]
    ]


def test_the_servers_top_floor_is_short() -> None:
    """At most ``MAX_TOP_MODULES`` modules directly in server/ (besides ``__init__``)."""
    top = sorted(path.name for path in SERVER.glob("*.py") if path.name != "__init__.py")
    assert len(top) <= MAX_TOP_MODULES, top
