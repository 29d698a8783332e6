// The interface's own words in cs/pl/en and the remembered language; game content is named by
// the server's catalog (names: {cs, pl, en}).
export const LANGS = ["cs", "pl", "en"];
const KEY = "kotlik.lang";

const WORDS = {
  en: {
    title: "Kotlík", language: "Language", hosted: "Games", newGame: "New game", myGames: "My games",
    inProgress: "In progress", finished: "Finished", none: "None yet.", yourTurn: "your turn",
    toMove: "to move", waiting: "waiting for", scoring: "scoring…", winner: "won", open: "Open",
    seats: "Players", seat: "Seat", name: "Name", human: "person", bot: "bot", options: "Options",
    create: "Create", invites: "Invite links: send each player theirs (it takes that seat)",
    copy: "Copy", copied: "Copied", play: "Play", spectate: "Watch", back: "Lobby",
    actions: "Your moves", noActions: "Nothing to do now.", log: "Log", replay: "Replay",
    version: "version", live: "live", score: "Score", total: "Total", player: "Player",
    you: "you", notYourTurn: "Waiting for", over: "Game over", hidden: "a hidden card",
    error: "Error", spectator: "You are watching.", reload: "Try again", loading: "Loading…",
    opponents: "Opponents",
    rules: "Rules version", chart: "Score chart", no: "no", yes: "yes (random)", pick: "choose…", seatN: (n) => `seat ${n + 1}`,
    deadline: "Time runs out:", resign: "Resign", confirmResign: "Resign this game?", resigned: "resigned",
    undo: "Take back", undone: "took back a move", askFinal: "Ask before a move that cannot be taken back",
    confirmFinal: "This move cannot be taken back: it draws, shows something new or ends your turn. Play it?",
    forfeited: "ran out of time and forfeited", rematch: "Rematch",
    createPlayer: "Become a player", useKey: "Use this player key", playerKey: "Player key (keep it: it is shown only here)",
    unknownKey: "This server knows no such player key.",
  },
  cs: {
    title: "Kotlík", language: "Jazyk", hosted: "Hry", newGame: "Nová hra", myGames: "Moje hry",
    inProgress: "Rozehrané", finished: "Dohrané", none: "Zatím žádné.", yourTurn: "jsi na tahu",
    toMove: "na tahu", waiting: "čeká se na", scoring: "počítá se…", winner: "vyhrál(a)", open: "Otevřít",
    seats: "Hráči", seat: "Místo", name: "Jméno", human: "člověk", bot: "bot", options: "Nastavení",
    create: "Založit", invites: "Pozvánky: každému hráči pošli jeho odkaz (zabere tím jeho místo)",
    copy: "Kopírovat", copied: "Zkopírováno", play: "Hrát", spectate: "Sledovat", back: "Přehled",
    actions: "Tvoje tahy", noActions: "Teď nic nehraješ.", log: "Záznam", replay: "Přehrávání",
    version: "verze", live: "živě", score: "Skóre", total: "Celkem", player: "Hráč",
    you: "ty", notYourTurn: "Čeká se na", over: "Konec hry", hidden: "skrytá karta",
    error: "Chyba", spectator: "Hru sleduješ.", reload: "Zkusit znovu", loading: "Načítá se…",
    opponents: "Soupeři",
    rules: "Verze pravidel", chart: "Graf skóre", no: "ne", yes: "ano (náhodně)", pick: "vybrat…", seatN: (n) => `místo ${n + 1}`,
    deadline: "Čas vyprší:", resign: "Vzdát se", confirmResign: "Opravdu vzdát tuto hru?", resigned: "vzdal(a) se",
    undo: "Vzít zpět", undone: "vzal(a) tah zpět", askFinal: "Ptát se před tahem, který nejde vzít zpět",
    confirmFinal: "Tento tah nejde vzít zpět: něco se dobere, odkryje, nebo končí tvůj tah. Zahrát?",
    forfeited: "nestihl(a) tah a prohrál(a)", rematch: "Odveta",
    createPlayer: "Stát se hráčem", useKey: "Použít tento hráčský klíč", playerKey: "Hráčský klíč (uschovej si ho: jinde se neukáže)",
    unknownKey: "Tento server takový hráčský klíč nezná.",
  },
  pl: {
    title: "Kotlík", language: "Język", hosted: "Gry", newGame: "Nowa gra", myGames: "Moje gry",
    inProgress: "W toku", finished: "Zakończone", none: "Jeszcze żadnych.", yourTurn: "twój ruch",
    toMove: "na ruchu", waiting: "czekamy na", scoring: "liczenie…", winner: "wygrał(a)", open: "Otwórz",
    seats: "Gracze", seat: "Miejsce", name: "Imię", human: "człowiek", bot: "bot", options: "Ustawienia",
    create: "Utwórz", invites: "Zaproszenia: wyślij każdemu graczowi jego link (zajmuje nim miejsce)",
    copy: "Kopiuj", copied: "Skopiowano", play: "Graj", spectate: "Oglądaj", back: "Lobby",
    actions: "Twoje ruchy", noActions: "Teraz nic nie robisz.", log: "Dziennik", replay: "Powtórka",
    version: "wersja", live: "na żywo", score: "Wynik", total: "Razem", player: "Gracz",
    you: "ty", notYourTurn: "Czekamy na", over: "Koniec gry", hidden: "ukryta karta",
    error: "Błąd", spectator: "Oglądasz grę.", reload: "Spróbuj ponownie", loading: "Ładowanie…",
    opponents: "Przeciwnicy",
    rules: "Wersja zasad", chart: "Wykres wyników", no: "nie", yes: "tak (losowo)", pick: "wybierz…", seatN: (n) => `miejsce ${n + 1}`,
    deadline: "Czas mija:", resign: "Poddaj się", confirmResign: "Na pewno poddać tę grę?", resigned: "poddał(a) się",
    undo: "Cofnij", undone: "cofnął(-ęła) ruch", askFinal: "Pytaj przed ruchem, którego nie da się cofnąć",
    confirmFinal: "Tego ruchu nie da się cofnąć: coś się dobierze, odkryje albo kończy twoją turę. Zagrać?",
    forfeited: "nie zdążył(a) i przegrał(a)", rematch: "Rewanż",
    createPlayer: "Zostań graczem", useKey: "Użyj tego klucza gracza", playerKey: "Klucz gracza (zachowaj go: nigdzie indziej się nie pokaże)",
    unknownKey: "Ten serwer nie zna takiego klucza gracza.",
  },
};

export function lang() {
  const stored = localStorage.getItem(KEY);
  if (LANGS.includes(stored)) return stored;
  const browser = (navigator.language || "en").slice(0, 2);
  return LANGS.includes(browser) ? browser : "en";
}

export function setLang(code) {
  localStorage.setItem(KEY, code);
  document.documentElement.lang = code;
}

/** Add a module's own words ({en: {...}, cs: {...}, pl: {...}}), so each part of the client keeps its
 * words beside it and the shared table stays small. */
export function extend(table) {
  for (const [code, words] of Object.entries(table)) Object.assign(WORDS[code], words);
}

/** The interface word `key` in the current language (a function for words with a number). */
export function t(key, ...args) {
  const word = WORDS[lang()][key] ?? WORDS.en[key] ?? key;
  return typeof word === "function" ? word(...args) : word;
}

/** `x.names[lang]` (or `x-names`), falling back to English, then to the id. */
export function nameOf(x, code = lang()) {
  if (x == null) return "";
  const names = x.names || x["x-names"];
  if (names) return names[code] || names.en || x.id || "";
  return x.id ?? String(x);
}
