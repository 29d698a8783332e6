// Čarodění: the three locations (ingredients, potion, witch), the goal row, every clan with its
// hand, table and clan card, the animals, and Ostara's track in the solo game; drawn with HTML/CSS
// from the view and the catalog. Each clickable thing is one of ctx.actions (data-action = its
// index); a potion that can be paid several ways is picked first, then its payments are offered.
import { activate, h } from "../dom.js";

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
    apShort: "AP", refreshMark: "refresh",
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
    why: {
      witch: "witch", potion: "potion", witches: "witches", potions: "potions",
      equal: (n) => `as many witches as potions (${n}): the first on the token`,
      fewer: (k, a, b) => `fewer ${k} (${a} against ${b})`, noCard: (k) => `no ${k} card on offer`,
      noGoalsNovice: "no goals on novice", goal: (g) => `goal ${g}`, noGoalHelps: "no card on offer helps a goal",
      banner: (k) => `the banner matches her ${k}`, noBanner: "no banner matches", mostPoints: (n) => `most points (${n})`,
      topmost: "the topmost of those left", only: "the only one on offer", noIngredient: "no ingredient on the board",
      firstIngredient: "none of her potions needs one on offer: the first from the top", forPotion: (p) => `for the potion ${p}`,
      firstAnimal: "the first animal from the top she has not got", everyAnimal: "she has every animal on offer: an ingredient instead",
      brews: "Ostara brews without tools: the most points, then the leftmost",
    },
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
    apShort: "AP", refreshMark: "refresh",
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
    why: {
      witch: "čarodějka", potion: "lektvar", witches: "čarodějek", potions: "lektvarů",
      equal: (n) => `stejně čarodějek jako lektvarů (${n}): první na žetonu`,
      fewer: (k, a, b) => `méně ${k} (${a} proti ${b})`, noCard: (k) => `v nabídce není žádná karta (${k})`,
      noGoalsNovice: "na nováčkovskou obtížnost neplní cíle", goal: (g) => `cíl ${g}`, noGoalHelps: "k cíli nepomůže žádná karta v nabídce",
      banner: (k) => `prapor odpovídá jejím kartám (${k})`, noBanner: "žádný prapor neodpovídá", mostPoints: (n) => `nejvíc bodů (${n})`,
      topmost: "nejvyšší ze zbylých", only: "jediná v nabídce", noIngredient: "na desce není žádná surovina",
      firstIngredient: "žádný její lektvar nepotřebuje nic z nabídky: první shora", forPotion: (p) => `pro lektvar ${p}`,
      firstAnimal: "první zvíře shora, které ještě nemá", everyAnimal: "má každé zvíře z nabídky: místo něj surovina",
      brews: "Ostara vaří bez nástrojů: nejvíc bodů, pak nejlevější",
    },
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
    apShort: "AP", refreshMark: "refresh",
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
    why: {
      witch: "wiedźma", potion: "eliksir", witches: "wiedźm", potions: "eliksirów",
      equal: (n) => `tyle samo wiedźm co eliksirów (${n}): pierwszy na żetonie`,
      fewer: (k, a, b) => `mniej ${k} (${a} wobec ${b})`, noCard: (k) => `brak karty w ofercie (${k})`,
      noGoalsNovice: "na poziomie nowicjuszki nie zdobywa celów", goal: (g) => `cel ${g}`, noGoalHelps: "żadna karta w ofercie nie pomaga w celu",
      banner: (k) => `sztandar pasuje do jej kart (${k})`, noBanner: "żaden sztandar nie pasuje", mostPoints: (n) => `najwięcej punktów (${n})`,
      topmost: "najwyższa z pozostałych", only: "jedyna w ofercie", noIngredient: "na planszy nie ma składników",
      firstIngredient: "żaden jej eliksir nie potrzebuje nic z oferty: pierwszy od góry", forPotion: (p) => `dla eliksiru ${p}`,
      firstAnimal: "pierwsze zwierzę od góry, którego jeszcze nie ma", everyAnimal: "ma każde zwierzę z oferty: zamiast tego składnik",
      brews: "Ostara warzy bez narzędzi: najwięcej punktów, potem najbardziej z lewej",
    },
    chose: (what, why) => `Ostara wybiera: ${what}${why ? ` (${why})` : ""}.`,
  },
};

