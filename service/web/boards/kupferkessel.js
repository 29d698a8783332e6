// Kupferkessel Co.: the 6×6 square inside the ring of 20 pawn positions, both cauldrons' tops,
// the card in hand, recipes. Clickable exactly where /actions says: the own pawn (move), a card
// of the line (take), the opponent's cauldron (explode), the own cauldron or the set-aside pile
// (end, keep or not); the rest (wand and hat, decline) as buttons beside the card in hand.
import { activate, h } from "../dom.js";

// dark enough that white words on them reach AA contrast (4.5:1)
const COLOURS = { white: "#f2efe6", black: "#2b2b2b", grey: "#b5b5b5", blue: "#2f5f9e", brown: "#7a4c22", green: "#2f6f26", purple: "#6a3f8a" };
const DARK = new Set(["black", "blue", "brown", "green", "purple"]);

const WORDS = {
  en: {
    deck: "deck", removed: "out", setAside: "set aside", hand: "in hand", cauldron: "cauldron", hidden: "hidden card", hiddenTaken: "a card — remember it",
    recipes: "recipes", cards: "cards", playAgain: "Play again (wand and hat)", decline: "No special action",
    explode: "Explode", keep: "Keep it", drop: "Set it aside", move: (n) => `Move ${n}`,
    created: (s) => `A game for ${s}.`, started: "The square is laid out.", laid: "The 32 cards are dealt into the square.",
    cauldronStarted: (who, card) => `${who}'s cauldron starts with ${card}.`, stacked: (n) => `${n} cards are left in the deck.`,
    dealt: (who, n) => `${who} gets ${n} recipes.`, moved: (who, n) => (n == null ? `${who} moved (how far — remember it).` : `${who} moved ${n} steps.`),
    took: (who, card) => `${who} took ${card}.`, exploded: (who, victim, card) => `${who} exploded ${victim}'s cauldron: ${card} goes ${""}away.`,
    extra: (who) => `${who} plays another turn (wand and hat).`, declined: (who) => `${who} used no special action.`,
    refilled: (card) => `A gap was refilled with ${card}.`, turn: (who) => `Now it is ${who}'s turn.`,
    kept: (who, card) => `${who} kept ${card}.`, setAsideBy: (who, card) => `${who} set ${card} aside.`,
    ended: (who) => (who ? `Game over: ${who} took the last card of a line.` : "Game over: no card can be reached any more."),
  },
  cs: {
    deck: "balíček", removed: "mimo hru", setAside: "odložené", hand: "v ruce", cauldron: "kotlík", hidden: "skrytá karta", hiddenTaken: "skrytou kartu — zapamatuj si ji",
    recipes: "recepty", cards: "karet", playAgain: "Hrát znovu (hůlka a klobouk)", decline: "Bez zvláštní akce",
    explode: "Vybuchnout", keep: "Ponechat", drop: "Odložit", move: (n) => `Táhnout o ${n}`,
    created: (s) => `Hra pro: ${s}.`, started: "Čtverec je připraven.", laid: "32 karet je rozloženo do čtverce.",
    cauldronStarted: (who, card) => `Kotlík hráče ${who} začíná kartou ${card}.`, stacked: (n) => `V balíčku zbývá ${n} karet.`,
    dealt: (who, n) => `${who} dostává ${n} recepty.`, moved: (who, n) => (n == null ? `${who} táhl(a) (o kolik — zapamatuj si to).` : `${who} táhl(a) o ${n}.`),
    took: (who, card) => `${who} vzal(a) ${card}.`, exploded: (who, victim, card) => `${who} nechal(a) vybuchnout kotlík hráče ${victim}: ${card} je pryč.`,
    extra: (who) => `${who} hraje znovu (hůlka a klobouk).`, declined: (who) => `${who} nepoužil(a) zvláštní akci.`,
    refilled: (card) => `Mezera doplněna kartou ${card}.`, turn: (who) => `Na tahu je ${who}.`,
    kept: (who, card) => `${who} si ponechal(a) ${card}.`, setAsideBy: (who, card) => `${who} odložil(a) ${card}.`,
    ended: (who) => (who ? `Konec hry: ${who} vzal(a) poslední kartu řady.` : "Konec hry: žádná karta už není na dosah."),
  },
  pl: {
    deck: "talia", removed: "poza grą", setAside: "odłożone", hand: "w ręce", cauldron: "kociołek", hidden: "ukryta karta", hiddenTaken: "ukrytą kartę — zapamiętaj ją",
    recipes: "receptury", cards: "kart", playAgain: "Zagraj ponownie (różdżka i kapelusz)", decline: "Bez akcji specjalnej",
    explode: "Wysadź", keep: "Zatrzymaj", drop: "Odłóż", move: (n) => `Ruch o ${n}`,
    created: (s) => `Gra dla: ${s}.`, started: "Kwadrat jest gotowy.", laid: "32 karty rozłożono w kwadrat.",
    cauldronStarted: (who, card) => `Kociołek gracza ${who} zaczyna się od ${card}.`, stacked: (n) => `W talii zostało ${n} kart.`,
    dealt: (who, n) => `${who} dostaje ${n} receptury.`, moved: (who, n) => (n == null ? `${who} wykonał(a) ruch (o ile — zapamiętaj to).` : `${who} przesunął(ęła) się o ${n}.`),
    took: (who, card) => `${who} wziął(ęła) ${card}.`, exploded: (who, victim, card) => `${who} wysadził(a) kociołek gracza ${victim}: ${card} przepada.`,
    extra: (who) => `${who} gra jeszcze raz (różdżka i kapelusz).`, declined: (who) => `${who} nie użył(a) akcji specjalnej.`,
    refilled: (card) => `Lukę uzupełniono kartą ${card}.`, turn: (who) => `Teraz ruch: ${who}.`,
    kept: (who, card) => `${who} zatrzymał(a) ${card}.`, setAsideBy: (who, card) => `${who} odłożył(a) ${card}.`,
    ended: (who) => (who ? `Koniec gry: ${who} wziął(ęła) ostatnią kartę rzędu.` : "Koniec gry: żadna karta nie jest już osiągalna."),
  },
};

