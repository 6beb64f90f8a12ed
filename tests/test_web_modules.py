"""The front end's modules (src/coffeetable/web): no import cycle, no long file without a reason.

A cycle between ES modules works only by the order the browser happens to
evaluate them in (a binding read before its module ran is a ReferenceError), and
it ties two views together; a file over 450 lines says at its top why (an i18n
string table is data).
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path, PurePosixPath

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "coffeetable"
WEB = PACKAGE / "web"
#: Each game's board lives in its own folder and is served at /static/games/<name>/.
BOARDS = PACKAGE / "games"
MAX_LINES = 450
#: How a long file says why, in one of its first lines: "// Over 450 lines: <reason>".
REASON = re.compile(r"^\s*(//|/?\*)\s*Over 450 lines: \S", re.IGNORECASE)
REASON_WITHIN = 5
#: Static imports and re-exports, over several lines too; not import(...) (loaded on demand).
STATIC_IMPORT = re.compile(
    r"^\s*(?:import|export)\b[^;'\"`()]*?\bfrom\s*['\"]([^'\"]+)['\"]|^\s*import\s*['\"]([^'\"]+)['\"]",
    re.MULTILINE,
)


def web_modules() -> list[Path]:
    return sorted([*WEB.rglob("*.js"), *BOARDS.glob("*/web/**/*.js")])


def url_of(path: Path) -> PurePosixPath:
    """Where the site serves a module: web/ at /static/, a game's web/ at
    /static/games/<name>/ (relative imports resolve between those URLs)."""
    if path.is_relative_to(WEB):
        return PurePosixPath("/static", path.relative_to(WEB).as_posix())
    game = path.relative_to(BOARDS).parts[0]
    return PurePosixPath("/static/games", game, path.relative_to(BOARDS / game / "web").as_posix())


def path_of(url: PurePosixPath) -> Path:
    parts = url.parts[2:]  # after "/", "static"
    if parts[:1] == ("games",) and len(parts) > 2 and (BOARDS / parts[1] / "web").is_dir():
        return BOARDS / parts[1] / "web" / Path(*parts[2:])
    return WEB / Path(*parts)


def imports_of(path: Path) -> set[Path]:
    """The web modules a file imports statically (relative specifiers only), resolved as
    the browser does, between the URLs the site serves them at."""
    found = set()
    for match in STATIC_IMPORT.finditer(path.read_text(encoding="utf-8")):
        spec = match.group(1) or match.group(2)
        if spec.startswith("."):
            url = PurePosixPath(posixpath.normpath(str(url_of(path).parent / spec)))
            found.add(path_of(url))
    return found


def find_cycle(graph: dict[Path, set[Path]]) -> list[Path] | None:
    """One import cycle of graph (a list of modules, first == last), or None."""
    done: set[Path] = set()
    for start in graph:
        path: list[Path] = []
        on_path: set[Path] = set()
        stack = [(start, iter(sorted(graph.get(start, ()))))]
        if start in done:
            continue
        path.append(start)
        on_path.add(start)
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                path.pop()
                on_path.discard(node)
                done.add(node)
            elif child in on_path:
                return [*path[path.index(child) :], child]
            elif child not in done:
                stack.append((child, iter(sorted(graph.get(child, ())))))
                path.append(child)
                on_path.add(child)
    return None


def test_the_import_parser_reads_every_form() -> None:
    text = (
        "import { a } from './a.js';\nimport {\n  b,\n  c,\n} from '../b.js';\n"
        "import * as d from \"./d.js\";\nimport './e.js';\nexport { f } from './f.js';\n"
        "const g = await import('./g.js');\n// n’importe quoi from './h.js'\n"
    )
    specs = {m.group(1) or m.group(2) for m in STATIC_IMPORT.finditer(text)}
    assert specs == {"./a.js", "../b.js", "./d.js", "./e.js", "./f.js"}


def test_the_cycle_finder_finds_a_cycle_and_only_one() -> None:
    a, b, c, d = (Path(x) for x in "abcd")
    assert find_cycle({a: {b}, b: {c}, c: set(), d: {a, c}}) is None
    assert find_cycle({a: {b}, b: {c}, c: {a}, d: {a}}) == [a, b, c, a]
    assert find_cycle({a: {a}}) == [a, a]


def test_no_web_module_imports_itself_through_others() -> None:
    modules = web_modules()
    assert len(modules) > 40  # the front end is there
    graph = {path.resolve(): imports_of(path) for path in modules}
    missing = {
        (str(url_of(p)), str(i)) for p, deps in graph.items() for i in deps if not i.exists()
    }
    assert not missing, f"imports of no file: {sorted(missing)}"
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(str(url_of(p)) for p in cycle)


def test_no_web_module_is_over_450_lines_without_a_reason_at_its_top() -> None:
    long = []
    for path in web_modules():
        lines = path.read_text(encoding="utf-8").splitlines()
        if len(lines) > MAX_LINES and not any(REASON.match(line) for line in lines[:REASON_WITHIN]):
            long.append(f"{url_of(path)}: {len(lines)} lines")
    assert not long, "over 450 lines with no '// Over 450 lines: <why>' at the top: " + ", ".join(
        long
    )
