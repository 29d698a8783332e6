"""``kotlik play``: any game in a terminal, against bots or a second terminal.

It creates a game (or joins one with a seat's token), shows the seat's own view, lists the legal
actions numbered and in words (:mod:`kotlik_client.words`), plays the number typed, waits for the
others with the long-poll, and prints the result. Nothing in it knows a game: the words come from
the command bodies and the catalog's names.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from kotlik_client.client import Client
from kotlik_client.errors import ProblemError
from kotlik_client.types import CreatedGame, SeatRequest, State, Summary
from kotlik_client.words import aliases, describe, inline, names, render

#: Seconds one long-poll waits for the others (the server allows up to 60).
WAIT = 30
#: Seconds to wait for the scoring worker after the last move before giving up on the result.
SCORING_WAIT = 120.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``kotlik play``'s arguments, on the subcommand ``service/cli.py`` makes."""
    parser.add_argument(
        "game", help="the kind of game to create (kupferkessel, …); with --join, the game's id"
    )
    parser.add_argument(
        "--bot", default="default", help="the bots' name (see GET /catalog), default: default"
    )
    parser.add_argument(
        "--seats",
        default="me,bot",
        help="the seats in turn order, comma-separated: me, bot or bot:NAME, or another player's name "
        "(they join from another terminal with the token printed); or a number: you and bots. "
        "Default: me,bot",
    )
    parser.add_argument("--name", default="Me", help="your seat's name")
    parser.add_argument("--options", default="{}", help="the game's options as JSON, e.g. '{\"solo\": true}'")
    parser.add_argument(
        "--url", default="http://127.0.0.1:8000", help="the server, default http://127.0.0.1:8000"
    )
    parser.add_argument(
        "--join", metavar="TOKEN", help="play an existing game (GAME is its id) as this seat's token"
    )
    parser.add_argument("--lang", default="en", choices=("cs", "pl", "en"), help="the language of names")


def run(args: argparse.Namespace, read: Callable[[str], str] = input, out: TextIO = sys.stdout) -> int:
    """Play one game to its end (exit 0), or until the input ends or Ctrl-C (with how to rejoin)."""
    server = Client(args.url)
    try:
        options = json.loads(args.options)
    except json.JSONDecodeError as e:
        print(f"kotlik play: --options is not JSON: {e}", file=out)
        return 2
    game_id, token = args.game, args.join
    try:
        if not args.join:
            created = server.create(args.game, seats(args.seats, args.name, args.bot), options)
            game_id, token = created["id"], _announce(created, args, out)
        return Table(server.seat(token), game_id, args.lang, read, out).play(args.url)
    except KeyboardInterrupt:
        if token:
            print(f"\nstopped; to go on: {_rejoin(game_id, args.url, token)}", file=out)
        return 130
    except ProblemError as e:
        print(f"kotlik play: {e}", file=out)
        for where, what in e.errors.items():
            print(f"  {where}: {what}", file=out)
        return 1


def seats(spec: str, name: str, bot: str) -> list[SeatRequest]:
    """``me,bot:random,Alice`` → you, a bot, and a human seat for Alice; ``3`` → you and two bots."""
    if spec.strip().isdigit():
        me: list[SeatRequest] = [{"name": name}]
        return me + [{"name": f"Bot {i}", "bot": bot} for i in range(1, int(spec))]
    out: list[SeatRequest] = []
    for i, part in enumerate(p.strip() for p in spec.split(",")):
        if part == "me":
            out.append({"name": name})
        elif part == "bot" or part.startswith("bot:"):
            out.append({"name": f"Bot {i}", "bot": part.partition(":")[2] or bot})
        else:
            out.append({"name": part})
    return out


def _announce(created: CreatedGame, args: argparse.Namespace, out: TextIO) -> str:
    """Print the new game and the other humans' join commands; your token (the first "me" seat)."""
    mine = seats(args.seats, args.name, args.bot)
    you = next((i for i, s in enumerate(mine) if s.get("name") == args.name and not s.get("bot")), 0)
    print(f"game {created['id']} ({created['game']}) created", file=out)
    for seat in created["seats"]:
        if seat["token"] and seat["seat"] != you:
            print(f"  {seat['name']} joins with: {_rejoin(created['id'], args.url, seat['token'])}", file=out)
    token = created["seats"][you]["token"]
    assert token is not None, "your seat is a bot's"
    return token


