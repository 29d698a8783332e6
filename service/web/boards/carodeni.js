// Čarodění: the three locations (ingredients, potion, witch), the goal row, every clan with its
// hand, table and clan card, the animals, and Ostara's track in the solo game; drawn with HTML/CSS
// from the view and the catalog. Each clickable thing is one of ctx.actions (data-action = its
// index); a potion that can be paid several ways is picked first, then its payments are offered.

const SEAT_COLOURS = ["#c0392b", "#2471a3", "#b7950b", "#1e8449", "#6c3483"];
const COLOURS = { red: "#d9534f", blue: "#3b7dd8", green: "#3e9b4f", gold: "#d4a017", pale: "#d9cfb8" };
const INGREDIENT_COLOURS = {
  herbs: "#4caf50", berries: "#8e44ad", mushrooms: "#c0392b", roots: "#a0522d", feathers: "#5dade2",
};
const LOCATION_MARK = { mountains: "▲", forest: "♣", lake: "≈" };

const WORDS = {
  en: {
    round: (r) => `Round ${r}`, of15: (r) => `Round ${r} of 15`, lastRound: (r) => `last round: ${r}`,
    witchDeck: "witch deck", potionDeck: "potion deck", bag: "in the bag", goals: "Goals",
    hand: "Hand", played: "Played", potions: "Potions", tools: "Tools", animals: "Animals", clan: "Clan",
    ingredients: "Ingredients", active: "active", cards: (n) => `${n} cards`, rest: "Rest",
    endTurn: "End the turn", ostaraTurn: "Ostara's turn", tool: "tool", animal: "animal",
    refresh: (what) => `Refresh ${what}`, refreshNone: "Give up the action points",
    refreshWhat: { witches: "the witches", potions: "the potions", ingredients: "the ingredients" },
    pay: "Pay with:", pair: (k) => `a pair instead of ${k}`, ap: "action points",
    ostara: "Ostara", ostaraTrack: "Ostara's track", token: "token", left: (n) => `${n} tokens left in the stage`,
    stage: (n) => `stage ${n}`, claimed: (p) => `claimed by ${p}`, easy: "easy", hard: "hard", points: "pts",
    you: "you", hidden: "a hidden witch", nothing: "nothing",
    started: (solo, n, d) => (solo ? `A solo game against Ostara begins (${d}).` : `A game of ${n} players begins.`),
    playedW: (p, w) => `${p} played ${w}.`,
    refreshed: (p, what, loc) => `${p} refreshed ${what}${loc ? ` at ${loc}` : ""}.`,
    took: (p, what, loc) => `${p} took ${what} at ${loc}.`,
    refilled: (loc, what) => `${loc}: ${what} laid out.`, emptied: (loc) => `${loc}: nothing left to lay out.`,
    ranOut: (deck) => `The ${deck} deck ran out; the cards set aside become the deck.`,
    endTriggered: (r) => `The end is coming: the last round is ${r}.`,
    forfeited: (p, loc) => `${p} forfeited the action points at ${loc}.`,
    rested: (p, n) => `${p} rested, taking ${n} witches back.`,
    brewed: (p, potion, pts) => `${p} brewed ${potion} for ${pts} points.`,
    tamed: (p, a) => `${p} tamed the ${a}.`,
    goal: (p, g, pts) => `${p} claimed the goal “${g}” for ${pts} points.`,
    turnEnded: (p) => `${p} ended the turn.`,
    ended: (why) => `Game over: ${why}.`,
    reasons: {
      fifteen_rounds: "fifteen rounds played", goals: "the goals were claimed",
      witches_deck_ran_out: "the witch deck ran out", potions_deck_ran_out: "the potion deck ran out",
    },
    shuffled: (n) => `Ostara shuffled her tokens for stage ${n}.`,
    drewToken: (t) => `Ostara revealed the token “${t}”.`,
    chose: (what, why) => `Ostara chose ${what}${why ? ` (${why})` : ""}.`,
  },
  cs: {
    round: (r) => `Kolo ${r}`, of15: (r) => `Kolo ${r} z 15`, lastRound: (r) => `poslední kolo: ${r}`,
    witchDeck: "balíček čarodějek", potionDeck: "balíček lektvarů", bag: "v pytlíku", goals: "Cíle",
    hand: "Ruka", played: "Zahrané", potions: "Lektvary", tools: "Nástroje", animals: "Zvířata", clan: "Klan",
    ingredients: "Suroviny", active: "aktivní", cards: (n) => `${n} karet`, rest: "Odpočinek",
    endTurn: "Ukončit tah", ostaraTurn: "Tah Ostary", tool: "nástroj", animal: "zvíře",
    refresh: (what) => `Obnovit ${what}`, refreshNone: "Vzdát se akčních bodů",
    refreshWhat: { witches: "čarodějky", potions: "lektvary", ingredients: "suroviny" },
    pay: "Zaplatit:", pair: (k) => `dvojice místo: ${k}`, ap: "akční body",
    ostara: "Ostara", ostaraTrack: "Ostařina stopa", token: "žeton", left: (n) => `v etapě zbývá žetonů: ${n}`,
    stage: (n) => `etapa ${n}`, claimed: (p) => `splnil(a): ${p}`, easy: "lehký", hard: "těžký", points: "b.",
    you: "ty", hidden: "skrytou čarodějku", nothing: "nic",
    started: (solo, n, d) => (solo ? `Začíná sólo hra proti Ostaře (${d}).` : `Začíná hra ${n} hráčů.`),
    playedW: (p, w) => `${p} hraje kartu ${w}.`,
    refreshed: (p, what, loc) => `${p} obnovuje ${what}${loc ? ` (${loc})` : ""}.`,
    took: (p, what, loc) => `${p} bere ${what} (${loc}).`,
    refilled: (loc, what) => `${loc}: vyloženo ${what}.`, emptied: (loc) => `${loc}: už není co vyložit.`,
    ranOut: (deck) => `Došel ${deck}; odložené karty se stávají balíčkem.`,
    endTriggered: (r) => `Blíží se konec: poslední kolo je ${r}.`,
    forfeited: (p, loc) => `${p} propadají akční body (${loc}).`,
    rested: (p, n) => `${p} odpočívá a bere zpět čarodějky: ${n}.`,
    brewed: (p, potion, pts) => `${p} vaří ${potion} za ${pts} bodů.`,
    tamed: (p, a) => `${p} ochočuje zvíře: ${a}.`,
    goal: (p, g, pts) => `${p} plní cíl „${g}“ za ${pts} bodů.`,
    turnEnded: (p) => `${p} končí tah.`,
    ended: (why) => `Konec hry: ${why}.`,
    reasons: {
      fifteen_rounds: "odehráno patnáct kol", goals: "cíle jsou splněny",
      witches_deck_ran_out: "došel balíček čarodějek", potions_deck_ran_out: "došel balíček lektvarů",
    },
    shuffled: (n) => `Ostara míchá žetony na etapu ${n}.`,
    drewToken: (t) => `Ostara odhaluje žeton „${t}“.`,
    chose: (what, why) => `Ostara volí: ${what}${why ? ` (${why})` : ""}.`,
  },
  pl: {
    round: (r) => `Runda ${r}`, of15: (r) => `Runda ${r} z 15`, lastRound: (r) => `ostatnia runda: ${r}`,
    witchDeck: "talia wiedźm", potionDeck: "talia eliksirów", bag: "w worku", goals: "Cele",
    hand: "Ręka", played: "Zagrane", potions: "Eliksiry", tools: "Narzędzia", animals: "Zwierzęta", clan: "Klan",
    ingredients: "Składniki", active: "aktywna", cards: (n) => `kart: ${n}`, rest: "Odpoczynek",
    endTurn: "Zakończ turę", ostaraTurn: "Tura Ostary", tool: "narzędzie", animal: "zwierzę",
    refresh: (what) => `Odśwież ${what}`, refreshNone: "Zrezygnuj z punktów akcji",
    refreshWhat: { witches: "wiedźmy", potions: "eliksiry", ingredients: "składniki" },
    pay: "Zapłać:", pair: (k) => `para zamiast: ${k}`, ap: "punkty akcji",
    ostara: "Ostara", ostaraTrack: "Tor Ostary", token: "żeton", left: (n) => `żetonów w etapie: ${n}`,
    stage: (n) => `etap ${n}`, claimed: (p) => `zdobył(a): ${p}`, easy: "łatwy", hard: "trudny", points: "pkt",
    you: "ty", hidden: "ukrytą wiedźmę", nothing: "nic",
    started: (solo, n, d) => (solo ? `Zaczyna się gra solo przeciw Ostarze (${d}).` : `Zaczyna się gra ${n} graczy.`),
    playedW: (p, w) => `${p} zagrywa ${w}.`,
    refreshed: (p, what, loc) => `${p} odświeża ${what}${loc ? ` (${loc})` : ""}.`,
    took: (p, what, loc) => `${p} bierze ${what} (${loc}).`,
    refilled: (loc, what) => `${loc}: wyłożono ${what}.`, emptied: (loc) => `${loc}: nie ma już czego wyłożyć.`,
    ranOut: (deck) => `Skończyła się ${deck}; odłożone karty stają się talią.`,
    endTriggered: (r) => `Zbliża się koniec: ostatnia runda to ${r}.`,
    forfeited: (p, loc) => `${p} traci punkty akcji (${loc}).`,
    rested: (p, n) => `${p} odpoczywa i bierze z powrotem wiedźmy: ${n}.`,
    brewed: (p, potion, pts) => `${p} warzy ${potion} za ${pts} pkt.`,
    tamed: (p, a) => `${p} oswaja zwierzę: ${a}.`,
    goal: (p, g, pts) => `${p} zdobywa cel „${g}” za ${pts} pkt.`,
    turnEnded: (p) => `${p} kończy turę.`,
    ended: (why) => `Koniec gry: ${why}.`,
    reasons: {
      fifteen_rounds: "rozegrano piętnaście rund", goals: "cele zostały zdobyte",
      witches_deck_ran_out: "skończyła się talia wiedźm", potions_deck_ran_out: "skończyła się talia eliksirów",
    },
    shuffled: (n) => `Ostara tasuje żetony na etap ${n}.`,
    drewToken: (t) => `Ostara odkrywa żeton „${t}”.`,
    chose: (what, why) => `Ostara wybiera: ${what}${why ? ` (${why})` : ""}.`,
  },
};

