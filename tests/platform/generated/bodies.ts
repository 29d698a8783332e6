// Compiled with `tsc --strict` against the types openapi-typescript generates from the served
// document (tests/platform/test_generated_clients.py). Each `@ts-expect-error` line is a body the
// types must refuse: if one compiles, tsc reports the unused directive and the test fails.
import type { components } from "./api";

type S = components["schemas"];
type CreateGame = S["CreateGame"];
type Command = S["Command"];

// Right bodies compile.
const created: CreateGame = { game: "kupferkessel", seats: [{ name: "A" }, { name: "B", bot: "default" }] };
const solo: CreateGame = {
  game: "carodeni",
  seats: [{ name: "A" }, { name: "O", bot: "ostara" }],
  options: { solo: true, clock: { per_move: "24h", on_timeout: "forfeit" } },
};
const move: Command = { type: "move", steps: 2, expected_version: 3 };

// Wrong bodies do not.
// @ts-expect-error a new game needs its game and seats
const empty: CreateGame = {};
// @ts-expect-error no such game
const chess: CreateGame = { game: "chess", seats: [{ name: "A" }] };
// @ts-expect-error Kupferkessel has no bot called ostara
const wrongBot: CreateGame = { game: "kupferkessel", seats: [{ name: "A" }, { name: "B", bot: "ostara" }] };
// @ts-expect-error an option the game does not have
const wrongOption: CreateGame = { game: "kupferkessel", seats: [{ name: "A" }], options: { colour: 1 } };
// @ts-expect-error no command is called fly
const fly: Command = { type: "fly" };
// @ts-expect-error steps is a number
const three: Command = { type: "move", steps: "three" };
// @ts-expect-error a move needs its steps
const noSteps: Command = { type: "move" };
// @ts-expect-error a player's seat has no bot
const boundBot: CreateGame = { game: "kupferkessel", seats: [{ player: "p" , bot: "default" }, { name: "B" }] };

// Answers: every field a response always carries is there without a cast or a `!`.
function useAnswers(state: S["State"], game: S["CreatedGame"], appended: S["Appended"], event: S["Event"]): number {
  const token: string | null = game.seats[0].token;
  const moves: number[] = state.to_move;
  const over: boolean = appended.over;
  const version: number = event.version;
  const seat: number | null = event.seat;
  return (seat ?? 0) + moves.length + version + (over ? 1 : 0) + (token === null ? 0 : 1) + state.version;
}

export { created, solo, move, empty, chess, wrongBot, wrongOption, fly, three, noSteps, boundBot, useAnswers };
