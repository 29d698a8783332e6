// Carcassonne + Mage & Witch: a pannable, zoomable SVG map drawn from the catalog's tile data
// (roads, cities, shields, monasteries, fields), the drawn tile previewed at every legal spot, the
// followers, the mage and the witch, and the scores. Every click target is one of ctx.actions
// (data-action = its index); nothing here knows a placement rule.
import { activate, h, keepFocus } from "../dom.js";

const SIZE = 100;
const SIDES = ["N", "E", "S", "W"];
const SEAT_COLOURS = ["#d62828", "#1d63c4", "#e9b100", "#2a9d3a", "#333333"];
const KIND_FILL = { city: "#c9804b", road: "#f2ead3", field: "#8cbf5a" };

const WORDS = {
  en: {
    drawn: "Drawn tile", pack: "tiles left", spot: "Pick a square for the tile (the shaded ones fit).",
    rotate: "Turn it (R on the spot, Enter to lay):", follower: "Place a follower on the tile just laid, or pass.",
    magic: "Place or move the mage or the witch.", conflict: "The mage and the witch met: move one.",
    pass: "No follower", remove: (f) => `Set the ${f} aside`, figure: "Which figure?",
    waiting: (n) => `${n} is playing.`, over: "Game over.", supply: "followers", total: "points",
    parts: { roads: "roads", cities: "cities", monasteries: "monasteries", fields: "fields" },
    zoomIn: "Zoom in", zoomOut: "Zoom out", fit: "Fit the map",
    map: "Map: drag or use the arrow keys to move, + and − to zoom",
    rotation: (r) => `${r * 90}°`, at: (x, y) => `(${x}, ${y})`,
    started: (n, mw) => `A game of ${n} players begins${mw ? " with the mage and the witch" : ""}.`,
    drew: (p, t) => `${p} drew ${t}.`, discarded: (p, t) => `${p} could not place ${t}; it is discarded.`,
    placed: (p, t, at) => `${p} placed ${t} at ${at}.`,
    magicPlaced: (p, f, at, moved) => `${p} ${moved ? "moved" : "placed"} the ${f} ${moved ? "to" : "at"} ${at}.`,
    magicRemoved: (p, f) => `${p} set the ${f} aside.`,
    followerPlaced: (p, role, at) => `${p} placed a follower as ${role} at ${at}.`,
    skipped: (p) => `${p} placed no follower.`,
    scored: (kind, tiles, points, who, fin) =>
      `${fin ? "Final scoring: a" : "A"} ${kind} of ${tiles} tiles scores ${points} points for ${who}.`,
    scoredNone: (kind, tiles, fin) => `${fin ? "Final scoring: a" : "A"} ${kind} of ${tiles} tiles scores for no one.`,
    ended: (w) => `Game over; ${w} won.`, nobody: "no one", and: " and ",
    kinds: { road: "road", city: "city", monastery: "monastery", field: "field" },
  },
  cs: {
    drawn: "Tažená kartička", pack: "kartiček zbývá", spot: "Vyber políčko pro kartičku (vystínovaná pasují).",
    rotate: "Otoč ji (R na místě, Enter položí):", follower: "Polož družiníka na právě položenou kartičku, nebo pokračuj bez něj.",
    magic: "Polož nebo přesuň mága či čarodějnici.", conflict: "Mág a čarodějnice se potkali: jednoho přesuň.",
    pass: "Bez družiníka", remove: (f) => `Odložit: ${f}`, figure: "Kterou figurku?",
    waiting: (n) => `Hraje ${n}.`, over: "Konec hry.", supply: "družiníků", total: "bodů",
    parts: { roads: "cesty", cities: "města", monasteries: "kláštery", fields: "louky" },
    zoomIn: "Přiblížit", zoomOut: "Oddálit", fit: "Celá mapa",
    map: "Mapa: táhni myší nebo šipkami, + a − přibližují",
    rotation: (r) => `${r * 90}°`, at: (x, y) => `(${x}, ${y})`,
    started: (n, mw) => `Začíná hra ${n} hráčů${mw ? " s mágem a čarodějnicí" : ""}.`,
    drew: (p, t) => `${p} táhne kartičku ${t}.`, discarded: (p, t) => `${p}: kartička ${t} nikam nepasuje a jde pryč.`,
    placed: (p, t, at) => `${p} pokládá kartičku ${t} na ${at}.`,
    magicPlaced: (p, f, at, moved) => `${p} ${moved ? "přesouvá" : "pokládá"} figurku ${f} na ${at}.`,
    magicRemoved: (p, f) => `${p} odkládá figurku ${f}.`,
    followerPlaced: (p, role, at) => `${p} staví družiníka jako ${role} na ${at}.`,
    skipped: (p) => `${p} nestaví družiníka.`,
    scored: (kind, tiles, points, who, fin) =>
      `${fin ? "Závěrečné hodnocení: " : ""}${kind} z ${tiles} kartiček: ${points} bodů pro ${who}.`,
    scoredNone: (kind, tiles, fin) => `${fin ? "Závěrečné hodnocení: " : ""}${kind} z ${tiles} kartiček: body nikdo nedostává.`,
    ended: (w) => `Konec hry; vítězí ${w}.`, nobody: "nikdo", and: " a ",
    kinds: { road: "cesta", city: "město", monastery: "klášter", field: "louka" },
  },
  pl: {
    drawn: "Dobrana płytka", pack: "płytek zostało", spot: "Wybierz pole dla płytki (zacienione pasują).",
    rotate: "Obróć ją (R na polu, Enter kładzie):", follower: "Postaw podwładnego na właśnie położonej płytce albo pasuj.",
    magic: "Postaw lub przesuń maga albo czarownicę.", conflict: "Mag i czarownica spotkali się: przesuń jedno z nich.",
    pass: "Bez podwładnego", remove: (f) => `Odłóż: ${f}`, figure: "Która figurka?",
    waiting: (n) => `Gra ${n}.`, over: "Koniec gry.", supply: "podwładnych", total: "pkt",
    parts: { roads: "drogi", cities: "miasta", monasteries: "klasztory", fields: "łąki" },
    zoomIn: "Przybliż", zoomOut: "Oddal", fit: "Cała mapa",
    map: "Mapa: przeciągnij lub użyj strzałek, + i − przybliżają",
    rotation: (r) => `${r * 90}°`, at: (x, y) => `(${x}, ${y})`,
    started: (n, mw) => `Zaczyna się gra ${n} graczy${mw ? " z magiem i czarownicą" : ""}.`,
    drew: (p, t) => `${p} dobiera płytkę ${t}.`, discarded: (p, t) => `${p}: płytka ${t} nigdzie nie pasuje i odpada.`,
    placed: (p, t, at) => `${p} kładzie płytkę ${t} na ${at}.`,
    magicPlaced: (p, f, at, moved) => `${p} ${moved ? "przesuwa" : "stawia"} figurkę ${f} na ${at}.`,
    magicRemoved: (p, f) => `${p} odkłada figurkę ${f}.`,
    followerPlaced: (p, role, at) => `${p} stawia podwładnego jako ${role} na ${at}.`,
    skipped: (p) => `${p} nie stawia podwładnego.`,
    scored: (kind, tiles, points, who, fin) =>
      `${fin ? "Punktacja końcowa: " : ""}${kind} z ${tiles} płytek: ${points} pkt dla ${who}.`,
    scoredNone: (kind, tiles, fin) => `${fin ? "Punktacja końcowa: " : ""}${kind} z ${tiles} płytek: nikt nie punktuje.`,
    ended: (w) => `Koniec gry; wygrywa ${w}.`, nobody: "nikt", and: " i ",
    kinds: { road: "droga", city: "miasto", monastery: "klasztor", field: "łąka" },
  },
};

