// The lobby: hosted games (a "new game" link each), this browser's games with "your turn"
// marked, and every game in progress and finished with whose turn it is.
import * as api from "./api.js";
import { h } from "./dom.js";
import { nameOf, t } from "./i18n.js";
import * as tokens from "./tokens.js";

let onTurns = null; // the shown lobby's listener for turns.js' `kotlik:turns`

/** The lobby in `root`, unless `signal` aborted meanwhile (the reader went elsewhere). */
export async function show(root, signal) {
  const [{ body: catalog }, { body: active }, { body: scoring }, { body: finished }] = await Promise.all([
    api.get("/catalog"),
    api.get("/games?page_size=50&status=active"),
    api.get("/games?page_size=20&status=scoring"),
    api.get("/games?page_size=30&status=finished"),
  ]);
  const kinds = Object.fromEntries(catalog.map((g) => [g.game, g]));
  const held = tokens.all();
  const mine = await Promise.all(
    Object.keys(held).map((id) => api.get(`/games/${id}`).then((r) => r.body, () => null)),
  );
  const player = await playerSection(root, kinds);
  if (signal?.aborted) return;
  root.replaceChildren(
    h("section", { class: "hosted" },
      h("h2", {}, t("hosted")),
      h("ul", { class: "cards" }, catalog.map((g) =>
        h("li", { "data-testid": "hosted-game", "data-game": g.game },
          h("strong", { class: "game-name" }, nameOf(g)),
          h("span", { class: "muted" }, ` ${g.seats.min}–${g.seats.max}`),
          " ",
          h("a", { class: "button", href: `#/new/${g.game}`, "data-testid": `new-${g.game}` }, t("newGame")),
        ))),
    ),
    player,
    section(t("myGames"), "my-games", mine.filter(Boolean), kinds, held),
    section(t("inProgress"), "in-progress", [...scoring, ...active], kinds, held),
    section(t("finished"), "finished", finished, kinds, held),
  );
  // a game whose turn changed (turns.js follows this browser's games): its rows redrawn in place
  if (onTurns) window.removeEventListener("kotlik:turns", onTurns);
  const seats = { ...held, ...Object.fromEntries([...root.querySelectorAll("[data-testid=player-games] [data-seat]")].map((el) => [el.dataset.gameId, { seat: Number(el.dataset.seat) }])) };
  onTurns = async (event) => {
    if (!root.isConnected || !root.querySelector("[data-testid=lobby-row]")) return;
    const { body: game } = await api.get(`/games/${event.detail.id}`).catch(() => ({ body: null }));
    if (!game) return;
    for (const old of root.querySelectorAll(`[data-testid=lobby-row][data-game-id="${game.id}"]`)) old.replaceWith(row(game, kinds, seats));
  };
  window.addEventListener("kotlik:turns", onTurns);
}

function section(title, testid, games, kinds, held) {
  return h("section", { "data-testid": testid },
    h("h2", {}, title),
    games.length
      ? h("ul", { class: "rows" }, games.map((g) => row(g, kinds, held)))
      : h("p", { class: "muted" }, t("none")));
}

function row(game, kinds, held) {
  const mySeat = held[game.id]?.seat;
  const myTurn = mySeat != null && game.status === "active" && game.to_move.includes(mySeat);
  const names = (seats) => seats.map((s) => game.seats[s]?.name ?? t("seatN", s)).join(", ");
  let status;
  if (game.status === "finished" && game.result) status = `${names(game.result.winners)} ${t("winner")}`;
  else if (game.status === "scoring") status = t("scoring");
  else status = `${t("toMove")}: ${names(game.to_move)}`;
  return h("li", { "data-testid": "lobby-row", "data-game-id": game.id, "data-seat": mySeat, class: myTurn ? "my-turn" : "" },
    h("a", { href: `#/game/${game.id}` },
      h("strong", {}, nameOf(kinds[game.game]) || game.game), " · ",
      game.seats.map((s) => s.name).join(" – ")),
    h("span", { class: "status" }, status),
    myTurn ? h("span", { class: "badge", "data-testid": "your-turn" }, t("yourTurn")) : null,
  );
}

/** The player this browser holds a key of: their games across the server, "your turn" first;
 * or a form to create a player or use a key from elsewhere. */
async function playerSection(root, kinds) {
  const key = tokens.playerKey();
  const again = () => show(root);
  if (!key) {
    const name = h("input", { "data-testid": "player-name", "aria-label": t("name"), maxlength: 80 });
    const pasted = h("input", { "data-testid": "player-key-input", "aria-label": t("playerKey") });
    return h("section", { "data-testid": "player" },
      h("h2", {}, t("player")),
      h("p", {}, name, " ", h("button", { type: "button", "data-testid": "player-create", onclick: async () => {
        const made = await api.post("/players", { name: name.value.trim() });
        tokens.setPlayerKey(made.key);
        await again();
      } }, t("createPlayer"))),
      h("p", {}, pasted, " ", h("button", { type: "button", "data-testid": "player-use", onclick: async () => {
        tokens.setPlayerKey(pasted.value.trim());
        await again();
      } }, t("useKey"))));
  }
  let me, games;
  try {
    [{ body: me }, { body: games }] = await Promise.all([
      api.get("/players/me", key), api.get("/players/me/games?page_size=50", key),
    ]);
  } catch (error) {
    // Only the server's 401 says the key is unknown. Anything else (no network, a node failing over,
    // the page being left mid-request) keeps the key: it is shown once, so losing it loses the player.
    if (error?.status !== 401) throw error;
    tokens.setPlayerKey(null);
    return h("section", { "data-testid": "player" }, h("p", { class: "problem" }, t("unknownKey")));
  }
  const sorted = [...games.filter((g) => g.your_turn), ...games.filter((g) => !g.your_turn)];
  const seats = Object.fromEntries(games.map((g) => [g.id, { seat: g.seat }]));
  return h("section", { "data-testid": "player" },
    h("h2", {}, `${t("player")}: ${me.name}`),
    h("details", {}, h("summary", {}, t("playerKey")),
      h("input", { readonly: true, value: key, "data-testid": "player-key" })),
    sorted.length
      ? h("ul", { class: "rows", "data-testid": "player-games" }, sorted.map((g) => row(g, kinds, seats)))
      : h("p", { class: "muted" }, t("none")));
}
