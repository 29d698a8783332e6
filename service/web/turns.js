// "Your turn" from any open Kotlík page, the game's own page closed: this browser's games (its seat
// tokens and its player's games) followed with the API's event stream (/stream), and whose turn it
// is said in the tab title ("(2) Your turn — Kotlík"), a badge on the favicon, an opt-in browser
// notification and chime (when a seat of ours comes to move or its clock is about to run out), and a
// `kotlik:turns` event on window that the lobby redraws its "your turn" badges from.
import { API, follow as follow_ } from "./api.js";
import { h } from "./dom.js";
import { extend, t } from "./i18n.js";
import * as push from "./push.js";
import * as tokens from "./tokens.js";

extend({
  en: { yourTurnTitle: "Your turn", yourTurnNotice: "Your turn", notifications: "Notify me", chime: "Sound" },
  cs: { yourTurnTitle: "Jsi na tahu", yourTurnNotice: "Jsi na tahu", notifications: "Upozornění", chime: "Zvuk" },
  pl: { yourTurnTitle: "Twój ruch", yourTurnNotice: "Twój ruch", notifications: "Powiadomienia", chime: "Dźwięk" },
});

const NOTIFY = "kotlik.notify";
const CHIME = "kotlik.chime";
/** Streams held at once: a browser keeps six connections to one host; the game page's stream and
 * its requests need the rest. Games past these are looked at with a plain read every LOOK ms. (A
 * stream, not a long-poll: the server notices a closed stream at its next heartbeat, while a
 * long-poll holds its request, and a server's graceful stop, for the whole wait.) */
const HELD = 4;
const LOOK = 20_000;

/** id → {token, seat, version, myTurn, over, deadline, warned, summary} */
const games = new Map();
let started = false;
let audio = null;
let plainIcon = null;

/** The games whose seat of ours is to move now (ids). */
export function mine() {
  return [...games].filter(([, g]) => g.myTurn).map(([id]) => id);
}

/** Whether the seat we hold in game `id` is to move; `undefined` while not known. */
export function isMyTurn(id) {
  return games.get(id)?.myTurn;
}

/** Begin (once), or look again for games this browser came to hold (a route change calls it). */
export function start() {
  push.start(); // the service worker for Web Push (push.js), and the language it shows
  if (started) {
    discover();
    return;
  }
  started = true;
  discover();
  setInterval(discover, LOOK);
  document.addEventListener("visibilitychange", show);
}

/** Follow every game this browser holds a seat of that is not followed yet; a player key's games too. */
async function discover() {
  const found = Object.entries(tokens.all()).map(([id, held]) => [id, held.token, held.seat]);
  const key = tokens.playerKey();
  if (key) {
    const answer = await read(`/players/me/games?status=active&page_size=50`, key).catch(() => null);
    for (const g of answer?.body || []) if (!found.some(([id]) => id === g.id)) found.push([g.id, key, g.seat]);
  }
  for (const [id, token, seat] of found) {
    if (!games.has(id)) games.set(id, { token, seat, version: null, myTurn: undefined, over: false, deadline: null, warned: null });
  }
  for (const [id, g] of games) {
    if (g.held || g.over) continue;
    if ([...games.values()].filter((x) => x.held).length < HELD) {
      g.held = true;
      follow(id);
    } else {
      look(id);
    }
  }
}

async function read(path, token) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(API + path, { headers, cache: "no-store" });
  if (!response.ok) throw Object.assign(new Error(`HTTP ${response.status}`), { status: response.status });
  return { body: await response.json() };
}

/** One game by its event stream until it is over: each burst of events, its state read once. */
async function follow(id) {
  await look(id);
  const g = games.get(id);
  if (g.over) {
    g.held = false;
    return;
  }
  let pending = null;
  const stop = new AbortController();
  await follow_(id, g.token, g.version, () => {
    clearTimeout(pending);
    pending = setTimeout(() => look(id).then(() => g.over && stop.abort()), 20);
  }, stop.signal);
  g.held = false; // over (its "end" came), so a slot is free for another game
  await look(id);
}

async function look(id) {
  try {
    const answer = await read(`/games/${id}/state`, games.get(id).token);
    if (answer) seen(id, answer.body);
  } catch (error) {
    // a game this server does not know, or a seat token it no longer takes: not followed again
    if (error.status === 401 || error.status === 404) games.get(id).over = true;
    // anything else: looked at again on the next round
  }
}

/** A state of game `id`: its turn changed → title, icon, event; a seat of ours came to move → notice. */
async function seen(id, state) {
  const g = games.get(id);
  const was = g.myTurn;
  Object.assign(g, {
    version: state.version, over: state.over, deadline: state.deadline ?? null,
    myTurn: !state.over && g.seat != null && state.to_move.includes(g.seat),
  });
  if (!g.summary) g.summary = await read(`/games/${id}`).then((a) => a?.body, () => null);
  if (was !== g.myTurn) {
    show();
    window.dispatchEvent(new CustomEvent("kotlik:turns", { detail: { id, myTurn: g.myTurn } }));
    if (g.myTurn && was === false) alert(id, t("yourTurnNotice"));
  }
  clock(id);
}