const words = (ctx) => WORDS[ctx.lang] || WORDS.en;

// --- tile geometry (unrotated, y down, north up; a rotation turns the whole group) ---------------

const EDGE_IN = { N: [50, 14], E: [86, 50], S: [50, 86], W: [14, 50] };
const EDGE_MID = { N: [50, 0], E: [100, 50], S: [50, 100], W: [0, 50] };
const HALF_AT = {
  Nw: [25, 10], Ne: [75, 10], En: [90, 25], Es: [90, 75], Se: [75, 90], Sw: [25, 90], Ws: [10, 75], Wn: [10, 25],
};
// City shapes for one canonical orientation; the quarter turns map them onto the others.
const CITY_SHAPES = {
  one: ["M0,0 H100 Q50,45 0,0 Z", { N: 0, E: 1, S: 2, W: 3 }],
  corner: ["M0,0 H100 Q58,58 0,100 Z", { NW: 0, EN: 1, ES: 2, SW: 3 }],
  through: ["M0,0 Q50,30 100,0 V100 Q50,70 0,100 Z", { EW: 0, NS: 1 }],
  three: ["M0,0 H100 V100 Q50,55 0,100 Z", { S: 0, W: 1, N: 2, E: 3 }],
};

function cityPath(edges) {
  const set = [...edges].sort((a, b) => "ENSW".indexOf(a) - "ENSW".indexOf(b)).join("");
  if (edges.length === 4) return ["M0,0 H100 V100 H0 Z", 0];
  if (edges.length === 1) return [CITY_SHAPES.one[0], CITY_SHAPES.one[1][set]];
  if (edges.length === 3) {
    const missing = SIDES.find((s) => !edges.includes(s));
    return [CITY_SHAPES.three[0], CITY_SHAPES.three[1][missing]];
  }
  if (set in CITY_SHAPES.through[1]) return [CITY_SHAPES.through[0], CITY_SHAPES.through[1][set]];
  return [CITY_SHAPES.corner[0], CITY_SHAPES.corner[1][set]];
}

