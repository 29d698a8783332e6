"""Options (the variants and modifications of the rulebook, and arranged games) and the opening events."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from games.interface import Event, InvalidOptions
from games.rng import Rng
from games.skodakouzla.content import COLOURS, card, levels, shop_cards, starter_deck
from games.skodakouzla.flow import Flow, start_turn
from games.skodakouzla.state import HAND_SIZE, SHOP_SIZE
from games.toolkit import check_option_keys

#: Cards the first player draws for the first turn; the second prepares a full hand.
FIRST_HAND = 3

#: Every option with its default: standard income 1, no variant, no modification.
DEFAULTS: dict[str, Any] = {
    "income": 1,
    "two_colours": False,
    "masters": None,
    "shop_topdeck": False,
    "other_freeze": False,
    "arranged": None,
}


def normalize(options: Mapping[str, Any]) -> dict[str, Any]:
    """Validated options with defaults filled in; raises :class:`InvalidOptions`."""
    out = {**DEFAULTS, **check_option_keys(options, DEFAULTS)}
    income = out["income"]
    if isinstance(income, bool) or not isinstance(income, int) or not 0 <= income <= 3:
        raise InvalidOptions("income is the magic taken each turn, an integer 0–3")
    two = out["two_colours"]
    kept_ok = (
        isinstance(two, list)
        and all(isinstance(c, str) for c in two)
        and len(set(two)) == 2 == len(two)
        and set(two) <= set(COLOURS)
    )
    if not isinstance(two, bool) and not kept_ok:
        raise InvalidOptions(f"two_colours is true (random) or the two kept colours of {COLOURS}")
    masters = out["masters"]
    if masters is not None and not (
        isinstance(masters, list) and len(masters) == 2 and all(c in COLOURS for c in masters)
    ):
        raise InvalidOptions(f"masters is each seat's level-2 colour, two of {COLOURS}")
    for flag in ("shop_topdeck", "other_freeze"):
        if not isinstance(out[flag], bool):
            raise InvalidOptions(f"{flag} is true or false")
    if out["arranged"] is not None:
        _check_arranged(out["arranged"])
    return out


def _check_arranged(arranged: Any) -> None:
    if not isinstance(arranged, dict) or set(arranged) - {"shop", "decks"}:
        raise InvalidOptions("arranged has 'shop' (card ids) and 'decks' (one list of card ids per seat)")
    shop = arranged.get("shop", [])
    if not isinstance(shop, list) or not all(isinstance(c, str) for c in shop):
        raise InvalidOptions("arranged.shop is a list of shop card ids, top first")
    over = Counter(shop) - Counter(shop_cards())
    if over:
        raise InvalidOptions(f"arranged.shop names more cards than the shop holds: {sorted(over)}")
    decks = arranged.get("decks", [[], []])
    if not isinstance(decks, list) or len(decks) != 2:
        raise InvalidOptions("arranged.decks is one list of starter card ids per seat")
    for deck in decks:
        if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
            raise InvalidOptions("arranged.decks lists starter card ids, top first")
        over = Counter(deck) - Counter(starter_deck())
        if over:
            raise InvalidOptions(f"arranged deck names cards not in the starter deck: {sorted(over)}")


def arranged_order(pool: list[str], ids: list[str], cards_of: dict[str, str]) -> tuple[list[str], list[str]]:
    """Split ``pool`` (uids) into the arranged prefix (matching ``ids`` in order) and the rest."""
    rest = list(pool)
    prefix: list[str] = []
    for card_id in ids:
        uid = next((u for u in rest if cards_of[u] == card_id), None)
        if uid is None:
            raise InvalidOptions(f"arranged card {card_id!r} ({card(card_id)['names']['en']}) is not in play")
        rest.remove(uid)
        prefix.append(uid)
    return prefix, rest


def _shop_colours(two: Any, rng: Rng) -> list[str]:
    """The colours in play: all four, or two (chosen, or drawn at random) in the two-colour variant."""
    if two is True:
        return sorted(rng.shuffle(list(COLOURS))[:2])
    if two:
        return sorted(two)
    return list(COLOURS)


def number_cards(seats: int, kept: list[str]) -> tuple[dict[str, str], list[list[str]], list[str], list[str]]:
    """Every card gets a uid (``p0.01`` a starter card, ``s01`` a shop card): the uid→card map, each
    seat's deck, the shop and the shop cards of colours not in play. Public: the search
    (``search.py``) numbers the cards a view does not show the same way, to deal them."""
    cards_of: dict[str, str] = {}
    decks: list[list[str]] = []
    for seat in range(seats):
        uids = []
        for k, card_id in enumerate(starter_deck(), 1):
            uid = f"p{seat}.{k:02d}"
            cards_of[uid] = card_id
            uids.append(uid)
        decks.append(uids)
    shop: list[str] = []
    unused: list[str] = []
    for k, card_id in enumerate(shop_cards(), 1):
        uid = f"s{k:02d}"
        cards_of[uid] = card_id
        colour = card(card_id)["colour"]
        (shop if colour == "neutral" or colour in kept else unused).append(uid)
    return cards_of, decks, shop, unused


def _wizards(masters: list[str] | None, seats: int) -> list[dict[str, Any]]:
    """Level-1 wizards, or in the duel of masters level-2 wizards of the chosen colours."""
    level = 2 if masters else 1
    return [
        {"level": level, "colour": masters[s] if masters else None, "life": levels()[level]["life"]}
        for s in range(seats)
    ]


def setup(options: Mapping[str, Any], seats: int, rng: Rng) -> list[Event]:
    """Shuffle the starter decks and the shop, lay 6 shop cards, deal 3 and 5, start turn 1."""
    if seats != 2:
        raise InvalidOptions("Škoda kouzla is a duel for exactly 2 players")
    opts = normalize(options)
    kept = _shop_colours(opts["two_colours"], rng)
    cards_of, decks, shop, unused = number_cards(seats, kept)
    arranged = opts["arranged"] or {}
    started: Event = {
        "type": "GameStarted",
        "options": opts,
        "seats": seats,
        "arranged": bool(opts["arranged"]),
        "shop_colours": kept,
        "cards": cards_of,
        "unused": unused,
        "wizards": _wizards(opts["masters"], seats),
    }
    flow = Flow(None, rng)
    flow.emit(started)
    arranged_decks = arranged.get("decks", [[], []])
    for seat in range(seats):
        top, rest = arranged_order(decks[seat], arranged_decks[seat], cards_of)
        flow.emit({"type": "DeckShuffled", "seat": seat, "deck": top + rng.shuffle(rest)})
    top, rest = arranged_order(shop, arranged.get("shop", []), cards_of)
    flow.emit({"type": "ShopShuffled", "deck": top + rng.shuffle(rest)})
    flow.refill_shop(SHOP_SIZE)
    flow.draw(0, FIRST_HAND)
    flow.draw(1, HAND_SIZE)
    start_turn(flow, 0)
    return flow.events