const words = (ctx) => WORDS[ctx.lang] || WORDS.en;

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

/** `node` plays the listed action `index` when clicked (a button as it is, anything else with Enter
 * and Space too); left as it is when that action is not listed (-1). */
function clickable(node, ctx, index) {
  if (index < 0) return node;
  node.dataset.action = String(index);
  const play = (e) => {
    e.stopPropagation();
    ctx.play(ctx.actions[index]);
  };
  if (node.tagName === "BUTTON") node.addEventListener("click", play);
  else activate(node, play);
  return node;
}

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The index of the one listed action with exactly these fields, or -1. */
function find(ctx, want) {
  return (ctx.actions || []).findIndex((a) => Object.keys(want).every((k) => same(a[k], want[k])) && Object.keys(a).every((k) => k in want));
}

function ingredientChip(ctx, kind, label = null, attrs = {}) {
  const L = lookups(ctx.catalog);
  const name = kind && L.ingredients[kind] ? ctx.name(L.ingredients[kind]) : "—";
  return h("span", {
    class: `cd-ing${kind ? "" : " cd-empty"}`, "data-kind": kind || "", title: name, "aria-label": name,
    style: kind ? { background: INGREDIENT_COLOURS[kind] || "#888" } : null, ...attrs,
  }, label === null ? (kind ? name : "·") : label === "" ? "" : `${name} ${label}`);
}

function dots(ctx, kinds) {
  const L = lookups(ctx.catalog);
  // a dot each, and the names in words: a reader needs no colour legend
  const names = kinds.map((k) => (L.ingredients[k] ? ctx.name(L.ingredients[k]) : k));
  return h("span", { class: "cd-dots" }, kinds.map((k, i) => h("span", {
    class: "cd-dot", style: { background: INGREDIENT_COLOURS[k] || "#888" }, title: names[i], "aria-hidden": "true",
  })), h("span", { class: "cd-mini cd-names" }, names.join(", ")));
}

function apLine(ap) {
  return h("span", { class: "cd-mini" }, ["mountains", "forest", "lake"].map((l) => `${LOCATION_MARK[l]}${ap[l] || 0}`).join(" "));
}

/** A witch, novice or potion card face up, or a back when the id is unknown (a hidden card). */
function card(ctx, id, extra = {}) {
  const L = lookups(ctx.catalog);
  const w = words(ctx);
  const witch = L.witches[id];
  const novice = L.novices[id];
  const potion = L.potions[id];
  if (!witch && !novice && !potion) return h("span", { class: "cd-card cd-back", "data-card": id || "", ...extra, title: w.hidden }, "?");
  const colour = (witch || potion || {}).colour || "pale";
  const band = witch && witch.secondary ? `linear-gradient(90deg,${COLOURS[colour]} 50%,${COLOURS[witch.secondary]} 50%)` : COLOURS[colour] || "#ccc";
  const name = ctx.name(witch || novice || potion);
  return h("span", { class: "cd-card", "data-card": id || "", ...extra, title: name, "aria-label": name },
    h("span", { class: "cd-band", style: { background: band } }),
    h("span", {}, name),
    witch || potion ? h("span", { class: "cd-pts" }, String((witch || potion).points)) : null,
    witch || novice ? apLine((witch || novice).ap) : null,
    witch && witch.refresh ? h("span", { class: "cd-mini", title: w.refreshMark }, "↻") : null,
    potion ? dots(ctx, potion.ingredients) : null,
    potion && potion.tool ? h("span", { class: "cd-mini" }, `+ ${potion.tool === "any" ? "★" : ctx.name(L.tools[potion.tool])}`) : null);
}