function coversCentre(type) {
  return type.features.some(
    (f) => f.kind === "city" && (f.edges.length >= 3 || (f.edges.length === 2 && SIDES.indexOf(f.edges[0]) % 2 === SIDES.indexOf(f.edges[1]) % 2)),
  );
}

/** Where a feature's figure stands on the unrotated tile. */
function anchor(type, index) {
  const f = type.features[index];
  if (!f) return [50, 50];
  if (f.kind === "monastery") return [50, 50];
  if (f.kind === "city") return mean(f.edges.map((e) => EDGE_IN[e]));
  if (f.kind === "road") {
    if (f.edges.length === 2) {
      const [a, b] = f.edges.map((e) => EDGE_MID[e]);
      return [(a[0] + 100 + b[0]) / 4, (a[1] + 100 + b[1]) / 4];
    }
    const depth = coversCentre(type) ? 8 : 28;
    const [mx, my] = EDGE_MID[f.edges[0]];
    return [mx + ((50 - mx) * depth) / 50, my + ((50 - my) * depth) / 50];
  }
  const point = mean(f.halves.map((half) => HALF_AT[half]));
  const busy = type.features.some((g) => g.kind === "monastery" || (g.kind === "road" && g.edges.length === 2));
  if (Math.hypot(point[0] - 50, point[1] - 50) < 18 && (busy || f.halves.length === 8)) return HALF_AT[f.halves[0]];
  return point;
}

function mean(points) {
  const n = points.length || 1;
  return [points.reduce((s, p) => s + p[0], 0) / n, points.reduce((s, p) => s + p[1], 0) / n];
}

/** The tile's picture: fields, then roads, then cities over them, then shields and buildings. */
function tileShapes(type) {
  const shapes = [h("rect", { x: 0, y: 0, width: SIZE, height: SIZE, fill: KIND_FILL.field })];
  const singles = type.features.filter((f) => f.kind === "road" && f.edges.length === 1).length;
  const monastery = type.features.some((f) => f.kind === "monastery");
  for (const f of type.features) {
    if (f.kind !== "road") continue;
    const [a, b] = [EDGE_MID[f.edges[0]], f.edges[1] ? EDGE_MID[f.edges[1]] : [50, 50]];
    const d = f.edges[1] ? `M${a} Q50,50 ${b}` : `M${a} L50,50`;
    shapes.push(h("path", { d, fill: "none", stroke: "#7a6a4f", "stroke-width": 12 }));
    shapes.push(h("path", { d, fill: "none", stroke: KIND_FILL.road, "stroke-width": 8 }));
  }
  if (singles && !monastery && !coversCentre(type)) {
    shapes.push(h("rect", { x: 42, y: 42, width: 16, height: 16, fill: "#a35d3c", stroke: "#5b3320", "stroke-width": 1.5 }));
  }
  for (const f of type.features) {
    if (f.kind !== "city") continue;
    const [d, turns] = cityPath(f.edges);
    shapes.push(h("path", {
      d, fill: KIND_FILL.city, stroke: "#7b4a26", "stroke-width": 2.5,
      transform: `rotate(${90 * turns} 50 50)`,
    }));
  }
  type.features.forEach((f, i) => {
    if (f.kind === "city" && f.shield) {
      const [x, y] = anchor(type, i);
      const sx = x + (x <= 50 ? 10 : -22);
      const sy = y + (y <= 50 ? 4 : -18);
      // a cream shield with a brown chevron: no seat's colour, so never mistaken for a follower
      shapes.push(h("path", {
        d: `M${sx},${sy} h12 v7 q0,7 -6,10 q-6,-3 -6,-10 z`, fill: "#f6ecd0", stroke: "#4a2e12", "stroke-width": 1.5,
        class: "cc-shield",
      }));
      shapes.push(h("path", { d: `M${sx + 2},${sy + 9} l4,-4 l4,4`, fill: "none", stroke: "#4a2e12", "stroke-width": 2 }));
    }
    if (f.kind === "monastery") {
      shapes.push(h("path", { d: "M36,62 V44 L50,32 L64,44 V62 Z", fill: "#e7d7b4", stroke: "#6b4f2e", "stroke-width": 2 }));
      shapes.push(h("path", { d: "M50,38 V54 M44,44 H56", stroke: "#8b1e1e", "stroke-width": 2.5 }));
    }
  });
  if (type.mage) {
    shapes.push(h("path", {
      d: "M88,4 L90.5,10 L97,10 L92,14 L94,20 L88,16.5 L82,20 L84,14 L79,10 L85.5,10 Z",
      fill: "#7b2cbf", stroke: "#fff", "stroke-width": 1,
    }));
  }
  shapes.push(h("rect", { x: 0, y: 0, width: SIZE, height: SIZE, fill: "none", stroke: "#3c3c3c", "stroke-width": 1 }));
  return shapes;
}

