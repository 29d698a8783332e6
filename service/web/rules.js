// "Rules": a game's rules in brief, one click from its page, in a modal <dialog> (the browser keeps
// the focus inside it, Escape closes it and the focus returns to the button). The text is data,
// seeds/<game>/rules.<lang>.md served at /rules/<game>/<lang>.md, read here as a small Markdown:
// "# " the title, "## " a section, "- " and "1. " list items, anything else a paragraph.
import { h } from "./dom.js";
import { extend, lang, t } from "./i18n.js";

extend({
  en: { rulesButton: "Rules", close: "Close", noRules: "No summary of the rules in this language." },
  cs: { rulesButton: "Pravidla", close: "Zavřít", noRules: "Shrnutí pravidel v tomto jazyce tu není." },
  pl: { rulesButton: "Zasady", close: "Zamknij", noRules: "Brak streszczenia zasad w tym języku." },
});

/** Markdown lines as elements: the title gets `titleId` (the dialog's name). */
export function render(text, titleId) {
  const out = [];
  let list = null;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    const item = line.match(/^(-|\d+\.)\s+(.*)$/);
    if (item) {
      const tag = item[1] === "-" ? "ul" : "ol";
      if (!list || list.tagName.toLowerCase() !== tag) out.push(list = h(tag, {}));
      list.append(h("li", {}, item[2]));
      continue;
    }
    list = null;
    if (!line) continue;
    if (line.startsWith("## ")) out.push(h("h3", {}, line.slice(3)));
    else if (line.startsWith("# ")) out.push(h("h2", { id: titleId }, line.slice(2)));
    else out.push(h("p", {}, line));
  }
  return out;
}

/** The "Rules" button of `game`'s page; it opens the dialog in the current language. */
export function button(game) {
  const titleId = `rules-title-${game}`;
  const body = h("div", { class: "rules-text", "data-testid": "rules-text" });
  const close = h("button", { type: "button", class: "rules-close", "data-testid": "rules-close", onclick: () => dialog.close() }, t("close"));
  const dialog = h("dialog", { class: "rules", "aria-labelledby": titleId, "data-testid": "rules-dialog" }, body, close);
  // a click on the backdrop (outside the dialog's box) closes it too
  dialog.addEventListener("click", (event) => { if (event.target === dialog) dialog.close(); });
  const open = async () => {
    const code = lang();
    let text;
    try {
      const reply = await fetch(`/rules/${game}/${code}.md`);
      text = reply.ok ? await reply.text() : null;
    } catch {
      text = null;
    }
    body.replaceChildren(...(text ? render(text, titleId) : [h("h2", { id: titleId }, t("rulesButton")), h("p", {}, t("noRules"))]));
    body.lang = code;
    dialog.showModal();
    close.focus();
  };
  const opener = h("button", { type: "button", class: "rules-open", "data-testid": "rules-open", "aria-haspopup": "dialog", onclick: open }, t("rulesButton"));
  return h("span", { class: "rules-box" }, opener, dialog);
}
