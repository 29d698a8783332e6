// Škoda kouzla: both wizards (life, level, magic, curses, frost), their rows, the own hand and the
// other's as backs, decks, discard piles, the shop offer. A click on a card picks the actions that
// name it (/actions): one plays at once; several are narrowed step by step — the targets, the ends
// of a row and the other shop card of a swap light up on the board, and each remaining action is
// also a button in words beside it. Nothing here knows the rules.
import { activate, h } from "../dom.js";

const COLOURS = { fire: "#d9532c", ice: "#6fb7e0", forest: "#4f9a41", dark: "#5b3f77", neutral: "#d8cbb0" };
/** A card's name band: its colour, dark enough under white words (AA), or light under dark ones. */
const BANDS = { fire: "#a8361a", ice: "#9fd3f0", forest: "#2f6b26", dark: "#5b3f77", neutral: "#e4d9c0" };
const LIGHT = new Set(["ice", "neutral"]);

const WORDS = {
  en: {
    cost: "cost", life: "life", magic: "magic", curses: "curses", frozen: "frozen", level: "level", hand: "Hand", deck: "deck",
    discard: "discard", shop: "shop", row: "Row (creatures and defences in play)", laid: "laid spells", removed: "removed", cancel: "Cancel",
    left: "left end", right: "right end", wizard: "wizard", choose: "Choose:", endPhase: "End phase", fromLeft: "from the left", fromRight: "from the right",
    types: { lay: "Lay", buy: "Buy", turn_into_magic: "Turn into magic", swap_shop: "Swap in the shop", store_magic: "Store magic", remove_card: "Remove from the game", promote: "Promote", resolve: "Act", end_phase: "End phase" },
    option: (n) => `ability ${n + 1}`, top: "onto the deck", target: (x) => `at ${x}`, from: (x) => `from the ${x}`, end: (x) => `at the ${x} end`,
    turn: (who, n) => `Turn ${n}: ${who}.`, gained: (who, n) => `${who} gains ${n} magic.`, bought: (who, c, p) => `${who} bought ${c} for ${p}.`,
    laidCard: (who, c) => `${who} laid ${c}.`, toMagic: (who, c, n) => `${who} turned ${c} into ${n} magic.`,
    damaged: (x, n) => `${x} takes ${n} damage.`, destroyed: (c) => `${c} is destroyed.`, cursed: (who, n) => `${who} is cursed (${n}).`,
    frozenE: (x) => `${x} is frozen.`, thawed: (x) => `${x} thaws.`, healed: (x, n) => `${x} heals ${n}.`, drew: (who, n) => `${who} draws ${n} cards.`,
    promoted: (who) => `${who}'s wizard rises to level 2.`, won: (who) => `${who} wins the duel.`, swapped: (who) => `${who} swapped cards in the shop.`,
    acted: (c) => `${c} acts.`, removedE: (who, c) => `${who} removed ${c} from the game.`, ended: (who) => `${who} ends the turn.`, wizardOf: (who) => `${who}'s wizard`,
  },
  cs: {
    cost: "cena", life: "životy", magic: "magie", curses: "kletby", frozen: "zmrazen", level: "úroveň", hand: "Ruka", deck: "balíček",
    discard: "odhazovací balíček", shop: "obchod", row: "Řada (bytosti a obrany ve hře)", laid: "seslaná kouzla", removed: "mimo hru", cancel: "Zpět",
    left: "levý konec", right: "pravý konec", wizard: "čaroděj", choose: "Vyber:", endPhase: "Konec fáze", fromLeft: "zleva", fromRight: "zprava",
    types: { lay: "Vyložit", buy: "Koupit", turn_into_magic: "Proměnit v magii", swap_shop: "Vyměnit v obchodě", store_magic: "Uložit magii", remove_card: "Odstranit ze hry", promote: "Povýšit", resolve: "Zahrát", end_phase: "Konec fáze" },
    option: (n) => `schopnost ${n + 1}`, top: "na balíček", target: (x) => `na ${x}`, from: (x) => (x === "left" ? "zleva" : "zprava"), end: (x) => (x === "left" ? "na levý konec" : "na pravý konec"),
    turn: (who, n) => `Tah ${n}: ${who}.`, gained: (who, n) => `${who} získává ${n} magie.`, bought: (who, c, p) => `${who} koupil(a) ${c} za ${p}.`,
    laidCard: (who, c) => `${who} vyložil(a) ${c}.`, toMagic: (who, c, n) => `${who} proměnil(a) ${c} v ${n} magie.`,
    damaged: (x, n) => `${x}: zranění ${n}.`, destroyed: (c) => `${c} je zničen(a).`, cursed: (who, n) => `${who} dostává kletbu (${n}).`,
    frozenE: (x) => `${x}: zmrazení.`, thawed: (x) => `${x} rozmrzá.`, healed: (x, n) => `${x} se léčí o ${n}.`, drew: (who, n) => `${who} si bere ${n} karet.`,
    promoted: (who) => `Čaroděj hráče ${who} postupuje na 2. úroveň.`, won: (who) => `${who} vyhrává souboj.`, swapped: (who) => `${who} vyměnil(a) karty v obchodě.`,
    acted: (c) => `${c} jedná.`, removedE: (who, c) => `${who} odstranil(a) ${c} ze hry.`, ended: (who) => `${who} končí tah.`, wizardOf: (who) => `čaroděj hráče ${who}`,
  },
  pl: {
    cost: "koszt", life: "życie", magic: "magia", curses: "klątwy", frozen: "zamrożony", level: "poziom", hand: "Ręka", deck: "talia",
    discard: "stos odrzuconych", shop: "sklep", row: "Rząd (istoty i obrony w grze)", laid: "rzucone zaklęcia", removed: "poza grą", cancel: "Wróć",
    left: "lewy koniec", right: "prawy koniec", wizard: "czarodziej", choose: "Wybierz:", endPhase: "Koniec fazy", fromLeft: "z lewej", fromRight: "z prawej",
    types: { lay: "Wyłóż", buy: "Kup", turn_into_magic: "Zamień w magię", swap_shop: "Wymień w sklepie", store_magic: "Przechowaj magię", remove_card: "Usuń z gry", promote: "Awansuj", resolve: "Zagraj", end_phase: "Koniec fazy" },
    option: (n) => `zdolność ${n + 1}`, top: "na talię", target: (x) => `w ${x}`, from: (x) => (x === "left" ? "z lewej" : "z prawej"), end: (x) => (x === "left" ? "na lewym końcu" : "na prawym końcu"),
    turn: (who, n) => `Tura ${n}: ${who}.`, gained: (who, n) => `${who} zyskuje ${n} magii.`, bought: (who, c, p) => `${who} kupił(a) ${c} za ${p}.`,
    laidCard: (who, c) => `${who} wyłożył(a) ${c}.`, toMagic: (who, c, n) => `${who} zamienił(a) ${c} w ${n} magii.`,
    damaged: (x, n) => `${x}: obrażenia ${n}.`, destroyed: (c) => `${c} zniszczony(a).`, cursed: (who, n) => `${who} dostaje klątwę (${n}).`,
    frozenE: (x) => `${x}: zamrożenie.`, thawed: (x) => `${x} odmarza.`, healed: (x, n) => `${x} leczy się o ${n}.`, drew: (who, n) => `${who} dobiera ${n} kart.`,
    promoted: (who) => `Czarodziej gracza ${who} awansuje na 2. poziom.`, won: (who) => `${who} wygrywa pojedynek.`, swapped: (who) => `${who} wymienił(a) karty w sklepie.`,
    acted: (c) => `${c} działa.`, removedE: (who, c) => `${who} usunął(ęła) ${c} z gry.`, ended: (who) => `${who} kończy turę.`, wizardOf: (who) => `czarodziej gracza ${who}`,
  },
};
const words = (ctx) => WORDS[ctx.lang] || WORDS.en;

