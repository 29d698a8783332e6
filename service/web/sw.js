// Kotlík's service worker: shows the Web Push messages the server sends when a seat of the player
// comes to move or its clock is about to run out, with no Kotlík tab open, and on a click focuses
// a Kotlík tab on that game (or opens one). Plain script, no imports: a worker module is not
// supported by every browser that supports push. The page (push.js) registers it and subscribes.
//
// A message is the server's notice as JSON: {kind, game_id, game, seat, version, deadline?, url}
// (workers/push.py). One notification per game (its tag), so a newer notice replaces an older one.

const WORDS = {
  en: { your_turn: "Your turn", clock_warning: "Your time is running out", until: "until", seat: "seat" },
  cs: { your_turn: "Jsi na tahu", clock_warning: "Dochází ti čas", until: "do", seat: "místo" },
  pl: { your_turn: "Twój ruch", clock_warning: "Kończy ci się czas", until: "do", seat: "miejsce" },
};
const GAMES = {
  kupferkessel: { en: "Kupferkessel Co.", cs: "Čarodějnický kotlík", pl: "Kupferkessel Co." },
  carodeni: { en: "Witchdom", cs: "Čarodění", pl: "Wiedźmy" },
  skodakouzla: { en: "Škoda kouzla", cs: "Škoda kouzla", pl: "Škoda kouzla" },
  carcassonne: { en: "Carcassonne", cs: "Carcassonne", pl: "Carcassonne" },
};
/** Where the page keeps its language for this worker (Cache Storage: a worker has no localStorage). */
const SETTINGS = "kotlik-push";
const LANG = "/web/push-lang";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

async function language() {
  try {
    const answer = await (await caches.open(SETTINGS)).match(LANG);
    const code = answer && (await answer.text());
    if (WORDS[code]) return code;
  } catch { /* no Cache Storage here */ }
  const browser = (self.navigator.language || "en").slice(0, 2);
  return WORDS[browser] ? browser : "en";
}

/** The notification of one notice: its words in the player's language. */
async function notification(notice) {
  const code = await language();
  const words = WORDS[code];
  const game = GAMES[notice.game]?.[code] || notice.game || "";
  let body = game;
  if (notice.kind === "clock_warning" && notice.deadline) {
    const at = new Date(notice.deadline).toLocaleTimeString(code, { hour: "2-digit", minute: "2-digit" });
    body = `${game} — ${words.until} ${at}`;
  }
  return {
    title: `${words[notice.kind] || words.your_turn} — Kotlík`,
    options: {
      body,
      tag: `kotlik-${notice.game_id}`,
      renotify: true,
      icon: "/web/icon.svg",
      data: { url: notice.url || `/#/game/${notice.game_id}`, game_id: notice.game_id, kind: notice.kind },
      requireInteraction: notice.kind === "clock_warning",
    },
  };
}

self.addEventListener("push", (event) => {
  let notice = null;
  try {
    notice = event.data ? event.data.json() : null;
  } catch { /* not JSON: shown as a plain "your turn" */ }
  event.waitUntil((async () => {
    const { title, options } = await notification(notice || { kind: "your_turn", game_id: "" });
    await self.registration.showNotification(title, options);
  })());
});

self.addEventListener("notificationclick", (event) => event.waitUntil(clicked(event.notification)));

/** A notification clicked: it goes, and a Kotlík tab is focused and moved to its game, or one is
 * opened there. A tab the browser does not let this worker focus is still moved. */
async function clicked(shown) {
  shown.close();
  const url = new URL(shown.data?.url || "/", self.location.origin).href;
  const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const tab = open.find((c) => new URL(c.url).origin === self.location.origin);
  if (!tab) return self.clients.openWindow(url);
  tab.postMessage({ kotlik: "open", url }); // push.js moves that tab to the game
  return tab.focus().catch(() => tab);
}

// A subscription the browser renews (pushsubscriptionchange) is sent again by the page the next
// time it opens (push.js compares endpoints): this worker holds no player key to send it with.
