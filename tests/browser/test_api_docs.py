"""The interactive API docs render offline: every request of ``/docs`` stays on the site
(others are cut off), under its policy, with no script error."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit


def offline(page: Any, url: str) -> list[str]:
    """Cut ``page`` off from everything but the site at ``url``; the addresses it tried."""
    elsewhere: list[str] = []
    site = urlsplit(url).netloc

    def route(request_route: Any) -> None:
        address = request_route.request.url
        if urlsplit(address).netloc == site or address.startswith(("data:", "blob:")):
            request_route.continue_()
        else:
            elsewhere.append(address)
            request_route.abort()

    page.route("**/*", route)
    return elsewhere


def test_swagger_ui_renders_every_operation_offline(server: Any, page: Any) -> None:
    elsewhere = offline(page, server.url)
    page.goto(f"{server.url}/docs")
    page.wait_for_selector(".opblock-summary-path", timeout=30_000)
    paths = page.locator(".opblock-summary-path").all_inner_texts()
    assert "/api/tables" in paths and "/api/games" in paths
    assert page.locator(".information-container .title").inner_text().startswith("Coffee Table")
    assert elsewhere == []
