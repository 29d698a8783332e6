"""Web Push in Chromium (issue 50): the page registers the service worker on any page, the header's
switch subscribes a player who opts in, the worker shows a pushed notice in the player's words, and
a click on it takes the player's tab to the game.

Headless Chromium has no push service of its own (Google's, which Chrome reaches with its API
keys, is not wired into a plain headless Chromium: ``pushManager.subscribe`` fails there with
"Registration failed - permission denied", notifications granted or not). The test
then checks what the page does with the failure (it says so, and the server holds nothing) and
still drives the rest: the worker is registered and active, the switch is in the header, and a
push message delivered to the worker through the DevTools protocol
(``ServiceWorker.deliverPushMessage``, what the push service's message would be, decrypted) is
shown as a notification with the game's name, in Czech, one per game. Where subscribing works,
the subscription reaches the server and switching off removes it there.
"""

from __future__ import annotations

import json
import time
from typing import Any
from uuid import uuid4

import test_push as pushtest  # the push service and the browser's keys of tests/platform/test_push.py

_REGISTRATION = """async () => {
  const r = await navigator.serviceWorker.getRegistration("/web/");
  return Boolean(r && r.active && r.active.scriptURL.endsWith("/web/sw.js"));
}"""

#: The switch has done what a click asked: it is on, or it says why not.
_SETTLED = """() => document.querySelector("[data-testid=push-toggle]").ariaPressed === "true"
    || document.querySelector("[data-testid=push-status]").textContent !== "" """

_NOTIFICATIONS = """async () => {
  const r = await navigator.serviceWorker.getRegistration("/web/");
  return (await r.getNotifications()).map((n) => ({title: n.title, body: n.body, tag: n.tag, data: n.data}));
}"""


def deliver(context: Any, page: Any, origin: str, notices: list[dict[str, Any]]) -> None:
    """Hand ``notices`` to the page's service worker as push messages (the DevTools protocol)."""
    cdp = context.new_cdp_session(page)
    found: list[dict[str, Any]] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: found.extend(e["registrations"]))
    cdp.send("ServiceWorker.enable")
    deadline = time.monotonic() + 5
    while not [r for r in found if r["scopeURL"].endswith("/web/")] and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    registration = next(r["registrationId"] for r in found if r["scopeURL"].endswith("/web/"))
    for notice in notices:
        message = {"origin": origin, "registrationId": registration, "data": json.dumps(notice)}
        cdp.send("ServiceWorker.deliverPushMessage", message)


def notifications(page: Any) -> list[dict[str, Any]]:
    """The worker's notifications once it has shown some (and a moment for any more to come)."""
    deadline = time.monotonic() + 10
    while not page.evaluate(_NOTIFICATIONS) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    page.wait_for_timeout(300)
    return list(page.evaluate(_NOTIFICATIONS))


def test_the_worker_is_registered_the_switch_subscribes_and_a_push_is_shown(web: Any, browser: Any) -> None:
    made = web.api.post("/api/v1/players", {"name": f"Pushy {uuid4().hex[:6]}"})
    assert made.status == 201
    key = made.body["key"]
    mine = web.api.seat(key)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    try:
        context.grant_permissions(["notifications"], origin=web.url)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{web.url}/#/")
        page.evaluate(
            "k => { localStorage.setItem('kotlik.player', k); localStorage.setItem('kotlik.lang', 'cs'); }",
            key,
        )
        page.reload()
        page.wait_for_function(_REGISTRATION, timeout=10_000)  # registered on any page, no opt-in yet
        toggle = page.locator("[data-testid=push-toggle]")
        assert toggle.get_attribute("aria-pressed") == "false"
        assert "Upozornit i zavřené" in toggle.inner_text()

        toggle.click()
        page.wait_for_function(_SETTLED, timeout=15_000)
        subscribed = toggle.get_attribute("aria-pressed") == "true"
        held = mine.get("/api/v1/players/me/push").body
        if subscribed:
            endpoint = page.evaluate(
                """async () => (await (await navigator.serviceWorker.getRegistration("/web/"))
                    .pushManager.getSubscription()).endpoint"""
            )
            assert [s["endpoint"] for s in held] == [endpoint]
            toggle.click()
            page.wait_for_selector("[data-testid=push-toggle][aria-pressed=false]")
            assert mine.get("/api/v1/players/me/push").body == []
        else:
            status = page.locator("[data-testid=push-status]").inner_text()
            print(f"\nChromium could not subscribe (no push service here): {status}")
            assert status.startswith("Služba upozornění prohlížeče odběr odmítla"), status
            assert held == [] and page.evaluate("localStorage.getItem('kotlik.push')") is None

        # Push messages, as the push service would hand them to the worker once decrypted.
        game_id = str(uuid4())
        notice = {"kind": "your_turn", "game_id": game_id, "game": "carodeni", "seat": 1, "version": 7}
        notice["url"] = f"/#/game/{game_id}"
        deliver(context, page, web.url, [notice, {**notice, "version": 9}])  # one game: one notification
        shown = notifications(page)
        assert shown == [
            {
                "title": "Jsi na tahu — Kotlík",
                "body": "Čarodění",
                "tag": f"kotlik-{game_id}",
                "data": {"url": f"/#/game/{game_id}", "game_id": game_id, "kind": "your_turn"},
            }
        ], shown
    finally:
        context.close()
    assert not errors, errors


