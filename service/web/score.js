// The final breakdown per seat (GET /score) as a table and an SVG bar chart.
import { h } from "./dom.js";
import { extend, t } from "./i18n.js";

// The parts the games' scores break into (games/*/scoring.py), and `left` of a seat that resigned.
const PARTS = {
  en: { ones_bonus: "bonus for ones", singles: "singles", pairs: "pairs", triples: "triples", quadruples: "fours",
    quadruple_bonus: "bonus for fours", recipes: "recipes", roads: "roads", cities: "cities", monasteries: "monasteries",
    fields: "fields", potions: "potions", witches: "witches", tools: "tools", goals: "goals", ingredients: "ingredients",
    animals: "animals", life: "life", left: "left the game" },
  cs: { ones_bonus: "bonus za jedničky", singles: "jednotlivé", pairs: "dvojice", triples: "trojice", quadruples: "čtveřice",
    quadruple_bonus: "bonus za čtveřice", recipes: "recepty", roads: "cesty", cities: "města", monasteries: "kláštery",
    fields: "louky", potions: "lektvary", witches: "čarodějky", tools: "nástroje", goals: "cíle", ingredients: "suroviny",
    animals: "zvířata", life: "životy", left: "opustil(a) hru" },
  pl: { ones_bonus: "premia za jedynki", singles: "pojedyncze", pairs: "pary", triples: "trójki", quadruples: "czwórki",
    quadruple_bonus: "premia za czwórki", recipes: "receptury", roads: "drogi", cities: "miasta", monasteries: "klasztory",
    fields: "łąki", potions: "eliksiry", witches: "wiedźmy", tools: "narzędzia", goals: "cele", ingredients: "składniki",
    animals: "zwierzęta", life: "życie", left: "opuścił(a) grę" },
};
extend(Object.fromEntries(Object.entries(PARTS).map(([code, words]) =>
  [code, Object.fromEntries(Object.entries(words).map(([k, v]) => [`part:${k}`, v]))])));

const COLOURS = ["#c0504d", "#4f81bd", "#9bbb59", "#8064a2", "#f79646", "#4bacc6", "#7f7f7f", "#d4a017", "#2e8b57", "#b03060"];

export function scoreSection(score, summary, catalog) {
  const parts = [...new Set(score.seats.flatMap((s) => Object.keys(s.breakdown)))];
  const name = (seat) => summary.seats[seat]?.name ?? t("seatN", seat);
  const winners = new Set(score.winners);
  const table = h("table", { "data-testid": "score-table" },
    h("thead", {}, h("tr", {}, h("th", {}, t("player")), parts.map((p) => h("th", {}, label(p))), h("th", {}, t("total")))),
    h("tbody", {}, score.seats.map((s) => h("tr", { class: winners.has(s.seat) ? "winner" : "", "data-seat": s.seat },
      h("th", {}, name(s.seat), winners.has(s.seat) ? " ★" : ""),
      parts.map((p) => h("td", {}, s.breakdown[p] ?? 0)),
      h("td", { "data-testid": "score-total", "data-seat": s.seat }, s.total)))));
  return h("section", { "data-testid": "score" },
    h("h3", {}, t("score")),
    h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": t("score") }, table),
    chart(score, parts, name));
}

function label(part) {
  const said = t(`part:${part}`);
  return said === `part:${part}` ? part.replaceAll("_", " ") : said;
}

function chart(score, parts, name) {
  // each seat's parts stacked from a zero line: gains to the right, losses (a negative part) to the left
  const width = 340, row = 28, left = 90, right = 34;
  const sums = score.seats.map((s) => {
    const values = parts.map((p) => s.breakdown[p] ?? 0);
    return [values.filter((v) => v < 0).reduce((a, b) => a + b, 0), values.filter((v) => v > 0).reduce((a, b) => a + b, 0)];
  });
  const low = Math.min(0, ...sums.map(([n]) => n));
  const high = Math.max(1, ...sums.map(([, p]) => p));
  const scale = (width - left - right) / (high - low);
  const zero = left + -low * scale;
  const height = score.seats.length * row + 20 + Math.ceil(parts.length / 3) * 16;
  const bars = score.seats.map((s, i) => {
    const y = 4 + i * row;
    let plus = zero, minus = zero;
    const segments = parts.map((p, j) => {
      const v = s.breakdown[p] ?? 0;
      if (!v) return null;
      const w = Math.abs(v) * scale;
      const x = v > 0 ? plus : minus - w;
      if (v > 0) plus += w; else minus -= w;
      return h("rect", { x, y, width: w, height: row - 8, fill: COLOURS[j % COLOURS.length], "fill-opacity": v < 0 ? 0.55 : 1 },
        h("title", {}, `${label(p)}: ${v}`));
    });
    return h("g", { "data-seat": s.seat },
      h("text", { x: 4, y: y + row / 2, "font-size": 12 }, name(s.seat)),
      segments,
      h("text", { x: plus + 4, y: y + row / 2, "font-size": 12, "font-weight": 700 }, String(s.total)));
  });
  const axis = h("line", { x1: zero, x2: zero, y1: 0, y2: score.seats.length * row, stroke: "#444" });
  const legendY = score.seats.length * row + 14;
  const legend = parts.map((p, j) => h("g", {},
    h("rect", { x: 4 + (j % 3) * 110, y: legendY + Math.floor(j / 3) * 16 - 9, width: 10, height: 10, fill: COLOURS[j % COLOURS.length] }),
    h("text", { x: 18 + (j % 3) * 110, y: legendY + Math.floor(j / 3) * 16, "font-size": 10 }, label(p))));
  return h("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img", "aria-label": t("chart"), "data-testid": "score-chart" },
    bars, axis, legend);
}
