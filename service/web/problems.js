// An API problem (RFC 9457) in the reader's language. The words for each problem type come from the
// server's registry (service/contract/problem_types.py), served as /problems/index.json: one place,
// so a type the server adds is said here too. The client names only what no server answer carries
// (a form's fields, no server at all). The server's English `detail` is kept for English readers,
// and for everyone in the element's tooltip.
import { extend, lang, t } from "./i18n.js";

extend({
  en: { "problem:invalid": "Some fields are not filled in right.", "problem:offline": "The server cannot be reached." },
  cs: { "problem:invalid": "Některá pole nejsou vyplněna správně.", "problem:offline": "Server není dostupný." },
  pl: { "problem:invalid": "Niektóre pola są wypełnione źle.", "problem:offline": "Nie można połączyć się z serwerem." },
});

/** {slug: {status, title, say: {cs, pl, en}}}; empty when the server could not be asked (offline). */
const TYPES = await fetch("/problems/index.json").then((r) => (r.ok ? r.json() : {}), () => ({}));

/** The problem's kind: its type's slug, or a kind the client names itself (a 422 of fields, no server). */
export function kind(error) {
  const type = error?.body?.type || "";
  const slug = type.includes("/problems/") ? type.split("/problems/").pop() : "";
  if (TYPES[slug]) return slug;
  if (error?.status === 429) return "rate-limited";
  if (error?.status === 422 && error.body?.errors) return "invalid";
  if (error instanceof TypeError) return "offline"; // fetch() found no server
  return null;
}

/** What to show for `error`: {text, detail}; `detail` the server's own words, for a tooltip. */
export function describe(error) {
  const slug = kind(error);
  const detail = error?.message || String(error);
  if (!slug) return { text: detail, detail };
  const said = TYPES[slug]?.say?.[lang()] ?? t(`problem:${slug}`);
  return { text: lang() === "en" ? `${said} ${detail}` : said, detail };
}
