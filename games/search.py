"""One search for every game: single-observer information-set MCTS (Cowling, Powley and Whitehouse
2012) over what a seat may see.

A search bot is handed what any bot is handed — its seat's view and legal actions, and a seeded
:class:`~games.rng.Rng` — and nothing more, so it cannot read the true hidden state: it never has
it. Each iteration asks the game for one *determinization*, a full state that agrees with the view
(``Searchable.determinize(view, rng)``: unseen cards shuffled, unknown hands dealt from what is
unaccounted for), and walks one shared tree of the seat's and the others' commands down it. A node
keeps, per child, how often it was *available* as well as visited, so a command that only some
determinizations allow is weighed by how often it could have been played (ISMCTS's availability
count). After leaving the tree the playout runs a few random commands and is then cut off by the
game's evaluation (``Searchable.evaluate``: each seat's standing in ``[0, 1]``, the greedy bot's
scoring to begin with), because full random playouts of these engines run only tens of games a
second. The command most visited at the root is played; it is always one of the legal actions the
bot was given.

**Iterations, not wall time, end a search.** The same game, seed and version give the same move on
any machine and under any load: a bot's rng is labelled by the game's version, so a redelivered
bot task, a replay, ``kotlik verify`` and the tests all see the move the game saw, which a clock
cannot promise. Each game's iteration count is chosen so that a move takes ≤ ~200 ms of one core
of the reference machine (``bench/strength.py`` prints the median and p99 per move).

Inside the search the engines draw from :class:`FastRng`, a seeded :class:`random.Random` behind
the :class:`Rng` interface: HMAC-SHA256 per draw costs more than the rest of a playout and the
search's own draws need no audit trail, only reproducibility.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.interface import Bot, Command, Rules, State
from games.rng import Rng

#: ``determinize(view, rng) -> state``: one full state the view's seat cannot tell from the true one.
Determinize = Callable[[Mapping[str, Any], "FastRng"], State]
#: ``evaluate(state) -> [standing per seat]``, each in ``[0, 1]``: how a game cut off now stands.
Evaluate = Callable[[State], Sequence[float]]

#: UCB1's exploration constant for rewards in ``[0, 1]``: small, because a cut-off playout's
#: evaluation separates moves by a few hundredths, not by whole wins and losses.
EXPLORATION = 0.25


class FastRng(Rng):
    """The :class:`Rng` interface over :class:`random.Random`: reproducible, not auditable."""

    def __init__(self, seed: int) -> None:
        super().__init__(b"", "search")
        self._random = random.Random(seed)

    def randbelow(self, n: int) -> int:
        if n <= 0:
            raise ValueError("randbelow needs n >= 1")
        return self._random.randrange(n)

    def shuffle(self, items: Sequence[Any]) -> list[Any]:
        out = list(items)
        self._random.shuffle(out)
        return out


@dataclass(frozen=True)
class Searchable:
    """What a game lends the search: its rules, how to fill in what a seat cannot see, how to judge
    a playout cut short, and how many iterations a move gets."""

    rules: Rules
    determinize: Determinize
    evaluate: Evaluate
    iterations: int
    #: Random commands played after leaving the tree, before :attr:`evaluate` judges.
    playout: int = 4


class _Node:
    __slots__ = ("children", "command", "mover", "reward", "visits", "available")

    def __init__(self, command: Command | None, mover: int) -> None:
        self.command = command
        self.mover = mover  # the seat that played ``command``; rewards are its own
        self.children: dict[str, _Node] = {}
        self.reward = 0.0
        self.visits = 0
        self.available = 0


def _ucb(child: _Node) -> float:
    """UCB1 with ISMCTS's availability count in place of the parent's visits."""
    return child.reward / child.visits + EXPLORATION * math.sqrt(math.log(child.available) / child.visits)


def _key(command: Command) -> str:
    return json.dumps(command, sort_keys=True, separators=(",", ":"))


def _apply(rules: Rules, state: State, seat: int, command: Command, rng: FastRng) -> State:
    for event in rules.decide(state, seat, command, rng):
        state = rules.evolve(state, event)
    return state


def _outcome(rules: Rules, state: State) -> list[float]:
    score = rules.score(state)
    winners = score["winners"]
    return [1.0 / len(winners) if s in winners else 0.0 for s in range(len(score["seats"]))]


def search(game: Searchable, view: Mapping[str, Any], actions: list[Command], rng: Rng) -> Command:
    """The command, among ``actions``, that ``iterations`` of IS-MCTS from ``view`` visit most."""
    if len(actions) == 1:
        return actions[0]
    rules = game.rules
    fast = FastRng(rng.randbelow(2**62))
    seat = int(view["seat"])
    root = _Node(None, seat)
    at_root = {_key(a): a for a in actions}
    for _ in range(game.iterations):
        state = game.determinize(view, fast)
        node, path = root, [root]
        expanded = False
        while not rules.is_over(state):
            mover = rules.to_move(state)[0]
            legal = rules.legal_actions(state, mover)
            if node is root:
                legal = [a for a in legal if _key(a) in at_root] or actions
            keyed = [(_key(a), a) for a in legal]
            for key, _command in keyed:
                child = node.children.get(key)
                if child is not None:
                    child.available += 1
            untried = [(k, a) for k, a in keyed if k not in node.children]
            if untried:
                key, command = untried[fast.randbelow(len(untried))]
                child = node.children[key] = _Node(command, mover)
                child.available = 1
                expanded = True
            else:
                child = max((node.children[k] for k, _ in keyed), key=_ucb)
                command = child.command or {}
            state = _apply(rules, state, mover, command, fast)
            node = child
            path.append(node)
            if expanded:
                break
        for _step in range(game.playout):
            if rules.is_over(state):
                break
            mover = rules.to_move(state)[0]
            legal = rules.legal_actions(state, mover)
            state = _apply(rules, state, mover, legal[fast.randbelow(len(legal))], fast)
        result = _outcome(rules, state) if rules.is_over(state) else list(game.evaluate(state))
        for visited in path[1:]:
            visited.visits += 1
            visited.reward += result[visited.mover]
    best = max(root.children.values(), key=lambda c: (c.visits, c.reward))
    assert best.command is not None
    return at_root[_key(best.command)]


def bot(game: Callable[[], Searchable]) -> Bot:
    """A :data:`~games.interface.Bot` searching with what ``game()`` lends (read when it first moves,
    so a game's modules may import each other in any order)."""

    def strong(view: Mapping[str, Any], actions: list[Command], rng: Rng) -> Command:
        return search(game(), view, actions, rng)

    strong.__doc__ = "IS-MCTS over the seat's information set (games/search.py)."
    return strong


def standing(points: Sequence[float], scale: float) -> list[float]:
    """Each seat's standing in ``[0, 1]`` from running points: a logistic of its lead over the best
    other seat, ``scale`` points making the odds e:1. The common evaluation for a cut-off playout."""
    out = []
    for s, mine in enumerate(points):
        rival = max((p for i, p in enumerate(points) if i != s), default=0.0)
        out.append(1.0 / (1.0 + math.exp(-(mine - rival) / scale)))
    return out