const words = (ctx) => WORDS[ctx.lang] || WORDS.en;

/** The memory rule: what the log showed of a card may be hidden after the next move, so the shell
 * reads the log again after each move rather than keep what it was shown live (a reload shows the same). */
export const forgets = true;

/** Where pawn position `p` (0–19) is on the 8×8 layout whose inner 6×6 is the square. */
function ringCell(p) {
  if (p === 0) return [0, 0];
  if (p <= 4) return [0, p + 1];
  if (p === 5) return [0, 7];
  if (p <= 9) return [p - 4, 7];
  if (p === 10) return [7, 7];
  if (p <= 14) return [7, 16 - p];
  if (p === 15) return [7, 0];
  return [21 - p, 0];
}

function cardInfo(ctx, id) {
  return ctx.catalog.cards.find((c) => c.id === id);
}

function symbolIcon(symbol) {
  if (symbol === "explode") {
    return h("svg", { viewBox: "0 0 20 20", class: "kk-symbol", "aria-hidden": "true" },
      h("polygon", { points: "10,0 12.5,6.5 20,5 14.5,10.5 19,17 11.5,14 10,20 8,14 1,17 5.5,10.5 0,5 7.5,6.5", fill: "#e8451e", stroke: "#fff", "stroke-width": "1" }));
  }
  if (symbol === "hat") {
    return h("svg", { viewBox: "0 0 20 20", class: "kk-symbol", "aria-hidden": "true" },
      h("polygon", { points: "10,1 15,15 5,15", fill: "#5b3a8c", stroke: "#fff", "stroke-width": "1" }),
      h("rect", { x: 2, y: 15, width: 16, height: 3, fill: "#5b3a8c", stroke: "#fff", "stroke-width": "1" }));
  }
  return null;
}

