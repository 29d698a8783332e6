// The "what to do now" line of every game page: read from the legal moves (/actions) the seat has
// now, each kind of move said as a short phrase in cs/pl/en, joined into one sentence; while
// another seat moves, who is awaited. A board that already says it in its own words (Carcassonne)
// sets `saysWhatToDo` and the page leaves the line out.
import { lang, t } from "./i18n.js";

/** Phrases by game and kind of move (`type`, or `type:item` where one type takes several things). */
const PHRASES = {
  kupferkessel: {
    move: { en: "move your pawn", cs: "posuň svou figurku", pl: "przesuń pionek" },
    take: { en: "take a card from the row beside your pawn", cs: "vezmi kartu z řady u své figurky", pl: "weź kartę z rzędu przy pionku" },
    explode: { en: "make your opponent's cauldron lose its top card", cs: "nech soupeřův kotlík přijít o horní kartu", pl: "każ kociołkowi przeciwnika stracić wierzchnią kartę" },
    play_again: { en: "move again", cs: "táhni ještě jednou", pl: "rusz się jeszcze raz" },
    decline: { en: "give up the card's special power", cs: "vzdej se zvláštní akce karty", pl: "zrezygnuj ze specjalnej akcji karty" },
    end: { en: "keep the last card or set it aside", cs: "nech si poslední kartu, nebo ji dej stranou", pl: "zatrzymaj ostatnią kartę albo ją odłóż" },
  },
  carodeni: {
    play: { en: "play a witch from your hand", cs: "zahraj čarodějku z ruky", pl: "zagraj wiedźmę z ręki" },
    rest: { en: "rest (witches back to your hand)", cs: "odpočívej (čarodějky zpět do ruky)", pl: "odpocznij (wiedźmy wracają do ręki)" },
    refresh: { en: "renew an offer", cs: "obměň nabídku", pl: "wymień ofertę" },
    "take:ingredient": { en: "take an ingredient", cs: "vezmi surovinu", pl: "weź składnik" },
    "take:potion": { en: "take a potion", cs: "vezmi lektvar", pl: "weź miksturę" },
    "take:tool": { en: "take a tool", cs: "vezmi nástroj", pl: "weź narzędzie" },
    "take:witch": { en: "take a witch", cs: "vezmi čarodějku", pl: "weź wiedźmę" },
    "take:animal": { en: "take an animal", cs: "vezmi zvíře", pl: "weź zwierzę" },
    brew: { en: "brew a potion", cs: "uvař lektvar", pl: "uwarz miksturę" },
    tame: { en: "tame an animal", cs: "ochoč zvíře", pl: "oswój zwierzę" },
    end_turn: { en: "end your turn", cs: "ukonči tah", pl: "zakończ turę" },
  },
  skodakouzla: {
    lay: { en: "lay a card from your hand", cs: "vylož kartu z ruky", pl: "wyłóż kartę z ręki" },
    buy: { en: "buy a card in the shop", cs: "kup kartu v obchodě", pl: "kup kartę w sklepie" },
    turn_into_magic: { en: "turn a card into magic", cs: "proměň kartu v magii", pl: "zamień kartę w magię" },
    swap_shop: { en: "swap shop cards", cs: "vyměň karty v obchodě", pl: "wymień karty w sklepie" },
    store_magic: { en: "store magic", cs: "ulož magii", pl: "przechowaj magię" },
    remove_card: { en: "remove a card from the game", cs: "odstraň kartu ze hry", pl: "usuń kartę z gry" },
    promote: { en: "become a level 2 wizard", cs: "staň se čarodějem 2. úrovně", pl: "zostań czarodziejem 2. poziomu" },
    resolve: { en: "let a card in play act", cs: "nech působit vyloženou kartu", pl: "pozwól działać wyłożonej karcie" },
    end_phase: { en: "end the phase", cs: "ukonči fázi", pl: "zakończ fazę" },
  },
  carcassonne: {
    place_tile: { en: "place the tile", cs: "přilož kartičku", pl: "dołóż płytkę" },
    place_magic: { en: "place the mage or the witch", cs: "postav mága nebo čarodějnici", pl: "postaw maga albo czarownicę" },
    remove_magic: { en: "remove the mage or the witch", cs: "odeber mága nebo čarodějnici", pl: "zdejmij maga albo czarownicę" },
    place_follower: { en: "place a follower", cs: "postav družiníka", pl: "postaw podwładnego" },
    pass: { en: "pass", cs: "nestav nic", pl: "nie stawiaj nic" },
  },
};

const WORDS = {
  en: { now: "Now", or: "or", other: "choose one of your moves", wait: (who) => `Now ${who} moves; the board follows live.` },
  cs: { now: "Teď", or: "nebo", other: "vyber jeden ze svých tahů", wait: (who) => `Teď táhne ${who}; deska se mění živě.` },
  pl: { now: "Teraz", or: "albo", other: "wybierz jeden ze swoich ruchów", wait: (who) => `Teraz rusza się ${who}; plansza zmienia się na żywo.` },
};

/** The phrase for one legal move, or null for a kind this table does not know. */
function phrase(game, action, code) {
  const table = PHRASES[game] || {};
  const entry = table[`${action.type}:${action.item}`] || table[action.type];
  return entry ? entry[code] : null;
}

/** What the reader should do now: one sentence, or "" when there is nothing to say (over, replay). */
export function whatNow(summary, seat, actions, code = lang()) {
  if (summary.status !== "active") return "";
  const w = WORDS[code] || WORDS.en;
  if (seat == null || !summary.to_move.includes(seat)) {
    const who = summary.to_move.map((n) => summary.seats[n]?.name ?? t("seatN", n)).join(", ");
    return who ? w.wait(who) : "";
  }
  const said = [];
  for (const action of actions) {
    const words = phrase(summary.game, action, code) ?? w.other;
    if (!said.includes(words)) said.push(words);
  }
  if (!said.length) return "";
  const list = said.length === 1 ? said[0] : `${said.slice(0, -1).join(", ")} ${w.or} ${said[said.length - 1]}`;
  return `${w.now}: ${list}.`;
}
