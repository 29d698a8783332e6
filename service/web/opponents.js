// #/opponents: find someone to play. The games waiting for players, each with "take this seat";
// a "find me an opponent" form per game (a seek: rated or casual, seats, clock, bot fallback),
// which waits live until the seek is paired and then opens the game; the leaderboards and the
// player's own rating. Everything through the public API, with the player key this browser holds.
// A waiting seek or table hears of its pairing or taken seats by the server's push (the seek's
// long-poll, the table's event stream), never by polling: see `live`.
import * as api from "./api.js";
import { h } from "./dom.js";
import { lang, nameOf, t } from "./i18n.js";
import * as problems from "./problems.js";
import * as tokens from "./tokens.js";

// This page's words, beside it (the shell's dictionary is i18n.js).
const WORDS = {
  en: {
    title: "Find an opponent", open: "Games waiting for players", none: "No game waits for players now.",
    take: "Take this seat", seek: "Find me an opponent", game: "Game", seats: "Players", rated: "Rated",
    clock: "Time per move (e.g. 24h, optional)", bot: "If nobody comes, play the bot", after: "after (seconds)",
    nobot: "no bot", go: "Find", waiting: "Waiting for an opponent…", cancel: "Cancel", cancelled: "Cancelled.",
    board: "Leaderboard", mine: "Your ratings", noKey: "Create a player in the lobby first: a seat is taken with your player key.",
    openTable: "Open a table and wait", seatsWait: "Waiting for players to take the open seats…", cancelTable: "Cancel the table", lobby: "To the lobby", casual: "casual", openSeat: "open", unrated: "No rated game yet.",
    yours: "Your table: wait here", problem49: {"seat-not-open": "This seat is no longer open: someone took it, or the game started, ended or was cancelled.", "not-creator": "Only the player who opened this table may cancel it.", "too-many-seeks": "You have three seeks waiting already: cancel one first.", "seek-closed": "This seek no longer waits.", "seek-not-found": "No such seek of yours.", "name-taken": "Another player has this name already; pick another."},
  },
  cs: {
    title: "Najít soupeře", open: "Hry čekající na hráče", none: "Teď na hráče nečeká žádná hra.",
    take: "Obsadit místo", seek: "Najdi mi soupeře", game: "Hra", seats: "Hráčů", rated: "Hodnocená",
    clock: "Čas na tah (např. 24h, nepovinné)", bot: "Když nikdo nepřijde, hrát s botem", after: "po (sekundách)",
    nobot: "bez bota", go: "Hledat", waiting: "Čekám na soupeře…", cancel: "Zrušit", cancelled: "Zrušeno.",
    board: "Žebříček", mine: "Vaše hodnocení", noKey: "Nejdřív si v lobby založte hráče: místo se obsazuje klíčem hráče.",
    openTable: "Otevřít stůl a čekat", seatsWait: "Čekám, až hráči obsadí volná místa…", cancelTable: "Zrušit stůl", lobby: "Do lobby", casual: "přátelská", openSeat: "volné", unrated: "Zatím žádná hodnocená hra.",
    yours: "Váš stůl: čekat zde", problem49: {"seat-not-open": "Toto místo už není volné: někdo ho obsadil, nebo hra začala, skončila či byla zrušena.", "not-creator": "Stůl může zrušit jen hráč, který ho otevřel.", "too-many-seeks": "Už čekají tři vaše hledání: nejdřív jedno zrušte.", "seek-closed": "Toto hledání už nečeká.", "seek-not-found": "Takové hledání nemáte.", "name-taken": "Toto jméno už má jiný hráč; zvolte jiné."},
  },
  pl: {
    title: "Znajdź przeciwnika", open: "Gry czekające na graczy", none: "Żadna gra nie czeka teraz na graczy.",
    take: "Zajmij miejsce", seek: "Znajdź mi przeciwnika", game: "Gra", seats: "Graczy", rated: "Rankingowa",
    clock: "Czas na ruch (np. 24h, opcjonalnie)", bot: "Jeśli nikt nie przyjdzie, graj z botem", after: "po (sekundach)",
    nobot: "bez bota", go: "Szukaj", waiting: "Czekam na przeciwnika…", cancel: "Anuluj", cancelled: "Anulowano.",
    board: "Ranking", mine: "Twoje rankingi", noKey: "Najpierw utwórz gracza w lobby: miejsce zajmuje się kluczem gracza.",
    openTable: "Otwórz stół i czekaj", seatsWait: "Czekam, aż gracze zajmą wolne miejsca…", cancelTable: "Anuluj stół", lobby: "Do lobby", casual: "towarzyska", openSeat: "wolne", unrated: "Jeszcze żadnej gry rankingowej.",
    yours: "Twój stół: czekaj tutaj", problem49: {"seat-not-open": "To miejsce nie jest już wolne: ktoś je zajął albo gra się zaczęła, skończyła lub została anulowana.", "not-creator": "Stół może anulować tylko gracz, który go otworzył.", "too-many-seeks": "Masz już trzy oczekujące szukania: najpierw anuluj jedno.", "seek-closed": "To szukanie już nie czeka.", "seek-not-found": "Nie masz takiego szukania.", "name-taken": "To imię ma już inny gracz; wybierz inne."},
  },
};
/** A bot level's name in the reader's language (the catalog's `levels`), else its id. */
const levelName = (kind, bot) => nameOf(kind?.levels?.find((l) => l.bot === bot)) || bot;
const w = (key) => (WORDS[lang()] || WORDS.en)[key] ?? WORDS.en[key];
//: Seconds one long-poll of a waiting seek may wait (the server's most is 60).
const WAIT_S = 30;