const STYLE = `
.cd-board{display:flex;flex-direction:column;gap:10px;font-size:14px}
.cd-top{display:flex;flex-wrap:wrap;gap:10px;align-items:center}
.cd-pill{background:#f1ece0;border-radius:10px;padding:2px 8px}
.cd-rows{display:flex;flex-direction:column;gap:6px}
.cd-row{display:flex;flex-wrap:wrap;gap:8px;align-items:center;background:#eef3ea;border-radius:8px;padding:6px}
.cd-row.cd-spent{outline:3px solid #e0a800}
.cd-loc{min-width:92px;font-weight:bold}
.cd-slots{display:flex;gap:4px}
.cd-ing{width:30px;height:30px;border-radius:50%;display:inline-flex;align-items:center;justify-content:center;color:#fff;font-weight:bold;border:2px solid rgba(0,0,0,.25);font-size:12px}
.cd-ing.cd-empty{background:#ccc !important;color:#777}
.cd-card{display:inline-flex;flex-direction:column;gap:2px;min-width:88px;max-width:140px;border-radius:7px;padding:4px 6px;border:2px solid rgba(0,0,0,.3);background:#fff;position:relative;font-size:12px;vertical-align:top}
.cd-card .cd-band{height:6px;border-radius:3px;margin:-2px -2px 2px}
.cd-card .cd-pts{position:absolute;top:2px;right:5px;font-weight:bold}
.cd-card.cd-active{box-shadow:0 0 0 3px #f5b700}
.cd-card.cd-back{background:repeating-linear-gradient(45deg,#5b4a7a,#5b4a7a 6px,#6d5c8c 6px,#6d5c8c 12px);color:#fff;min-width:40px}
.cd-dots{display:flex;gap:2px;flex-wrap:wrap}
.cd-dot{width:11px;height:11px;border-radius:50%;display:inline-block;border:1px solid rgba(0,0,0,.3)}
[data-action]{cursor:pointer;outline:3px dashed #1b5e20;outline-offset:1px}
[data-action]:hover,[data-action]:focus{outline:3px solid #1b5e20;background-color:#fffbe6}
.cd-ing[data-action]:hover,.cd-ing[data-action]:focus{filter:brightness(1.15)}
.cd-goals{display:flex;flex-wrap:wrap;gap:6px}
.cd-goal{border-radius:50%;width:86px;height:86px;line-height:1.1;display:flex;flex-direction:column;align-items:center;justify-content:center;text-align:center;font-size:10px;border:3px solid #8d6e63;background:#fdf6e3;padding:4px;box-sizing:border-box}
.cd-goal.cd-hard{border-color:#4e342e;background:#f3e5c0}
.cd-clans{display:grid;grid-template-columns:repeat(auto-fit,minmax(280px,1fr));gap:8px}
.cd-clan{border-radius:8px;padding:6px;border:3px solid #999;background:#fbfaf7;min-width:0}
.cd-clan.cd-turn{box-shadow:0 0 0 3px #f5b700}
.cd-clan h4{margin:0 0 4px}
.cd-line{display:flex;flex-wrap:wrap;gap:4px;align-items:center;margin:3px 0}
.cd-label{font-size:11px;text-transform:uppercase;opacity:.7;min-width:70px}
.cd-buttons{display:flex;flex-wrap:wrap;gap:6px}
.cd-track{display:flex;gap:2px;align-items:center;flex-wrap:wrap}
.cd-step{width:22px;height:22px;border-radius:4px;background:#e8e0f0;display:inline-flex;align-items:center;justify-content:center;font-size:11px}
.cd-step.cd-now{background:#6c3483;color:#fff}
.cd-step.cd-past{background:#b9a5cc}
.cd-gap{width:8px}
.cd-mini{font-size:10px;opacity:.85}
`;

