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
import re
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

#: The domain label of a game's key (``docs/random.md``, "The key"): no other SHA-256 in Kotlík
#: starts with these bytes, so a key can never equal another hash of the same seed and entropy.
KEY_LABEL = b"kotlik game key v1"
#: A seat's entropy: 32 bytes as 64 lowercase hex digits, exactly as the seat gave it.
ENTROPY = re.compile(r"[0-9a-f]{64}")


class BadEntropy(ValueError):
    """A seat's entropy that is not 64 lowercase hex digits."""


def game_key(seed: bytes, entropy: Sequence[str | None]) -> bytes:
    """The key of a game's random stream: the server's ``seed`` and every seat's ``entropy``.

    ``entropy`` holds one item per seat in seat order, ``None`` for a seat that gave none (a bot,
    or a person who did not). When no seat gave any, the key is the seed itself, so every game
    played before seats could give entropy keeps its stream; otherwise it is
    ``SHA-256(KEY_LABEL || 0x00 || seed || E(0) || ... || E(n-1))`` with ``E(i)`` one byte 0x00
    for a seat without entropy and 0x01 followed by its 32 bytes for a seat with. The server
    commits to its seed before any seat gives entropy, and no seat sees another's before the
    game is dealt, so no one chooses the key alone. ``docs/random.md`` specifies it.
    """
    if all(e is None for e in entropy):
        return seed
    digest = hashlib.sha256(KEY_LABEL + b"\x00" + seed)
    for given in entropy:
        digest.update(b"\x00" if given is None else b"\x01" + bytes.fromhex(checked_entropy(given)))
    return digest.digest()


def checked_entropy(value: object) -> str:
    """``value`` if it is a seat's entropy (64 lowercase hex digits), else :class:`BadEntropy`."""
    if not isinstance(value, str) or not ENTROPY.fullmatch(value):
        raise BadEntropy("entropy must be 32 bytes as 64 lowercase hex digits (0-9, a-f)")
    return value


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
