"""The game's key: the server's seed and every seat's entropy together (``docs/random.md``, "The key").

The same seed and entropy give the same game; changing any one seat's entropy changes the deal; and
over many entropies the first card dealt is uniform (a chi-square test on a fixed, seeded sample,
so it never flakes).
"""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

import games
from games.rng import KEY_LABEL, BadEntropy, Rng, game_key

SEED = bytes(range(32))
ALICE = "a1" * 32
BOB = "b0" * 32


def _entropy(n: int) -> str:
    """The ``n``-th entropy of a fixed sequence: a seeded sample, the same every run."""
    return hashlib.sha256(b"test entropy %d" % n).hexdigest()


def _deal(kind: str, seats: int, key: bytes) -> list[object]:
    return list(games.load(kind).setup({}, seats, Rng(key, "setup")))


def test_no_entropy_keeps_the_seed_as_the_key() -> None:
    assert game_key(SEED, [None, None, None]) == SEED


def test_the_key_is_the_documented_hash() -> None:
    expected = hashlib.sha256(
        KEY_LABEL + b"\x00" + SEED + b"\x01" + bytes.fromhex(ALICE) + b"\x00" + b"\x01" + bytes.fromhex(BOB)
    ).digest()
    assert game_key(SEED, [ALICE, None, BOB]) == expected
    # A seat without entropy is not a seat with zero bytes, and seat order matters.
    assert game_key(SEED, [ALICE, None]) != game_key(SEED, [ALICE, "00" * 32])
    assert game_key(SEED, [ALICE, BOB]) != game_key(SEED, [BOB, ALICE])


@pytest.mark.parametrize("bad", ["", "ab", "A1" * 32, "g0" * 32, "a1" * 33, " " + "a1" * 32, 7])
def test_entropy_is_64_lowercase_hex_digits(bad: object) -> None:
    with pytest.raises(BadEntropy):
        game_key(SEED, [bad])  # type: ignore[list-item]


@pytest.mark.parametrize("kind", sorted(games.known()))
def test_the_same_seed_and_entropy_give_the_same_deal_and_any_one_seat_changes_it(kind: str) -> None:
    seats = max(2, games.load(kind).INFO.min_seats)
    entropy = [_entropy(i) for i in range(seats)]
    deal = _deal(kind, seats, game_key(SEED, entropy))
    assert deal == _deal(kind, seats, game_key(SEED, list(entropy)))
    assert deal != _deal(kind, seats, SEED), "the seats' entropy must change the deal of the seed alone"
    for seat in range(seats):
        changed = [*entropy[:seat], _entropy(100 + seat), *entropy[seat + 1 :]]
        assert _deal(kind, seats, game_key(SEED, changed)) != deal, f"seat {seat}'s entropy is ignored"


#: Games dealt for the uniformity test, and the chi-square bound: the 99.9th percentile of the
#: chi-square distribution with 19 degrees of freedom is 43.82.
SAMPLES = 4000
CHI2_999_DF19 = 43.82


def test_the_first_card_is_uniform_over_one_seats_entropy() -> None:
    """The server's seed fixed, one seat's entropy varied: the first of 20 cards shuffled lands
    uniformly (a server that cannot choose the entropy cannot steer the deal)."""
    cards = list(range(20))
    firsts = Counter(
        Rng(game_key(SEED, [_entropy(n), None]), "setup").shuffle(cards)[0] for n in range(SAMPLES)
    )
    expected = SAMPLES / len(cards)
    chi2 = sum((firsts[c] - expected) ** 2 / expected for c in cards)
    assert set(firsts) == set(cards)
    assert chi2 < CHI2_999_DF19, f"chi-square {chi2:.1f} over {len(cards) - 1} degrees of freedom"
