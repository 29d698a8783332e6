// "New game": a form built from what the server says about the game — its seat range and bots
// (GET /catalog) and its options schema with defaults and names (GET /catalog/{game}) — then one
// invite link per human seat, the token in the fragment only.
import * as api from "./api.js";
import { h } from "./dom.js";
import { extend, lang, nameOf, t } from "./i18n.js";
import * as problems from "./problems.js";

extend({
  en: { "bot:default": "the usual bot", "bot:random": "random moves", "bot:ostara": "Ostara (solo)", clock: "Turn clock", perMove: "Time per move", noClock: "none", onTimeout: "When time runs out",
    timeoutBot: "a bot moves for the seat", timeoutForfeit: "the seat forfeits" },
  cs: { "bot:default": "běžný bot", "bot:random": "náhodné tahy", "bot:ostara": "Ostara (sólo)", clock: "Hodiny na tah", perMove: "Čas na tah", noClock: "bez hodin", onTimeout: "Když čas vyprší",
    timeoutBot: "za místo táhne bot", timeoutForfeit: "místo prohrává" },
  pl: { "bot:default": "zwykły bot", "bot:random": "losowe ruchy", "bot:ostara": "Ostara (solo)", clock: "Zegar ruchu", perMove: "Czas na ruch", noClock: "bez zegara", onTimeout: "Gdy czas minie",
    timeoutBot: "za miejsce gra bot", timeoutForfeit: "miejsce przegrywa" },
});

/** The clock's choices (the API takes any duration from 1 s to 30 d; a form offers the usual). */
const PER_MOVE = ["", "1h", "12h", "24h", "3d", "7d"];

export async function show(root, gameId, signal) {
  const [{ body: catalog }, { body: content }] = await Promise.all([
    api.get("/catalog"),
    api.get(`/catalog/${gameId}`),
  ]);
  const kind = catalog.find((g) => g.game === gameId);
  const seatsBox = h("div", { class: "seats" });
  const count = h("select", { "data-testid": "seat-count", "aria-label": t("seats") },
    range(kind.seats.min, kind.seats.max).map((n) => h("option", { value: n }, n)));
  const seatFields = [];
  const drawSeats = () => {
    const n = Number(count.value);
    while (seatFields.length < n) seatFields.push(seatField(seatFields.length, kind.bots));
    seatsBox.replaceChildren(...seatFields.slice(0, n).map((f) => f.el));
  };
  count.addEventListener("change", drawSeats);
  drawSeats();
  const clock = clockField(kind.bots);

  const options = Object.entries(content.options?.properties || {})
    .filter(([, schema]) => schema["x-form"] !== false)
    .map(([key, schema]) => [key, schema, field(schema, `option-${key}`)]);
  const problem = h("p", { class: "problem", role: "alert", "data-testid": "create-problem" });
  const result = h("div", { class: "invites" });
  const form = h("form", { "data-testid": "create-form", class: "create" },
    h("h2", {}, `${t("newGame")}: ${nameOf(content)}`),
    h("label", {}, `${t("seats")} `, count),
    seatsBox,
    options.length ? h("fieldset", {}, h("legend", {}, t("options")),
      options.map(([key, schema, f]) => h("div", { class: "option" },
        h("label", { title: (schema["x-descriptions"] || {})[lang()] || schema.description || "" },
          nameOf(schema) || schema.title || key, " ", f.el),
        h("small", { class: "muted" }, (schema["x-descriptions"] || {})[lang()] || "")))) : null,
    clock.el,
    h("button", { type: "submit", "data-testid": "create-submit" }, t("create")),
    problem,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    problem.textContent = "";
    const chosen = {};
    for (const [key, schema, f] of options) {
      const value = f.value();
      if (JSON.stringify(value) !== JSON.stringify(schema.default)) chosen[key] = value;
    }
    if (clock.value()) chosen.clock = clock.value();
    const seats = seatFields.slice(0, Number(count.value)).map((f) => f.value());
    try {
      const game = await api.post("/games", { game: gameId, seats, options: chosen });
      result.replaceChildren(invites(game));
      form.querySelector("button[type=submit]").disabled = true;
    } catch (error) {
      const said = problems.describe(error);
      problem.textContent = said.text;
      problem.title = said.detail;
    }
  });
  // an option that fixes the seats when on (x-seats, e.g. solo against a bot): the form seats them
  for (const [, schema, f] of options) {
    if (!schema["x-seats"]) continue;
    const fixed = schema["x-seats"];
    f.el.addEventListener("change", () => {
      if (!f.value()) return;
      count.value = String(fixed.length);
      drawSeats();
      fixed.forEach((seat, i) => seatFields[i].set(seat));
    });
  }
  if (signal?.aborted) return; // the reader went elsewhere meanwhile
  root.replaceChildren(form, result);
}

