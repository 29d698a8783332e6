// #/players/<id>: a player's public profile — name, rating per game with its uncertainty, games
// played, recent results (each a link to the game and its replay). On one's own profile (the player
// key this browser holds), a rename form: a taken name is said in words.
import * as api from "./api.js";
import { h } from "./dom.js";
import { lang, nameOf } from "./i18n.js";
import { say } from "./opponents.js";
import * as tokens from "./tokens.js";

// This page's words, beside it (the shell's dictionary is i18n.js).
const WORDS = {
  en: {
    ratings: "Ratings", game: "Game", rating: "Rating", skill: "μ ± σ", games: "Games",
    unrated: "No rated game yet.", played: (n) => `Games played: ${n}`, recent: "Recent results", none: "No finished game yet.",
    won: "won", lost: "lost", left: "resigned or ran out of time", rated: "rated", casual: "casual", replay: "Game and replay",
    you: "This is you.", rename: "New name", save: "Rename", renamed: "Renamed.", back: "Find an opponent",
    ratingHelp: "μ is the estimated skill and σ its uncertainty; the rating is the cautious μ − 3σ, which rises as σ falls.",
  },
  cs: {
    ratings: "Hodnocení", game: "Hra", rating: "Hodnocení", skill: "μ ± σ", games: "Her",
    unrated: "Zatím žádná hodnocená hra.", played: (n) => `Odehraných her: ${n}`, recent: "Poslední výsledky", none: "Zatím žádná dohraná hra.",
    won: "výhra", lost: "prohra", left: "vzdal(a) se nebo nestihl(a) tah", rated: "hodnocená", casual: "přátelská", replay: "Hra a záznam",
    you: "To jste vy.", rename: "Nové jméno", save: "Přejmenovat", renamed: "Přejmenováno.", back: "Najít soupeře",
    ratingHelp: "μ je odhad síly a σ jeho nejistota; hodnocení je opatrné μ − 3σ, které roste, jak σ klesá.",
  },
  pl: {
    ratings: "Rankingi", game: "Gra", rating: "Ranking", skill: "μ ± σ", games: "Gier",
    unrated: "Jeszcze żadnej gry rankingowej.", played: (n) => `Rozegranych gier: ${n}`, recent: "Ostatnie wyniki", none: "Jeszcze żadnej zakończonej gry.",
    won: "wygrana", lost: "przegrana", left: "poddał(a) się lub nie zdążył(a)", rated: "rankingowa", casual: "towarzyska", replay: "Gra i powtórka",
    you: "To ty.", rename: "Nowe imię", save: "Zmień imię", renamed: "Zmieniono.", back: "Znajdź przeciwnika",
    ratingHelp: "μ to szacowana siła, a σ jej niepewność; ranking to ostrożne μ − 3σ, które rośnie, gdy σ maleje.",
  },
};
const w = (key, ...args) => {
  const word = (WORDS[lang()] || WORDS.en)[key] ?? WORDS.en[key];
  return typeof word === "function" ? word(...args) : word;
};

export async function show(root, playerId, signal) {
  const key = tokens.playerKey();
  const [{ body: profile }, { body: catalog }, me] = await Promise.all([
    api.get(`/players/${encodeURIComponent(playerId)}`), api.get("/catalog"),
    key ? api.get("/players/me", key).then((r) => r.body, () => null) : null,
  ]);
  if (signal.aborted) return;
  const kinds = Object.fromEntries(catalog.map((g) => [g.game, g]));
  const mine = me?.id === profile.id;
  const title = h("h1", { "data-testid": "profile-name" }, profile.name);
  const number = (x) => x.toLocaleString(lang(), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  root.replaceChildren(
    title,
    mine ? renameForm(profile, key, title) : null,
    h("p", { "data-testid": "games-played" }, w("played", profile.games_played)),
    h("section", { "data-testid": "profile-ratings" }, h("h2", {}, w("ratings")),
      profile.ratings.length
        // Four narrow columns fit a phone; should a long game name not, the region scrolls by keyboard too.
        ? [h("div", { class: "table-scroll", tabindex: 0, role: "region", "aria-label": w("ratings") }, h("table", {},
          h("thead", {}, h("tr", {}, [w("game"), w("rating"), w("skill"), w("games")].map((x) => h("th", { scope: "col" }, x)))),
          h("tbody", {}, profile.ratings.map((r) => h("tr", { "data-testid": `profile-rating-${r.game}` },
            h("th", { scope: "row" }, nameOf(kinds[r.game]) || r.game), h("td", {}, number(r.rating)),
            h("td", { "data-testid": "sigma" }, `${number(r.mu)} ± ${number(r.sigma)}`), h("td", {}, String(r.games))))))),
          h("p", { class: "muted" }, w("ratingHelp"))]
        : h("p", { class: "muted" }, w("unrated"))),
    h("section", { "data-testid": "profile-recent" }, h("h2", {}, w("recent")),
      profile.recent.length
        ? h("ul", { class: "rows" }, profile.recent.map((r) => h("li", { "data-testid": `recent-${r.game_id}`, "data-outcome": r.outcome },
          h("a", { href: `#/game/${r.game_id}`, "aria-label": `${w("replay")}: ${nameOf(kinds[r.game]) || r.game}` }, nameOf(kinds[r.game]) || r.game),
          h("strong", {}, w(r.outcome)), h("span", { class: "muted" }, `${r.rated ? w("rated") : w("casual")} · ${new Date(r.finished_at).toLocaleDateString(lang())}`))))
        : h("p", { class: "muted" }, w("none"))),
    h("p", {}, h("a", { href: "#/opponents" }, w("back"))),
  );
}

/** The player's own name, changed with PATCH /players/me; a taken name (409) or a refused one (422)
 * is said in the reader's words beside the field. */
function renameForm(profile, key, title) {
  const input = h("input", { value: profile.name, required: true, maxlength: 80, autocomplete: "nickname", "data-testid": "rename-name" });
  const said = h("p", { role: "status", "data-testid": "rename-status" });
  return h("form", { class: "rename", "data-testid": "rename-form", onsubmit: async (event) => {
    event.preventDefault();
    said.replaceChildren();
    try {
      const response = await fetch(`${api.API}/players/me`, {
        method: "PATCH",
        headers: { Accept: "application/json", "Content-Type": "application/json", Authorization: `Bearer ${key}` },
        body: JSON.stringify({ name: input.value.trim() }),
      });
      const body = await response.json().catch(() => null);
      if (!response.ok) throw new api.Problem(response.status, body);
      title.textContent = body.name;
      said.replaceChildren(w("renamed"));
    } catch (error) {
      said.replaceChildren(h("span", { class: "problem", role: "alert", "data-testid": "rename-problem", title: error.message }, say(error)));
    }
  } },
  h("p", { class: "muted" }, w("you")),
  h("label", {}, `${w("rename")} `, input), " ", h("button", { type: "submit", "data-testid": "rename-go" }, w("save")), said);
}
