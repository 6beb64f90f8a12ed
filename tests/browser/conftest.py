"""Browser tests: the real server in a subprocess, driven through Debian's Chromium.

Playwright's own browser download is never used: Chromium is /usr/bin/chromium
(``scripts/test.sh`` installs it with apt-get). Without it every browser test is
skipped, except under ``COFFEETABLE_REQUIRE_BROWSER=1`` (CI), where that is an error.

Every page a test opens fails the test on a JavaScript error or on a breach of the
server's Content-Security-Policy (a blocked inline script, handler or style).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

#: The site's limits, raised for tests: fast bots, many tables from one address.
TEST_SERVER_ENV = {
    **os.environ,
    "COFFEETABLE_MAX_BOT_SPEED": "10000",
    "COFFEETABLE_TABLES_PER_MINUTE": "10000",
    "COFFEETABLE_OPEN_TABLES_PER_CLIENT": "10000",
    "COFFEETABLE_SOCKETS_PER_CLIENT": "10000",
    # Play now: bots fill a lone player's table after 3 s; many waits from one address
    "COFFEETABLE_PLAY_NOW_WAIT_SECONDS": "3",
    "COFFEETABLE_PLAY_NOW_TICKETS_PER_CLIENT": "10000",
    # Review with the bot: small searches (the tests judge the page, not the bot)
    "COFFEETABLE_REVIEW_ITERATIONS": "24",
}
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
SERVER_START_TIMEOUT = 60.0
#: Reports every `securitypolicyviolation` of a page to the test (see new_page).
CSP_WATCH = """
document.addEventListener('securitypolicyviolation', (event) => {
  window.__cspViolation(`${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`
    + ` at ${event.sourceFile || location.href}:${event.lineNumber} ${event.sample || ''}`);
});
"""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    if os.environ.get("COFFEETABLE_REQUIRE_BROWSER") and not os.path.exists(CHROMIUM):
        # CI: the browser tests must run, never be skipped quietly
        raise pytest.UsageError(f"COFFEETABLE_REQUIRE_BROWSER is set but {CHROMIUM} is missing")
    skip = pytest.mark.skip(
        reason=f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)"
    )
    for item in items:
        if here in Path(str(item.path)).parents and not os.path.exists(CHROMIUM):
            item.add_marker(skip)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """``coffeetable serve`` in a subprocess, on a port and a SQLite file of its own."""

    def __init__(self, database: Path, port: int | None = None) -> None:
        self.database = database
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.log = database.with_suffix(".log")

    def start(self) -> Server:
        command = [
            sys.executable,
            "-m",
            "coffeetable.cli",
            "serve",
            "--port",
            str(self.port),
            "--database",
            f"sqlite:///{self.database}",
        ]
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, env=TEST_SERVER_ENV
            )
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"the server exited: {self.log.read_text(errors='replace')[-3000:]}"
                )
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(f"{self.url}/api/games", timeout=2) as response,
            ):
                if response.status == 200:
                    return self
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"the server did not answer within {SERVER_START_TIMEOUT:.0f} s")

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=15)
        self.process = None

    def post(self, path: str, body: dict) -> dict:
        request = urllib.request.Request(
            self.url + path,
            data=json.dumps(body).encode(),
            method="POST",
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("server") / "t.db").start()
    yield running
    running.stop()


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Server]:
    """A server for one test alone (it may be stopped and started again)."""
    running = Server(tmp_path / "t.db").start()
    yield running
    running.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


class PageProblems:
    """What went wrong in a test's pages: JavaScript errors and CSP violations."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.csp: list[str] = []

    def watch(self, page) -> None:  # type: ignore[no-untyped-def]
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("console", self._console)

    def _console(self, message) -> None:  # type: ignore[no-untyped-def]
        # Chromium also logs each blocked script, handler or style on the console
        if "Content Security Policy" in message.text:
            self.csp.append(message.text)

    def check(self) -> None:
        assert not self.csp, f"Content-Security-Policy violations: {self.csp}"
        assert not self.errors, f"JavaScript errors in the page: {self.errors}"


@pytest.fixture
def page_problems() -> PageProblems:
    return PageProblems()


@pytest.fixture
def new_page(browser, page_problems: PageProblems):  # type: ignore[no-untyped-def]
    """Make pages, each in a fresh browser context (own localStorage); a JavaScript
    error or a Content-Security-Policy violation in any of them fails the test."""
    contexts = []

    def make(locale: str = "en-US"):  # type: ignore[no-untyped-def]
        context = browser.new_context(locale=locale, viewport={"width": 1366, "height": 768})
        context.set_default_timeout(20_000)
        context.expose_function("__cspViolation", lambda text: page_problems.csp.append(text))
        context.add_init_script(CSP_WATCH)
        contexts.append(context)
        page = context.new_page()
        page_problems.watch(page)
        return page

    yield make
    for context in contexts:
        context.close()
    page_problems.check()


@pytest.fixture
def page(new_page):  # type: ignore[no-untyped-def]
    return new_page()
