// Web Push: "your turn" and clock warnings with no Kotlík tab open, through the browser's push
// service, for a player who opts in. The page registers the service worker (sw.js) on every load;
// the header's switch asks the browser's permission, subscribes with the server's VAPID key
// (GET /push/key) and hands the subscription to the server with the player key
// (POST /players/me/push); switched off, it is removed there (DELETE) and in the browser.
// Subscriptions are a player's, not a seat's: without a player key the switch says to become one
// (the lobby's "player" section). A click on a notification focuses a Kotlík tab, which this
// module moves to the game (the worker's message), or opens one.
import { API, post, Problem } from "./api.js";
import { h } from "./dom.js";
import { extend, lang, t } from "./i18n.js";
import { describe } from "./problems.js";
import * as tokens from "./tokens.js";

extend({
  en: {
    push: "Notify when closed", pushOn: "Notifications reach this device with Kotlík closed.",
    pushNeedsPlayer: "Become a player (in the lobby) first: notifications go to a player's games.",
    pushDenied: "The browser does not allow notifications for this site.",
    pushUnsupported: "This browser cannot receive notifications with the page closed.",
    pushFailed: "The browser's push service refused the subscription:",
  },
  cs: {
    push: "Upozornit i zavřené", pushOn: "Upozornění přijdou na toto zařízení i se zavřeným Kotlíkem.",
    pushNeedsPlayer: "Nejdřív se staň hráčem (v lobby): upozornění patří ke hrám hráče.",
    pushDenied: "Prohlížeč tomuto webu upozornění nepovoluje.",
    pushUnsupported: "Tento prohlížeč neumí přijímat upozornění se zavřenou stránkou.",
    pushFailed: "Služba upozornění prohlížeče odběr odmítla:",
  },
  pl: {
    push: "Powiadamiaj po zamknięciu", pushOn: "Powiadomienia dotrą na to urządzenie także przy zamkniętym Kotlíku.",
    pushNeedsPlayer: "Najpierw zostań graczem (w lobby): powiadomienia dotyczą gier gracza.",
    pushDenied: "Przeglądarka nie zezwala tej stronie na powiadomienia.",
    pushUnsupported: "Ta przeglądarka nie odbiera powiadomień przy zamkniętej stronie.",
    pushFailed: "Usługa powiadomień przeglądarki odrzuciła subskrypcję:",
  },
});

/** {id, endpoint} of this browser's subscription on the server. */
const HELD = "kotlik.push";
const WORKER = "/web/sw.js";
/** Where the worker reads the page's language from (sw.js). */
const SETTINGS = "kotlik-push";
const LANG = "/web/push-lang";

let registering = null;

export function supported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

function held() {
  try {
    return JSON.parse(localStorage.getItem(HELD) || "null");
  } catch {
    return null;
  }
}

/** Register the worker (once a page), tell it the language, and send again a subscription the
 * browser renewed since (another endpoint than the server holds). */
export function start() {
  if (!supported()) return Promise.resolve(null);
  if (registering) {
    tellLanguage();
    return registering;
  }
  navigator.serviceWorker.addEventListener("message", (event) => {
    if (event.data?.kotlik === "open") location.hash = new URL(event.data.url).hash || "#/";
  });
  navigator.serviceWorker.startMessages?.();
  registering = navigator.serviceWorker.register(WORKER).then(async (registration) => {
    tellLanguage();
    const mine = held();
    if (mine && tokens.playerKey()) {
      const now = await registration.pushManager.getSubscription().catch(() => null);
      if (!now) localStorage.removeItem(HELD);
      else if (now.endpoint !== mine.endpoint) await send(now).catch(() => null);
    }
    return registration;
  }).catch(() => null);
  return registering;
}

function tellLanguage() {
  window.caches?.open(SETTINGS).then((c) => c.put(LANG, new Response(lang()))).catch(() => null);
}

/** The registration once its worker is active (pushManager.subscribe needs an active one). */
async function active(registration) {
  if (registration.active) return registration;
  const coming = registration.installing || registration.waiting;
  await new Promise((resolve) => {
    coming.addEventListener("statechange", () => coming.state === "activated" && resolve());
  });
  return registration;
}

function decode(text) {
  const raw = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

async function send(subscription) {
  const answer = await post("/players/me/push", subscription.toJSON(), tokens.playerKey());
  localStorage.setItem(HELD, JSON.stringify({ id: answer.id, endpoint: answer.endpoint }));
}

/** Opt in: permission, a subscription with the server's key, handed to the server. */
export async function subscribe() {
  if (!supported()) throw new Error(t("pushUnsupported"));
  if (!tokens.playerKey()) throw new Error(t("pushNeedsPlayer"));
  if ((await Notification.requestPermission()) !== "granted") throw new Error(t("pushDenied"));
  const registration = await active(await start());
  const { key } = await (await fetch(`${API}/push/key`, { cache: "no-store" })).json();
  const old = await registration.pushManager.getSubscription();
  if (old) await old.unsubscribe(); // made with another key, or for another player: a fresh one
  let subscription;
  try {
    subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: decode(key) });
  } catch (error) {
    throw new Error(`${t("pushFailed")} ${error.message || error.name}`);
  }
  try {
    await send(subscription);
  } catch (error) {
    await subscription.unsubscribe().catch(() => null);
    throw error;
  }
}

/** Opt out: the server forgets the subscription, and so does the browser. */
export async function unsubscribe() {
  const mine = held();
  localStorage.removeItem(HELD);
  if (mine && tokens.playerKey()) {
    await fetch(`${API}/players/me/push/${mine.id}`, {
      method: "DELETE", headers: { Authorization: `Bearer ${tokens.playerKey()}` },
    }).catch(() => null);
  }
  const registration = await start();
  const now = await registration?.pushManager.getSubscription().catch(() => null);
  await now?.unsubscribe().catch(() => null);
}

/** The header's switch and what it has to say. */
export function controls() {
  const button = h("button", { type: "button", class: "toggle", "data-testid": "push-toggle" });
  const status = h("span", { class: "push-status", role: "status", "data-testid": "push-status" });
  const draw = () => {
    const on = Boolean(held()) && supported() && Notification.permission === "granted";
    button.setAttribute("aria-pressed", String(on));
    button.textContent = `${on ? "📲" : "📴"} ${t("push")}`;
    button.title = on ? t("pushOn") : supported() ? (tokens.playerKey() ? "" : t("pushNeedsPlayer")) : t("pushUnsupported");
  };
  button.addEventListener("click", async () => {
    button.disabled = true;
    status.textContent = "";
    try {
      if (button.getAttribute("aria-pressed") === "true") await unsubscribe();
      else await subscribe();
    } catch (error) {
      status.textContent = error instanceof Problem ? describe(error).text : error.message || String(error);
    }
    button.disabled = false;
    draw();
  });
  draw();
  return [button, status];
}