function follower([x, y], seat, role, attrs, title) {
  const colour = SEAT_COLOURS[seat % SEAT_COLOURS.length];
  return h("g", { transform: `translate(${x} ${y})`, class: "cc-follower", ...attrs },
    role === "farmer"
      ? h("ellipse", { cx: 0, cy: 0, rx: 11, ry: 6, fill: colour, stroke: "#fff", "stroke-width": 2 })
      : h("path", { d: "M-9,9 L-9,2 L-4,-1 A5,5 0 1 1 4,-1 L9,2 L9,9 Z", fill: colour, stroke: "#fff", "stroke-width": 2 }),
    h("title", {}, title));
}

function magicFigure([x, y], figure, attrs, title) {
  return h("g", { transform: `translate(${x + 9} ${y - 9})`, class: `cc-${figure}`, "data-figure": figure, ...attrs },
    figure === "mage"
      ? [h("path", { d: "M0,-12 L8,8 H-8 Z", fill: "#7b2cbf", stroke: "#fff", "stroke-width": 2 }), h("circle", { cx: 0, cy: -2, r: 2.5, fill: "#ffd60a" })]
      : h("path", { d: "M-10,8 H10 L3,4 L0,-12 L-3,4 Z", fill: "#111", stroke: "#c7f464", "stroke-width": 2 }),
    h("title", {}, title));
}

// --- the board -------------------------------------------------------------------------------

function stateOf(root, ctx) {
  if (!root.__carcassonne) root.__carcassonne = { view: null, moved: false, version: null, spot: null, figure: null };
  const st = root.__carcassonne;
  if (st.version !== ctx.version) {
    st.version = ctx.version;
    st.spot = null;
    st.figure = null;
  }
  return st;
}

function seatName(ctx, seat) {
  const s = (ctx.seats || []).find((x) => x.seat === seat);
  return s && s.name ? s.name : `#${seat + 1}`;
}

function typesOf(ctx) {
  const out = {};
  for (const t of (ctx.catalog && ctx.catalog.tiles) || []) out[t.id] = t;
  return out;
}

function tileTypeId(tile) {
  return String(tile).split(".")[0];
}

/** The map's extent: every placed tile and every free square beside it. */
function extent(view) {
  const xs = [];
  const ys = [];
  for (const [, x, y] of view.tiles) xs.push(x), ys.push(y);
  for (const [x, y] of Object.values(view.frontier || {})) xs.push(x), ys.push(y);
  if (!xs.length) xs.push(0), ys.push(0);
  const minX = Math.min(...xs) * SIZE;
  const maxX = (Math.max(...xs) + 1) * SIZE;
  const minY = -Math.max(...ys) * SIZE;
  const maxY = (-Math.min(...ys) + 1) * SIZE;
  const pad = 20;
  return { x: minX - pad, y: minY - pad, w: maxX - minX + 2 * pad, h: maxY - minY + 2 * pad };
}

/** The board's hint says what to do now, so the page shows no line of its own. */
export const saysWhatToDo = true;

