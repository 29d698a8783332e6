"""The seeded random stream every game draws from.

Bytes come from HMAC-SHA256 in counter mode keyed with the game's secret seed and a label (the
game version a command is decided at, ``"setup"``, or a bot's turn), so anyone holding the seed
published at the end of a game can recompute every shuffle and draw. Integers are taken by
rejection sampling (no modulo bias); :meth:`Rng.shuffle` is the Fisher–Yates shuffle from the last
position down. ``docs/random.md`` specifies all of it, with test vectors, for re-implementing it in
another language (``tests/games/test_rng_spec.py`` holds this code to that page).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


class Rng:
    """A deterministic stream of random numbers for one labelled decision."""

    def __init__(self, seed: bytes, label: str) -> None:
        self._key = seed
        self._label = label.encode()
        self._counter = 0
        self._buffer = b""

    def _bytes(self, n: int) -> bytes:
        while len(self._buffer) < n:
            block = self._label + b":" + self._counter.to_bytes(8, "big")
            self._buffer += hmac.new(self._key, block, hashlib.sha256).digest()
            self._counter += 1
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if n <= 0:
            raise ValueError("randbelow needs n >= 1")
        bits = (n - 1).bit_length()
        nbytes = max(1, (bits + 7) // 8)
        mask = (1 << bits) - 1
        while True:
            r = int.from_bytes(self._bytes(nbytes), "big") & mask
            if r < n:
                return r

    def choice(self, items: Sequence[T]) -> T:
        return items[self.randbelow(len(items))]

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A shuffled copy of ``items`` (Fisher–Yates, ``i`` from ``n-1`` down to ``1``)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.randbelow(i + 1)
            out[i], out[j] = out[j], out[i]
        return out