#: The browser's push service, standing in for the one headless Chromium lacks: ``subscribe``
#: records the key it was given and answers the subscription the test made (its endpoint on the
#: test's loopback push service, its keys the test's own, so the test can read what is pushed).
_PUSH_SERVICE = """(() => {
window.__subscribed = [];
const made = () => JSON.parse(localStorage.getItem("test.subscription") || "null");
const subscription = () => made() && {
  endpoint: made().endpoint,
  toJSON: () => made(),
  unsubscribe: async () => { localStorage.removeItem("test.subscription"); return true; },
};
PushManager.prototype.subscribe = async function (options) {
  window.__subscribed.push(Array.from(new Uint8Array(options.applicationServerKey)));
  localStorage.setItem("test.subscription", localStorage.getItem("test.next"));
  return subscription();
};
PushManager.prototype.getSubscription = async function () { return subscription(); };
})();"""


def test_the_switch_hands_the_subscription_to_the_server_and_a_turn_is_pushed(web: Any, browser: Any) -> None:
    """The page's half of opting in, against a stand-in for the browser's push service: the switch
    subscribes with the server's VAPID key, hands the subscription to the server, and a turn of the
    player's is then pushed by the real worker to the test's push service, encrypted for the keys
    the page gave; delivered to the worker, it is shown. Switched off, the server forgets it."""
    service = pushtest.PushService()
    keys = pushtest.Browser(f"{service.origin}/page/{uuid4().hex}")
    made = web.api.post("/api/v1/players", {"name": f"Paged {uuid4().hex[:6]}"})
    key = made.body["key"]
    mine = web.api.seat(made.body["key"])
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        context.grant_permissions(["notifications"], origin=web.url)
        context.add_init_script(_PUSH_SERVICE)
        page = context.new_page()
        page.goto(f"{web.url}/#/")
        page.evaluate(
            "([k, s]) => { localStorage.setItem('kotlik.player', k); localStorage.setItem('test.next', s); }",
            [key, json.dumps(keys.subscription())],
        )
        page.reload()
        page.wait_for_function(_REGISTRATION, timeout=10_000)
        page.click("[data-testid=push-toggle]")
        page.wait_for_function(_SETTLED, timeout=15_000)
        status = page.locator("[data-testid=push-status]").inner_text()
        assert page.get_attribute("[data-testid=push-toggle]", "aria-pressed") == "true", status
        server_key = web.api.get("/api/v1/push/key").body["key"]
        assert page.evaluate("window.__subscribed") == [list(pushtest.unb64url(server_key))]
        held = mine.get("/api/v1/players/me/push").body
        assert [s["endpoint"] for s in held] == [keys.endpoint]
        assert json.loads(page.evaluate("localStorage.getItem('kotlik.push')"))["id"] == held[0]["id"]

        game = web.api.post(
            "/api/v1/games", {"game": "kupferkessel", "seats": [{"player": made.body["id"]}, {"name": "B"}]}
        ).body
        theirs = web.api.seat(game["seats"][1]["token"])
        version = pushtest.turn_to(web.api, game, mine, theirs, 0)
        path = keys.endpoint.removeprefix(service.origin)

        def pushed() -> list[dict[str, Any]]:
            return [g for g in service.at(path) if keys.read(g["body"])["version"] == version]

        got = pushtest.wait(pushed, 30, "the push")
        notice = keys.read(got[0]["body"])
        assert notice["kind"] == "your_turn" and notice["game_id"] == game["id"] and notice["seat"] == 0
        pushtest.check_vapid(got[0], server_key, service.origin)

        deliver(context, page, web.url, [notice])
        shown = notifications(page)
        assert [(n["title"], n["body"], n["tag"]) for n in shown] == [
            ("Your turn — Kotlík", "Kupferkessel Co.", f"kotlik-{game['id']}")
        ]
        # Clicked (the worker's handler given the notification shown: a headless browser draws no
        # notification to click), it goes, and this tab moves to the game.
        assert not page.evaluate("location.hash").startswith("#/game/")
        worker = next(w for w in context.service_workers if w.url.endswith("/web/sw.js"))
        worker.evaluate("async () => clicked((await self.registration.getNotifications())[0])")
        page.wait_for_function(f"location.hash === '#/game/{game['id']}'", timeout=10_000)
        assert page.evaluate(_NOTIFICATIONS) == []

        page.click("[data-testid=push-toggle]")
        page.wait_for_selector("[data-testid=push-toggle][aria-pressed=false]")
        assert mine.get("/api/v1/players/me/push").body == []
        assert page.evaluate("localStorage.getItem('test.subscription')") is None
    finally:
        context.close()
        service.server.shutdown()