export function render(root, ctx) {
  const w = words(ctx);
  const view = ctx.view;
  const st = stateOf(root, ctx);
  const types = typesOf(ctx);
  const actions = ctx.actions || [];
  if (!st.moved || !st.vb) st.vb = extent(view);
  root.classList.add("board-carcassonne");

  const svg = h("svg", {
    class: "cc-map", "data-testid": "carcassonne-map", viewBox: vbString(st.vb), tabindex: "0", role: "application", "aria-label": w.map,
  });
  const controls = h("div", { class: "cc-controls" },
    [["+", w.zoomIn, () => zoom(st, svg, 1 / 1.25)], ["−", w.zoomOut, () => zoom(st, svg, 1.25)], ["⤢", w.fit, () => fit(st, svg, view)]]
      .map(([label, title, fn]) => h("button", { type: "button", title, "aria-label": title, class: "cc-zoom", onclick: fn }, label)));
  panAndZoom(svg, st, view);

  const placed = {};
  const tiles = view.tiles.map(([tile, x, y, rotation], i) => {
    const type = types[tileTypeId(tile)];
    placed[`${x},${y}`] = { type, rotation };
    return h("g", {
      class: "cc-tile", "data-tile": tile, "data-x": x, "data-y": y, "data-rotation": rotation,
      transform: `translate(${x * SIZE} ${-y * SIZE}) rotate(${90 * rotation} 50 50)`,
    },
    type ? tileShapes(type) : null,
    i === view.last ? h("rect", { x: 2, y: 2, width: 96, height: 96, fill: "none", stroke: "#fff", "stroke-width": 4, "stroke-dasharray": "8 5", class: "cc-last" }) : null);
  });

  const at = (x, y, feature) => {
    const p = placed[`${x},${y}`];
    if (!p || !p.type) return [x * SIZE + 50, -y * SIZE + 50];
    const [ax, ay] = anchor(p.type, feature);
    return turn([ax, ay], p.rotation, x, y);
  };
  const figures = [
    ...(view.followers || []).map((f) => follower(at(f.x, f.y, f.feature), f.seat, f.role,
      { "data-follower": `${f.seat}:${f.x},${f.y}:${f.feature}` }, `${seatName(ctx, f.seat)}: ${ctx.name(ctx.catalog.roles[f.role])}`)),
    ...["mage", "witch"].filter((figure) => view[figure]).map((figure) => {
      const pos = view[figure];
      return magicFigure(at(pos.x, pos.y, pos.feature), figure, { "data-at": `${pos.x},${pos.y}:${pos.feature}` }, ctx.name(ctx.catalog.figures[figure]));
    }),
  ];

  const rerender = () => render(root, ctx);
  const phase = actions.length ? actions[0].type : null;
  let hint = null;
  let targets = [];
  let choices = [];
  if (phase === "place_tile") {
    hint = w.spot;
    [targets, choices] = spotTargets(actions, ctx, st, types, w, rerender);
  } else if (phase === "place_follower" || phase === "pass") {
    hint = w.follower;
    const last = view.tiles[view.last];
    const spots = [];
    actions.forEach((a, i) => {
      if (a.type === "place_follower" && last) spots.push({ i, a, p: at(last[1], last[2], a.feature) });
      if (a.type === "pass") choices.push(button(i, a, ctx, w.pass));
    });
    spread(spots.map((t) => t.p), TARGET * 2 + 3);
    targets = spots.map(({ i, a, p }) => target(p, i, a, ctx, ctx.name(ctx.catalog.roles[roleOf(types, last[0], a.feature)])));
  } else if (phase === "place_magic" || phase === "remove_magic") {
    hint = view.phase === "conflict" ? w.conflict : w.magic;
    [targets, choices] = magicTargets(actions, ctx, st, at, w, rerender);
  } else if (view.over) {
    hint = w.over;
  } else if ((view.to_move || []).length) {
    hint = w.waiting(seatName(ctx, view.to_move[0]));
  }

  svg.append(h("g", { class: "cc-tiles" }, tiles), h("g", { class: "cc-figures" }, figures), h("g", { class: "cc-targets" }, targets));
  root.replaceChildren(h("div", { class: "cc-wrap" },
    h("div", { class: "cc-mapbox" }, svg, controls),
    h("div", { class: "cc-side" },
      h("p", { class: "cc-hint", "data-testid": "carcassonne-hint" }, hint),
      current(ctx, types, w),
      h("div", { class: "cc-choices" }, choices),
      scores(ctx, w))));
  ensureStyle();
}

function roleOf(types, tile, feature) {
  const t = types[tileTypeId(tile)];
  const kind = t && t.features[feature] ? t.features[feature].kind : "road";
  return { road: "thief", city: "knight", monastery: "monk", field: "farmer" }[kind];
}

function turn([ax, ay], rotation, x, y) {
  let [px, py] = [ax - 50, ay - 50];
  for (let r = 0; r < rotation; r++) [px, py] = [-py, px];
  return [x * SIZE + 50 + px, -y * SIZE + 50 + py];
}

const TARGET = 9;

/** Push click targets apart until none overlaps another (two features of a tile may share a spot). */
function spread(points, gap) {
  for (let round = 0; round < 30; round++) {
    let moved = false;
    for (let a = 0; a < points.length; a++) {
      for (let b = a + 1; b < points.length; b++) {
        const [p, q] = [points[a], points[b]];
        let dx = q[0] - p[0];
        let dy = q[1] - p[1];
        let d = Math.hypot(dx, dy);
        if (d >= gap) continue;
        if (d < 0.01) [dx, dy, d] = [Math.cos(a + b), Math.sin(a + b), 1];
        const push = (gap - d) / 2 + 0.5;
        p[0] -= (dx / d) * push;
        p[1] -= (dy / d) * push;
        q[0] += (dx / d) * push;
        q[1] += (dy / d) * push;
        moved = true;
      }
    }
    if (!moved) return;
  }
}

