"""Every random outcome of a Kotlík game, recomputed from ``docs/random.md`` alone.

Written from that page as an outside auditor would, it imports nothing of Kotlík: only the
standard library and the content files in ``seeds/`` (data, read as JSON). :func:`check` takes an
export's lines (the header, then the events, as JSON values) and recomputes, with the key derived
from the revealed seed and the seats' entropy, every shuffle and draw the page lists for the game,
comparing each with the event that records it. Arranged games are out of its scope (the page says
how an arrangement goes first; these games have none).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SEEDS = Path(__file__).resolve().parents[2] / "seeds"


def game_key(seed: bytes, entropy: list[str | None]) -> bytes:
    """ "The key": the seed alone without entropy, else the labelled SHA-256."""
    if all(e is None for e in entropy):
        return seed
    data = b"kotlik game key v1" + b"\x00" + seed
    for e in entropy:
        data += b"\x00" if e is None else b"\x01" + bytes.fromhex(e)
    return hashlib.sha256(data).digest()


class Stream:
    """ "Bytes", "Integers" and "Shuffles" of the page."""

    def __init__(self, key: bytes, label: str) -> None:
        self.key, self.label, self.counter, self.pending = key, label.encode(), 0, b""

    def take(self, k: int) -> bytes:
        while len(self.pending) < k:
            message = self.label + b":" + self.counter.to_bytes(8, "big")
            self.pending += hmac.new(self.key, message, hashlib.sha256).digest()
            self.counter += 1
        out, self.pending = self.pending[:k], self.pending[k:]
        return out

    def below(self, n: int) -> int:
        bits = (n - 1).bit_length()
        size = max(1, -(-bits // 8))
        while True:
            value = int.from_bytes(self.take(size), "big") & ((1 << bits) - 1)
            if value < n:
                return value

    def shuffle(self, items: list[Any]) -> list[Any]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


@dataclass
class Report:
    """What was recomputed (outcomes by kind) and what differed."""

    checked: Counter[str] = field(default_factory=Counter)
    wrong: list[str] = field(default_factory=list)


def _content(game: str, name: str) -> Any:
    return json.loads((SEEDS / game / f"{name}.json").read_text())


class _Game:
    def __init__(self, lines: list[dict[str, Any]]) -> None:
        self.header, self.events = lines[0], lines[1:]
        seats = self.events[0]["data"]["seats"]
        self.key = game_key(bytes.fromhex(self.header["seed"]), [s.get("entropy") for s in seats])
        self.streams: dict[str, Stream] = {}
        self.report = Report()

    def stream(self, event: dict[str, Any]) -> Stream:
        """One stream per decision: ``setup`` before the first command, else ``v<at>``."""
        label = f"v{event['meta']['at']}" if "at" in event["meta"] else "setup"
        if label not in self.streams:
            self.streams[label] = Stream(self.key, label)
        return self.streams[label]

    def same(self, what: str, event: dict[str, Any], expected: Any, found: Any) -> None:
        self.report.checked[what] += 1
        if expected != found:
            where = f"version {event['version']}: {what}"
            self.report.wrong.append(f"{where}: expected {expected}, found {found}")


def check(lines: list[dict[str, Any]]) -> Report:
    """Recompute every random outcome of the export ``lines``; see the module's doc."""
    game = _Game(lines)
    kind = game.header["game"]
    {"skodakouzla": _skodakouzla, "kupferkessel": _kupferkessel, "carcassonne": _carcassonne,
     "carodeni": _carodeni}[kind](game)  # fmt: skip
    return game.report


def _number(uid: str) -> int:
    return int(uid.split(".")[-1].lstrip("ps"))


def _skodakouzla(g: _Game) -> None:
    content = _content("skodakouzla", "cards")
    by_id = {c["id"]: c for c in content["starter"] + content["shop"]}
    cards: dict[str, str] = {}
    discard: dict[int, list[str]] = {0: [], 1: []}
    removed: list[str] = []
    for e in g.events:
        t, d = e["type"], e["data"]
        if t == "GameStarted":
            cards = d["cards"]
            if d["options"].get("two_colours") is True:
                drawn = g.stream(e).shuffle(["fire", "ice", "forest", "dark"])
                g.same("shop colours", e, sorted(drawn[:2]), d["shop_colours"])
        elif t == "DeckShuffled" and "at" not in e["meta"]:
            own = sorted((u for u in cards if u.startswith(f"p{d['seat']}.")), key=_number)
            g.same("starter deck", e, g.stream(e).shuffle(own), d["deck"])
        elif t == "ShopShuffled" and "at" not in e["meta"]:
            unused = set(g.events[1]["data"]["unused"])
            shop = sorted((u for u in cards if u.startswith("s") and u not in unused), key=_number)
            g.same("shop deck", e, g.stream(e).shuffle(shop), d["deck"])
        elif t == "DeckShuffled":
            g.same("reshuffled discard pile", e, g.stream(e).shuffle(discard[d["seat"]]), d["deck"])
            discard[d["seat"]] = []
        elif t == "ShopShuffled":
            g.same("reshuffled removed shop cards", e, g.stream(e).shuffle(removed), d["deck"])
            removed = []
        elif t in ("CardDestroyed", "CardTurnedIntoMagic") or (t == "CardBought" and not d["top"]):
            discard[d["seat"]].append(d["card"])
        elif t == "CardLaid":
            card = by_id[cards[d["card"]]]
            if card["type"] == "spell" and card["colour"] == "neutral":
                discard[d["seat"]].append(d["card"])
        elif t in ("HandDiscarded", "SpellsDiscarded"):
            discard[d["seat"]].extend(d["cards"])
        elif t == "CardRemoved":
            discard[d["seat"]].remove(d["card"])
        elif t == "ShopSwapped":
            removed.extend(d["removed"])