/** An API problem in the reader's words: this page's problem types (issue 49) here, the others by
 * problems.js. */
export function say(error) {
  const type = error?.body?.type || "";
  const slug = type.includes("/problems/") ? type.split("/problems/").pop() : "";
  const ours = (WORDS[lang()] || WORDS.en).problem49[slug];
  return ours || problems.describe(error).text;
}

export async function show(root, signal) {
  const key = tokens.playerKey();
  if (!key) {
    root.replaceChildren(h("h1", {}, w("title")), h("p", { "data-testid": "no-key" }, w("noKey")),
      h("a", { href: "#/" }, w("lobby")));
    return;
  }
  const [{ body: catalog }, { body: me }, { body: waiting }] = await Promise.all([
    api.get("/catalog"), api.get("/players/me", key), api.get("/games?open=true&page_size=50"),
  ]);
  const kinds = Object.fromEntries(catalog.map((g) => [g.game, g]));
  const { body: profile } = await api.get(`/players/${me.id}`);
  const boards = await Promise.all(catalog.map((g) => api.get(`/ratings/${g.game}?page_size=10`).then((r) => [g, r.body])));
  // The reader went elsewhere meanwhile (or switched the language): a newer page owns `root`, and
  // this one's forms, whose waits end with `signal`, would never open a paired game.
  if (signal.aborted) return;
  const status = h("p", { class: "notice", "data-testid": "seek-status", role: "status" });
  root.replaceChildren(
    h("h1", {}, w("title")),
    h("section", { "data-testid": "open-games" }, h("h2", {}, w("open")),
      waiting.length
        ? h("ul", { class: "rows" }, waiting.map((g) => openRow(g, kinds, me, key, status, signal)))
        : h("p", { class: "muted" }, w("none"))),
    h("section", {}, h("h2", {}, w("seek")), seekForm(catalog, me, key, status, signal), status),
    h("section", { "data-testid": "my-ratings" }, h("h2", {}, `${w("mine")}: `,
      h("a", { href: `#/players/${me.id}`, "data-testid": "my-profile" }, me.name)),
      profile.ratings.length
        ? h("ul", { class: "rows" }, profile.ratings.map((r) =>
          h("li", { "data-testid": `my-rating-${r.game}` }, `${nameOf(kinds[r.game])}: ${r.rating.toFixed(1)} (μ ${r.mu.toFixed(1)}, σ ${r.sigma.toFixed(1)}, ${r.games})`)))
        : h("p", { class: "muted" }, w("unrated"))),
    h("section", { "data-testid": "leaderboards" }, h("h2", {}, w("board")),
      boards.filter(([, entries]) => entries.length).map(([g, entries]) =>
        h("div", { "data-testid": `leaderboard-${g.game}` }, h("h3", {}, nameOf(g)),
          h("ol", {}, entries.map((e) => h("li", {}, e.player.startsWith("bot:")
            ? `${levelName(g, e.player.slice(4))} (${t("bot")})` : h("a", { href: `#/players/${e.player}`, "data-testid": `board-player-${e.player}` }, e.name),
          ` — ${e.rating.toFixed(1)} (${e.games})`)))))),
  );
}