function words(ctx) {
  return WORDS[ctx.lang] || WORDS.en;
}

function html(name, attrs = {}, text = null, parent = null) {
  const node = document.createElement(name);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

function ensureStyle() {
  if (document.getElementById("cd-style")) return;
  const style = document.createElement("style");
  style.id = "cd-style";
  style.textContent = STYLE;
  document.head.appendChild(style);
}

/** Catalog lookups by id: every card, ingredient, tool, animal, location, goal and token. */
function lookups(catalog) {
  if (catalog.__cd) return catalog.__cd;
  const byId = (list) => Object.fromEntries((list || []).map((x) => [x.id, x]));
  const out = {
    witches: byId(catalog.witches), potions: { ...byId(catalog.potions), ...byId(catalog.starting_potions) },
    novices: byId(catalog.novices), ingredients: byId(catalog.ingredients), tools: byId(catalog.tools),
    animals: byId(catalog.animals), locations: byId(catalog.locations), goals: byId(catalog.goals),
    tokens: byId(catalog.ostara_tokens),
  };
  Object.defineProperty(catalog, "__cd", { value: out, enumerable: false });
  return out;
}

function seatName(ctx, seat) {
  const s = (ctx.seats || []).find((x) => x.seat === seat);
  if (s && s.name) return s.name;
  if (ctx.view && ctx.view.ostara === seat) return words(ctx).ostara;
  return `#${seat + 1}`;
}

function activate(node, handler) {
  if (!["BUTTON", "A"].includes(node.tagName)) {
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
  }
  node.addEventListener("click", handler);
  node.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      handler(e);
    }
  });
}

