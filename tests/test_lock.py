"""requirements.lock agrees with pyproject.toml, and every set-up installs through it.

pyproject.toml keeps lower bounds (for people who use Coffee Table as a library); the lock
pins the versions the suite passed with (scripts/update-lock.sh makes it). A dependency
added to pyproject but not locked, or a lock older than a raised bound, fails here.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
#: Extras not locked: torch's build (CPU or GPU) is each machine's own (docs/research.md).
UNLOCKED_EXTRAS = {"train"}


def locked() -> dict[str, list[Version]]:
    """Each locked package's versions (two where the lock forks by Python version)."""
    versions: dict[str, list[Version]] = {}
    for line in (ROOT / "requirements.lock").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        pin = re.fullmatch(r"([A-Za-z0-9._-]+)==([^ ;]+)\s*(;.*)?", line)
        assert pin, f"not a pin: {line!r}"
        versions.setdefault(canonicalize_name(pin[1]), []).append(Version(pin[2]))
    return versions


def declared() -> list[tuple[str, Requirement]]:
    """Every requirement of pyproject.toml with where it is declared, self-references out."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    found = [("dependencies", Requirement(text)) for text in project["dependencies"]]
    for extra, texts in project["optional-dependencies"].items():
        if extra not in UNLOCKED_EXTRAS:
            found += [(f"[{extra}]", Requirement(text)) for text in texts]
    return [(where, req) for where, req in found if canonicalize_name(req.name) != "coffeetable"]


def test_every_dependency_is_locked_within_its_bounds() -> None:
    pins = locked()
    problems = []
    for where, requirement in declared():
        name = canonicalize_name(requirement.name)
        if name not in pins:
            problems.append(f"{requirement} ({where}) is not in requirements.lock")
            continue
        for version in pins[name]:
            if not requirement.specifier.contains(version, prereleases=True):
                problems.append(f"{name}=={version} is outside {requirement} ({where})")
    assert not problems, "run scripts/update-lock.sh --keep:\n" + "\n".join(problems)


def test_the_extras_of_dependencies_are_locked_too() -> None:
    """uvicorn[standard] and psycopg[binary] bring packages of their own; pinned with them."""
    pins = locked()
    for brought in ("uvloop", "httptools", "psycopg-binary"):
        assert brought in pins, brought


def test_both_readme_commands_and_ci_install_through_the_lock() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.search(r"```sh\n(.*?)```", readme, re.S)
    assert commands, "the README opens with its two commands in a sh block"
    setup, tests = commands[1].strip().splitlines()
    assert "-c requirements.lock" in setup and "coffeetable serve" in setup
    assert tests == "bash scripts/test.sh"
    test_script = (ROOT / "scripts" / "test.sh").read_text(encoding="utf-8")
    assert re.search(r"pip install[^\n]*\\\n\s*-c requirements.lock", test_script)
    assert "scripts/test.sh" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