class Table:
    """One seat at one game: what it sees, what it may do, and the loop that plays it."""

    def __init__(self, me: Client, game_id: str, lang: str, read: Callable[[str], str], out: TextIO) -> None:
        self.me, self.game_id, self.read, self.out = me, game_id, read, out
        self.summary: Summary = me.summary(game_id)
        self.names = names(me.catalog(self.summary["game"]), lang)
        #: The catalog's names and the view's own ids for them (see :func:`words.aliases`).
        self.named = dict(self.names)
        self.seen = 0

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def seat_name(self, seat: int | None) -> str:
        if seat is None:
            return "the game"
        seat_names = [s["name"] for s in self.summary["seats"]]
        return f"seat {seat} ({seat_names[seat]})" if seat < len(seat_names) else f"seat {seat}"

    def play(self, url: str) -> int:
        state = self.me.state(self.game_id)
        self.say(f"you are {self.seat_name(state['seat'])} in {self.summary['game']} game {self.game_id}")
        self.seen, said = state["version"], ""
        while not state["over"]:
            if state["seat"] in state["to_move"]:
                if not self.turn(state):
                    self.say(f"no more input; to go on: {_rejoin(self.game_id, url, self.me.token)}")
                    return 0
                state, said = self.me.state(self.game_id), ""
            else:
                waiting = f"waiting for {', '.join(self.seat_name(s) for s in state['to_move'])} …"
                if waiting != said:
                    self.say(said := waiting)
                state = self.me.wait(self.game_id, state["version"], WAIT) or state
            self.news()
        self.say(render(state["view"], self.named, indent="  "))
        self.result()
        return 0

    def news(self) -> None:
        """The events since last shown, one line each: whose command caused it, and what it says."""
        for event in self.me.events(self.game_id, after=self.seen):
            line = f"  v{event['version']} {self.seat_name(event['seat'])}: {event['type']} "
            self.say((line + inline(event["data"], self.named))[:200])
            self.seen = event["version"]

    def turn(self, state: State) -> bool:
        """Show the table and the choices, play the one typed; False when the input ends."""
        actions = self.me.actions(self.game_id)
        if not actions:  # to move, yet nothing to do until the game moves on
            self.me.wait(self.game_id, state["version"], WAIT)
            return True
        named = self.named = {**self.named, **aliases(state["view"], self.names)}
        self.say(f"\n— version {state['version']}, your move —")
        self.say(render(state["view"], named, indent="  "))
        described = [describe(a, named) for a in actions]
        for i, (action, words) in enumerate(zip(actions, described, strict=True), 1):
            twin = described.count(words) > 1
            self.say(f"  {i:>3}. {words}" + (f"  {json.dumps(action, ensure_ascii=False)}" if twin else ""))
        while True:
            try:
                answer = self.read(f"your choice (1–{len(actions)}): ").strip()
            except EOFError:
                return False
            if answer.isdigit() and 1 <= int(answer) <= len(actions):
                break
            self.say(f"type a number from 1 to {len(actions)}")
        command = actions[int(answer) - 1]
        try:
            played = self.me.play(self.game_id, command, expected_version=state["version"])
        except ProblemError as e:
            if e.status not in (409, 422):
                raise
            self.say(f"not played: {e.detail}")  # the game moved on, or the rules refused it
            return True
        self.say(f"you played: {described[int(answer) - 1]} (now at version {played['version']})")
        return True

    def result(self) -> None:
        """The final score once the scoring worker has written it."""
        deadline = time.monotonic() + SCORING_WAIT
        summary = self.me.summary(self.game_id)
        while summary["status"] != "finished" and time.monotonic() < deadline:
            self.me.wait(self.game_id, summary["version"], WAIT)
            summary = self.me.summary(self.game_id)
        self.summary = summary
        result = summary["result"]
        if summary["status"] != "finished" or not result:
            self.say(f"the game is over; its score is not written yet (status {summary['status']})")
            return
        self.say("the game is over")
        for line in _score_lines(result):
            self.say(f"  {self._named_seats(line)}")
        winners = ", ".join(self.seat_name(w) for w in result.get("winners", []))
        self.say(f"winner(s): {winners or 'none'}")

    def _named_seats(self, entry: dict[str, Any]) -> str:
        rest = {k: v for k, v in entry.items() if k not in ("seat", "total")}
        total = f": {entry['total']}" if "total" in entry else ""
        return f"{self.seat_name(entry.get('seat'))}{total}  {inline(rest, self.named)}"


def _rejoin(game_id: str, url: str, token: str | None) -> str:
    """The command that comes back to the game; ``--join=`` because a token may start with ``-``."""
    return f"kotlik play {game_id} --url {url} --join={token}"


def _score_lines(result: dict[str, Any]) -> Sequence[dict[str, Any]]:
    seats = result.get("seats")
    return [s for s in seats if isinstance(s, dict)] if isinstance(seats, list) else []


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="kotlik play", description=__doc__.splitlines()[0] if __doc__ else None
    )
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
