// #/opponents: find someone to play. The games waiting for players, each with "take this seat";
// a "find me an opponent" form per game (a seek: rated or casual, seats, clock, bot fallback),
// which waits live until the seek is paired and then opens the game; the leaderboards and the
// player's own rating. Everything through the public API, with the player key this browser holds.
import * as api from "./api.js";
import { h } from "./dom.js";
import { lang, nameOf } from "./i18n.js";
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
  },
  cs: {
    title: "Najít soupeře", open: "Hry čekající na hráče", none: "Teď na hráče nečeká žádná hra.",
    take: "Obsadit místo", seek: "Najdi mi soupeře", game: "Hra", seats: "Hráčů", rated: "Hodnocená",
    clock: "Čas na tah (např. 24h, nepovinné)", bot: "Když nikdo nepřijde, hrát s botem", after: "po (sekundách)",
    nobot: "bez bota", go: "Hledat", waiting: "Čekám na soupeře…", cancel: "Zrušit", cancelled: "Zrušeno.",
    board: "Žebříček", mine: "Vaše hodnocení", noKey: "Nejdřív si v lobby založte hráče: místo se obsazuje klíčem hráče.",
    openTable: "Otevřít stůl a čekat", seatsWait: "Čekám, až hráči obsadí volná místa…", cancelTable: "Zrušit stůl", lobby: "Do lobby", casual: "přátelská", openSeat: "volné", unrated: "Zatím žádná hodnocená hra.",
  },
  pl: {
    title: "Znajdź przeciwnika", open: "Gry czekające na graczy", none: "Żadna gra nie czeka teraz na graczy.",
    take: "Zajmij miejsce", seek: "Znajdź mi przeciwnika", game: "Gra", seats: "Graczy", rated: "Rankingowa",
    clock: "Czas na ruch (np. 24h, opcjonalnie)", bot: "Jeśli nikt nie przyjdzie, graj z botem", after: "po (sekundach)",
    nobot: "bez bota", go: "Szukaj", waiting: "Czekam na przeciwnika…", cancel: "Anuluj", cancelled: "Anulowano.",
    board: "Ranking", mine: "Twoje rankingi", noKey: "Najpierw utwórz gracza w lobby: miejsce zajmuje się kluczem gracza.",
    openTable: "Otwórz stół i czekaj", seatsWait: "Czekam, aż gracze zajmą wolne miejsca…", cancelTable: "Anuluj stół", lobby: "Do lobby", casual: "towarzyska", openSeat: "wolne", unrated: "Jeszcze żadnej gry rankingowej.",
  },
};
const w = (key) => (WORDS[lang()] || WORDS.en)[key] ?? WORDS.en[key];
//: Milliseconds between looks at a waiting seek.
const POLL_MS = 700;

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
  const status = h("p", { class: "notice", "data-testid": "seek-status", role: "status" });
  root.replaceChildren(
    h("h1", {}, w("title")),
    h("section", { "data-testid": "open-games" }, h("h2", {}, w("open")),
      waiting.length
        ? h("ul", { class: "rows" }, waiting.map((g) => openRow(g, kinds, me, key, status, signal)))
        : h("p", { class: "muted" }, w("none"))),
    h("section", {}, h("h2", {}, w("seek")), seekForm(catalog, me, key, status, signal), status),
    h("section", { "data-testid": "my-ratings" }, h("h2", {}, `${w("mine")}: ${me.name}`),
      profile.ratings.length
        ? h("ul", { class: "rows" }, profile.ratings.map((r) =>
          h("li", { "data-testid": `my-rating-${r.game}` }, `${nameOf(kinds[r.game])}: ${r.rating.toFixed(1)} (μ ${r.mu.toFixed(1)}, σ ${r.sigma.toFixed(1)}, ${r.games})`)))
        : h("p", { class: "muted" }, w("unrated"))),
    h("section", { "data-testid": "leaderboards" }, h("h2", {}, w("board")),
      boards.filter(([, entries]) => entries.length).map(([g, entries]) =>
        h("div", { "data-testid": `leaderboard-${g.game}` }, h("h3", {}, nameOf(g)),
          h("ol", {}, entries.map((e) => h("li", {}, `${e.name} — ${e.rating.toFixed(1)} (${e.games})`)))))),
  );
}