/** The card picked first while several actions name it: {game, version, uid}. */
let selection = null;
/** uid → card id per game, learnt from GameStarted and from views, so the log can name cards. */
const uids = new Map();

function learn(ctx, list) {
  if (!uids.has(ctx.game.id)) uids.set(ctx.game.id, {});
  const map = uids.get(ctx.game.id);
  for (const x of list || []) if (x && x.uid) map[x.uid] = x.card;
  return map;
}

function subjects(action) {
  if (action.type === "swap_shop") return action.cards;
  return action.card != null ? [action.card] : [];
}

function info(ctx, id) {
  return ctx.catalog.cards.find((c) => c.id === id);
}

/** Effect words: an icon and a short word or two per effect (games/skodakouzla/effects.py's
 * vocabulary); a key not known stays as `key value`. */
const EFFECT = {
  en: { two: "two in a row", targeted: "aimed", area: "all", heal: "heal", addLife: "life", others: "others", uncurse: "lift", draw: "draw",
    magic: "magic", fury: "fury", drainMagic: "steal", drain: "drain", wizard: "wizard", whenHit: "if hit:", freeze: "freeze" },
  cs: { two: "dva v řadě", targeted: "cílený", area: "všem", heal: "léčí", addLife: "život", others: "ostatním", uncurse: "sejme", draw: "lízne",
    magic: "magie", fury: "zuřivost", drainMagic: "ukradne", drain: "vysaje", wizard: "čaroději", whenHit: "při zásahu:", freeze: "mráz" },
  pl: { two: "dwa w rzędzie", targeted: "celowany", area: "wszystkim", heal: "leczy", addLife: "życie", others: "pozostałym", uncurse: "zdejmuje", draw: "dobiera",
    magic: "magia", fury: "furia", drainMagic: "kradnie", drain: "wysysa", wizard: "czarodziejowi", whenHit: "gdy trafiony:", freeze: "mróz" },
};

