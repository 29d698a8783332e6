// An API problem (RFC 9457) in the reader's language: the client knows the problem types the API
// names (`type` …/problems/<slug>) and says each in words; the server's English `detail` is kept
// for English readers, and for everyone in the element's tooltip.
import { extend, lang, t } from "./i18n.js";

const SLUGS = [
  "game-not-found", "unknown-game-type", "not-found", "unauthorized", "token-expired", "not-your-turn", "game-over",
  "stale-version", "illegal-move", "invalid-options", "idempotency-key-reused", "unknown-player", "seat-taken",
  "rematch-taken", "refused-webhook-url", "unknown-rules-version", "unavailable", "not-migrated", "too-many-requests",
];

extend({
  en: {
    "problem:game-not-found": "No such game.", "problem:unknown-game-type": "This server hosts no such game.",
    "problem:not-found": "Not found.", "problem:unauthorized": "This browser holds no seat of this game.",
    "problem:token-expired": "The seat's link has expired.", "problem:not-your-turn": "It is not your turn.",
    "problem:game-over": "The game is over.", "problem:stale-version": "Someone moved meanwhile; the board is redrawn.",
    "problem:illegal-move": "The rules do not allow this move.", "problem:invalid-options": "These options or seats do not go together.",
    "problem:idempotency-key-reused": "This move was already sent.", "problem:unknown-player": "Unknown player.",
    "problem:seat-taken": "The seat belongs to another player.", "problem:rematch-taken": "The rematch has started already.",
    "problem:refused-webhook-url": "That address is refused.", "problem:unknown-rules-version": "This server cannot play this game's rules version now.",
    "problem:unavailable": "The server is busy; try again shortly.", "problem:not-migrated": "The server is being upgraded; try again shortly.",
    "problem:too-many-requests": "Too many requests; wait a moment.", "problem:invalid": "Some fields are not filled in right.",
    "problem:offline": "The server cannot be reached.",
  },
  cs: {
    "problem:game-not-found": "Taková hra neexistuje.", "problem:unknown-game-type": "Tento server takovou hru nehostí.",
    "problem:not-found": "Nenalezeno.", "problem:unauthorized": "Tento prohlížeč nemá v této hře žádné místo.",
    "problem:token-expired": "Odkaz na místo vypršel.", "problem:not-your-turn": "Nejsi na tahu.",
    "problem:game-over": "Hra skončila.", "problem:stale-version": "Mezitím někdo táhl; deska se překreslí.",
    "problem:illegal-move": "Pravidla tento tah nedovolují.", "problem:invalid-options": "Tato nastavení nebo místa k sobě nepasují.",
    "problem:idempotency-key-reused": "Tento tah už byl odeslán.", "problem:unknown-player": "Neznámý hráč.",
    "problem:seat-taken": "Místo patří jinému hráči.", "problem:rematch-taken": "Odveta už začala.",
    "problem:refused-webhook-url": "Tato adresa je odmítnuta.", "problem:unknown-rules-version": "Tento server teď neumí verzi pravidel této hry.",
    "problem:unavailable": "Server je zaneprázdněn; zkus to za chvíli.", "problem:not-migrated": "Server se aktualizuje; zkus to za chvíli.",
    "problem:too-many-requests": "Příliš mnoho požadavků; chvíli počkej.", "problem:invalid": "Některá pole nejsou vyplněna správně.",
    "problem:offline": "Server není dostupný.",
  },
  pl: {
    "problem:game-not-found": "Nie ma takiej gry.", "problem:unknown-game-type": "Ten serwer nie prowadzi takiej gry.",
    "problem:not-found": "Nie znaleziono.", "problem:unauthorized": "Ta przeglądarka nie ma miejsca w tej grze.",
    "problem:token-expired": "Link do miejsca wygasł.", "problem:not-your-turn": "To nie twój ruch.",
    "problem:game-over": "Gra się skończyła.", "problem:stale-version": "Ktoś w międzyczasie wykonał ruch; plansza się odświeży.",
    "problem:illegal-move": "Zasady nie pozwalają na ten ruch.", "problem:invalid-options": "Te ustawienia lub miejsca do siebie nie pasują.",
    "problem:idempotency-key-reused": "Ten ruch został już wysłany.", "problem:unknown-player": "Nieznany gracz.",
    "problem:seat-taken": "Miejsce należy do innego gracza.", "problem:rematch-taken": "Rewanż już się zaczął.",
    "problem:refused-webhook-url": "Ten adres jest odrzucony.", "problem:unknown-rules-version": "Ten serwer nie obsługuje teraz wersji zasad tej gry.",
    "problem:unavailable": "Serwer jest zajęty; spróbuj za chwilę.", "problem:not-migrated": "Serwer jest aktualizowany; spróbuj za chwilę.",
    "problem:too-many-requests": "Zbyt wiele żądań; poczekaj chwilę.", "problem:invalid": "Niektóre pola są wypełnione źle.",
    "problem:offline": "Nie można połączyć się z serwerem.",
  },
});

/** The problem's kind: its type's slug, or a kind the client names itself (a 422 of fields, 429). */
export function kind(error) {
  const type = error?.body?.type || "";
  const slug = type.includes("/problems/") ? type.split("/problems/").pop() : "";
  if (SLUGS.includes(slug)) return slug;
  if (error?.status === 429) return "too-many-requests";
  if (error?.status === 422 && error.body?.errors) return "invalid";
  if (error instanceof TypeError) return "offline"; // fetch() found no server
  return null;
}

/** What to show for `error`: {text, detail}; `detail` the server's own words, for a tooltip. */
export function describe(error) {
  const slug = kind(error);
  const detail = error?.message || String(error);
  if (!slug) return { text: detail, detail };
  const said = t(`problem:${slug}`);
  return { text: lang() === "en" ? `${said} ${detail}` : said, detail };
}
