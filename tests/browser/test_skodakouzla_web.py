"""Škoda kouzla in a real Chromium: a person against the default bot to the end, by clicking cards
on the board (a card named by several actions narrows among them), and the same final score as
``GET /score``."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

from browserui import (
    BOARD,
    board_version,
    click_something,
    create,
    create_in_form,
    invite,
    open_seat,
    replay_steps,
    status,
    totals,
    wait_for_exact_version,
)
from conftest import Web


def test_a_duel_against_the_bot_to_the_end(web: Web, new_page: Any, screenshots: Path) -> None:
    page = new_page(1200, 1000)
    (link,) = create_in_form(page, web.url, "skodakouzla", humans=1, options={"option-income": "3"})
    open_seat(page, link)
    game_id = page.url.rsplit("/", 1)[1]
    summary = web.api.get(f"/api/v1/games/{game_id}").body
    assert summary["options"] == {"income": 3}  # from the form the schema built; defaults left out
    assert [s["bot"] for s in summary["seats"]] == [None, "default"]
    rng = random.Random(5)
    deadline = time.monotonic() + 120
    narrowed = shot = False
    while status(page) != "finished":
        assert time.monotonic() < deadline, "the duel did not end within 120 s of clicking"
        if not click_something(page, rng, rarely="sk-choice"):  # the phase's end now and then
            page.wait_for_timeout(50)
        narrowed = narrowed or page.locator(f"{BOARD} .sk-selected").count() > 0
        if not shot and board_version(page) > 40 and status(page) == "active":
            page.locator(BOARD).screenshot(path=str(screenshots / "skodakouzla.png"))
            shot = True
            own_past(page, web, game_id)
    assert narrowed, "no card ever needed a second step"
    score = web.api.get(f"/api/v1/games/{game_id}/score").body
    assert totals(page) == {s["seat"]: s["total"] for s in score["seats"]}
    lines = page.locator("[data-testid=log] li").all_inner_texts()
    assert any("Player 1" in line for line in lines) and any("Bot 2" in line for line in lines)


def own_past(page: Any, web: Web, game_id: str) -> None:
    """While the game runs, the slider shows the seat's own past as ``?at=`` gives it to that seat."""
    token = json.loads(page.evaluate("() => localStorage.getItem('kotlik.seats')"))[game_id]["token"]
    slider = page.locator("[data-testid=replay]")
    low = replay_steps(page)[0]
    slider.focus()
    page.keyboard.press("Home")
    wait_for_exact_version(page, low)
    assert page.get_attribute(BOARD, "data-replay") == "true"
    assert page.locator(f"{BOARD} [data-action], {BOARD} [data-select]").count() == 0  # no moves in the past
    expected = web.api.seat(token).get(f"/api/v1/games/{game_id}/state?at={low}").body["view"]
    assert json.loads(page.locator("[data-testid=view-json]").text_content() or "null") == expected
    page.keyboard.press("End")
    deadline = time.monotonic() + 10
    while page.get_attribute(BOARD, "data-replay") != "false":
        assert time.monotonic() < deadline, "the slider's end did not come back to the live table"
        page.wait_for_timeout(40)


def test_a_dropped_stream_resumes_from_the_last_event_seen(web: Web, new_page: Any) -> None:
    """The page reads /stream with fetch(); when the connection drops it reconnects with
    ``Last-Event-ID`` and the bot's moves still arrive."""
    game = create(web.api, "skodakouzla", [{"name": "Me"}, {"name": "Bot", "bot": "default"}])
    page = new_page()
    streams: list[dict[str, str]] = []
    page.on("request", lambda r: streams.append(r.headers) if r.url.endswith("/stream") else None)
    page.route("**/stream", lambda route: route.abort(), times=1)  # the first connection fails
    open_seat(page, invite(web.url, game, 0))
    deadline = time.monotonic() + 10
    while len(streams) < 2:
        assert time.monotonic() < deadline, "the page did not reconnect to /stream"
        page.wait_for_timeout(50)
    assert streams[1]["authorization"].startswith("Bearer ")
    assert int(streams[1]["last-event-id"]) == board_version(page)
    end_phase = page.locator(f"{BOARD} .sk-choice[data-action]").filter(has_text="End phase")
    before = board_version(page)
    end_phase.click()
    deadline = time.monotonic() + 20
    while True:  # until the phase's end is played and the bot's whole turn after it
        summary = web.api.get(f"/api/v1/games/{game['id']}").body
        if summary["version"] > before and summary["to_move"] == [0]:
            break
        assert time.monotonic() < deadline, "the bot did not move"
        page.wait_for_timeout(100)
    version = summary["version"]
    wait_for_exact_version(page, version)  # the bot's moves came through the resumed stream
    assert version > before + 5
    assert page.locator(f"{BOARD} [data-testid=hand-0] [data-card]").count() == 5
    # the log grows only from the answer to one's own command and from the stream
    lines = page.locator("[data-testid=log] li").all_inner_texts()
    assert any(line.endswith("Turn 2: Bot.") for line in lines), lines[-10:]