function clickable(node, ctx, index) {
  node.setAttribute("data-action", index);
  activate(node, (e) => {
    e.stopPropagation();
    ctx.play(ctx.actions[index]);
  });
}

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The index of the one listed action with exactly these fields, or -1. */
function find(ctx, want) {
  return (ctx.actions || []).findIndex((a) => Object.keys(want).every((k) => same(a[k], want[k])) && Object.keys(a).every((k) => k in want));
}

function ingredientChip(parent, ctx, kind, label = null) {
  const L = lookups(ctx.catalog);
  const name = kind && L.ingredients[kind] ? ctx.name(L.ingredients[kind]) : "—";
  const chip = html("span", {
    class: `cd-ing${kind ? "" : " cd-empty"}`, "data-kind": kind || "", title: name, "aria-label": name,
    style: kind ? `background:${INGREDIENT_COLOURS[kind] || "#888"}` : null,
  }, label === null ? (kind ? name.slice(0, 2) : "·") : label, parent);
  return chip;
}

function dots(parent, ctx, kinds) {
  const L = lookups(ctx.catalog);
  const box = html("span", { class: "cd-dots" }, null, parent);
  for (const k of kinds) {
    html("span", { class: "cd-dot", style: `background:${INGREDIENT_COLOURS[k] || "#888"}`, title: L.ingredients[k] ? ctx.name(L.ingredients[k]) : k }, null, box);
  }
  return box;
}

function apLine(parent, ap) {
  const text = ["mountains", "forest", "lake"].map((l) => `${LOCATION_MARK[l]}${ap[l] || 0}`).join(" ");
  return html("span", { class: "cd-mini" }, text, parent);
}