function toolCard(ctx, id) {
  const L = lookups(ctx.catalog);
  const back = L.potions[id] ? L.potions[id].back : null;
  const name = back && L.tools[back] ? ctx.name(L.tools[back]) : id;
  return h("span", { class: "cd-card cd-tool", "data-tool": id, title: name }, `⚗ ${name}`);
}

function animalCard(ctx, id) {
  const L = lookups(ctx.catalog);
  const animal = L.witches[id] ? L.animals[L.witches[id].animal] : null;
  const name = animal ? ctx.name(animal) : id;
  return h("span", { class: "cd-card cd-animal", "data-animal": id, title: name }, name, animal ? ingredientChip(ctx, animal.price, "") : null);
}

// --- the board --------------------------------------------------------------------------------

function stateOf(root, ctx) {
  if (!root.__carodeni) root.__carodeni = { version: null, potion: null };
  const st = root.__carodeni;
  if (st.version !== ctx.version) Object.assign(st, { version: ctx.version, potion: null });
  return st;
}

export function render(root, ctx) {
  const w = words(ctx);
  const L = lookups(ctx.catalog);
  const view = ctx.view;
  const st = stateOf(root, ctx);
  const round = view.solo ? Math.min(view.round + 1, 15) : view.round + 1;
  const refreshes = ["witches", "potions", "none"].map((target) => {
    const i = find(ctx, { type: "refresh", target });
    return i < 0 ? null : clickable(h("button", { type: "button", class: "cd-refresh" }, target === "none" ? w.refreshNone : `↻ ${w.refresh(w.refreshWhat[target])}`), ctx, i);
  });
  const buttons = [["rest", w.rest], ["end_turn", w.endTurn], ["ostara_turn", w.ostaraTurn]].map(([type, label]) => {
    const i = find(ctx, { type });
    return i < 0 ? null : clickable(h("button", { type: "button", class: `cd-${type}` }, label), ctx, i);
  });
  const [clanBoxes, payments] = clans(ctx, w, L, st, () => render(root, ctx));

  root.replaceChildren(h("div", { class: "cd-board board-carodeni" },
    h("div", { class: "cd-top" },
      h("span", { class: "cd-pill", "data-round": round }, view.solo ? w.of15(round) : w.round(round)),
      view.end_round !== null && view.end_round !== undefined && !view.solo ? h("span", { class: "cd-pill" }, w.lastRound(view.end_round + 1)) : null,
      h("span", { class: "cd-pill", "data-witch-deck": view.witch_deck }, `${view.witch_deck} · ${w.witchDeck}`),
      h("span", { class: "cd-pill", "data-potion-deck": view.potion_deck }, `${view.potion_deck} · ${w.potionDeck}`),
      h("span", { class: "cd-pill", "data-bag": view.bag }, `${view.bag} ${w.bag}`),
      refreshes),
    view.solo ? ostaraTrack(ctx, w, L) : null,
    locations(ctx, w, L),
    goals(ctx, w, L),
    h("div", { class: "cd-buttons" }, buttons),
    h("div", { class: "cd-buttons cd-payments" }, payments),
    clanBoxes));
  ensureStyle();
}

function ostaraTrack(ctx, w, L) {
  const view = ctx.view;
  const steps = [];
  for (let r = 0; r < 15; r++) {
    if (r && r % 5 === 0) steps.push(h("span", { class: "cd-gap" }));
    const cls = r === view.round ? "cd-now" : r < view.round ? "cd-past" : "";
    steps.push(h("span", { class: `cd-step ${cls}`, "data-step": r + 1 }, String(r + 1)));
  }
  const t = view.ostara_tokens;
  const token = t && t.token && L.tokens[t.token];
  return h("div", { class: "cd-row cd-ostara", "data-testid": "ostara-track" },
    h("span", { class: "cd-loc" }, w.ostaraTrack),
    h("span", { class: "cd-track" }, steps),
    t ? [
      h("span", { class: "cd-pill" }, w.stage(Math.max(t.stage, 0) + 1)),
      h("span", { class: "cd-pill", "data-token": t.token || "" }, `${w.token}: ${token ? ctx.name(token) : "—"}`),
      h("span", { class: "cd-mini" }, w.left(t.left_in_stage)),
    ] : null);
}

