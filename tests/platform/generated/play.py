"""A small third-party client, as one would write it with the package ``openapi-python-client``
generated from the served document (``kotlik_api_client``); run in the generator's venv by
``tests/platform/test_generated_clients.py``.

It plays one game of each kind against the server's bots, choosing every move from ``/actions``
(the generated models parse them; a chosen one is sent back as its model), and waits for the bots
with the long-poll of ``/state``. A command the server refuses, or an answer the generated client
does not parse as documented, ends it with a non-zero exit: the test then fails.

    python play.py BASE_URL SEED   → one JSON line a game: {game, id, seat, commands, version, winners}
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any, TypeVar

import httpx
from kotlik_api_client import AuthenticatedClient, Client
from kotlik_api_client.api.games import (
    get_api_v1_games_game_id,
    get_api_v1_games_game_id_actions,
    get_api_v1_games_game_id_score,
    get_api_v1_games_game_id_state,
    post_api_v1_games,
    post_api_v1_games_game_id_commands,
)
from kotlik_api_client.models import (
    Appended,
    CarcassonneCreate,
    CarcassonneCreateOptions,
    CarodeniCreate,
    CarodeniCreateOptions,
    CarodeniCreateOptionsDifficultySolo,
    CreatedGame,
    GameSummary,
    KupferkesselCreate,
    Score,
    SeatRequestType0,
    SkodakouzlaCreate,
    SkodakouzlaCreateOptions,
    State,
)

T = TypeVar("T")

#: Seconds a long-poll waits for a bot's move; the read timeout is past it.
WAIT = 5


def seats() -> list[SeatRequestType0]:
    return [SeatRequestType0(name="Python"), SeatRequestType0(name="Bot", bot="default")]


GAMES = [
    KupferkesselCreate(game="kupferkessel", seats=seats()),
    CarodeniCreate(
        game="carodeni",
        seats=[SeatRequestType0(name="Python"), SeatRequestType0(name="Ostara", bot="ostara")],
        options=CarodeniCreateOptions(solo=True, difficulty=CarodeniCreateOptionsDifficultySolo.EXPERIENCED),
    ),
    SkodakouzlaCreate(game="skodakouzla", seats=seats(), options=SkodakouzlaCreateOptions(income=2)),
    CarcassonneCreate(game="carcassonne", seats=seats(), options=CarcassonneCreateOptions(mage_witch=False)),
]


class Refused(Exception):
    """The server answered something other than what the client asked for."""


def expect(kind: type[T], what: str, answer: Any) -> T:
    if not isinstance(answer.parsed, kind):
        raise Refused(f"{what}: {answer.status_code} {answer.content[:500]!r}")
    return answer.parsed


def choose(actions: list[Any], rng: random.Random) -> Any:
    """A kind of command first, then one of its bodies: a uniform pick among bodies can stall a
    game (Škoda kouzla lists many ways to swap shop cards and one to end the phase). Never
    ``undo``: this player only moves on."""
    forward = [action for action in actions if action.type_ != "undo"]
    kind = rng.choice(sorted({action.type_ for action in forward}))
    return rng.choice([action for action in forward if action.type_ == kind])


def play(base: str, body: Any, rng: random.Random) -> dict[str, Any]:
    timeout = httpx.Timeout(WAIT + 30)
    api = Client(base_url=base, timeout=timeout, raise_on_unexpected_status=True)
    game = expect(
        CreatedGame, f"creating {body.game}", post_api_v1_games.sync_detailed(client=api, body=body)
    )
    mine = next(seat for seat in game.seats if seat.token is not None)
    assert mine.token is not None
    me = AuthenticatedClient(
        base_url=base, token=mine.token, timeout=timeout, raise_on_unexpected_status=True
    )
    commands = 0
    while True:
        summary = expect(
            GameSummary, "reading the game", get_api_v1_games_game_id.sync_detailed(game.id, client=api)
        )
        if summary.status == "finished":
            score = expect(
                Score, "reading the score", get_api_v1_games_game_id_score.sync_detailed(game.id, client=api)
            )
            return {
                "game": game.game,
                "id": str(game.id),
                "seat": mine.seat,
                "commands": commands,
                "version": summary.version,
                "winners": score.winners,
            }
        if mine.seat not in summary.to_move:
            # A bot's turn, or the scoring: wait for the next version.
            waited = get_api_v1_games_game_id_state.sync_detailed(
                game.id, client=me, wait=WAIT, if_none_match=f'"{summary.version}"'
            )
            if waited.status_code != 304:
                expect(State, "waiting", waited)
            continue
        listed = get_api_v1_games_game_id_actions.sync_detailed(game.id, client=me)
        actions = expect(list, "listing the actions", listed)
        command = choose(actions, rng)
        command.expected_version = summary.version
        played = post_api_v1_games_game_id_commands.sync_detailed(game.id, client=me, body=command)
        expect(Appended, f"playing {command.to_dict()}", played)
        commands += 1


def main() -> None:
    base, seed = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1
    rng = random.Random(seed)
    for body in GAMES:
        print(json.dumps(play(base, body, rng)), flush=True)


if __name__ == "__main__":
    main()