/** The turn clock any game may have (`clock` beside the game's options): none by default. */
function clockField(bots) {
  const perMove = h("select", { "data-testid": "clock-per-move" },
    PER_MOVE.map((v) => h("option", { value: v }, v ? duration(v) : t("noClock"))));
  const onTimeout = h("select", { "data-testid": "clock-on-timeout" },
    bots.includes("default") ? h("option", { value: "bot" }, t("timeoutBot")) : null,
    h("option", { value: "forfeit" }, t("timeoutForfeit")));
  const timeoutLabel = h("label", { hidden: true }, `${t("onTimeout")} `, onTimeout);
  perMove.addEventListener("change", () => { timeoutLabel.hidden = !perMove.value; });
  return {
    el: h("fieldset", { "data-testid": "clock" }, h("legend", {}, t("clock")),
      h("label", {}, `${t("perMove")} `, perMove), " ", timeoutLabel),
    value: () => (perMove.value ? { per_move: perMove.value, on_timeout: onTimeout.value } : null),
  };
}

/** "24h" → "24 h" in the reader's language (Intl's unit names). */
function duration(text) {
  const n = Number(text.slice(0, -1));
  const unit = { h: "hour", d: "day" }[text.slice(-1)];
  return new Intl.NumberFormat(lang(), { style: "unit", unit, unitDisplay: "long" }).format(n);
}

function seatField(index, bots) {
  const name = h("input", { value: index === 0 ? "" : `Bot ${index + 1}`, required: true, maxlength: 40,
    placeholder: t("name"), "aria-label": `${t("name")} ${index + 1}`, "data-testid": `seat-name-${index}` });
  const who = h("select", { "data-testid": `seat-kind-${index}`, "aria-label": `${t("seat")} ${index + 1}` },
    h("option", { value: "" }, t("human")),
    bots.map((b) => h("option", { value: b }, t(`bot:${b}`) === `bot:${b}` ? `${t("bot")}: ${b}` : t(`bot:${b}`))));
  if (index > 0 && bots.includes("default")) who.value = "default";
  if (index === 0) name.value = t("player") + " 1";
  who.addEventListener("change", () => {
    if (!who.value && name.value.startsWith("Bot")) name.value = `${t("player")} ${index + 1}`;
  });
  return {
    el: h("div", { class: "seat" }, h("span", { class: "muted" }, `${index + 1}.`), name, who),
    value: () => (who.value ? { name: name.value, bot: who.value } : { name: name.value, entropy: entropy() }),
    set: (seat) => {
      who.value = seat.bot || "";
      if (seat.name) name.value = seat.name;
      else if (name.value.startsWith("Bot")) name.value = `${t("player")} ${index + 1}`;
    },
  };
}

/**
 * 32 random bytes from this browser as 64 lowercase hex digits: a person's seat's entropy, keyed
 * into the game's random stream with the server's seed, so the server cannot choose the deal
 * alone (docs/random.md, "The key").
 */