function locations(ctx, w, L) {
  const view = ctx.view;
  return h("div", { class: "cd-rows" }, view.board.map((row, li) => {
    const loc = row.location;
    const spent = view.turn && view.turn.seat !== null && view.turn.ap && view.turn.ap[li] > 0 && view.turn.phase === "collect";
    const name = L.locations[loc] ? ctx.name(L.locations[loc]) : loc;
    const ap = view.turn && view.turn.ap && view.turn.ap[li];
    const slots = row.ingredients.map((kind, slot) =>
      clickable(ingredientChip(ctx, kind, null, { "data-slot": slot }), ctx, find(ctx, { type: "take", item: "ingredient", location: loc, slot })));
    let potion = h("span", { class: "cd-card cd-back" }, "∅");
    let tool = null;
    if (row.potion) {
      potion = clickable(card(ctx, row.potion, { "data-offer": "potion" }), ctx, find(ctx, { type: "take", item: "potion", location: loc }));
      const ti = find(ctx, { type: "take", item: "tool", location: loc });
      const back = L.potions[row.potion] && L.potions[row.potion].back;
      tool = clickable(h("button", { type: "button", class: "cd-flip", "data-offer": "tool", disabled: ti < 0 },
        `⚗ ${back && L.tools[back] ? ctx.name(L.tools[back]) : w.tool}`), ctx, ti);
    }
    let witch = h("span", { class: "cd-card cd-back" }, "∅");
    let animal = null;
    if (row.witch) {
      witch = clickable(card(ctx, row.witch, { "data-offer": "witch" }), ctx, find(ctx, { type: "take", item: "witch", location: loc }));
      if (view.animals) {
        const ai = find(ctx, { type: "take", item: "animal", location: loc });
        const a = L.witches[row.witch] ? L.animals[L.witches[row.witch].animal] : null;
        animal = clickable(h("button", { type: "button", class: "cd-flip", "data-offer": "animal", disabled: ai < 0 }, `⇄ ${a ? ctx.name(a) : w.animal}`), ctx, ai);
      }
    }
    const ri = find(ctx, { type: "refresh", target: "ingredients", location: loc });
    return h("div", { class: `cd-row${spent ? " cd-spent" : ""}`, "data-location": loc },
      h("span", { class: "cd-loc" }, `${LOCATION_MARK[loc] || ""} ${name}`, ap ? h("span", { class: "cd-mini", title: w.ap }, ` · ${ap} ${w.apShort}`) : null),
      h("span", { class: "cd-slots" }, slots),
      ri >= 0 ? clickable(h("button", { type: "button", class: "cd-refresh", title: w.refresh(w.refreshWhat.ingredients) }, "↻"), ctx, ri) : null,
      potion, tool, witch, animal);
  }));
}

function goals(ctx, w, L) {
  return h("div", { class: "cd-goals", "data-testid": "carodeni-goals" },
    h("span", { class: "cd-label" }, w.goals),
    ctx.view.goals.map((g, i) => {
      const face = L.goals[g.token] ? L.goals[g.token][g.side] : null;
      const claimed = g.claimed_by !== null && g.claimed_by !== undefined;
      return h("span", {
        class: `cd-goal cd-${g.side}${claimed ? " cd-claimed" : ""}`, "data-goal": i, "data-token": g.token,
        title: `${w[g.side]} · ${face ? ctx.name(face) : g.token}`, style: claimed ? { borderColor: SEAT_COLOURS[g.claimed_by % 5] } : null,
      },
      h("span", {}, face ? ctx.name(face) : g.token),
      h("b", {}, `${g.points} ${w.points}`),
      claimed ? h("span", { class: "cd-mini" }, w.claimed(seatName(ctx, g.claimed_by))) : null);
    }));
}

