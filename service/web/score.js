// The final breakdown per seat (GET /score) as a table and an SVG bar chart.
import { h } from "./dom.js";
import { t } from "./i18n.js";

const COLOURS = ["#c0504d", "#4f81bd", "#9bbb59", "#8064a2", "#f79646", "#4bacc6", "#7f7f7f", "#d4a017", "#2e8b57", "#b03060"];

export function scoreSection(score, summary, catalog) {
  const parts = [...new Set(score.seats.flatMap((s) => Object.keys(s.breakdown)))];
  const name = (seat) => summary.seats[seat]?.name ?? t("seatN", seat);
  const winners = new Set(score.winners);
  const table = h("table", { "data-testid": "score-table" },
    h("thead", {}, h("tr", {}, h("th", {}, t("player")), parts.map((p) => h("th", {}, label(p, catalog))), h("th", {}, t("total")))),
    h("tbody", {}, score.seats.map((s) => h("tr", { class: winners.has(s.seat) ? "winner" : "", "data-seat": s.seat },
      h("th", {}, name(s.seat), winners.has(s.seat) ? " ★" : ""),
      parts.map((p) => h("td", {}, s.breakdown[p] ?? 0)),
      h("td", { "data-testid": "score-total", "data-seat": s.seat }, s.total)))));
  return h("section", { "data-testid": "score" },
    h("h3", {}, t("score")),
    h("div", { class: "table-scroll" }, table),
    chart(score, parts, name, catalog));
}

function label(part, catalog) {
  return part.replaceAll("_", " ");
}

function chart(score, parts, name) {
  const width = 320, row = 28, left = 90;
  const max = Math.max(1, ...score.seats.map((s) => Object.values(s.breakdown).filter((v) => v > 0).reduce((a, b) => a + b, 0)));
  const scale = (width - left - 30) / max;
  const height = score.seats.length * row + 20 + Math.ceil(parts.length / 3) * 16;
  const bars = score.seats.map((s, i) => {
    let x = left;
    const y = 4 + i * row;
    const segments = parts.map((p, j) => {
      const v = Math.max(0, s.breakdown[p] ?? 0);
      const seg = h("rect", { x, y, width: v * scale, height: row - 8, fill: COLOURS[j % COLOURS.length] },
        h("title", {}, `${p}: ${s.breakdown[p] ?? 0}`));
      x += v * scale;
      return seg;
    });
    return h("g", {},
      h("text", { x: left - 6, y: y + row / 2, "text-anchor": "end", "font-size": 12 }, name(s.seat)),
      segments,
      h("text", { x: x + 4, y: y + row / 2, "font-size": 12 }, String(s.total)));
  });
  const legendY = score.seats.length * row + 14;
  const legend = parts.map((p, j) => h("g", {},
    h("rect", { x: 4 + (j % 3) * 105, y: legendY + Math.floor(j / 3) * 16 - 9, width: 10, height: 10, fill: COLOURS[j % COLOURS.length] }),
    h("text", { x: 18 + (j % 3) * 105, y: legendY + Math.floor(j / 3) * 16, "font-size": 10 }, p.replaceAll("_", " "))));
  return h("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img", "aria-label": t("chart"), "data-testid": "score-chart" },
    bars, legend);
}
