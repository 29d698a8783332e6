"""Steps the browser tests share: open an invite link, wait for a version, play by clicking."""

from __future__ import annotations

import json
import random
import re
import time
from typing import Any
from urllib.parse import urlsplit

from httpclient import Client

BOARD = "[data-testid=board]"
#: What a person may click on a board: one action, or a card that narrows among several.
CLICKABLE = f"{BOARD} [data-action], {BOARD} [data-select]"


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


def create_in_form(
    page: Any, base: str, game: str, humans: int, options: dict[str, str] | None = None
) -> list[str]:
    """Fill the lobby's "new game" form (seats after the first ``humans`` stay bots) and return the
    invite links it shows; each keeps its token in the fragment."""
    page.goto(f"{base}/")
    page.click(f"[data-testid=new-{game}]")
    page.wait_for_selector("[data-testid=create-form]")
    for seat in range(humans):
        page.select_option(f"[data-testid=seat-kind-{seat}]", "")
        page.fill(f"[data-testid=seat-name-{seat}]", f"Player {seat + 1}")
    for testid, value in (options or {}).items():
        page.fill(f"[data-testid={testid}]", value)
    page.click("[data-testid=create-submit]")
    page.wait_for_selector("[data-testid=invite-link]")
    links = [page.input_value(f"[data-testid=invite-link][data-seat='{s}']") for s in range(humans)]
    for link in links:
        parts = urlsplit(link)
        assert parts.path == "/" and not parts.query and "token=" in parts.fragment, link
    # Each person's seat got entropy made in the browser (crypto.getRandomValues), as given.
    game_id = urlsplit(links[0]).fragment.split("/")[2].split("?")[0]
    seats = page.request.get(f"{base}/api/v1/games/{game_id}").json()["seats"]
    given = [seat["entropy"] for seat in seats[:humans]]
    assert all(re.fullmatch(r"[0-9a-f]{64}", e or "") for e in given) and len(set(given)) == humans, seats
    assert all(seat["entropy"] is None for seat in seats[humans:]), "a bot's seat gives no entropy"
    return links


def open_seat(page: Any, link: str) -> None:
    page.goto(link)
    page.wait_for_selector(f"{BOARD}[data-version]")
    assert "token" not in page.url, "the token stayed in the address bar"


def board_version(page: Any) -> int:
    value = page.get_attribute(BOARD, "data-version")
    return int(value) if value else -1


def wait_for_version(page: Any, newer_than: int, timeout: float = 15) -> int:
    """Until the board shows a version newer than ``newer_than``; that version."""
    deadline = time.monotonic() + timeout
    while (version := board_version(page)) <= newer_than:
        assert time.monotonic() < deadline, f"the board stayed at version {version}"
        page.wait_for_timeout(40)
    return version


def wait_for_exact_version(page: Any, version: int, timeout: float = 15) -> None:
    """Until the board shows exactly ``version`` (a replay)."""
    deadline = time.monotonic() + timeout
    while board_version(page) != version:
        assert time.monotonic() < deadline, f"the board is at version {board_version(page)}, not {version}"
        page.wait_for_timeout(40)


def replay_steps(page: Any) -> list[int]:
    """The versions the replay slider stops at (one a move, or one an event), first to live."""
    return [int(v) for v in json.loads(str(page.get_attribute("[data-testid=replay]", "data-steps")))]


def status(page: Any) -> str:
    return str(page.get_attribute("[data-testid=turn]", "data-status"))


def click_something(page: Any, rng: random.Random, rarely: str = "") -> bool:
    """Click one of the board's click targets (those matching ``rarely`` one time in six);
    False when the board offers none now."""
    classes = page.locator(CLICKABLE).evaluate_all("els => els.map(e => String(e.getAttribute('class')))")
    if not classes:
        return False
    indices = [i for i, c in enumerate(classes) if not (rarely and rarely in c)] or list(range(len(classes)))
    if len(indices) < len(classes) and rng.random() < 1 / 6:
        indices = list(range(len(classes)))
    before = board_version(page)
    try:
        page.locator(CLICKABLE).nth(rng.choice(indices)).click(timeout=2000)
    except Exception:  # the board was redrawn under the click (the other player moved): look again
        return True
    deadline = time.monotonic() + 5
    while board_version(page) == before and time.monotonic() < deadline:
        if page.locator(f"{BOARD} .sk-selected").count():
            break  # a narrowing step: nothing played yet
        page.wait_for_timeout(30)
    return True


def totals(page: Any) -> dict[int, int]:
    page.wait_for_selector("[data-testid=score-total]", timeout=30_000)
    cells = page.locator("[data-testid=score-total]")
    seats = [int(str(cells.nth(i).get_attribute("data-seat"))) for i in range(cells.count())]
    return {seat: int(cells.nth(i).inner_text()) for i, seat in enumerate(seats)}


#: Four games, one of each kind, to be played some way in: seats, options, and how many of the
#: first legal moves are made (the words, dark-mode and screenshot tests share them).
MIDGAME: dict[str, tuple[list[dict[str, Any]], dict[str, Any], int]] = {
    "kupferkessel": ([{"name": "Ada"}, {"name": "Ben"}], {}, 12),
    "skodakouzla": ([{"name": "Ada"}, {"name": "Ben"}], {}, 10),
    "carcassonne": ([{"name": "Ada"}, {"name": "Ben"}], {}, 8),
    "carodeni": ([{"name": "Ada"}, {"name": "Ostara", "bot": "ostara"}], {"solo": True}, 10),
}


def advance(api: Client, game: dict[str, Any], moves: int, pick: Any = None) -> None:
    """``moves`` legal moves of whichever human seat is to move (bots answer): the first listed, or
    the one ``pick(actions)`` chooses."""
    for _ in range(moves):
        summary = api.get(f"/api/v1/games/{game['id']}").body
        humans = [s for s in summary["to_move"] if game["seats"][s].get("token")]
        if summary["status"] != "active" or not humans:
            return
        mover = api.seat(game["seats"][humans[0]]["token"])
        actions = mover.get(f"/api/v1/games/{game['id']}/actions").body
        if actions:
            mover.post(f"/api/v1/games/{game['id']}/commands", pick(actions) if pick else actions[0])


def midgame(api: Client, kind: str) -> dict[str, Any]:
    """A game of ``kind`` made through the API and played some way in (:data:`MIDGAME`)."""
    seats, options, moves = MIDGAME[kind]
    game = create(api, kind, seats, options)
    advance(api, game, moves)
    return game
