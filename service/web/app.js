// The shell: a language switch, and the fragment router — #/ lobby, #/new/<game> form,
// #/play/<id>?seat=&token= (stores the seat, then drops the token from the address), #/game/<id>,
// #/opponents (open seats, seeks, ratings: opponents.js), #/players/<id> (a profile: profile.js).
import { h } from "./dom.js";
import { LANGS, lang, setLang, t } from "./i18n.js";
import * as problems from "./problems.js";
import * as tokens from "./tokens.js";
import * as turns from "./turns.js";

const main = document.querySelector("main");
let current = null; // the AbortController of the shown page

function header() {
  const select = h("select", { "data-testid": "lang", "aria-label": t("language") },
    LANGS.map((code) => h("option", { value: code }, code.toUpperCase())));
  select.value = lang();
  select.addEventListener("change", () => {
    setLang(select.value);
    route();
  });
  document.querySelector("header").replaceChildren(
    h("h1", {}, h("a", { href: "#/", class: "home", "data-testid": "home" }, "Kotlík")),
    h("a", { href: "#/opponents", "data-testid": "opponents" }, t("opponents")),
    h("div", { class: "tools" }, turns.controls(), h("label", { class: "lang" }, `${t("language")} `, select)),
  );
}

async function route() {
  current?.abort();
  current = new AbortController();
  const signal = current.signal;
  document.documentElement.lang = lang();
  header();
  turns.start(); // "your turn" in the title and icon, from every page
  turns.show();
  const [path, query] = (location.hash.slice(1) || "/").split("?");
  const parts = path.split("/").filter(Boolean);
  main.replaceChildren(h("p", { class: "muted" }, t("loading")));
  try {
    if (parts[0] === "play" && parts[1]) {
      const params = new URLSearchParams(query || "");
      if (params.get("token")) tokens.put(parts[1], Number(params.get("seat")), params.get("token"));
      history.replaceState(null, "", `#/game/${parts[1]}`); // the token leaves the address bar and history
      return route();
    }
    if (parts[0] === "game" && parts[1]) {
      const { show } = await import("./game.js");
      await show(main, parts[1], signal);
    } else if (parts[0] === "opponents") {
      const { show } = await import("./opponents.js");
      await show(main, signal);
    } else if (parts[0] === "players" && parts[1]) {
      const { show } = await import("./profile.js");
      await show(main, parts[1], signal);
    } else if (parts[0] === "new" && parts[1]) {
      const { show } = await import("./create.js");
      await show(main, parts[1], signal);
    } else {
      const { show } = await import("./lobby.js");
      await show(main, signal);
    }
  } catch (error) {
    if (signal.aborted) return;
    console.error(error);
    main.replaceChildren(h("p", { class: "problem", role: "alert" }, `${t("error")}: ${problems.describe(error).text}`),
      h("button", { type: "button", onclick: route }, t("reload")));
  }
}

window.addEventListener("hashchange", route);
route();