/** Every clan's box (the caller's first) and the payments of the potion picked to brew. */
function clans(ctx, w, L, st, rerender) {
  const view = ctx.view;
  const payments = [];
  const order = view.seat !== null && view.seat !== undefined ? [view.seat, ...view.players.map((p) => p.seat).filter((s) => s !== view.seat)] : view.players.map((p) => p.seat);
  const boxes = order.map((seat) => {
    const p = view.players[seat];
    const ingredients = Object.entries(p.ingredients).map(([kind, n]) => {
      const chip = ingredientChip(ctx, kind, String(n), { "data-count": n });
      if (!n) chip.classList.add("cd-zero");
      return chip;
    });
    let hand = null;
    if (p.hand) hand = p.hand.map((id) => clickable(card(ctx, id, { "data-hand": id }), ctx, find(ctx, { type: "play", witch: id })));
    else if (view.ostara !== seat) {
      hand = [Array.from({ length: p.hand_count }, () => card(ctx, null, { "data-hand": "" })), h("span", { class: "cd-mini" }, w.cards(p.hand_count))];
    }
    const played = p.played.map((id, k) => {
      const c = card(ctx, id, { "data-played": id });
      if (view.turn && view.turn.seat === seat && k === p.played.length - 1 && view.turn.witch === id) {
        c.classList.add("cd-active");
        c.title += ` (${w.active})`;
      }
      return c;
    });
    const potions = p.potions.map((id) => {
      const c = card(ctx, id, { "data-potion": id, "data-needs": L.potions[id] ? L.potions[id].ingredients.join(" ") : "" });
      payments.push(...brewTarget(c, ctx, id, st, w, L, rerender));
      return c;
    });
    const goalsClaimed = p.goals.map((gi) => {
      const g = view.goals[gi];
      const face = g && L.goals[g.token] ? L.goals[g.token][g.side] : null;
      return h("span", { class: "cd-pill", "data-claimed-goal": gi }, `◎ ${face ? ctx.name(face) : gi}`);
    });
    return h("div", { class: `cd-clan${view.turn && view.turn.seat === seat ? " cd-turn" : ""}`, "data-seat": seat, style: { borderColor: SEAT_COLOURS[seat % 5] } },
      h("h4", {}, `${seatName(ctx, seat)}${seat === view.seat ? ` (${w.you})` : ""}${view.ostara === seat ? " ☾" : ""}`),
      line(w.ingredients, ingredients),
      line(w.hand, hand),
      line(w.played, played),
      line(w.potions, potions),
      p.tools.length ? line(w.tools, p.tools.map((id) => toolCard(ctx, id))) : null,
      p.animals.length ? line(w.animals, p.animals.map((id) => clickable(animalCard(ctx, id), ctx, find(ctx, { type: "tame", animal: id })))) : null,
      line(w.clan, [
        p.clan_witches.map((id) => card(ctx, id, { "data-clan-witch": id })),
        p.clan_potions.map((id) => card(ctx, id, { "data-clan-potion": id })),
        p.clan_tools.map((id) => toolCard(ctx, id)),
        p.clan_animals.map((id) => animalCard(ctx, id)),
        goalsClaimed,
      ], { "data-clan": seat }));
  });
  return [h("div", { class: "cd-clans" }, boxes), payments];
}

function line(label, items, attrs = {}) {
  return h("div", { class: "cd-line", ...attrs }, h("span", { class: "cd-label" }, label), items);
}

/** A potion with one listed brew is one click; with several payments it is picked first and
 * each payment is offered as a button (returned, for the row of payments). */