function openRow(game, kinds, me, key, status, signal) {
  const seats = game.seats.map((s) => (s.open ? w("openSeat") : s.name)).join(", ");
  const mine = game.seats.some((s) => s.player === me.id);
  return h("li", { "data-testid": `open-${game.id}` },
    `${nameOf(kinds[game.game])} · ${game.rated ? w("rated") : w("casual")} · ${seats} `,
    mine ? h("button", { type: "button", "data-testid": `mine-${game.id}`, onclick: () => seated(game, key, status, signal) }, w("yours")) : h("button", {
      type: "button", "data-testid": `join-${game.id}`, onclick: async (event) => {
        event.target.disabled = true;
        try {
          const joined = await api.post(`/games/${game.id}/join`, {}, key);
          if (joined.started) location.hash = `#/game/${game.id}`;
          else await seated(joined.game, key, status, signal); // more seats to fill: wait live
        } catch (error) {
          event.target.replaceWith(h("span", { class: "problem", role: "alert", title: error.message }, say(error)));
        }
      },
    }, w("take")));
}

function seekForm(catalog, me, key, status, signal) {
  const game = h("select", { "data-testid": "seek-game", "aria-label": w("game") },
    catalog.map((g) => h("option", { value: g.game }, nameOf(g))));
  const seats = h("input", { type: "number", min: 1, max: 5, value: 2, "data-testid": "seek-seats", "aria-label": w("seats") });
  const rated = h("input", { type: "checkbox", "data-testid": "seek-rated" });
  const clock = h("input", { "data-testid": "seek-clock", placeholder: "24h", size: 6 });
  const bot = h("select", { "data-testid": "seek-bot" });
  const after = h("input", { type: "number", min: 0, value: 30, "data-testid": "seek-after", size: 5 });
  const bots = () => {
    const kind = catalog.find((g) => g.game === game.value);
    bot.replaceChildren(h("option", { value: "" }, w("nobot")), ...(kind?.bots || []).map((b) => h("option", { value: b }, levelName(kind, b))));
  };
  game.addEventListener("change", bots);
  bots();
  // One wait at a time from this page: while a seek or a table waits, both buttons rest.
  const go = h("button", { type: "submit", "data-testid": "seek-go" }, w("go"));
  const openTable = h("button", { type: "button", "data-testid": "seek-open", onclick: () => busy(async () => {
    const count = Number(seats.value);
    const body = { game: game.value, rated: rated.checked,
      seats: [{ player: me.id }, ...Array.from({ length: count - 1 }, () => ({ open: true }))] };
    if (clock.value.trim()) body.options = { clock: { per_move: clock.value.trim() } };
    await seated(await api.post("/games", body, key), key, status, signal);
  }) }, w("openTable"));
  const busy = async (run) => {
    go.disabled = openTable.disabled = true;
    try {
      await run();
    } catch (error) {
      status.replaceChildren(h("span", { class: "problem", role: "alert", title: error.message }, say(error)));
    } finally {
      go.disabled = openTable.disabled = false;
    }
  };
  return h("form", { "data-testid": "seek-form", onsubmit: (event) => {
    event.preventDefault();
    const body = { game: game.value, seats: Number(seats.value), rated: rated.checked };
    if (clock.value.trim()) body.clock = { per_move: clock.value.trim() };
    if (bot.value) body.fallback = { bot: bot.value, after: Number(after.value) };
    return busy(async () => wait(await api.post("/seeks", body, key), key, status, signal));
  } },
  h("label", {}, `${w("game")} `, game), " ", h("label", {}, `${w("seats")} `, seats), " ",
  h("label", {}, rated, ` ${w("rated")}`), " ", h("label", {}, `${w("clock")} `, clock), " ",
  h("label", {}, `${w("bot")} `, bot), " ", h("label", {}, `${w("after")} `, after), " ", go, " ", openTable);
}

/** A table the player sits at that waits for players: live (its event stream) until its last seat
 * is taken (then open the game), or it is cancelled or expires. */