/** A witch, novice or potion card face up, or a back when the id is unknown (a hidden card). */
function card(parent, ctx, id, extra = {}) {
  const L = lookups(ctx.catalog);
  const w = words(ctx);
  const witch = L.witches[id];
  const novice = L.novices[id];
  const potion = L.potions[id];
  const node = html("span", { class: "cd-card", "data-card": id || "", ...extra }, null, parent);
  if (!witch && !novice && !potion) {
    node.classList.add("cd-back");
    node.textContent = "?";
    node.title = w.hidden;
    return node;
  }
  const colour = (witch || potion || {}).colour || "pale";
  const band = html("span", { class: "cd-band", style: `background:${COLOURS[colour] || "#ccc"}` }, null, node);
  if (witch && witch.secondary) band.style.background = `linear-gradient(90deg,${COLOURS[colour]} 50%,${COLOURS[witch.secondary]} 50%)`;
  const item = witch || novice || potion;
  node.title = ctx.name(item);
  node.setAttribute("aria-label", ctx.name(item));
  html("span", {}, ctx.name(item), node);
  if (witch || potion) html("span", { class: "cd-pts" }, String((witch || potion).points), node);
  if (witch || novice) {
    apLine(node, (witch || novice).ap);
    if (witch && witch.refresh) html("span", { class: "cd-mini", title: "refresh" }, "↻", node);
  }
  if (potion) {
    dots(node, ctx, potion.ingredients);
    if (potion.tool) html("span", { class: "cd-mini" }, `+ ${potion.tool === "any" ? "★" : ctx.name(L.tools[potion.tool])}`, node);
  }
  return node;
}

function toolCard(parent, ctx, id) {
  const L = lookups(ctx.catalog);
  const back = L.potions[id] ? L.potions[id].back : null;
  const name = back && L.tools[back] ? ctx.name(L.tools[back]) : id;
  return html("span", { class: "cd-card", "data-tool": id, title: name, style: "background:#efe7d4;min-width:60px" }, `⚗ ${name}`, parent);
}

function animalCard(parent, ctx, id) {
  const L = lookups(ctx.catalog);
  const animal = L.witches[id] ? L.animals[L.witches[id].animal] : null;
  const name = animal ? ctx.name(animal) : id;
  const node = html("span", { class: "cd-card", "data-animal": id, title: name, style: "background:#e3f0e0;min-width:60px" }, name, parent);
  if (animal) ingredientChip(node, ctx, animal.price, "");
  return node;
}

// --- the board --------------------------------------------------------------------------------

function stateOf(root, ctx) {
  if (!root.__carodeni) root.__carodeni = { version: null, potion: null };
  const st = root.__carodeni;
  if (st.version !== ctx.version) Object.assign(st, { version: ctx.version, potion: null });
  return st;
}

export function render(root, ctx) {
  ensureStyle();
  const w = words(ctx);
  const L = lookups(ctx.catalog);
  const view = ctx.view;
  const st = stateOf(root, ctx);
  root.replaceChildren();
  const board = html("div", { class: "cd-board board-carodeni" }, null, root);

  const top = html("div", { class: "cd-top" }, null, board);
  const round = view.solo ? Math.min(view.round + 1, 15) : view.round + 1;
  html("span", { class: "cd-pill", "data-round": round }, view.solo ? w.of15(round) : w.round(round), top);
  if (view.end_round !== null && view.end_round !== undefined && !view.solo) html("span", { class: "cd-pill" }, w.lastRound(view.end_round + 1), top);
  html("span", { class: "cd-pill", "data-witch-deck": view.witch_deck }, `${view.witch_deck} · ${w.witchDeck}`, top);
  html("span", { class: "cd-pill", "data-potion-deck": view.potion_deck }, `${view.potion_deck} · ${w.potionDeck}`, top);
  html("span", { class: "cd-pill", "data-bag": view.bag }, `${view.bag} ${w.bag}`, top);
  for (const target of ["witches", "potions", "none"]) {
    const i = find(ctx, { type: "refresh", target });
    if (i >= 0) clickable(html("button", { type: "button", class: "cd-refresh" }, target === "none" ? w.refreshNone : `↻ ${w.refresh(w.refreshWhat[target])}`, top), ctx, i);
  }

  if (view.solo) ostaraTrack(board, ctx, w, L);
  locations(board, ctx, w, L);
  goals(board, ctx, w, L);
  const buttons = html("div", { class: "cd-buttons" }, null, board);
  for (const [type, label] of [["rest", w.rest], ["end_turn", w.endTurn], ["ostara_turn", w.ostaraTurn]]) {
    const i = find(ctx, { type });
    if (i >= 0) clickable(html("button", { type: "button", class: `cd-${type}` }, label, buttons), ctx, i);
  }
  const payments = html("div", { class: "cd-buttons cd-payments" }, null, board);
  clans(board, ctx, w, L, st, payments, () => render(root, ctx));
}

