"""The OpenAPI document as a bot author meets it: how to sign in, an example request and
answer on every operation (each valid against its own schema), typed answers for the
table summary, the table list and the replay, 429 with ``Retry-After`` where it comes,
and the link to the socket's protocol."""

from __future__ import annotations

import json
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from coffeetable.server import create_app


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    schema: dict[str, Any] = create_app("sqlite://").openapi()
    return schema


def operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method, path, operation)
        for path, methods in document["paths"].items()
        for method, operation in methods.items()
    ]


def valid(document: dict[str, Any], schema: dict[str, Any], value: Any) -> list[str]:
    """Why ``value`` does not fit ``schema`` (refs into the document's components)."""
    validator = Draft202012Validator({**schema, "components": document["components"]})
    return [error.message for error in validator.iter_errors(value)]


def test_every_operation_has_an_example_request_and_answer(document: dict[str, Any]) -> None:
    for method, path, operation in operations(document):
        name = f"{method.upper()} {path}"
        content = operation["responses"]["200"]["content"]
        if "application/x-ndjson" in content:  # JSON lines (the match exports): each line fits
            lines = content["application/x-ndjson"]
            assert isinstance(lines.get("example"), str), f"{name}: no example answer"
            for line in lines["example"].splitlines():
                assert not valid(document, lines["schema"], json.loads(line)), (name, line)
            continue
        ok = content["application/json"]
        assert "example" in ok, f"{name}: no example answer"
        assert not valid(document, ok["schema"], ok["example"]), (name, ok["example"])
        body = operation.get("requestBody", {}).get("content", {}).get("application/json")
        if body is not None:
            assert "example" in body, f"{name}: no example request"
            problems = valid(document, body["schema"], body["example"])
            assert not problems, (name, problems)


def test_the_match_export_is_documented_as_json_lines(document: dict[str, Any]) -> None:
    operation = document["paths"]["/api/exports/{game}/{month}"]["get"]
    lines = operation["responses"]["200"]["content"]["application/x-ndjson"]
    example = json.loads(lines["example"].splitlines()[0])
    assert example["format"] == "coffeetable-match/1" and example["actions"]
    assert {"404", "413", "422"} <= set(operation["responses"])
    broken = {**example, "seats": "alice"}
    assert valid(document, lines["schema"], broken)  # the schema does check a line


def test_signing_in_is_documented(document: dict[str, Any]) -> None:
    schemes = document["components"]["securitySchemes"]
    assert schemes["apiKey"] == {**schemes["apiKey"], "type": "http", "scheme": "bearer"}
    assert schemes["session"]["in"] == "cookie" and schemes["session"]["name"]
    assert "security" not in document  # a guest may use most of the API
    assert "API key" in document["info"]["description"]
    by_name = {(m, p): op for m, p, op in operations(document)}
    assert by_name[("get", "/api/me")]["security"] == [{"apiKey": []}, {"session": []}]
    assert by_name[("post", "/api/bots/{bot}/keys")]["security"] == [{"session": []}]
    register = by_name[("post", "/api/auth/register")]["requestBody"]["content"]
    fields = document["components"]["schemas"]["Credentials"]["properties"]
    assert register["application/json"]["schema"]["$ref"].endswith("/Credentials")
    assert {"username", "password", "claim"} <= set(fields)
    assert all(field.get("description") for field in fields.values())


def test_429_and_retry_after_where_they_happen(document: dict[str, Any]) -> None:
    by_name = {(m, p): op for m, p, op in operations(document)}
    for key in (
        ("post", "/api/tables"),
        ("post", "/api/auth/register"),
        ("post", "/api/auth/login"),
    ):
        refused = by_name[key]["responses"]["429"]
        assert refused["headers"]["Retry-After"]["schema"]["type"] == "integer", key
    assert "429" in by_name[("post", "/api/play-now")]["responses"]


def test_the_summary_list_and_replay_are_typed(document: dict[str, Any]) -> None:
    by_name = {(m, p): op for m, p, op in operations(document)}

    def answer(method: str, path: str) -> dict[str, Any]:
        ok: dict[str, Any] = by_name[(method, path)]["responses"]["200"]["content"]
        return ok["application/json"]["schema"]

    assert answer("get", "/api/tables/{table_id}")["$ref"].endswith("/TableSummary")
    assert answer("get", "/api/tables")["items"]["$ref"].endswith("/TableSummary")
    assert answer("get", "/api/tables/{table_id}/replay")["$ref"].endswith("/Replay")
    summary = document["components"]["schemas"]["TableSummary"]
    assert summary["additionalProperties"] is False  # a new key must be documented
    assert document["externalDocs"]["url"] == "/api/protocol"