/** A card face drawn from the catalog: colour, value, ingredient, symbol; `null` a hidden card. */
function card(ctx, id, extra = {}) {
  if (id == null) return h("div", { class: "kk-card kk-hidden", title: words(ctx).hidden, ...extra }, "?");
  const info = cardInfo(ctx, id);
  if (!info) return h("div", { class: "kk-card", ...extra }, id);
  const ingredient = ctx.catalog.ingredients.find((i) => i.id === info.ingredient);
  const name = ctx.name(info);
  return h("div", {
    class: `kk-card${DARK.has(info.colour) ? " kk-dark" : ""}`, "data-card": id, title: name, "aria-label": name,
    style: { background: COLOURS[info.colour] || "#ccc" }, ...extra,
  },
  h("span", { class: "kk-value" }, info.value),
  symbolIcon(info.symbol),
  h("span", { class: "kk-ingredient" }, ingredient ? ctx.name(ingredient) : info.ingredient));
}

export function render(root, ctx) {
  const v = ctx.view;
  const w = words(ctx);
  const used = new Set();
  const clickable = (el, index) => {
    used.add(index);
    el.dataset.action = String(index);
    return activate(el, () => ctx.play(ctx.actions[index]));
  };
  const find = (pred) => ctx.actions.findIndex(pred);
  const seatName = (s) => ctx.seats[s]?.name ?? `#${s + 1}`;

  // the square and the ring around it
  const cells = [];
  for (let r = 0; r < 6; r++) {
    for (let c = 0; c < 6; c++) {
      const id = v.grid[r][c];
      const corner = (r === 0 || r === 5) && (c === 0 || c === 5);
      let el;
      if (corner) el = h("div", { class: "kk-corner", "aria-hidden": "true" });
      else if (id == null) el = h("div", { class: ctx.replay ? "kk-card kk-hidden" : "kk-gap" }, ctx.replay ? "?" : "");
      else el = card(ctx, id);
      el.style.gridRow = String(r + 2);
      el.style.gridColumn = String(c + 2);
      const take = id == null ? -1 : find((a) => a.type === "take" && a.card === id);
      if (take >= 0) clickable(el, take).classList.add("kk-target");
      cells.push(el);
    }
  }
  for (const pawn of v.pawns) {
    if (pawn.position == null) continue;
    const [r, c] = ringCell(pawn.position);
    const el = h("div", { class: `kk-pawn kk-pawn-${pawn.colour}`, "data-seat": pawn.seat, title: seatName(pawn.seat), role: "img", "aria-label": `${seatName(pawn.seat)} (${pawn.position})` },
      h("svg", { viewBox: "0 0 20 24", "aria-hidden": "true" },
        h("circle", { cx: 10, cy: 6, r: 5 }), h("path", { d: "M3 23 Q10 6 17 23 Z" })));
    const move = pawn.seat === ctx.seat ? find((a) => a.type === "move") : -1;
    if (move >= 0) {
      clickable(el, move).classList.add("kk-target");
      el.setAttribute("aria-label", w.move(ctx.actions[move].steps));
      el.append(h("span", { class: "kk-steps" }, `+${ctx.actions[move].steps}`));
    }
    el.style.gridRow = String(r + 1);
    el.style.gridColumn = String(c + 1);
    cells.push(el);
  }
  const square = h("div", { class: "kk-square", role: "group" }, cells);

  // cauldrons, hand, set-aside, deck
  const cauldrons = v.cauldrons.map((cd) => {
    const el = h("div", { class: `kk-cauldron${cd.seat === ctx.seat ? " kk-mine" : ""}`, "data-seat": cd.seat, "data-testid": `cauldron-${cd.seat}` },
      h("div", { class: "kk-label" }, h("span", { class: `kk-dot kk-pawn-${cd.colour}` }), ` ${seatName(cd.seat)} — ${w.cauldron} (${cd.count})`),
      cd.count ? card(ctx, cd.top) : h("div", { class: "kk-gap" }),
      cd.cards ? h("div", { class: "kk-all" }, cd.cards.map((id) => card(ctx, id, { class: "kk-card kk-small" }))) : null);
    const explode = cd.seat !== ctx.seat ? find((a) => a.type === "explode") : -1;
    if (explode >= 0) clickable(el, explode).setAttribute("aria-label", w.explode);
    const keep = cd.seat === ctx.seat ? find((a) => a.type === "end" && a.keep === true) : -1;
    if (keep >= 0) clickable(el, keep).setAttribute("aria-label", w.keep);
    return el;
  });
  const aside = h("div", { class: "kk-aside", "data-testid": "set-aside" },
    h("div", { class: "kk-label" }, `${w.setAside} (${v.set_aside.length})`),
    v.set_aside.map((id) => card(ctx, id, { class: "kk-card kk-small" })));
  const drop = find((a) => a.type === "end" && a.keep === false);
  if (drop >= 0) clickable(aside, drop).setAttribute("aria-label", w.drop);
  const hand = v.pending != null ? h("div", { class: "kk-hand" }, h("div", { class: "kk-label" }, w.hand), card(ctx, v.pending)) : null;

  // what no element above stands for: a button each, still driven by /actions
  const labels = { play_again: w.playAgain, decline: w.decline, explode: w.explode };
  const rest = ctx.actions.map((a, i) => [a, i]).filter(([, i]) => !used.has(i))
    .map(([a, i]) => clickable(h("button", { type: "button", class: "kk-choice" },
      labels[a.type] || (a.type === "end" ? (a.keep ? w.keep : w.drop) : a.type === "move" ? w.move(a.steps) : JSON.stringify(a))), i));

  const recipes = (v.recipes || []).map((r) => h("div", { class: "kk-recipes", "data-seat": r.seat },
    h("div", { class: "kk-label" }, `${seatName(r.seat)} — ${w.recipes}`),
    r.recipes ? h("ul", {}, r.recipes.map((id) => {
      const recipe = ctx.catalog.recipes.find((x) => x.id === id);
      return h("li", {}, recipe ? `${ctx.name(recipe)} (${recipe.points})` : id);
    })) : h("p", {}, `${r.count} × ?`)));

  root.replaceChildren(h("div", { class: "kk" },
    square,
    h("div", { class: "kk-side" },
      h("div", { class: "kk-row" }, cauldrons),
      h("div", { class: "kk-row" }, hand, rest.length ? h("div", { class: "kk-choices" }, rest) : null),
      h("div", { class: "kk-row" }, aside,
        h("div", { class: "kk-deck" }, h("div", { class: "kk-card kk-back" }, String(v.deck)), h("div", { class: "kk-label" }, `${w.deck} · ${w.removed}: ${v.removed}`))),
      recipes)));
  ensureStyle();
}