function target([px, py], index, action, ctx, label, figure = null) {
  const g = h("g", { class: figure ? `cc-target cc-target-${figure}` : "cc-target", "data-action": index, transform: `translate(${px} ${py})`, "aria-label": label },
    h("circle", { r: TARGET, fill: "rgba(255,255,255,0.6)", stroke: "#111", "stroke-width": 2, "stroke-dasharray": "4 3" }),
    h("circle", { r: 3, fill: "#111" }),
    h("title", {}, label));
  return activate(g, (e) => {
    e.stopPropagation();
    ctx.play(action);
  });
}

function button(index, action, ctx, label) {
  return h("button", { type: "button", class: "cc-choice", "data-action": index, onclick: () => ctx.play(action) }, label);
}

/** Free squares where the tile fits: one click plays a square with a single rotation; a square with
 * several is selected first, then its rotations are offered (and its preview cycles through them).
 * The map's targets and the buttons beside it. */
function spotTargets(actions, ctx, st, types, w, rerender) {
  const current = ctx.view.current_tile;
  const type = current ? types[current.type] : null;
  const spots = new Map();
  actions.forEach((a, i) => {
    if (a.type !== "place_tile") return;
    const key = `${a.x},${a.y}`;
    if (!spots.has(key)) spots.set(key, []);
    spots.get(key).push(i);
  });
  const targets = [...spots].map(([key, indices]) => {
    const first = actions[indices[0]];
    const selected = st.spot && st.spot.key === key;
    const shown = selected ? actions[indices[st.spot.pick % indices.length]] : first;
    const label = `${w.at(first.x, first.y)} ${indices.map((i) => w.rotation(actions[i].rotation)).join(", ")}`;
    const g = h("g", {
      class: "cc-spot", "data-spot": key, "data-rotations": indices.map((i) => actions[i].rotation).join(" "),
      transform: `translate(${first.x * SIZE} ${-first.y * SIZE})`, "aria-label": label,
      "data-action": indices.length === 1 ? indices[0] : null,
    },
    h("g", { transform: `rotate(${90 * shown.rotation} 50 50)`, opacity: selected ? 0.9 : 0.35 }, type ? tileShapes(type) : null),
    h("rect", {
      x: 3, y: 3, width: 94, height: 94, fill: "none", stroke: selected ? "#ffd60a" : "#fff",
      "stroke-width": selected ? 6 : 3, "stroke-dasharray": selected ? "" : "10 6",
    }),
    h("title", {}, label));
    // keys on the spot itself: Enter picks it (then plays the rotation shown), R or an arrow turns it
    g.addEventListener("keydown", (e) => {
      if (indices.length < 2 || !["r", "R", "ArrowLeft", "ArrowRight"].includes(e.key)) return;
      e.preventDefault();
      e.stopPropagation();
      const step = e.key === "ArrowLeft" ? indices.length - 1 : 1;
      if (selected) st.spot.pick += step;
      else st.spot = { key, pick: step % indices.length };
      const board = g.closest(".board");
      rerender();
      if (board) setTimeout(() => keepFocus(board, g), 0);
    });
    return activate(g, (e) => {
      e.stopPropagation();
      if (st.dragged) return;
      if (indices.length === 1) return ctx.play(first);
      if (selected && e.type === "keydown") return ctx.play(shown);
      if (selected) st.spot.pick += 1;
      else st.spot = { key, pick: 0 };
      rerender();
    });
  });
  const choices = [];
  if (st.spot && spots.has(st.spot.key)) {
    choices.push(h("span", { class: "cc-rotate-label" }, w.rotate));
    for (const i of spots.get(st.spot.key)) {
      const a = actions[i];
      choices.push(h("button", {
        type: "button", class: "cc-choice cc-rotation", "data-action": i, title: w.rotation(a.rotation),
        "aria-label": `${w.at(a.x, a.y)} ${w.rotation(a.rotation)}`, onclick: () => ctx.play(a),
      },
      h("svg", { viewBox: "0 0 100 100", width: 44, height: 44, "aria-hidden": "true" },
        type ? h("g", { transform: `rotate(${90 * a.rotation} 50 50)` }, tileShapes(type)) : null)));
    }
  }
  return [targets, choices];
}

