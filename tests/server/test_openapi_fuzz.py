"""Schemathesis against our own OpenAPI: generated requests never make a server error.

Bounded (``MAX_EXAMPLES`` per operation) and seeded through hypothesis' database
being off, so the run is short and repeatable. The schema must say what is
valid (game names as an enum, player and seat bounds) for the generator to
reach past "create a table" into the deeper endpoints.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from coffeetable.server.limits import Limits

from .conftest import ServerThread
from .test_security import strict_json

MAX_EXAMPLES = 40
#: Default limits, but one address may open as many tables as the run creates.
FUZZ_LIMITS = Limits(tables_per_minute=100_000, open_tables_per_client=100_000)


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    server = ServerThread(tmp_path_factory.mktemp("openapi") / "t.sqlite3", limits=FUZZ_LIMITS)
    yield server
    server.stop()


def test_no_request_makes_a_server_error(live_server: ServerThread, subtests: Any) -> None:
    """Every operation of the schema, fuzzed, one subtest each.

    The operations are read from the live server's schema inside the test, not through
    schemathesis' pytest plugin (``from_fixture``), which renames pytest's nodes through
    a private attribute that pytest 9.2 no longer has."""
    schema = schemathesis.openapi.from_url(f"{live_server.url}/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 20, "the schema lost its operations"
    for operation in operations:
        with subtests.test(msg=f"{operation.method.upper()} {operation.path}"):
            _fuzz(operation)


def _fuzz(operation: Any) -> None:
    @given(case=operation.as_strategy())
    @settings(
        max_examples=MAX_EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    def call(case: Any) -> None:
        # Every check schemathesis has (no server error, status codes and bodies as the
        # schema says, ...) but "valid data is accepted": a Café table's Master seat must
        # exist, and such rules across fields are the lobby's 400s.
        response = case.call_and_validate(excluded_checks=[positive_data_acceptance])
        assert response.status_code < 500, (
            f"{case.method} {case.formatted_path} {case.body!r} -> {response.status_code}"
            f" {response.text[:300]}"
        )
        if response.headers.get("content-type", [""])[0].startswith("application/json"):
            strict_json(response.text)  # a browser can parse it: no NaN, no Infinity

    call()


def test_following_the_links_makes_no_server_error(live_server: ServerThread) -> None:
    """Stateful: create a table, then get, join, leave and read its log through the
    OpenAPI links, so the deeper endpoints see tables that exist."""
    stateful_schema = schemathesis.openapi.from_url(f"{live_server.url}/openapi.json")

    #: The links that led somewhere: a generated table joined or left (a 200 there).
    followed: list[str] = []

    class Machine(stateful_schema.as_state_machine()):  # type: ignore[misc]
        def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
            if response.status_code == 200 and case.path.endswith(("/join", "/leave")):
                followed.append(case.path)
            case.validate_response(response, excluded_checks=[positive_data_acceptance])

    Machine.run(
        settings=settings(
            max_examples=100,
            stateful_step_count=10,
            deadline=None,
            database=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
        )
    )
    # The links were followed: some generated table was joined or left. (Asked of the
    # calls, not of the table list: a table left by its last person is abandoned and
    # no longer listed.)
    assert followed