function effectText(c, code = "en") {
  const w = EFFECT[code] || EFFECT.en;
  const list = (x) => (x == null ? [] : [].concat(x)).filter((e) => e && typeof e === "object");
  const riders = (e) => [e.curse ? `☠${e.curse}` : "", e.freeze ? `❄ ${w.freeze}` : "", e.heal_wizard ? `♥+${e.heal_wizard} ${w.wizard}` : "", e.drain ? `✦−${e.drain} ${w.drain}` : ""];
  const one = (e) => {
    switch (e.do) {
      case "attack": return [`⚔ ${e.power ?? ""}`, e.kind && e.kind !== "basic" ? w[e.kind] || e.kind : "", ...riders(e)];
      case "heal": return [`♥+${e.amount} ${w.heal}`];
      case "add_life": return [`♥+${e.amount} ${w.addLife}`, e.target === "others" ? w.others : ""];
      case "uncurse": return [`☠−${e.amount} ${w.uncurse}`];
      case "draw": return [`🂠+${e.amount} ${w.draw}`];
      case "magic": return [`✦+${e.amount} ${w.magic}`];
      case "fury": return [`⚔ ${w.fury}`];
      case "drain_magic": return [`✦−${e.amount} ${w.drainMagic}`];
      case undefined: return [w.whenHit, e.damage ? `⚔ ${e.damage}` : "", ...riders(e)];
      default: return [e.do, e.amount ?? e.power ?? ""];
    }
  };
  return [...list(c.on_lay), ...list(c.effects), ...list(c.acts), ...list(c.reaction)]
    .map((e) => one(e).filter((x) => x !== "" && x != null).join(" ")).join(" · ");
}