/** The magic step: pick the figure first when both may move, then a feature on the map. */
function magicTargets(actions, ctx, st, at, w, rerender) {
  const figures = [...new Set(actions.filter((a) => a.type === "place_magic").map((a) => a.figure))];
  const figure = figures.length === 1 ? figures[0] : st.figure;
  const choices = [];
  if (figures.length > 1) {
    choices.push(h("span", {}, w.figure));
    for (const f of figures) {
      // a choice that narrows (data-select): the board's first thing to act on in this step, and
      // once picked, the focus goes on to that figure's first feature, not to <body>
      choices.push(h("button", {
        type: "button", class: "cc-choice cc-figure-choice", "data-figure": f, "data-select": f,
        "aria-pressed": String(f === figure),
        onclick: (e) => {
          const board = e.currentTarget.closest(".board");
          st.figure = f;
          rerender();
          if (board) setTimeout(() => (board.querySelector(`.cc-target-${f}`) || board).focus(), 0);
        },
      }, ctx.name(ctx.catalog.figures[f])));
    }
  }
  const spots = [];
  actions.forEach((a, i) => {
    if (a.type === "remove_magic") choices.push(button(i, a, ctx, w.remove(ctx.name(ctx.catalog.figures[a.figure]))));
    if (a.type === "place_magic" && a.figure === figure) spots.push({ i, a, p: at(a.x, a.y, a.feature) });
  });
  spread(spots.map((t) => t.p), TARGET * 2 + 3);
  const targets = spots.map(({ i, a, p }) => target(p, i, a, ctx, `${ctx.name(ctx.catalog.figures[a.figure])} ${w.at(a.x, a.y)}`, a.figure));
  return [targets, choices];
}

/** The drawn tile and what is left in the pack. */
function current(ctx, types, w) {
  const view = ctx.view;
  const tile = view.current_tile;
  const type = tile ? types[tile.type] : null;
  return [
    h("div", { class: "cc-current" }, type ? [
      h("svg", { viewBox: "-2 -2 104 104", width: 64, height: 64, "data-current": tile.tile, role: "img" }, tileShapes(type), h("title", {}, ctx.name(type))),
      h("div", {}, `${w.drawn}: ${ctx.name(type)}`),
    ] : null),
    h("div", { class: "cc-pack", "data-pack": view.pack_size }, `${view.pack_size} ${w.pack}`),
  ];
}

function scores(ctx, w) {
  const view = ctx.view;
  const totals = new Map((view.score && view.score.seats ? view.score.seats : []).map((s) => [s.seat, s.total]));
  const rows = [];
  for (let seat = 0; seat < view.seats; seat++) {
    const b = (view.scores || [])[seat] || {};
    const total = totals.has(seat) ? totals.get(seat) : Object.values(b).reduce((s, v) => s + v, 0);
    rows.push(h("tr", { "data-seat": seat, class: (view.to_move || []).includes(seat) ? "cc-turn" : null },
      h("td", {}, h("span", { class: "cc-swatch", style: { background: SEAT_COLOURS[seat % 5] } })),
      h("td", {}, seatName(ctx, seat) + (seat === ctx.seat ? " ★" : "")),
      h("td", { class: "cc-supply", title: w.supply }, `${view.supply[seat]} ♟`),
      h("td", { class: "cc-total", "data-total": total, title: Object.entries(b).map(([k, v]) => `${w.parts[k] ?? ""} ${v}`).join(", ") }, `${total} ${w.total}`)));
  }
  const figures = view.mage_witch ? ["mage", "witch"] : [];
  return [
    h("table", { class: "cc-scores", "data-testid": "carcassonne-scores" }, rows),
    h("div", { class: "cc-legend" }, figures.map((figure) => {
      const pos = view[figure];
      return h("div", { "data-magic": figure }, `${ctx.name(ctx.catalog.figures[figure])}: ${pos ? w.at(pos.x, pos.y) : "—"}`);
    })),
  ];
}

// --- pan and zoom ------------------------------------------------------------------------------

function vbString(vb) {
  return `${vb.x} ${vb.y} ${vb.w} ${vb.h}`;
}

function apply(st, svg) {
  svg.setAttribute("viewBox", vbString(st.vb));
}

function zoom(st, svg, factor, cx = null, cy = null) {
  const vb = st.vb;
  const px = cx === null ? vb.x + vb.w / 2 : cx;
  const py = cy === null ? vb.y + vb.h / 2 : cy;
  const w = Math.min(Math.max(vb.w * factor, 150), 20000);
  const height = (vb.h * w) / vb.w;
  st.vb = { x: px - ((px - vb.x) * w) / vb.w, y: py - ((py - vb.y) * height) / vb.h, w, h: height };
  st.moved = true;
  apply(st, svg);
}

function fit(st, svg, view) {
  st.vb = extent(view);
  st.moved = false;
  apply(st, svg);
}