async function seated(game, key, status, signal) {
  const cancel = h("button", { type: "button", "data-testid": "table-cancel", onclick: async () => {
    await fetch(`${api.API}/games/${game.id}`, { method: "DELETE", headers: { Authorization: `Bearer ${key}` } });
  } }, w("cancelTable"));
  await live(status, game, {
    closed: (g) => (g.status === "active" ? open(g.id) : g.status !== "open" ? ended(status) : false),
    view: (g) => [h("span", { "data-testid": "table-waiting", "data-game": g.id,
      "data-seats": g.seats.filter((s) => !s.open).length }, w("seatsWait")), " ",
    h("span", { "data-testid": "table-seats" }, g.seats.map((s) => (s.open ? w("openSeat") : s.name)).join(", ")), " ", cancel],
    updates: tableUpdates(game, signal),
  }, signal);
}

/** Until the seek is paired (then open its game), cancelled or expired, or the page is left:
 * each long-poll is answered the moment the seek closes. */
async function wait(seek, key, status, signal) {
  const cancel = h("button", { type: "button", "data-testid": "seek-cancel", onclick: async () => {
    await fetch(`${api.API}/seeks/${seek.id}`, { method: "DELETE", headers: { Authorization: `Bearer ${key}` } });
  } }, w("cancel"));
  await live(status, seek, {
    closed: (s) => (s.status === "paired" ? open(s.game_id) : s.status !== "waiting" ? ended(status) : false),
    view: (s) => [h("span", { "data-testid": "seek-waiting", "data-seek": s.id }, w("waiting")), " ", cancel],
    updates: seekUpdates(seek, signal),
  }, signal);
}

const open = (gameId) => {
  location.hash = `#/game/${gameId}`;
  return true;
};
const ended = (status) => {
  status.replaceChildren(w("cancelled"));
  return true;
};

/**
 * The one shape of both waits: show `current` in `status` until `closed(current)` has acted on
 * it (and says so); each newer state comes from `updates`, an async iterator the server's push
 * drives, so nothing is asked of the server between two changes.
 */
async function live(status, current, { closed, view, updates }, signal) {
  try {
    while (!signal.aborted && !closed(current)) {
      status.replaceChildren(...view(current));
      const next = await updates.next();
      if (next.done || signal.aborted) return;
      current = next.value;
    }
  } finally {
    await updates.return?.();
  }
}

/** A seek as each long-poll answers it (`?wait=`: at once when it closes, else after WAIT_S). */
async function* seekUpdates(seek, signal) {
  while (!signal.aborted) {
    try {
      const response = await fetch(`${api.API}/seeks/${seek.id}?wait=${WAIT_S}`,
        { headers: { Accept: "application/json" }, cache: "no-store", signal });
      if (response.ok) yield await response.json();
      else await pause(1000, signal); // the server is away: ask again in a second
    } catch (error) {
      if (signal.aborted) return;
      await pause(1000, signal);
    }
  }
}

/** A table as its game's event stream changes it: each `kotlik.SeatTaken` fills a seat, the last
 * one starts it; `kotlik.GameCancelled` and `kotlik.GameExpired` close it. */
async function* tableUpdates(game, signal) {
  const stop = new AbortController();
  const abort = () => stop.abort();
  signal.addEventListener("abort", abort);
  const queue = [];
  let wake = () => {};
  api.follow(game.id, null, game.version, (event) => {
    queue.push(event);
    wake();
  }, stop.signal);
  stop.signal.addEventListener("abort", () => wake());
  try {
    for (;;) {
      while (!queue.length) {
        if (stop.signal.aborted) return;
        await new Promise((resolve) => { wake = resolve; });
      }
      const event = queue.shift();
      if (event.type === "kotlik.SeatTaken") {
        const seats = game.seats.map((s) => (s.seat === event.data.seat
          ? { seat: s.seat, name: event.data.name, player: event.data.player } : s));
        game = { ...game, seats, status: seats.some((s) => s.open) ? "open" : "active" };
      } else if (event.type === "kotlik.GameCancelled" || event.type === "kotlik.GameExpired") {
        game = { ...game, status: event.type === "kotlik.GameCancelled" ? "cancelled" : "expired" };
      } else {
        continue;
      }
      yield game;
    }
  } finally {
    signal.removeEventListener("abort", abort);
    stop.abort();
  }
}

function pause(ms, signal) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => { clearTimeout(timer); resolve(); }, { once: true });
  });
}