function ostaraTrack(parent, ctx, w, L) {
  const view = ctx.view;
  const box = html("div", { class: "cd-row cd-ostara", "data-testid": "ostara-track" }, null, parent);
  html("span", { class: "cd-loc" }, w.ostaraTrack, box);
  const track = html("span", { class: "cd-track" }, null, box);
  for (let r = 0; r < 15; r++) {
    if (r && r % 5 === 0) html("span", { class: "cd-gap" }, null, track);
    const cls = r === view.round ? "cd-now" : r < view.round ? "cd-past" : "";
    html("span", { class: `cd-step ${cls}`, "data-step": r + 1 }, String(r + 1), track);
  }
  const t = view.ostara_tokens;
  if (t) {
    html("span", { class: "cd-pill" }, w.stage(Math.max(t.stage, 0) + 1), box);
    const token = t.token && L.tokens[t.token];
    html("span", { class: "cd-pill", "data-token": t.token || "" }, `${w.token}: ${token ? ctx.name(token) : "—"}`, box);
    html("span", { class: "cd-mini" }, w.left(t.left_in_stage), box);
  }
}

function locations(parent, ctx, w, L) {
  const view = ctx.view;
  const rows = html("div", { class: "cd-rows" }, null, parent);
  view.board.forEach((row, li) => {
    const loc = row.location;
    const spent = view.turn && view.turn.seat !== null && view.turn.ap && view.turn.ap[li] > 0 && view.turn.phase === "collect";
    const box = html("div", { class: `cd-row${spent ? " cd-spent" : ""}`, "data-location": loc }, null, rows);
    const name = L.locations[loc] ? ctx.name(L.locations[loc]) : loc;
    const label = html("span", { class: "cd-loc" }, `${LOCATION_MARK[loc] || ""} ${name}`, box);
    if (view.turn && view.turn.ap && view.turn.ap[li]) html("span", { class: "cd-mini", title: w.ap }, ` · ${view.turn.ap[li]} AP`, label);
    const slots = html("span", { class: "cd-slots" }, null, box);
    row.ingredients.forEach((kind, slot) => {
      const chip = ingredientChip(slots, ctx, kind);
      chip.setAttribute("data-slot", slot);
      const i = find(ctx, { type: "take", item: "ingredient", location: loc, slot });
      if (i >= 0) clickable(chip, ctx, i);
    });
    const ri = find(ctx, { type: "refresh", target: "ingredients", location: loc });
    if (ri >= 0) clickable(html("button", { type: "button", class: "cd-refresh", title: w.refresh(w.refreshWhat.ingredients) }, "↻", box), ctx, ri);
    if (row.potion) {
      const c = card(box, ctx, row.potion, { "data-offer": "potion" });
      const i = find(ctx, { type: "take", item: "potion", location: loc });
      if (i >= 0) clickable(c, ctx, i);
      const ti = find(ctx, { type: "take", item: "tool", location: loc });
      const back = L.potions[row.potion] && L.potions[row.potion].back;
      const tool = html("button", { type: "button", class: "cd-flip", "data-offer": "tool", disabled: ti >= 0 ? null : "" }, `⚗ ${back && L.tools[back] ? ctx.name(L.tools[back]) : w.tool}`, box);
      if (ti >= 0) clickable(tool, ctx, ti);
    } else html("span", { class: "cd-card cd-back" }, "∅", box);
    if (row.witch) {
      const c = card(box, ctx, row.witch, { "data-offer": "witch" });
      const i = find(ctx, { type: "take", item: "witch", location: loc });
      if (i >= 0) clickable(c, ctx, i);
      if (view.animals) {
        const ai = find(ctx, { type: "take", item: "animal", location: loc });
        const animal = L.witches[row.witch] ? L.animals[L.witches[row.witch].animal] : null;
        const b = html("button", { type: "button", class: "cd-flip", "data-offer": "animal", disabled: ai >= 0 ? null : "" }, `⇄ ${animal ? ctx.name(animal) : w.animal}`, box);
        if (ai >= 0) clickable(b, ctx, ai);
      }
    } else html("span", { class: "cd-card cd-back" }, "∅", box);
  });
}