function panAndZoom(svg, st, view) {
  let start = null;
  const scale = () => Math.max(st.vb.w / (svg.clientWidth || 1), st.vb.h / (svg.clientHeight || 1));
  svg.addEventListener("pointerdown", (e) => {
    start = { x: e.clientX, y: e.clientY, vb: { ...st.vb }, id: e.pointerId };
    st.dragged = false;
  });
  svg.addEventListener("pointermove", (e) => {
    if (!start || start.id !== e.pointerId) return;
    const dx = e.clientX - start.x;
    const dy = e.clientY - start.y;
    if (!st.dragged && Math.hypot(dx, dy) < 5) return;
    if (!st.dragged) svg.setPointerCapture(e.pointerId);
    st.dragged = true;
    const k = scale();
    st.vb = { ...start.vb, x: start.vb.x - dx * k, y: start.vb.y - dy * k };
    st.moved = true;
    apply(st, svg);
  });
  const end = () => {
    start = null;
    setTimeout(() => (st.dragged = false), 0);
  };
  svg.addEventListener("pointerup", end);
  svg.addEventListener("pointercancel", end);
  svg.addEventListener("click", (e) => {
    if (st.dragged) e.stopPropagation();
  }, true);
  svg.addEventListener("wheel", (e) => {
    e.preventDefault();
    const r = svg.getBoundingClientRect();
    const k = scale();
    const cx = st.vb.x + (e.clientX - r.left - (r.width - st.vb.w / k) / 2) * k;
    const cy = st.vb.y + (e.clientY - r.top - (r.height - st.vb.h / k) / 2) * k;
    zoom(st, svg, e.deltaY > 0 ? 1.15 : 1 / 1.15, cx, cy);
  }, { passive: false });
  svg.addEventListener("keydown", (e) => {
    if (e.target !== svg) return;
    const step = st.vb.w / 8;
    const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    if (e.key in moves) {
      st.vb = { ...st.vb, x: st.vb.x + moves[e.key][0], y: st.vb.y + moves[e.key][1] };
      st.moved = true;
      apply(st, svg);
    } else if (e.key === "+" || e.key === "=") zoom(st, svg, 1 / 1.25);
    else if (e.key === "-" || e.key === "−") zoom(st, svg, 1.25);
    else if (e.key === "0") fit(st, svg, view);
    else return;
    e.preventDefault();
  });
}

// --- the log ------------------------------------------------------------------------------------

export function describe(event, ctx) {
  const w = words(ctx);
  const d = { ...(event.data || {}), type: event.type || (event.data || {}).type };
  const who = (seat) => seatName(ctx, seat);
  const types = typesOf(ctx);
  const tileName = (tile) => {
    const t = types[tileTypeId(tile)];
    return t ? `${ctx.name(t)} (${tile})` : String(tile);
  };
  const figureName = (f) => (ctx.catalog && ctx.catalog.figures && ctx.catalog.figures[f] ? ctx.name(ctx.catalog.figures[f]) : f);
  const roleName = (r) => (ctx.catalog && ctx.catalog.roles && ctx.catalog.roles[r] ? ctx.name(ctx.catalog.roles[r]) : r);
  const list = (seats) => (seats && seats.length ? seats.map(who).join(w.and) : w.nobody);
  switch (d.type) {
    case "GameStarted":
      return w.started(d.seats, d.mage_witch);
    case "TileDrawn":
      return w.drew(who(d.seat), tileName(d.tile));
    case "TileDiscarded":
      return w.discarded(who(d.seat), tileName(d.tile));
    case "TilePlaced":
      return w.placed(who(d.seat), tileName(d.tile), w.at(d.x, d.y));
    case "MagicFigurePlaced":
      return w.magicPlaced(who(d.seat), figureName(d.figure), w.at(d.x, d.y), Boolean(d.from));
    case "MagicFigureRemoved":
      return w.magicRemoved(who(d.seat), figureName(d.figure));
    case "FollowerPlaced":
      return w.followerPlaced(who(d.seat), roleName(d.role), w.at(d.x, d.y));
    case "FollowerSkipped":
      return w.skipped(who(d.seat));
    case "FeatureScored": {
      const kind = w.kinds[d.kind] || d.kind;
      return d.winners && d.winners.length && d.points
        ? w.scored(kind, d.tiles, d.points, list(d.winners), d.final)
        : w.scoredNone(kind, d.tiles, d.final);
    }
    case "GameEnded":
      return w.ended(list(d.score && d.score.winners));
    default:
      return d.type || "";
  }
}

function ensureStyle() {
  if (document.getElementById("cc-style")) return;
  const link = document.createElement("link");
  link.id = "cc-style";
  link.rel = "stylesheet";
  link.href = new URL("./carcassonne.css", import.meta.url).href;
  document.head.append(link);
}
