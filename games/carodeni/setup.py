"""Setting up a game: options, the arrangement, decks, goals, the board and each seat's start.

Solo: ``setup({"solo": true, "difficulty": ...}, seats=2)``; seat 0 is the human player, seat 1
is Ostara (the bot ``ostara``), who moves first. The human gets starting potion 2 (second in turn
order), Ostara a random other one (the rulebook: "one random starting potion").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.carodeni import content
from games.carodeni.flow import draw_from
from games.interface import Event, InvalidOptions
from games.rng import Rng
from games.toolkit import check_option_keys, option

DIFFICULTIES = ("novice", "experienced", "grandmaster")
#: Goals by player count: (hard, easy).
GOAL_COUNTS = {2: (3, 2), 3: (4, 2), 4: (4, 3), 5: (4, 4)}
_OPTION_TYPES: dict[str, type] = {
    "solo": bool,
    "difficulty": str,
    "animals": bool,
    "animal_goals": int,
    "extra_hard_goal": bool,
    "arranged": dict,
}
_ARRANGED_KEYS = ("witch_deck", "potion_deck", "goals", "bag", "ostara_tokens", "ostara_starting_potion")


def _check_options(options: Any, seats: int) -> dict[str, Any]:
    check_option_keys(options, _OPTION_TYPES)
    for key, want in _OPTION_TYPES.items():
        if key in options:
            option(options, key, None, want, f"option {key!r} must be a {want.__name__}")
    solo = options.get("solo", False)
    if solo and seats != 2:
        raise InvalidOptions("the solo game has 2 seats: seat 0 the player, seat 1 Ostara")
    if not solo and not 2 <= seats <= 5:
        raise InvalidOptions("Čarodění is for 2–5 seats (or solo: 2 seats, the player and Ostara)")
    if not solo and options.get("difficulty", DIFFICULTIES[0]) != DIFFICULTIES[0]:
        # the default is accepted everywhere, so a form may always send the options' defaults
        raise InvalidOptions("difficulty is a solo option")
    difficulty = options.get("difficulty", "novice") if solo else None
    if solo and difficulty not in DIFFICULTIES:
        raise InvalidOptions(f"difficulty must be one of {list(DIFFICULTIES)}")
    animal_goals = options.get("animal_goals", 0)
    if not 0 <= animal_goals <= 2:
        raise InvalidOptions("animal_goals is 0, 1 or 2")
    if animal_goals and not options.get("animals", False):
        raise InvalidOptions("animal goals need the animal variant (animals: true)")
    return {
        "solo": solo,
        "difficulty": difficulty,
        "animals": options.get("animals", False),
        "animal_goals": animal_goals,
        "extra_hard_goal": options.get("extra_hard_goal", False),
    }


def _deck(arranged: Any, ids: list[str], name: str, rng: Rng) -> list[str]:
    """The arranged cards on top in the given order, the rest shuffled beneath."""
    if arranged is None:
        return rng.shuffle(ids)
    if not isinstance(arranged, list) or len(set(map(str, arranged))) != len(arranged):
        raise InvalidOptions(f"arranged {name} must be a list of distinct card ids")
    unknown = [c for c in arranged if c not in ids]
    if unknown:
        raise InvalidOptions(f"arranged {name}: unknown cards {unknown}")
    return list(arranged) + rng.shuffle([c for c in ids if c not in arranged])


def _goal_row(opts: dict[str, Any], seats: int, arranged: Any, rng: Rng) -> list[dict[str, str]]:
    """The goal row, easy sides left of hard ones (the solo game's row order, used everywhere).

    Solo novice uses the 2-player counts, experienced and grandmaster five hard goals. Animal
    goals are added on their easy side, or hard where every goal is hard."""
    if opts["solo"]:
        hard, easy = (3, 2) if opts["difficulty"] == "novice" else (5, 0)
    else:
        hard, easy = GOAL_COUNTS[seats]
    hard += 1 if opts["extra_hard_goal"] else 0
    animal_side = "hard" if easy == 0 else "easy"
    tokens = content.goals()
    regular = sorted(t for t, g in tokens.items() if not g["animal"])
    animal = sorted(t for t, g in tokens.items() if g["animal"])
    if arranged is None:
        drawn = rng.shuffle(regular)
        row = [{"token": t, "side": "hard"} for t in drawn[:hard]]
        row += [{"token": t, "side": "easy"} for t in drawn[hard : hard + easy]]
        row += [{"token": t, "side": animal_side} for t in rng.shuffle(animal)[: opts["animal_goals"]]]
    else:
        row = _check_goals(arranged, hard, easy, animal_side, opts["animal_goals"])
    return [g for g in row if g["side"] == "easy"] + [g for g in row if g["side"] == "hard"]


def _check_goals(
    arranged: Any, hard: int, easy: int, animal_side: str, n_animal: int
) -> list[dict[str, str]]:
    tokens = content.goals()
    if not isinstance(arranged, list) or not all(
        isinstance(g, dict)
        and set(g) == {"token", "side"}
        and g["token"] in tokens
        and g["side"] in ("easy", "hard")
        for g in arranged
    ):
        raise InvalidOptions("arranged goals: a list of {token, side} with known tokens")
    if len({g["token"] for g in arranged}) != len(arranged):
        raise InvalidOptions("arranged goals: each token at most once")
    regular = [g for g in arranged if not tokens[g["token"]]["animal"]]
    animal = [g for g in arranged if tokens[g["token"]]["animal"]]
    if sum(g["side"] == "hard" for g in regular) != hard or sum(g["side"] == "easy" for g in regular) != easy:
        raise InvalidOptions(f"arranged goals: this game uses {hard} hard and {easy} easy goals")
    if len(animal) != n_animal or any(g["side"] != animal_side for g in animal):
        raise InvalidOptions(f"arranged goals: {n_animal} animal goals on their {animal_side} side")
    return [dict(g) for g in arranged]


def _ostara_plan(arranged: Any, tokens: list[str]) -> list[list[str]]:
    if arranged is None:
        return []
    if (
        not isinstance(arranged, list)
        or len(arranged) > 3
        or not all(
            isinstance(stage, list) and len(set(stage)) == len(stage) and all(t in tokens for t in stage)
            for stage in arranged
        )
    ):
        raise InvalidOptions(f"arranged ostara_tokens: up to 3 stages, each distinct tokens of {tokens}")
    return [list(stage) for stage in arranged]


def _decks(arranged: dict[str, Any], seats: int, rng: Rng) -> dict[str, list[str]]:
    """Both shuffled decks (arranged tops first); with 3+ players the last five of each are set aside."""
    witch_deck = _deck(arranged.get("witch_deck"), sorted(content.witches()), "witch_deck", rng)
    potion_deck = _deck(arranged.get("potion_deck"), sorted(content.potions()), "potion_deck", rng)
    aside = 5 if seats >= 3 else 0
    return {
        "witch_deck": witch_deck[: len(witch_deck) - aside],
        "potion_deck": potion_deck[: len(potion_deck) - aside],
        "witch_aside": witch_deck[len(witch_deck) - aside :],
        "potion_aside": potion_deck[len(potion_deck) - aside :],
    }


def _bag_plan(arranged: dict[str, Any]) -> list[str]:
    plan = arranged.get("bag", [])
    if not isinstance(plan, list) or any(k not in content.kinds() for k in plan):
        raise InvalidOptions(f"arranged bag: a list of ingredient kinds {list(content.kinds())}")
    return list(plan)


def _board(decks: dict[str, list[str]], plan: list[str], rng: Rng) -> list[dict[str, Any]]:
    """Three ingredients from the bag and the top card of each deck at every location, top to
    bottom; the cards dealt leave ``decks`` and the drawn kinds leave ``plan``."""
    bag = dict(content.ingredient_counts())
    board = []
    for _ in content.LOCATIONS:
        ingredients = [draw_from(bag, plan, rng) for _ in range(3)]
        board.append(
            {
                "ingredients": ingredients,
                "potion": decks["potion_deck"].pop(0),
                "witch": decks["witch_deck"].pop(0),
            }
        )
    return board


def _players(
    solo: bool, seats: int, order: list[int], arranged: dict[str, Any], rng: Rng
) -> list[dict[str, Any]]:
    """Each seat's novice pair and starting potion by its place in turn order; solo: the player
    second (potion 2), Ostara a random other potion."""
    if not solo:
        return [
            {"hand": [f"N{seat + 1}a", f"N{seat + 1}b"], "potions": [f"S{order.index(seat) + 1}"]}
            for seat in range(seats)
        ]
    choice = arranged.get("ostara_starting_potion")
    others = ["S1", "S3", "S4", "S5"]
    if choice is not None and choice not in others:
        raise InvalidOptions(f"arranged ostara_starting_potion: one of {others}")
    ostara_start = choice if choice is not None else rng.choice(others)
    return [{"hand": ["N1a", "N1b"], "potions": ["S2"]}, {"hand": [], "potions": [ostara_start]}]


#: The bot that plays Ostara, and only Ostara: her seat's one command is her whole automaton turn.
OSTARA_BOT = "ostara"


def check_seats(bots: list[str | None], options: Mapping[str, Any]) -> None:
    """Who may sit where: in the solo game seat 0 is the player (a person, or a player's bot) and
    seat 1 is Ostara, played by the ``ostara`` bot alone, so a person never sits in her seat and
    the game takes at most one person; in a game of players nobody is Ostara."""
    if options.get("solo") is True:
        if len(bots) != 2 or bots[1] != OSTARA_BOT:
            raise InvalidOptions(
                "the solo game seats the player at seat 0 and Ostara at seat 1, played by the bot "
                f'{OSTARA_BOT!r}: list the player first, then {{"bot": "{OSTARA_BOT}"}}'
            )
        if bots[0] == OSTARA_BOT:
            raise InvalidOptions(
                f"the bot {OSTARA_BOT!r} plays only Ostara's seat (seat 1), not the player's"
            )
        return
    if OSTARA_BOT in bots:
        raise InvalidOptions(
            f"the bot {OSTARA_BOT!r} plays Ostara in the solo game only (options: solo: true)"
        )


def setup(options: Mapping[str, Any], seats: int, rng: Rng) -> list[Event]:
    opts = _check_options(options, seats)
    arranged = options.get("arranged", {})
    unknown = [k for k in arranged if k not in _ARRANGED_KEYS]
    if unknown:
        raise InvalidOptions(f"unknown arranged keys {unknown}; known: {list(_ARRANGED_KEYS)}")
    solo = opts["solo"]
    order = [1, 0] if solo else list(range(seats))
    decks = _decks(arranged, seats, rng)
    row = _goal_row(opts, seats, arranged.get("goals"), rng)
    plan = _bag_plan(arranged)
    board = _board(decks, plan, rng)
    players = _players(solo, seats, order, arranged, rng)
    tokens = [t for t, d in content.ostara_tokens().items() if opts["animals"] or not d["animal"]]
    return [
        {
            "type": "GameStarted",
            "options": dict(options),
            "seats": seats,
            "arranged": bool(arranged),
            "solo": solo,
            "difficulty": opts["difficulty"],
            "animals": opts["animals"],
            "order": order,
            "ostara": 1 if solo else None,
            **decks,
            "bag_plan": plan,
            "board": board,
            "players": players,
            "goals": row,
            "ostara_tokens": tokens if solo else [],
            "ostara_plan": _ostara_plan(arranged.get("ostara_tokens"), tokens) if solo else [],
        }
    ]
