// For a game without a board module (or one that failed): the view as data, moves from the
// actions list; every game stays playable.
import { h } from "./dom.js";

export function render(root, ctx) {
  root.replaceChildren(h("pre", { class: "fallback" }, JSON.stringify(ctx.view, null, 1)));
}

export function describe(event, ctx) {
  const who = event.seat != null ? ctx.seats[event.seat]?.name : null;
  return `${who ? `${who}: ` : ""}${event.type}`;
}
