"""Replay by move and a log that follows it (issue 50): every step of the slider changes the table,
the log marks the move shown, a click on a log line's number jumps there; and Kupferkessel's log
seen live is the log a reload shows (the memory rule hides the same things in both, in words).
"""

from __future__ import annotations

import json
from typing import Any

from browserui import BOARD, create, invite, replay_steps, wait_for_exact_version, wait_for_version
from httpclient import Client


def _moves(api: Client, game: dict[str, Any], count: int) -> None:
    for _ in range(count):
        summary = api.get(f"/api/v1/games/{game['id']}").body
        if summary["status"] != "active":
            return
        mover = api.seat(game["seats"][summary["to_move"][0]]["token"])
        action = mover.get(f"/api/v1/games/{game['id']}/actions").body[0]
        assert mover.post(f"/api/v1/games/{game['id']}/commands", action).status == 201


def test_replay_by_move_and_the_log_that_follows_it(web: Any, new_page: Any) -> None:
    game = create(web.api, "kupferkessel", [{"name": "Ada"}, {"name": "Ben"}])
    page = new_page(1280, 900)
    page.goto(invite(web.url, game, 0))
    page.wait_for_selector(f"{BOARD}[data-version]")
    version = int(str(page.get_attribute(BOARD, "data-version")))
    _moves(web.api, game, 14)  # seen live, through the stream
    final = web.api.get(f"/api/v1/games/{game['id']}").body["version"]
    wait_for_version(page, final - 1)
    assert final > version
    live = page.locator("[data-testid=log] li").all_inner_texts()

    page.reload()
    page.wait_for_selector(f"{BOARD}[data-version]")
    page.wait_for_selector("[data-testid=log] li")
    assert page.locator("[data-testid=log] li").all_inner_texts() == live, "the log after a reload differs"

    token = game["seats"][0]["token"]
    steps = replay_steps(page)
    views = [web.api.seat(token).get(f"/api/v1/games/{game['id']}/state?at={v}").body["view"] for v in steps]
    unchanged = [steps[i + 1] for i in range(len(views) - 1) if views[i] == views[i + 1]]
    assert not unchanged, f"steps that change nothing on the table: {unchanged}"

    # a click on a log line's number shows the table after its move, and the log marks it
    line = page.locator("[data-testid=log] li").nth(len(live) // 2)
    clicked = int(str(line.get_attribute("data-version")))
    line.locator("button.log-jump").click()
    target = next(v for v in steps if v >= clicked)
    wait_for_exact_version(page, target)
    assert page.get_attribute(BOARD, "data-replay") == "true"
    marked = page.locator("[data-testid=log] li[aria-current]")
    assert int(str(marked.get_attribute("data-version"))) == target
    shown = json.loads(page.locator("[data-testid=view-json]").text_content() or "null")
    assert shown == views[steps.index(target)]

    # event by event stays available: one stop a version
    page.check("[data-testid=replay-by-event]")
    every = replay_steps(page)
    assert every == list(range(every[0], every[-1] + 1)) and len(every) > len(steps)