def _kupferkessel(g: _Game) -> None:
    cards = _content("kupferkessel", "cards")
    colour = {c["id"]: c["colour"] for c in cards}
    spots = [s for s in range(36) if s not in (0, 5, 30, 35)]
    rest: list[str] = []
    recipes: list[str] | None = None
    for e in g.events:
        t, d = e["type"], e["data"]
        if t == "GridLaid":
            deck = g.stream(e).shuffle([c["id"] for c in cards])
            flat = [cell for row in d["grid"] for cell in row]
            g.same("grid", e, deck[: len(spots)], [flat[s] for s in spots])
            rest = deck[len(spots) :]
        elif t == "CauldronStarted":
            refused = []
            while colour[rest[0]] in ("white", "black"):
                refused.append(rest[0])
                rest = rest[1:] + rest[:1]
            g.same("first cauldron card", e, [rest[0], refused], [d["card"], d["refused"]])
            rest = rest[1:]
        elif t == "DeckStacked":
            g.same("deck", e, rest, d["deck"])
        elif t == "RecipesDealt":
            if recipes is None:
                recipes = g.stream(e).shuffle([r["id"] for r in _content("kupferkessel", "recipes")])
            seat = d["seat"]
            g.same("recipes", e, recipes[2 * seat : 2 * seat + 2], d["recipes"])


def _carcassonne(g: _Game) -> None:
    types = _content("carcassonne", "tiles")["tiles"]
    remaining: list[str] = []
    for e in g.events:
        t, d = e["type"], e["data"]
        if t == "GameStarted":
            remaining = [
                f"{ty['id']}.{n}"
                for ty in types
                if d["mage_witch"] or not ty["mage"]
                for n in range(1, ty["count"] + 1)
            ]
            remaining.remove("D.1")
        elif t in ("TileDrawn", "TileDiscarded"):
            stream = g.stream(e)
            g.same("tile", e, remaining[stream.below(len(remaining))], d["tile"])
            remaining.remove(d["tile"])


def _draw_ingredient(bag: dict[str, int], stream: Stream) -> str | None:
    total = sum(bag.values())
    if total == 0:
        return None
    r = stream.below(total)
    for kind, count in bag.items():
        if r < count:
            bag[kind] -= 1
            return kind
        r -= count
    raise AssertionError("unreachable")


def _carodeni(g: _Game) -> None:
    witches = sorted(w["id"] for w in _content("carodeni", "witches"))
    potions = sorted(p["id"] for p in _content("carodeni", "potions"))
    goals = _content("carodeni", "goals")
    animal_goal = {x["id"]: x["animal"] for x in goals}
    bag = {i["id"]: i["count"] for i in _content("carodeni", "ingredients")}
    tokens: list[str] = []
    plan: list[list[str]] = []
    for e in g.events:
        t, d = e["type"], e["data"]
        if t == "GameStarted":
            s = g.stream(e)
            board = d["board"]
            found = [b["witch"] for b in board] + d["witch_deck"] + d["witch_aside"]
            g.same("witch deck", e, s.shuffle(witches), found)
            found = [b["potion"] for b in board] + d["potion_deck"] + d["potion_aside"]
            g.same("potion deck", e, s.shuffle(potions), found)
            row = d["goals"]
            regular = [x for x in row if not animal_goal[x["token"]]]
            hard = sum(x["side"] == "hard" for x in regular)
            easy = len(regular) - hard
            drawn = s.shuffle(sorted(x for x, a in animal_goal.items() if not a))
            made = [{"token": x, "side": "hard"} for x in drawn[:hard]]
            made += [{"token": x, "side": "easy"} for x in drawn[hard : hard + easy]]
            animals = len(row) - len(regular)
            side = "hard" if easy == 0 else "easy"
            animal_drawn = s.shuffle(sorted(x for x, a in animal_goal.items() if a))
            made += [{"token": x, "side": side} for x in animal_drawn[:animals]]
            made = [x for x in made if x["side"] == "easy"] + [x for x in made if x["side"] == "hard"]
            g.same("goal row", e, made, row)
            for b in board:
                g.same("board ingredients", e, [_draw_ingredient(bag, s) for _ in range(3)], b["ingredients"])
            if d["solo"]:
                potion = ["S1", "S3", "S4", "S5"][s.below(4)]
                g.same("Ostara's starting potion", e, [potion], d["players"][1]["potions"])
            tokens, plan = d["ostara_tokens"], d["ostara_plan"]
        elif t == "SlotRefilled" and d["item"] == "ingredient":
            g.same("ingredient", e, _draw_ingredient(bag, g.stream(e)), d["kind"])
        elif t == "OfferRefreshed" and d["target"] == "ingredients":
            for k in d["returned"]:
                if k is not None:
                    bag[k] += 1
            stream = g.stream(e)
            g.same("refreshed ingredients", e, [_draw_ingredient(bag, stream) for _ in range(3)], d["drawn"])
        elif t == "PotionBrewed":
            for k, n in d["spent"].items():
                bag[k] += n
        elif t == "AnimalTamed":
            bag[d["paid"]] += 1
        elif t == "OstaraTokensShuffled":
            planned = plan[d["stage"]] if d["stage"] < len(plan) else []
            rest = [x for x in tokens if x not in planned]
            g.same("Ostara's tokens", e, list(planned) + g.stream(e).shuffle(rest), d["order"])