/** A card face from the catalog; `entry` may carry life, frost and stored magic of a laid card. */
function card(ctx, uid, id, entry = {}) {
  const c = info(ctx, id);
  const w = words(ctx);
  const name = c ? ctx.name(c) : id;
  const el = h("div", {
    class: `sk-card sk-${c?.type || "unknown"}${entry.frozen ? " sk-frozen" : ""}`, "data-uid": uid, "data-card": id, title: name,
    style: { borderColor: COLOURS[c?.colour] || "#999" },
  },
  h("span", { class: "sk-cost", title: w.cost }, c?.cost ?? "?"),
  // the name on its band, however many lines it takes; dark words on a light band
  h("span", { class: `sk-name${LIGHT.has(c?.colour) ? " sk-light" : ""}`, style: { background: BANDS[c?.colour] || "#666" } }, name),
  h("span", { class: "sk-text" }, c ? effectText(c, ctx.lang) : ""),
  c?.life != null ? h("span", { class: "sk-life", title: w.life }, entry.life ?? c.life) : null,
  entry.frozen ? h("span", { class: "sk-frost", title: w.frozen }, "❄") : null,
  entry.magic ? h("span", { class: "sk-stored", title: w.magic }, `✦${entry.magic}`) : null);
  return el;
}

function back(n) {
  return h("div", { class: "sk-card sk-back" }, n == null ? "" : String(n));
}

/** What tells `action` apart from the others picked with it, in words. */
function label(ctx, action, nameOfUid) {
  const w = words(ctx);
  const parts = [w.types[action.type] || action.type];
  if (action.option != null) parts.push(w.option(action.option));
  if (action.end) parts.push(w.end(action.end));
  if (action.from) parts.push(w.from(action.from));
  if (action.target) parts.push(w.target(action.target === "wizard" ? w.wizard : nameOfUid(action.target)));
  if (action.top) parts.push(w.top);
  if (action.type === "swap_shop") parts.push(action.cards.map(nameOfUid).join(" + "));
  if (action.colour) parts.push(action.colour);
  return parts.join(" · ");
}