/** A warning `warn_seconds` ahead of the deadline of a seat of ours, once per deadline. */
function clock(id) {
  const g = games.get(id);
  const warn = g.summary?.clock?.warn_seconds;
  clearTimeout(g.clockTimer);
  if (!g.myTurn || !g.deadline || warn == null || g.warned === g.deadline) return;
  const due = Date.parse(g.deadline) - warn * 1000 - Date.now();
  g.clockTimer = setTimeout(() => {
    if (!g.myTurn || g.warned === g.deadline) return;
    g.warned = g.deadline;
    alert(id, `${t("deadline")} ${new Date(g.deadline).toLocaleTimeString()}`);
  }, Math.max(0, due));
}

function gameName(id) {
  const s = games.get(id)?.summary;
  return s ? s.seats.map((p) => p.name).join(" – ") : "";
}

/** Say it where the player is not looking: a notification and a chime, each if opted in. */
function alert(id, text) {
  const here = location.hash === `#/game/${id}` && !document.hidden;
  if (here) return;
  if (localStorage.getItem(NOTIFY) === "1" && "Notification" in window && Notification.permission === "granted") {
    const notice = new Notification(`${text} — Kotlík`, { body: gameName(id), tag: `kotlik-${id}`, icon: "/web/icon.svg" });
    notice.onclick = () => {
      window.focus();
      location.hash = `#/game/${id}`;
      notice.close();
    };
  }
  if (localStorage.getItem(CHIME) === "1") chime();
}

function chime() {
  try {
    audio = audio || new AudioContext();
    audio.resume?.();
    [660, 880].forEach((freq, i) => {
      const at = audio.currentTime + i * 0.18;
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.2, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.3);
      tone.connect(gain).connect(audio.destination);
      tone.start(at);
      tone.stop(at + 0.32);
    });
  } catch { /* no audio here */ }
}

/** The tab's title and favicon from the count of games waiting on us. */
export function show() {
  const n = mine().length;
  const title = n ? `(${n}) ${t("yourTurnTitle")} — Kotlík` : "Kotlík";
  if (document.title !== title) document.title = title;
  const link = document.querySelector("link[rel=icon]");
  if (!link) return;
  plainIcon = plainIcon || link.getAttribute("href");
  link.dataset.turns = String(n);
  if (!n) {
    link.setAttribute("href", plainIcon);
    return;
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><path d="M5 12h22l-2 12a6 6 0 0 1-6 5h-6a6 6 0 0 1-6-5z" fill="#8a4b08"/><ellipse cx="16" cy="12" rx="11" ry="3" fill="#3b2b1a"/><circle cx="23" cy="9" r="9" fill="#c00"/><text x="23" y="13.5" font-size="13" font-family="sans-serif" font-weight="700" text-anchor="middle" fill="#fff">${n > 9 ? "9+" : n}</text></svg>`;
  link.setAttribute("href", `data:image/svg+xml,${encodeURIComponent(svg)}`);
}

/** The header's switches: notifications (permission asked on this click), the chime, and Web Push
 * (push.js: notifications with no tab open). */
export function controls() {
  const notify = h("button", { type: "button", class: "toggle", "data-testid": "notify-toggle" });
  const sound = h("button", { type: "button", class: "toggle", "data-testid": "chime-toggle" });
  const draw = () => {
    const on = localStorage.getItem(NOTIFY) === "1" && "Notification" in window && Notification.permission === "granted";
    notify.setAttribute("aria-pressed", String(on));
    notify.textContent = `${on ? "🔔" : "🔕"} ${t("notifications")}`;
    const ring = localStorage.getItem(CHIME) === "1";
    sound.setAttribute("aria-pressed", String(ring));
    sound.textContent = `${ring ? "🔊" : "🔈"} ${t("chime")}`;
  };
  notify.addEventListener("click", async () => {
    if (notify.getAttribute("aria-pressed") === "true") localStorage.removeItem(NOTIFY);
    else if ("Notification" in window && (await Notification.requestPermission()) === "granted") localStorage.setItem(NOTIFY, "1");
    draw();
  });
  sound.addEventListener("click", () => {
    if (localStorage.getItem(CHIME) === "1") localStorage.removeItem(CHIME);
    else {
      localStorage.setItem(CHIME, "1");
      chime(); // this click lets the page play sound later, and lets the player hear it
    }
    draw();
  });
  draw();
  return [notify, sound, ...push.controls()];
}
