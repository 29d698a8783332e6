// A tiny element builder for the shell and the boards: h("button", {onclick}, "text").
const SVG = "http://www.w3.org/2000/svg";
const SVG_TAGS = new Set(["svg", "g", "rect", "circle", "ellipse", "path", "line", "polygon", "polyline", "text", "title", "tspan"]);

export function h(tag, attrs = {}, ...children) {
  const el = SVG_TAGS.has(tag) ? document.createElementNS(SVG, tag) : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value == null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "class") el.setAttribute("class", value);
    else if (key === "style" && typeof value === "object") Object.assign(el.style, value);
    else if (key in el && !SVG_TAGS.has(tag) && typeof value !== "string") el[key] = value;
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child == null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Make `el` act as a button for keyboards too: focusable, Enter and Space activate it. When what
 * it did redrew the board under it (a card picked among several moves, a spot among rotations), the
 * focus goes to the same thing redrawn, else to the board's next choice, never to `<body>`. */
export function activate(el, handler) {
  el.setAttribute("tabindex", "0");
  if (!el.getAttribute("role")) el.setAttribute("role", "button");
  const run = (event) => {
    const board = el.closest(".board");
    const focused = document.activeElement === el;
    handler(event);
    if (board && focused) setTimeout(() => keepFocus(board, el), 0);
  };
  el.addEventListener("click", run);
  el.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      run(event);
    }
  });
  return el;
}

/** The attributes that name a board's thing across a redraw, most telling first. */
const IDENTITY = ["data-spot", "data-uid", "data-card", "data-hand", "data-feature", "data-figure"];

export function keepFocus(board, was) {
  if (was.isConnected || !board.isConnected) return;
  const active = document.activeElement;
  if (active && active !== document.body && active.isConnected) return;
  const name = IDENTITY.find((a) => was.hasAttribute(a));
  const same = name ? board.querySelector(`[${name}="${CSS.escape(was.getAttribute(name))}"]`) : null;
  const focusable = same && same.tabIndex >= 0 ? same : null; // a picked card may be no target any more
  const next = focusable || board.querySelector("[data-action], [data-select], button:not([disabled])");
  (next || board).focus();
}
/** An action's body as short generic words: `take card=blue-moss-4`. */
export function actionText(body) {
  const rest = Object.entries(body)
    .filter(([key]) => key !== "type")
    .map(([key, value]) => `${key}=${typeof value === "object" ? JSON.stringify(value) : value}`);
  return [body.type, ...rest].join(" ");
}
