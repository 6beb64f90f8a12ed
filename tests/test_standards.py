"""The code's own standards, held by the suite: ``mypy --strict`` on the whole package,
``ruff check`` and ``ruff format`` (both configured in pyproject.toml).

The README's test command installs both tools (the ``dev`` extra); a bare checkout
without them skips these tests and says why.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: What ruff keeps in shape (the package, its tests and its benchmarks).
RUFF_PATHS = ["src", "tests", "benchmarks"]


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
