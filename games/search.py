"""One search for every game: single-observer information-set MCTS (Cowling, Powley and Whitehouse
2012) over what a seat may see.

A search bot is handed what any bot is handed — its seat's view and legal actions, and a seeded
:class:`~games.rng.Rng` — and nothing more, so it cannot read the true hidden state: it never has
it. Each iteration asks the game for one *determinization*, a full state that agrees with the view
(``Searchable.determinize(view, rng)``: unseen cards shuffled, unknown hands dealt from what is
unaccounted for), and walks one shared tree of the seat's and the others' commands down it. A node
keeps, per child, how often it was *available* as well as visited, so a command that only some
determinizations allow is weighed by how often it could have been played (ISMCTS's availability
count). After leaving the tree the playout plays a few commands and is then cut off by the game's
evaluation (``Searchable.evaluate``: each seat's standing in ``[0, 1]``), because full playouts
of these engines run only tens of games a second, and a whole game's one win or loss says little
about one move among the hundreds after it. The command most visited at the root is played; it
is always one of the legal actions the bot was given.

**A policy plays the playout.** Random commands make a playout a game no one plays: a move that
leaves a city for a rival to steal looks as good as one that does not, because a random rival
does not steal it. A game lends its greedy ``default`` bot (``Searchable.policy``), handed each
mover's view of the determinization, so the others reply as players would; with a budget of a
hundred or so iterations the tree then keeps the root alone (``depth``), every iteration a new
determinization and the policy's sequel, and the root may weigh only the policy's few best
commands (``appraise``, ``width``). The search is thus a one-step improvement of the policy, the
rollout algorithm of Tesauro and Galperin (1996), over the seat's information set.

**Iterations, not wall time, end a search.** The same game, seed and version give the same move on
any machine and under any load: a bot's rng is labelled by the game's version, so a redelivered
bot task, a replay, ``kotlik verify`` and the tests all see the move the game saw, which a clock
cannot promise. Each game's iteration count is chosen so that a move takes ≤ ~200 ms of one core
with a margin, since the same count takes longer on a slower machine (``bench/strength.py``
prints the median and p99 per move; docs/strength.md has them).

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
    a playout cut short, how many iterations a move gets, and how they are spent."""

    rules: Rules
    determinize: Determinize
    evaluate: Evaluate
    iterations: int
    #: Commands played after leaving the tree, before :attr:`evaluate` judges.
    playout: int = 4
    #: Who plays those commands: a bot, handed the mover's view of the determinization (the game's
    #: ``default``, whose replies are the ones a player expects); ``None``: uniformly at random.
    policy: Bot | None = None
    #: How many plies the tree keeps statistics for (``None``: no bound). With a policy and a small
    #: budget, ``1`` gives each root command all the iterations, its sequel played by the policy,
    #: rather than spreading them over random replies the tree has not yet learnt to refute.
    depth: int | None = None
    #: ``appraise(view, actions) -> [value per action]``, the greedy bot's own ranking: with
    #: :attr:`width`, the root weighs only the ``width`` commands it values most, so a budget of a
    #: few dozen iterations is not spread over fifty tile placements most of which no one would play.
    appraise: Callable[[Mapping[str, Any], list[Command]], Sequence[float]] | None = None
    width: int | None = None


class _Node:
    __slots__ = ("children", "command", "mover", "reward", "visits", "available")

    def __init__(self, command: Command, mover: int) -> None:
        self.command = command
        self.mover = mover  # the seat that played ``command``; rewards are its own
        self.children: dict[str, _Node] = {}
        self.reward = 0.0
        self.visits = 0
        self.available = 0


def _ucb(child: _Node, available: int) -> float:
    """UCB1, with ISMCTS's availability count in place of the parent's visits below the root."""
    return child.reward / child.visits + EXPLORATION * math.sqrt(math.log(available) / child.visits)


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
    """The command, among ``actions``, that ``iterations`` of IS-MCTS from ``view`` visit most.

    Each root command's ``k``-th visit plays on the ``k``-th determinization with the ``k``-th
    playout's draws (common random numbers): two commands are compared on the same unseen cards
    and the same tiles to come, so a few dozen visits tell them apart where independent samples
    would need several times as many."""
    if len(actions) == 1:
        return actions[0]
    rules = game.rules
    base = rng.randbelow(2**62)
    seat = int(view["seat"])
    if game.appraise is not None and game.width is not None and len(actions) > game.width:
        values = game.appraise(view, actions)
        ranked = sorted(range(len(actions)), key=lambda i: -values[i])  # stable: ties keep their order
        actions = [actions[i] for i in sorted(ranked[: game.width])]
    root = [_Node(a, seat) for a in actions]  # a determinization leaves the seat's choices as they are
    for n in range(game.iterations):
        first = next((c for c in root if c.visits == 0), None)
        child = first or max(root, key=lambda c: _ucb(c, n))
        fast = FastRng(base + child.visits)
        state = _apply(rules, game.determinize(view, fast), seat, child.command, fast)
        path = [child]
        while not rules.is_over(state) and (game.depth is None or len(path) < game.depth):
            node = path[-1]
            mover = rules.to_move(state)[0]
            keyed = [(_key(a), a) for a in rules.legal_actions(state, mover)]
            for key, _command in keyed:
                if key in node.children:
                    node.children[key].available += 1
            untried = [(k, a) for k, a in keyed if k not in node.children]
            if untried:
                key, command = untried[fast.randbelow(len(untried))]
                nxt = node.children[key] = _Node(command, mover)
                nxt.available = 1
            else:
                nxt = max((node.children[k] for k, _ in keyed), key=lambda c: _ucb(c, c.available))
                command = nxt.command
            state = _apply(rules, state, mover, command, fast)
            path.append(nxt)
            if untried:
                break
        for _step in range(game.playout):
            if rules.is_over(state):
                break
            mover = rules.to_move(state)[0]
            legal = rules.legal_actions(state, mover)
            if game.policy is None:
                command = legal[fast.randbelow(len(legal))]
            else:
                command = game.policy(rules.view(state, mover), legal, fast)
            state = _apply(rules, state, mover, command, fast)
        result = _outcome(rules, state) if rules.is_over(state) else list(game.evaluate(state))
        for visited in path:
            visited.visits += 1
            visited.reward += result[visited.mover]
    return max(root, key=lambda c: (c.visits, c.reward)).command


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