export function render(root, ctx) {
  const v = ctx.view;
  const w = words(ctx);
  const map = learn(ctx, [...v.shop.offer, ...v.players.flatMap((p) => [...(p.hand || []), ...p.row, ...p.discard, ...p.laid_spells, ...p.removed])]);
  const nameOfUid = (uid) => {
    const c = info(ctx, map[uid]);
    return c ? ctx.name(c) : uid;
  };
  const seatName = (s) => ctx.seats[s]?.name ?? `#${s + 1}`;
  if (selection && (selection.game !== ctx.game.id || selection.version !== ctx.version)) selection = null;
  const picked = selection ? ctx.actions.map((a, i) => [a, i]).filter(([a]) => subjects(a).includes(selection.uid)) : [];
  if (selection && !picked.length) selection = null;
  const redraw = () => render(root, ctx);
  const play = (i) => {
    selection = null;
    ctx.play(ctx.actions[i]);
  };
  const elementFor = new Map(); // element key → action indices, while narrowing

  /** The first step: a card named by actions; one action plays, several start narrowing. */
  const pickable = (el, uid) => {
    if (selection) {
      if (uid === selection.uid) el.classList.add("sk-selected");
      return el;
    }
    const indices = ctx.actions.map((a, i) => [a, i]).filter(([a]) => subjects(a)[0] === uid || (a.type !== "swap_shop" && subjects(a).includes(uid))).map(([, i]) => i);
    if (!indices.length) return el;
    el.classList.add("sk-target");
    if (indices.length === 1) {
      el.dataset.action = String(indices[0]);
      el.setAttribute("aria-label", `${label(ctx, ctx.actions[indices[0]], nameOfUid)}: ${el.title}`);
      return activate(el, () => play(indices[0]));
    }
    el.dataset.select = uid;
    return activate(el, () => {
      selection = { game: ctx.game.id, version: ctx.version, uid };
      redraw();
    });
  };
  /** While narrowing: a board element that stands for exactly one of the picked actions. */
  const narrow = (el, key) => {
    const indices = elementFor.get(key);
    if (!indices || indices.length !== 1) return el;
    el.classList.add("sk-target");
    el.dataset.action = String(indices[0]);
    el.setAttribute("aria-label", label(ctx, ctx.actions[indices[0]], nameOfUid));
    return activate(el, () => play(indices[0]));
  };
  for (const [a, i] of picked) {
    const keys = [];
    if (a.target && a.target !== "wizard") keys.push(`uid:${a.target}`);
    if (a.end && !a.target && !a.from) keys.push(`end:${a.end}`);
    if (a.from && !a.target && !a.end) keys.push(`from:${a.from}`);
    if (a.type === "swap_shop" && a.cards.length === 2) keys.push(`uid:${a.cards.find((u) => u !== selection.uid)}`);
    for (const key of keys) elementFor.set(key, [...(elementFor.get(key) || []), i]);
  }

  const me = ctx.seat ?? 0;
  const order = [1 - me, me]; // the opponent above, the caller below
  const playerBox = (p) => {
    const isMe = p.seat === ctx.seat;
    const wizard = h("div", { class: `sk-wizard${p.frozen ? " sk-frozen" : ""}`, "data-testid": `wizard-${p.seat}`, style: { borderColor: COLOURS[p.colour] || "#8a4b08" } },
      h("strong", {}, seatName(p.seat)),
      h("span", { class: "sk-stat", title: w.life }, `♥ ${p.life}/${p.max_life}`),
      h("span", { class: "sk-stat", title: w.magic }, `✦ ${p.magic}`),
      h("span", { class: "sk-stat", title: w.level }, `${w.level} ${p.level}`),
      h("span", { class: "sk-stat", title: w.curses }, `☠ ${p.curses}`),
      p.frozen ? h("span", { class: "sk-stat sk-frost-text" }, `❄ ${w.frozen}`) : null);
    const rowCards = p.row.map((e) => narrow(pickable(card(ctx, e.uid, e.card, e), e.uid), `uid:${e.uid}`));
    const ends = (side) => {
      const key = isMe ? `end:${side}` : `from:${side}`;
      if (!elementFor.has(key)) return null;
      return narrow(h("div", { class: "sk-slot", title: isMe ? w[side] : w[side === "left" ? "fromLeft" : "fromRight"] }, side === "left" ? "◀" : "▶"), key);
    };
    const row = h("div", { class: "sk-row", "data-testid": `row-${p.seat}` }, ends("left"), rowCards.length ? rowCards : h("span", { class: "muted" }, "—"), ends("right"));
    const hand = p.hand
      ? h("div", { class: "sk-hand", "data-testid": `hand-${p.seat}` }, p.hand.map((x) => pickable(card(ctx, x.uid, x.card), x.uid)))
      : h("div", { class: "sk-hand", "data-testid": `hand-${p.seat}` }, Array.from({ length: Math.min(p.hand_size, 8) }, () => back()), h("span", { class: "muted" }, ` ${p.hand_size}`));
    const piles = h("div", { class: "sk-piles" },
      h("div", {}, h("div", { class: "sk-label" }, `${w.deck} (${p.deck_size})`), back(p.deck_size)),
      h("div", {}, h("div", { class: "sk-label" }, `${w.discard} (${p.discard.length})`),
        h("div", { class: "sk-fan" }, p.discard.map((x) => pickable(card(ctx, x.uid, x.card), x.uid)))),
      p.laid_spells.length ? h("div", {}, h("div", { class: "sk-label" }, w.laid), h("div", { class: "sk-fan" }, p.laid_spells.map((x) => card(ctx, x.uid, x.card)))) : null,
      p.removed.length ? h("div", {}, h("div", { class: "sk-label" }, `${w.removed} (${p.removed.length})`)) : null);
    const wizardTarget = picked.filter(([a]) => a.target === "wizard");
    if (wizardTarget.length === 1 && ((isMe && !isAttack(ctx, map[selection.uid])) || (!isMe && isAttack(ctx, map[selection.uid])))) {
      wizard.classList.add("sk-target");
      wizard.dataset.action = String(wizardTarget[0][1]);
      activate(wizard, () => play(wizardTarget[0][1]));
    }
    // the row and the hand each under its name (the hand sat unlabelled under the row)
    const labelled = (word, el) => [h("div", { class: "sk-label" }, word), el];
    return h("section", { class: `sk-player${isMe ? " sk-me" : ""}`, "data-seat": p.seat }, wizard,
      labelled(w.row, row), isMe ? labelled(w.hand, hand) : null, piles, isMe ? null : labelled(w.hand, hand));
  };

  const shop = h("section", { class: "sk-shop", "data-testid": "shop" },
    h("div", { class: "sk-label" }, `${w.shop} (${v.shop.deck_size})`),
    h("div", { class: "sk-fan" }, v.shop.offer.map((x) => narrow(pickable(card(ctx, x.uid, x.card), x.uid), `uid:${x.uid}`))));

  // the rest: every picked action in words, and actions that name no card (end_phase, promote)
  const loose = ctx.actions.map((a, i) => [a, i]).filter(([a]) => !subjects(a).length);
  const buttons = (selection ? picked : loose).map(([a, i]) => {
    const el = h("button", { type: "button", class: "sk-choice", "data-action": String(i) }, label(ctx, a, nameOfUid));
    return activate(el, () => play(i));
  });
  const panel = h("div", { class: "sk-choices", "data-testid": "choices" },
    selection ? h("span", { class: "sk-label" }, `${nameOfUid(selection.uid)} — ${w.choose}`) : null,
    buttons,
    selection ? h("button", { type: "button", class: "sk-cancel", onclick: () => { selection = null; redraw(); } }, w.cancel) : null);

  root.replaceChildren(h("div", { class: "sk" },
    playerBox(v.players[order[0]]), shop, panel, playerBox(v.players[order[1]])));
  ensureStyle();
}