function goals(parent, ctx, w, L) {
  const box = html("div", { class: "cd-goals", "data-testid": "carodeni-goals" }, null, parent);
  html("span", { class: "cd-label" }, w.goals, box);
  ctx.view.goals.forEach((g, i) => {
    const face = L.goals[g.token] ? L.goals[g.token][g.side] : null;
    const node = html("span", { class: `cd-goal cd-${g.side}`, "data-goal": i, "data-token": g.token }, null, box);
    html("span", {}, face ? ctx.name(face) : g.token, node);
    html("b", {}, `${g.points} ${w.points}`, node);
    if (g.claimed_by !== null && g.claimed_by !== undefined) {
      node.style.borderColor = SEAT_COLOURS[g.claimed_by % 5];
      node.style.opacity = "0.7";
      html("span", { class: "cd-mini" }, w.claimed(seatName(ctx, g.claimed_by)), node);
    }
    node.title = `${w[g.side]} · ${face ? ctx.name(face) : g.token}`;
  });
}

function clans(parent, ctx, w, L, st, payments, rerender) {
  const view = ctx.view;
  const grid = html("div", { class: "cd-clans" }, null, parent);
  const order = view.seat !== null && view.seat !== undefined ? [view.seat, ...view.players.map((p) => p.seat).filter((s) => s !== view.seat)] : view.players.map((p) => p.seat);
  for (const seat of order) {
    const p = view.players[seat];
    const box = html("div", { class: `cd-clan${view.turn && view.turn.seat === seat ? " cd-turn" : ""}`, "data-seat": seat, style: `border-color:${SEAT_COLOURS[seat % 5]}` }, null, grid);
    html("h4", {}, `${seatName(ctx, seat)}${seat === view.seat ? ` (${w.you})` : ""}${view.ostara === seat ? " ☾" : ""}`, box);
    const ing = line(box, w.ingredients);
    for (const [kind, n] of Object.entries(p.ingredients)) {
      const chip = ingredientChip(ing, ctx, kind, String(n));
      chip.setAttribute("data-count", n);
      if (!n) chip.style.opacity = "0.35";
    }
    const hand = line(box, w.hand);
    if (p.hand) {
      for (const id of p.hand) {
        const c = card(hand, ctx, id, { "data-hand": id });
        const i = find(ctx, { type: "play", witch: id });
        if (i >= 0) clickable(c, ctx, i);
      }
    } else if (view.ostara !== seat) {
      for (let k = 0; k < p.hand_count; k++) card(hand, ctx, null, { "data-hand": "" });
      html("span", { class: "cd-mini" }, w.cards(p.hand_count), hand);
    }
    const played = line(box, w.played);
    p.played.forEach((id, k) => {
      const c = card(played, ctx, id, { "data-played": id });
      if (view.turn && view.turn.seat === seat && k === p.played.length - 1 && view.turn.witch === id) {
        c.classList.add("cd-active");
        c.title += ` (${w.active})`;
      }
    });
    const potions = line(box, w.potions);
    for (const id of p.potions) {
      const c = card(potions, ctx, id, { "data-potion": id, "data-needs": L.potions[id] ? L.potions[id].ingredients.join(" ") : "" });
      brewTarget(c, ctx, id, st, payments, w, L, rerender);
    }
    if (p.tools.length) {
      const tools = line(box, w.tools);
      for (const id of p.tools) toolCard(tools, ctx, id);
    }
    if (p.animals.length) {
      const animals = line(box, w.animals);
      for (const id of p.animals) {
        const c = animalCard(animals, ctx, id);
        const i = find(ctx, { type: "tame", animal: id });
        if (i >= 0) clickable(c, ctx, i);
      }
    }
    const clan = line(box, w.clan);
    clan.setAttribute("data-clan", seat);
    for (const id of p.clan_witches) card(clan, ctx, id, { "data-clan-witch": id });
    for (const id of p.clan_potions) card(clan, ctx, id, { "data-clan-potion": id });
    for (const id of p.clan_tools) toolCard(clan, ctx, id);
    for (const id of p.clan_animals) animalCard(clan, ctx, id);
    for (const gi of p.goals) {
      const g = view.goals[gi];
      const face = g && L.goals[g.token] ? L.goals[g.token][g.side] : null;
      html("span", { class: "cd-pill", "data-claimed-goal": gi }, `◎ ${face ? ctx.name(face) : gi}`, clan);
    }
  }
}

function line(parent, label) {
  const box = html("div", { class: "cd-line" }, null, parent);
  html("span", { class: "cd-label" }, label, box);
  return box;
}

/** A potion with one listed brew is one click; with several payments it is picked first and
 * each payment is offered as a button. */
