"""Ostara, the solo automaton: her whole turn is decided here, one event per step with the reason.

Each turn she reveals her next token (all tokens are reshuffled at the start of each 5-round
stage), takes what its first row names, choosing cards by its priority rows and ingredients by her
ingredient priorities, then brews one potion if she can: no tools needed, a missing ingredient
paid with a pair of identical ones, any of her witches (all are active) with the right banner.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.carodeni import content, goals, payment
from games.carodeni.flow import STAGE_ROUNDS, Flow

Candidate = tuple[int, str]


def turn(flow: Flow) -> None:
    s = flow.state
    me = s["ostara"]
    o = s["ostara_state"]
    stage = s["round"] // STAGE_ROUNDS
    if o["stage"] != stage:
        planned = o["plan"][stage] if stage < len(o["plan"]) else []
        rest = [t for t in o["tokens"] if t not in planned]
        flow.emit(
            {"type": "OstaraTokensShuffled", "stage": stage, "order": list(planned) + flow.rng.shuffle(rest)}
        )
    token = s["ostara_state"]["order"][0]
    flow.emit({"type": "OstaraTokenDrawn", "seat": me, "token": token})
    spec = content.ostara_tokens()[token]
    for step in spec["take"]:
        _step(flow, me, step, spec["criteria"])
    _brew(flow, me)
    flow.claim_goals(me)
    flow.end_turn()


def _step(flow: Flow, me: int, step: str, criteria: list[str]) -> None:
    s = flow.state
    player = s["players"][me]
    if step == "animal":
        if _animal(flow, me):
            return
        step = "ingredient"
    if step == "ingredient":
        _ingredient(flow, me)
        return
    kinds = step.split("|")
    if len(kinds) == 2:
        witches, potions = len(player["played"]), len(player["potions"])
        if witches == potions:
            kind, why = kinds[0], f"as many witches as potions ({witches}): the first on the token"
        else:
            kind = "witch" if witches < potions else "potion"
            why = f"fewer {kind}s ({min(witches, potions)} against {max(witches, potions)})"
        flow.emit({"type": "OstaraChose", "seat": me, "step": step, "choice": kind, "reason": why})
    else:
        kind = step
    _card(flow, me, kind, criteria)


def _card(flow: Flow, me: int, kind: str, criteria: list[str]) -> None:
    """Filter the offered cards by each priority row in turn; then the topmost."""
    s = flow.state
    candidates: list[Candidate] = [(i, b[kind]) for i, b in enumerate(s["board"]) if b[kind] is not None]
    if not candidates:
        flow.emit(
            {
                "type": "OstaraChose",
                "seat": me,
                "step": kind,
                "choice": None,
                "reason": f"no {kind} card on offer",
            }
        )
        return
    reasons = []
    for criterion in criteria:
        if len(candidates) == 1:
            break
        candidates, why = _CRITERIA[criterion](s, me, kind, candidates)
        reasons.append(why)
    i, card = candidates[0]
    if len(candidates) > 1:
        reasons.append("the topmost of those left")
    loc = content.LOCATIONS[i]
    flow.emit(
        {
            "type": "OstaraChose",
            "seat": me,
            "step": kind,
            "choice": card,
            "location": loc,
            "reason": "; ".join(r for r in reasons if r) or "the only one on offer",
        }
    )
    flow.take(me, kind, loc)


def _colour(kind: str, card: str) -> tuple[str, ...]:
    if kind == "witch":
        return content.banners(card)
    return (content.potion_card(card)["colour"],)


def _by_goal(s: dict[str, Any], me: int, kind: str, cands: list[Candidate]) -> tuple[list[Candidate], str]:
    """A card towards a goal, goals taken left to right (easy to hard). On the novice
    difficulty she pursues no goals."""
    if s["difficulty"] == "novice":
        return cands, "goals: none pursued on novice"
    want = "witches" if kind == "witch" else "potions"
    for goal in s["goals"]:
        if goal["claimed_by"] is not None:
            continue
        cond = goals.side(goal)
        if cond["kind"] != want:
            continue
        helping = [c for c in cands if cond["colour"] in _colour(kind, c[1])]
        if helping:
            return helping, f"goal {goal['token']} ({cond['names']['en']})"
    return cands, "goals: no card on offer helps one"


def _by_banner(s: dict[str, Any], me: int, kind: str, cands: list[Candidate]) -> tuple[list[Candidate], str]:
    """A card whose banner matches one of her cards of the other type."""
    player = s["players"][me]
    if kind == "witch":
        colours = {content.potion_card(p)["colour"] for p in player["potions"]}
    else:
        colours = {c for w in player["played"] for c in content.banners(w)}
    colours.discard(content.PALE)
    matching = [c for c in cands if set(_colour(kind, c[1])) & colours]
    if matching:
        return matching, f"banner matches her {'potions' if kind == 'witch' else 'witches'}"
    return cands, "banner: none matches"


def _by_points(s: dict[str, Any], me: int, kind: str, cands: list[Candidate]) -> tuple[list[Candidate], str]:
    cards = content.witches() if kind == "witch" else content.potions()
    best = max(cards[c]["points"] for _, c in cands)
    return [c for c in cands if cards[c[1]]["points"] == best], f"most points ({best})"


_CRITERIA = {"goal": _by_goal, "banner": _by_banner, "points": _by_points}


def _has_witch_for(player: dict[str, Any], potion: str) -> bool:
    colour = content.potion_card(potion)["colour"]
    if not player["played"]:
        return False
    return colour == content.PALE or any(colour in content.banners(w) for w in player["played"])


def missing(player: dict[str, Any], potion: str) -> Counter[str]:
    need = Counter(content.potion_card(potion)["ingredients"])
    return Counter({k: n - player["ingredients"][k] for k, n in need.items() if n > player["ingredients"][k]})


def potion_priority(player: dict[str, Any]) -> list[str]:
    """Her ingredient priorities: a potion she has a witch for, then the fewest ingredients
    missing, then the most points, then the leftmost (earliest taken)."""
    ranked = []
    for i, p in enumerate(player["potions"]):
        short = sum(missing(player, p).values())
        if short:
            ranked.append(((not _has_witch_for(player, p), short, -content.potion_card(p)["points"], i), p))
    return [p for _, p in sorted(ranked)]


def _ingredient(flow: Flow, me: int) -> None:
    """Rows top to bottom, left to right: the first ingredient her best potion lacks."""
    s = flow.state
    player = s["players"][me]
    spots = [
        (i, slot, k)
        for i, b in enumerate(s["board"])
        for slot, k in enumerate(b["ingredients"])
        if k is not None
    ]
    if not spots:
        flow.emit(
            {
                "type": "OstaraChose",
                "seat": me,
                "step": "ingredient",
                "choice": None,
                "reason": "no ingredient on the board",
            }
        )
        return
    choice, why = spots[0], "no potion of hers needs one on offer: the first from the top"
    for p in potion_priority(player):
        lacking = missing(player, p)
        found = next((x for x in spots if x[2] in lacking), None)
        if found is not None:
            choice, why = found, f"for potion {p}"
            break
    i, slot, kind = choice
    loc = content.LOCATIONS[i]
    flow.emit(
        {
            "type": "OstaraChose",
            "seat": me,
            "step": "ingredient",
            "choice": kind,
            "location": loc,
            "slot": slot,
            "reason": why,
        }
    )
    flow.take(me, "ingredient", loc, slot)


def _animal(flow: Flow, me: int) -> bool:
    """The first animal from the top that she has not yet, straight into her clan."""
    s = flow.state
    player = s["players"][me]
    owned = {content.witches()[c]["animal"] for c in player["clan_animals"]}
    for i, b in enumerate(s["board"]):
        if b["witch"] is not None and content.witches()[b["witch"]]["animal"] not in owned:
            loc = content.LOCATIONS[i]
            flow.emit(
                {
                    "type": "OstaraChose",
                    "seat": me,
                    "step": "animal",
                    "choice": content.witches()[b["witch"]]["animal"],
                    "location": loc,
                    "reason": "the first animal from the top that she has not yet",
                }
            )
            flow.take(me, "animal", loc)
            return True
    flow.emit(
        {
            "type": "OstaraChose",
            "seat": me,
            "step": "animal",
            "choice": None,
            "reason": "she has every animal on offer: an ingredient instead",
        }
    )
    return False


def _brew(flow: Flow, me: int) -> None:
    """At most one potion: the most points, then the leftmost; her earliest fitting witch."""
    player = flow.state["players"][me]
    options = []
    for i, p in enumerate(player["potions"]):
        if not _has_witch_for(player, p):
            continue
        pay = payment.ostara_payment(player["ingredients"], content.potion_card(p)["ingredients"])
        if pay is not None:
            options.append((-content.potion_card(p)["points"], i, p, pay))
    if not options:
        return
    _, _, potion, pay = min(options)
    colour = content.potion_card(potion)["colour"]
    witch = next(w for w in player["played"] if colour == content.PALE or colour in content.banners(w))
    flow.emit(
        {
            "type": "PotionBrewed",
            "seat": me,
            "potion": potion,
            "witch": witch,
            "payment": pay,
            "spent": payment.spent(pay),
            "tools_to_clan": [],
            "reason": "Ostara brews without tools: the most points, then the leftmost",
        }
    )