function isAttack(ctx, id) {
  const c = info(ctx, id);
  return Boolean(c && [c.effects, c.acts, c.on_lay].flatMap((x) => (x == null ? [] : [].concat(x))).some((e) => e?.do === "attack"));
}

export function describe(event, ctx) {
  const w = words(ctx);
  const d = event.data || {};
  if (event.type === "GameStarted" && d.cards) {
    if (!uids.has(ctx.game.id)) uids.set(ctx.game.id, {});
    Object.assign(uids.get(ctx.game.id), d.cards);
  }
  const map = uids.get(ctx.game.id) || {};
  const who = (s) => (s == null ? "?" : ctx.seats[s]?.name ?? `#${s + 1}`);
  const cardName = (uid) => {
    const c = info(ctx, map[uid]);
    return c ? ctx.name(c) : uid ?? "?";
  };
  const target = () => (d.target === "wizard" || d.target == null ? w.wizardOf(who(d.seat)) : cardName(d.target ?? d.card));
  switch (event.type) {
    case "TurnStarted": return w.turn(who(d.seat), d.turn);
    case "MagicGained": return w.gained(who(d.seat), d.amount);
    case "CardBought": return w.bought(who(d.seat), cardName(d.card), d.price);
    case "CardLaid": return w.laidCard(who(d.seat), cardName(d.card));
    case "CardTurnedIntoMagic": return w.toMagic(who(d.seat), cardName(d.card), d.magic);
    case "Damaged": return w.damaged(target(), d.amount);
    case "CardDestroyed": return w.destroyed(cardName(d.card));
    case "Cursed": return w.cursed(who(d.seat), d.amount);
    case "Frozen": return w.frozenE(target());
    case "Thawed": return w.thawed(target());
    case "Healed": return w.healed(target(), d.amount);
    case "CardsDrawn": return w.drew(who(d.seat), d.count ?? d.cards?.length ?? 0);
    case "WizardPromoted": return w.promoted(who(d.seat));
    case "ShopSwapped": return w.swapped(who(d.seat));
    case "CreatureActed": return w.acted(cardName(d.card));
    case "CardRemoved": return w.removedE(who(d.seat), cardName(d.card));
    case "TurnEnded": return w.ended(who(d.seat));
    case "GameEnded": return w.won(who(d.winner));
    default: return null; // bookkeeping (shuffles, phases, returned magic) stays out of the log
  }
}

function ensureStyle() {
  if (document.getElementById("sk-style")) return;
  const link = document.createElement("link");
  link.id = "sk-style";
  link.rel = "stylesheet";
  link.href = new URL("./skodakouzla.css", import.meta.url).href;
  document.head.append(link);
}
