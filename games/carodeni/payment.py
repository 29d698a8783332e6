"""Paying for a potion: each requirement paid as printed, or by a pair of identical ingredients.

A payment is a list aligned with :func:`content.requirements`: for an ingredient requirement the
ingredient itself or ``"pair:<kind>"``; for a tool requirement a tool id (any tool for the
"any tool" symbol) or ``"pair:<kind>"``. Both rulebooks allow a pair only for what the player
cannot get ("if you cannot obtain a specific ingredient or tool"), so :func:`canonical` lists
exactly the payments a brew accepts: every requirement paid as printed where the seat can, pairs
only for what it lacks, in ingredient order; :func:`check` explains why a payment is invalid.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement
from typing import Any

from games.carodeni import content

PAIR = "pair:"


def tool_kind(card: str) -> str:
    """A potion card taken as a tool is the tool on its back."""
    return str(content.potions()[card]["back"])


def available_tools(player: dict[str, Any]) -> set[str]:
    """Tools the clan already has (reusable) and tool cards waiting beside the clan card."""
    return {tool_kind(c) for c in player["clan_tools"]} | {tool_kind(c) for c in player["tools"]}


def check(player: dict[str, Any], potion: str, payment: Any) -> str | None:
    """Why ``payment`` cannot pay for ``potion``, or ``None`` when it can."""
    reqs = content.requirements(potion)
    if not isinstance(payment, list) or len(payment) != len(reqs):
        return f"the payment must be a list of {len(reqs)} entries, one per requirement {reqs}"
    spent: Counter[str] = Counter()
    tools = available_tools(player)
    for req, pay in zip(reqs, payment, strict=True):
        if not isinstance(pay, str):
            return "each payment entry must be a string"
        if pay.startswith(PAIR):
            kind = pay[len(PAIR) :]
            if kind not in content.kinds():
                return f"{kind!r} is not an ingredient"
            spent[kind] += 2
        elif req in content.kinds():
            if pay != req:
                return f"the requirement {req} is paid with {req} or a pair of identical ingredients"
            spent[req] += 1
        else:
            if pay not in content.tools():
                return f"the tool requirement {req} is paid with a tool or a pair of ingredients"
            if req != content.ANY_TOOL and pay != req:
                return f"this potion needs the {req}"
            if pay not in tools:
                return f"you have no {pay}, in your clan or beside it"
    for kind, n in spent.items():
        if player["ingredients"][kind] < n:
            return f"the payment needs {n} {kind} and you have {player['ingredients'][kind]}"
    return None


def spent(payment: list[str]) -> dict[str, int]:
    """The ingredients a valid payment returns to the bag (a tool entry spends none)."""
    out: Counter[str] = Counter()
    for pay in payment:
        if pay.startswith(PAIR):
            out[pay[len(PAIR) :]] += 2
        elif pay in content.kinds():
            out[pay] += 1
    return dict(out)


def tools_to_clan(player: dict[str, Any], potion: str, payment: list[str]) -> list[str]:
    """The tool cards that join the clan: a tool already in the clan serves again for free."""
    in_clan = {tool_kind(c) for c in player["clan_tools"]}
    out = []
    for req, pay in zip(content.requirements(potion), payment, strict=True):
        if req in content.kinds() or pay.startswith(PAIR) or pay in in_clan:
            continue
        out.append(next(c for c in player["tools"] if tool_kind(c) == pay))
    return out


def canonical(player: dict[str, Any], potion: str) -> list[list[str]]:
    """The payments offered in ``legal_actions``: printed where possible, pairs for the rest."""
    reqs = content.requirements(potion)
    have = player["ingredients"]
    need = Counter(r for r in reqs if r in content.kinds())
    direct = {k: min(n, have[k]) for k, n in need.items()}
    surplus = {k: have[k] - direct.get(k, 0) for k in content.kinds()}
    deficit = sum(need[k] - direct[k] for k in need)
    tool_req = next((r for r in reqs if r not in content.kinds()), None)
    tool_options: list[str | None] = [None]
    if tool_req is not None:
        tools = available_tools(player)
        if tool_req == content.ANY_TOOL:
            tool_options = [t for t in content.tools() if t in tools]
        else:
            tool_options = [tool_req] if tool_req in tools else []
        if not tool_options:
            tool_options = [None]
            deficit += 1
    if sum(n // 2 for n in surplus.values()) < deficit:
        return []
    out = []
    spare = [k for k in content.kinds() if surplus[k] >= 2]
    for pairs in combinations_with_replacement(spare, deficit):
        counts: Counter[str] = Counter(pairs)
        if any(2 * n > surplus[kind] for kind, n in counts.items()):
            continue
        for tool in tool_options:
            out.append(_aligned(reqs, direct, list(pairs), tool))
    return out


def _aligned(reqs: list[str], direct: dict[str, int], pairs: list[str], tool: str | None) -> list[str]:
    left = dict(direct)
    queue = list(pairs)
    payment = []
    for req in reqs:
        if req in content.kinds() and left.get(req, 0) > 0:
            left[req] -= 1
            payment.append(req)
        elif req not in content.kinds() and tool is not None:
            payment.append(tool)
        else:
            payment.append(PAIR + queue.pop(0))
    return payment


def ostara_payment(have: dict[str, int], ingredients: list[str]) -> list[str] | None:
    """Ostara's payment for the ingredients alone (she needs no tools): printed ingredients first,
    then pairs from the kinds she has most of (ties from the left); ``None`` if she cannot pay."""
    left = dict(have)
    payment: list[str | None] = []
    missing = []
    for i, req in enumerate(ingredients):
        if left[req] > 0:
            left[req] -= 1
            payment.append(req)
        else:
            payment.append(None)
            missing.append(i)
    for i in missing:
        best = max(content.kinds(), key=lambda k: (left[k], -content.kinds().index(k)))
        if left[best] < 2:
            return None
        left[best] -= 2
        payment[i] = PAIR + best
    return [p for p in payment if p is not None]