export function describe(event, ctx) {
  const w = words(ctx);
  const d = event.data || {};
  const who = (s) => (s == null ? "?" : ctx.seats[s]?.name ?? `#${s + 1}`);
  const cardName = (id, taken = false) => {
    if (id == null) return taken ? w.hiddenTaken : w.hidden;
    const info = cardInfo(ctx, id);
    return info ? ctx.name(info) : id;
  };
  switch (event.type) {
    case "kotlik.GameCreated": return w.created(d.seats.map((s) => s.name).join(", "));
    case "GameStarted": return w.started;
    case "GridLaid": return w.laid;
    case "CauldronStarted": return w.cauldronStarted(who(d.seat), cardName(d.card));
    case "DeckStacked": return w.stacked(d.count ?? d.deck?.length ?? 0);
    case "RecipesDealt": return w.dealt(who(d.seat), d.count ?? d.recipes?.length ?? 2);
    case "PawnMoved": return w.moved(who(d.seat), d.steps);
    case "CardTaken": return w.took(who(d.seat), cardName(d.card, true));
    case "CauldronExploded": return w.exploded(who(d.seat), who(d.victim), cardName(d.card));
    case "ExtraTurnGranted": return w.extra(who(d.seat));
    case "SpecialDeclined": return w.declined(who(d.seat));
    case "SpotRefilled": return w.refilled(cardName(d.card));
    case "TurnEnded": return w.turn(who(d.next));
    case "CardKept": return w.kept(who(d.seat), cardName(d.card, true));
    case "CardSetAside": return w.setAsideBy(who(d.seat), cardName(d.card, true));
    case "GameEnded": return w.ended(d.by == null ? null : who(d.by));
    default: return `${event.seat != null ? `${who(event.seat)}: ` : ""}${event.type}`;
  }
}

function ensureStyle() {
  if (document.getElementById("kk-style")) return;
  const link = document.createElement("link");
  link.id = "kk-style";
  link.rel = "stylesheet";
  link.href = new URL("./kupferkessel.css", import.meta.url).href;
  document.head.append(link);
}