function brewTarget(node, ctx, potion, st, payments, w, L, rerender) {
  const indices = [];
  (ctx.actions || []).forEach((a, i) => {
    if (a.type === "brew" && a.potion === potion) indices.push(i);
  });
  if (!indices.length) return;
  if (indices.length === 1) return clickable(node, ctx, indices[0]);
  node.setAttribute("data-brew", potion);
  node.setAttribute("aria-pressed", String(st.potion === potion));
  if (st.potion === potion) node.classList.add("cd-active");
  activate(node, () => {
    st.potion = potion;
    rerender();
  });
  if (st.potion !== potion) return;
  html("span", { class: "cd-label" }, w.pay, payments);
  for (const i of indices) {
    const b = html("button", { type: "button", class: "cd-payment" }, null, payments);
    for (const part of ctx.actions[i].payment) {
      if (part.startsWith("pair:")) {
        const kind = part.slice(5);
        ingredientChip(b, ctx, kind, "2×").title = w.pair(L.ingredients[kind] ? ctx.name(L.ingredients[kind]) : kind);
      } else if (L.ingredients[part]) ingredientChip(b, ctx, part);
      else html("span", { class: "cd-mini" }, ` ⚗ ${L.tools[part] ? ctx.name(L.tools[part]) : part} `, b);
    }
    clickable(b, ctx, i);
  }
}

// --- the log ----------------------------------------------------------------------------------

export function describe(event, ctx) {
  const w = words(ctx);
  const L = lookups(ctx.catalog);
  const d = { ...(event.data || {}), type: event.type || (event.data || {}).type };
  const who = (seat) => seatName(ctx, seat);
  const named = (table, id) => (id && table[id] ? ctx.name(table[id]) : id || w.nothing);
  const cardName = (id) => (id === null || id === undefined ? w.hidden : named({ ...L.witches, ...L.novices, ...L.potions }, id));
  const loc = (id) => named(L.locations, id);
  switch (d.type) {
    case "GameStarted": {
      const diff = ctx.catalog.options && ctx.catalog.options.properties && d.difficulty
        ? ((ctx.catalog.options.properties.difficulty["x-value-names"] || {})[d.difficulty] || {})[ctx.lang] : d.difficulty;
      return w.started(d.solo, d.seats, diff || d.difficulty);
    }
    case "WitchPlayed":
      return w.playedW(who(d.seat), cardName(d.witch));
    case "OfferRefreshed":
      return w.refreshed(who(d.seat), w.refreshWhat[d.target] || d.target, d.location ? loc(d.location) : null);
    case "ItemTaken": {
      let what;
      if (d.item === "ingredient") what = named(L.ingredients, d.kind);
      else if (d.item === "tool") what = named(L.tools, d.tool);
      else if (d.item === "animal") what = named(L.animals, d.animal);
      else what = cardName(d.card);
      return w.took(who(d.seat), what, loc(d.location));
    }
    case "SlotRefilled": {
      const what = d.item === "ingredient" ? (d.kind ? named(L.ingredients, d.kind) : null) : d.card ? cardName(d.card) : null;
      return what ? w.refilled(loc(d.location), what) : w.emptied(loc(d.location));
    }
    case "DeckRanOut":
      return w.ranOut(d.deck === "witches" ? w.witchDeck : w.potionDeck);
    case "EndTriggered":
      return w.endTriggered(d.last_round + 1);
    case "ActionPointsForfeited":
      return w.forfeited(who(d.seat), loc(d.location));
    case "Rested":
      return w.rested(who(d.seat), Array.isArray(d.witches) ? d.witches.length : d.witches);
    case "PotionBrewed": {
      const p = L.potions[d.potion];
      return w.brewed(who(d.seat), cardName(d.potion), p ? p.points : "?");
    }
    case "AnimalTamed":
      return w.tamed(who(d.seat), named(L.animals, d.animal));
    case "GoalClaimed": {
      const face = L.goals[d.token] ? L.goals[d.token][d.side] : null;
      return w.goal(who(d.seat), face ? ctx.name(face) : d.token, d.points);
    }
    case "TurnEnded":
      return w.turnEnded(who(d.seat));
    case "GameEnded":
      return w.ended(w.reasons[d.reason] || d.reason);
    case "OstaraTokensShuffled":
      return w.shuffled(d.stage + 1);
    case "OstaraTokenDrawn":
      return w.drewToken(named(L.tokens, d.token));
    case "OstaraChose": {
      let what = d.choice;
      if (d.choice === null || d.choice === undefined) what = w.nothing;
      else if (L.ingredients[d.choice]) what = named(L.ingredients, d.choice);
      else if (L.animals[d.choice]) what = named(L.animals, d.choice);
      else what = cardName(d.choice);
      return w.chose(what, d.reason);
    }
    default:
      return d.type || "";
  }
}
