// A small third-party client, as one would write it: openapi-fetch typed by the types
// openapi-typescript generated from the served document (./api.d.ts), compiled with
// `tsc --strict` and run with node by tests/platform/test_generated_clients.py.
//
// It plays one game of each kind against the server's bots, choosing every move from
// `/actions`, and waits for the bots with the long-poll of `/state`. A command the server refuses,
// or an answer it cannot read, ends it with a non-zero exit: the test then fails. No cast and no
// `!` is needed: what an answer always carries is required in its type.
//
//   node play.js BASE_URL SEED   → one JSON line a game: {game, id, seat, commands, version, winners}
import createClient from "openapi-fetch";
import type { components, paths } from "./api";

type S = components["schemas"];
type Command = S["Command"];
type CreateGame = S["CreateGame"];

// `satisfies`, not a `CreateGame[]` annotation: openapi-fetch 0.17.0 types a request body through
// `Writable<T>`, which turns a property typed `null` (a player's seat has no `bot`) into `never`, so a
// value of the generated `CreateGame` type is not assignable to the body it types
// (openapi-ts/openapi-typescript#2717). The literals are checked against `CreateGame` all the same.
const GAMES = [
  { game: "kupferkessel", seats: [{ name: "TypeScript" }, { name: "Bot", bot: "default" }] },
  { game: "carodeni", seats: [{ name: "TypeScript" }, { name: "Ostara", bot: "ostara" }], options: { solo: true } },
  { game: "skodakouzla", seats: [{ name: "TypeScript" }, { name: "Bot", bot: "default" }] },
  { game: "carcassonne", seats: [{ name: "TypeScript" }, { name: "Bot", bot: "default" }], options: { mage_witch: false } },
] satisfies CreateGame[];

/** Seconds a long-poll waits for a bot's move. */
const WAIT = 5;

/** A seeded generator (mulberry32), so a run can be repeated. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(items: readonly T[], random: () => number): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error("nothing to pick from");
  return item;
}

/** A kind of command first, then one of its bodies: a uniform pick among bodies can stall a game
 * (Škoda kouzla lists many ways to swap shop cards and one to end the phase). Never `undo`: this
 * player only moves on. */
function choose(actions: Command[], random: () => number): Command {
  const forward = actions.filter((action) => action.type !== "undo");
  const kinds = [...new Set(forward.map((action) => action.type))].sort();
  const kind = pick(kinds, random);
  return pick(
    forward.filter((action) => action.type === kind),
    random,
  );
}

function refused(what: string, response: Response, error: unknown): never {
  throw new Error(`${what}: ${response.status} ${JSON.stringify(error)}`);
}

async function play(base: string, body: (typeof GAMES)[number], random: () => number): Promise<string> {
  const api = createClient<paths>({ baseUrl: base });
  const created = await api.POST("/api/v1/games", { body });
  if (created.data === undefined) refused(`creating ${body.game}`, created.response, created.error);
  const game = created.data;
  const mine = game.seats.find((seat) => seat.token !== null);
  if (mine === undefined || mine.token === null) throw new Error(`no seat of ${game.id} is a person's`);
  const seat = createClient<paths>({ baseUrl: base, headers: { Authorization: `Bearer ${mine.token}` } });
  const path = { game_id: game.id };
  let commands = 0;
  for (;;) {
    const read = await api.GET("/api/v1/games/{game_id}", { params: { path } });
    if (read.data === undefined) refused("reading the game", read.response, read.error);
    const summary = read.data;
    if (summary.status === "finished") {
      const score = await api.GET("/api/v1/games/{game_id}/score", { params: { path } });
      if (score.data === undefined) refused("reading the score", score.response, score.error);
      const winners: number[] = score.data.winners;
      return JSON.stringify({ game: game.game, id: game.id, seat: mine.seat, commands, version: summary.version, winners });
    }
    if (!summary.to_move.includes(mine.seat)) {
      // A bot's turn, or the scoring: wait for the next version.
      const header = { "If-None-Match": `"${summary.version}"` };
      const waited = await seat.GET("/api/v1/games/{game_id}/state", {
        params: { path, query: { wait: WAIT }, header },
      });
      if (waited.error !== undefined) refused("waiting", waited.response, waited.error);
      continue;
    }
    const listed = await seat.GET("/api/v1/games/{game_id}/actions", { params: { path } });
    if (listed.data === undefined) refused("listing the actions", listed.response, listed.error);
    const command = { ...choose(listed.data, random), expected_version: summary.version };
    const played = await seat.POST("/api/v1/games/{game_id}/commands", { params: { path }, body: command });
    if (played.data === undefined) refused(`playing ${JSON.stringify(command)}`, played.response, played.error);
    commands += 1;
  }
}

const [base, seed] = process.argv.slice(2);
if (base === undefined) throw new Error("usage: node play.js BASE_URL [SEED]");
const random = generator(Number(seed ?? "1"));
for (const body of GAMES) {
  console.log(await play(base, body, random));
}