export function entropy() {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A form control for one JSON Schema: {el, value()}. */
function field(schema, testid) {
  const valueNames = schema["x-value-names"] || {};
  const label = (v) => nameOf({ names: valueNames[v] }) || String(v);
  if (schema.anyOf) {
    const parts = schema.anyOf.map((alt, i) => ({ alt, f: field({ ...alt, "x-value-names": valueNames }, `${testid}-${i}`) }));
    const choices = [];
    parts.forEach(({ alt }, i) => {
      if (alt.type === "boolean") choices.push([`${i}:false`, t("no")], [`${i}:true`, t("yes")]);
      else if (alt.type === "null") choices.push([`${i}:null`, t("no")]);
      else choices.push([`${i}:value`, t("pick")]);
    });
    const select = h("select", { "data-testid": testid }, choices.map(([v, text]) => h("option", { value: v }, text)));
    const holder = h("span", {});
    const current = () => select.value.split(":");
    const draw = () => {
      const [i, what] = current();
      holder.replaceChildren(what === "value" ? parts[Number(i)].f.el : "");
    };
    const initial = choices.find(([v]) => v.endsWith(`:${JSON.stringify(schema.default)}`));
    if (initial) select.value = initial[0];
    select.addEventListener("change", draw);
    draw();
    return {
      el: h("span", {}, select, holder),
      value: () => {
        const [i, what] = current();
        return what === "value" ? parts[Number(i)].f.value() : JSON.parse(what);
      },
    };
  }
  if (schema.enum) {
    const select = h("select", { "data-testid": testid }, schema.enum.map((v) => h("option", { value: JSON.stringify(v) }, label(v))));
    if (schema.default !== undefined) select.value = JSON.stringify(schema.default);
    return { el: select, value: () => JSON.parse(select.value) };
  }
  if (schema.type === "boolean") {
    const box = h("input", { type: "checkbox", "data-testid": testid });
    box.checked = Boolean(schema.default);
    return { el: box, value: () => box.checked };
  }
  if (schema.type === "integer" || schema.type === "number") {
    const input = h("input", { type: "number", "data-testid": testid, min: schema.minimum, max: schema.maximum,
      step: schema.type === "integer" ? 1 : "any", value: schema.default ?? schema.minimum ?? 0 });
    return { el: input, value: () => Number(input.value) };
  }
  if (schema.type === "array" && schema.items?.enum && schema.minItems && schema.minItems === schema.maxItems) {
    const items = range(1, schema.minItems).map((i) => field({ ...schema.items, "x-value-names": valueNames, default: schema.items.enum[i - 1] }, `${testid}-${i}`));
    return { el: h("span", {}, items.map((f) => f.el)), value: () => items.map((f) => f.value()) };
  }
  const input = h("input", { "data-testid": testid, value: schema.default ?? "" });
  return { el: input, value: () => input.value };
}

function invites(game) {
  const origin = window.location.origin;
  return h("section", { "data-testid": "invites" },
    h("h3", {}, t("invites")),
    h("ul", { class: "rows" }, game.seats.filter((s) => s.token).map((s) => {
      const link = `${origin}/#/play/${game.id}?seat=${s.seat}&token=${encodeURIComponent(s.token)}`;
      const input = h("input", { readonly: true, value: link, "data-testid": "invite-link", "data-seat": s.seat, "aria-label": s.name });
      const copy = h("button", { type: "button", "data-testid": "invite-copy" }, t("copy"));
      copy.addEventListener("click", async () => {
        input.select();
        try { await navigator.clipboard.writeText(link); } catch { document.execCommand?.("copy"); }
        copy.textContent = t("copied");
      });
      return h("li", {}, h("strong", {}, `${s.seat + 1}. ${s.name}`), input, copy,
        h("a", { class: "button", href: link, "data-testid": "invite-open", "data-seat": s.seat }, t("play")));
    })),
  );
}

function range(a, b) {
  return Array.from({ length: b - a + 1 }, (_, i) => a + i);
}