function openRow(game, kinds, me, key, status, signal) {
  const seats = game.seats.map((s) => (s.open ? w("openSeat") : s.name)).join(", ");
  const mine = game.seats.some((s) => s.player === me.id);
  return h("li", { "data-testid": `open-${game.id}` },
    `${nameOf(kinds[game.game])} · ${game.rated ? w("rated") : w("casual")} · ${seats} `,
    mine ? h("button", { type: "button", "data-testid": `mine-${game.id}`, onclick: () => seated(game, key, status, signal) }, "…") : h("button", {
      type: "button", "data-testid": `join-${game.id}`, onclick: async (event) => {
        event.target.disabled = true;
        try {
          await api.post(`/games/${game.id}/join`, {}, key);
          location.hash = `#/game/${game.id}`;
        } catch (error) {
          event.target.replaceWith(h("span", { class: "problem", role: "alert" }, error.message));
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
    bot.replaceChildren(h("option", { value: "" }, w("nobot")), ...(kind?.bots || []).map((b) => h("option", { value: b.name || b }, b.name || b)));
  };
  game.addEventListener("change", bots);
  bots();
  return h("form", { "data-testid": "seek-form", onsubmit: async (event) => {
    event.preventDefault();
    const body = { game: game.value, seats: Number(seats.value), rated: rated.checked };
    if (clock.value.trim()) body.clock = { per_move: clock.value.trim() };
    if (bot.value) body.fallback = { bot: bot.value, after: Number(after.value) };
    try {
      const seek = await api.post("/seeks", body, key);
      await wait(seek, key, status, signal);
    } catch (error) {
      status.replaceChildren(h("span", { class: "problem", role: "alert" }, error.message));
    }
  } },
  h("label", {}, `${w("game")} `, game), " ", h("label", {}, `${w("seats")} `, seats), " ",
  h("label", {}, rated, ` ${w("rated")}`), " ", h("label", {}, `${w("clock")} `, clock), " ",
  h("label", {}, `${w("bot")} `, bot), " ", h("label", {}, `${w("after")} `, after), " ",
  h("button", { type: "submit", "data-testid": "seek-go" }, w("go")), " ",
  h("button", { type: "button", "data-testid": "seek-open", onclick: async () => {
    const count = Number(seats.value);
    const body = { game: game.value, rated: rated.checked,
      seats: [{ player: me.id }, ...Array.from({ length: count - 1 }, () => ({ open: true }))] };
    if (clock.value.trim()) body.options = { clock: { per_move: clock.value.trim() } };
    try {
      await seated(await api.post("/games", body, key), key, status, signal);
    } catch (error) {
      status.replaceChildren(h("span", { class: "problem", role: "alert" }, error.message));
    }
  } }, w("openTable")));
}

/** A table of the player's own that waits: live until its last seat is taken (then open the game),
 * or cancelled. */
async function seated(game, key, status, signal) {
  const cancel = h("button", { type: "button", "data-testid": "table-cancel", onclick: async () => {
    await fetch(`${api.API}/games/${game.id}`, { method: "DELETE", headers: { Authorization: `Bearer ${key}` } });
  } }, w("cancelTable"));
  while (!signal.aborted) {
    if (game.status === "active") {
      location.hash = `#/game/${game.id}`;
      return;
    }
    if (game.status !== "open") {
      status.replaceChildren(w("cancelled"));
      return;
    }
    status.replaceChildren(h("span", { "data-testid": "table-waiting", "data-game": game.id }, w("seatsWait")), " ", cancel);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    game = (await api.get(`/games/${game.id}`)).body;
  }
}

/** Until the seek is paired (then open its game), cancelled or expired, or the page is left. */
async function wait(seek, key, status, signal) {
  const cancel = h("button", { type: "button", "data-testid": "seek-cancel", onclick: async () => {
    await fetch(`${api.API}/seeks/${seek.id}`, { method: "DELETE", headers: { Authorization: `Bearer ${key}` } });
  } }, w("cancel"));
  while (!signal.aborted) {
    if (seek.status === "paired") {
      location.hash = `#/game/${seek.game_id}`;
      return;
    }
    if (seek.status !== "waiting") {
      status.replaceChildren(w("cancelled"));
      return;
    }
    status.replaceChildren(h("span", { "data-testid": "seek-waiting", "data-seek": seek.id }, w("waiting")), " ", cancel);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    seek = (await api.get(`/seeks/${seek.id}`)).body;
  }
}
