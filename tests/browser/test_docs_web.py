"""The API docs page renders in a real browser under its Content-Security-Policy, loading nothing
from anywhere but this server (Swagger UI ships in the package: no CDN)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from conftest import Web


def test_the_docs_render_under_their_policy_from_this_server_alone(web: Web, new_page: Any) -> None:
    page = new_page()
    requested: list[str] = []
    refused: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(f"{web.url}/api/v1/docs")
    page.wait_for_selector(".opblock-summary-path", timeout=20_000)  # the operations, listed
    assert page.locator(".opblock").count() > 10
    page.locator(".opblock-summary").first.click()  # an operation opens: its scripts run
    page.wait_for_selector(".opblock-body", timeout=10_000)
    own = urlsplit(web.url).netloc
    elsewhere = [url for url in requested if url.startswith("http") and urlsplit(url).netloc != own]
    assert requested and not elsewhere, requested
    assert not refused, refused
