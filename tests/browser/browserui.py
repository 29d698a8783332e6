"""Steps the browser tests share: open an invite link, wait for a version, play by clicking."""

from __future__ import annotations

import time
from typing import Any

from httpclient import Client


def create(
    api: Client, game: str, seats: list[dict[str, Any]], options: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A game made through the API (for arranged options the form does not show); moves are clicked."""
    reply = api.post("/api/v1/games", {"game": game, "seats": seats, "options": options or {}})
    assert reply.status == 201, reply
    return dict(reply.body)


def invite(base: str, game: dict[str, Any], seat: int) -> str:
    """The invite link the create form shows for ``seat`` (the token in the fragment only)."""
    token = game["seats"][seat]["token"]
    return f"{base}/#/play/{game['id']}?seat={seat}&token={token}"


def board_version(page: Any) -> int:
    value = page.get_attribute("[data-testid=board]", "data-version")
    return int(value) if value else -1


def wait_for_version(page: Any, newer_than: int, timeout: float = 15) -> int:
    deadline = time.monotonic() + timeout
    while (version := board_version(page)) <= newer_than:
        assert time.monotonic() < deadline, f"the board stayed at version {version}"
        page.wait_for_timeout(50)
    return version


def status(page: Any) -> str:
    return str(page.get_attribute("[data-testid=turn]", "data-status"))