function brewTarget(node, ctx, potion, st, w, L, rerender) {
  const indices = [];
  (ctx.actions || []).forEach((a, i) => {
    if (a.type === "brew" && a.potion === potion) indices.push(i);
  });
  if (!indices.length) return [];
  if (indices.length === 1) {
    clickable(node, ctx, indices[0]);
    return [];
  }
  node.setAttribute("data-brew", potion);
  node.setAttribute("aria-pressed", String(st.potion === potion));
  if (st.potion === potion) node.classList.add("cd-active");
  activate(node, () => {
    st.potion = potion;
    rerender();
  });
  if (st.potion !== potion) return [];
  const part = (p) => {
    if (p.startsWith("pair:")) {
      const kind = p.slice(5);
      return ingredientChip(ctx, kind, "2×", { title: w.pair(L.ingredients[kind] ? ctx.name(L.ingredients[kind]) : kind) });
    }
    if (L.ingredients[p]) return ingredientChip(ctx, p);
    return h("span", { class: "cd-mini" }, ` ⚗ ${L.tools[p] ? ctx.name(L.tools[p]) : p} `);
  };
  return [
    h("span", { class: "cd-label" }, w.pay),
    ...indices.map((i) => clickable(h("button", { type: "button", class: "cd-payment" }, ctx.actions[i].payment.map(part)), ctx, i)),
  ];
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
      else if (typeof w.why[d.choice] === "string") what = w.why[d.choice]; // a kind: "witch", "potion"
      else what = cardName(d.choice);
      return w.chose(what, d.reason ? ostaraReason(d.reason, w, cardName) : "");
    }
    default:
      return d.type || "";
  }
}

/** Ostara's reason (the engine's English, made of the phrases of games/carodeni/ostara.py joined
 * by "; ") in the reader's language, phrase by phrase; a phrase not known stays as it came. */
function ostaraReason(text, w, cardName) {
  const r = w.why;
  if (!r) return text;
  const kinds = { witch: r.witch, potion: r.potion, witches: r.witches, potions: r.potions };
  const rules = [
    [/^as many witches as potions \((\d+)\): the first on the token$/, (m) => r.equal(m[1])],
    [/^fewer (witch|potion)s \((\d+) against (\d+)\)$/, (m) => r.fewer(kinds[`${m[1]}es`] || kinds[`${m[1]}s`], m[2], m[3])],
    [/^no (witch|potion) card on offer$/, (m) => r.noCard(kinds[m[1]])],
    [/^goals: none pursued on novice$/, () => r.noGoalsNovice],
    [/^goal (\S+) \((.*)\)$/, (m) => r.goal(m[1])],
    [/^goals: no card on offer helps one$/, () => r.noGoalHelps],
    [/^banner matches her (potions|witches)$/, (m) => r.banner(kinds[m[1]])],
    [/^banner: none matches$/, () => r.noBanner],
    [/^most points \((\d+)\)$/, (m) => r.mostPoints(m[1])],
    [/^the topmost of those left$/, () => r.topmost],
    [/^the only one on offer$/, () => r.only],
    [/^no ingredient on the board$/, () => r.noIngredient],
    [/^no potion of hers needs one on offer: the first from the top$/, () => r.firstIngredient],
    [/^for potion (\S+)$/, (m) => r.forPotion(cardName(m[1]))],
    [/^the first animal from the top that she has not yet$/, () => r.firstAnimal],
    [/^she has every animal on offer: an ingredient instead$/, () => r.everyAnimal],
    [/^Ostara brews without tools: the most points, then the leftmost$/, () => r.brews],
  ];
  return text.split("; ").map((part) => {
    for (const [pattern, say] of rules) {
      const m = part.match(pattern);
      if (m) return say(m);
    }
    return part;
  }).join("; ");
}

function ensureStyle() {
  if (document.getElementById("cd-style")) return;
  const link = document.createElement("link");
  link.id = "cd-style";
  link.rel = "stylesheet";
  link.href = new URL("./carodeni.css", import.meta.url).href;
  document.head.append(link);
}
