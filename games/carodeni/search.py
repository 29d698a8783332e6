"""What the search bot (``strong``, :mod:`games.search`) needs of Čarodění: a table the seat cannot
tell from the true one, and how a game cut short stands.

What a seat does not see: the others' hands of witches (it sees how many), the decks' order and
the cards set aside, what is in the bag and, in the solo game, the order of Ostara's tokens. The
cards not face up are known as a set (every card is in the content), and so is the bag: every
ingredient is on the board, with a player, or in the bag. A determinization deals the unseen
witches to the others' hands (each its own novices it has not played, then others), the decks
and the piles set aside, shuffled; the bag is what no one holds; Ostara's coming tokens are the
stage's tokens besides the one showing, in a random order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from games.carodeni import content, views
from games.carodeni.scoring import breakdown
from games.interface import Rules, State
from games.search import FastRng, Searchable, standing

#: Iterations a move: ≤ ~200 ms of one core (bench/strength.py prints the time per move).
ITERATIONS = 50
#: Commands the default bot plays for every seat after the root's, before :func:`evaluate` judges.
PLAYOUT = 20
#: Points that make the odds of winning e:1 in a cut-off playout's evaluation.
SCALE = 5.0
#: How much of a held potion's points its gathered ingredients count for (times the share gathered,
#: squared: a potion barely begun is worth little, or the search hoards potions it cannot brew).
PROGRESS = 0.5
#: What a witch won (not a novice) adds while in hand or played.
WITCH = 1.5


def _novice(card: str, seat: int) -> bool:
    return card.startswith(f"N{seat + 1}")


def determinize(view: Mapping[str, Any], rng: FastRng) -> State:
    """A full state agreeing with ``view``: unseen witches, potions and ingredients dealt where the
    view counts them."""
    me = view["seat"]
    seen_witches: set[str] = set()
    seen_potions: set[str] = set()
    bag = Counter(content.ingredient_counts())
    for b in view["board"]:
        seen_witches.add(b["witch"])
        seen_potions.add(b["potion"])
        bag.subtract(k for k in b["ingredients"] if k is not None)
    for p in view["players"]:
        seen_witches.update(
            p["played"], p["clan_witches"], p["animals"], p["clan_animals"], p.get("hand") or []
        )
        seen_potions.update(p["potions"], p["tools"], p["clan_potions"], p["clan_tools"])
        bag.subtract(Counter({k: n for k, n in p["ingredients"].items() if n}))
    unseen = rng.shuffle(sorted(w for w in content.witches() if w not in seen_witches))
    players = []
    for i, p in enumerate(view["players"]):
        player: dict[str, Any] = {name: list(p[name]) for name in views.PUBLIC_LISTS}
        player["ingredients"] = dict(p["ingredients"])
        if i == me:
            player["hand"] = list(p["hand"])
        else:
            own = [w for w in content.novices() if _novice(w, i) and w not in seen_witches]
            own = [] if i == view["ostara"] else own[: p["hand_count"]]  # Ostara has no novices
            rest = unseen[: p["hand_count"] - len(own)]
            unseen = [w for w in unseen if w not in rest]
            player["hand"] = own + rest
        players.append(player)
    witches = unseen
    potions = rng.shuffle(sorted(c for c in content.potions() if c not in seen_potions))
    aside = view["set_aside"]
    state: dict[str, Any] = {
        "seats": view["seats"],
        "solo": view["solo"],
        "difficulty": view["difficulty"],
        "animals": view["animals"],
        "order": list(view["order"]),
        "ostara": view["ostara"],
        "witch_deck": witches[: view["witch_deck"]],
        "witch_aside": witches[view["witch_deck"] :][: aside["witches"]],
        "potion_deck": potions[: view["potion_deck"]],
        "potion_aside": potions[view["potion_deck"] :][: aside["potions"]],
        "bag": {k: bag[k] for k in content.kinds()},
        "bag_plan": [],
        "board": [
            {"ingredients": list(b["ingredients"]), "potion": b["potion"], "witch": b["witch"]}
            for b in view["board"]
        ],
        "players": players,
        "goals": [
            {"token": g["token"], "side": g["side"], "claimed_by": g["claimed_by"]} for g in view["goals"]
        ],
        "turn": {k: v for k, v in view["turn"].items() if k != "seat"} | {"ap": list(view["turn"]["ap"])},
        "round": view["round"],
        "end_round": view["end_round"],
        "end_reason": view["end_reason"],
        "over": view["over"],
        "ostara_state": None,
    }
    if "ostara_tokens" in view:
        shown = view["ostara_tokens"]
        tokens = [t for t, d in content.ostara_tokens().items() if view["animals"] or not d["animal"]]
        coming = rng.shuffle([t for t in tokens if t != shown["token"]])[: shown["left_in_stage"]]
        state["ostara_state"] = {
            "stage": shown["stage"],
            "order": coming,
            "plan": [],
            "token": shown["token"],
            "tokens": tokens,
        }
    return state


def evaluate(state: State) -> Sequence[float]:
    """Each seat's standing from its points now, a share of the two potions it is nearest to
    brewing (more would make the search hoard potions it cannot brew) and the witches it has won,
    in hand or played (the action points of turns to come; resting merely brings them back)."""
    points = []
    for seat, p in enumerate(state["players"]):
        total = float(sum(breakdown(state, seat).values()))
        have = Counter({k: n for k, n in p["ingredients"].items() if n})
        near = []
        for potion in p["potions"]:
            need = Counter(content.potion_card(potion)["ingredients"])
            if need:
                covered = sum(min(n, have[k]) for k, n in need.items()) / sum(need.values())
                near.append(covered**2 * content.potion_card(potion)["points"])
        total += PROGRESS * sum(sorted(near)[-2:])
        total += WITCH * sum(1 for w in [*p["hand"], *p["played"]] if not content.is_novice(w))
        points.append(total)
    return standing(points, SCALE)


@cache
def searchable() -> Searchable:
    import games.carodeni as rules  # the package, complete by the time a bot moves

    engine: Rules = rules
    return Searchable(
        engine, determinize, evaluate, ITERATIONS, PLAYOUT, policy=engine.BOTS["default"], depth=1
    )
