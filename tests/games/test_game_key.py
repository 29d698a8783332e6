"""The game's key: the server's seed and every seat's entropy together (``docs/random.md``, "The key").

The same seed and entropy give the same game; changing any one seat's entropy changes the deal; and
over many entropies the first card dealt is uniform (a chi-square test on a fixed, seeded sample,
so it never flakes).
"""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


BYTES32 = st.binary(min_size=32, max_size=32)
HEX = BYTES32.map(bytes.hex)


@pytest.mark.parametrize("kind", sorted(games.known()))
@settings(derandomize=True, max_examples=10, deadline=None)  # seeded: the same examples every run
@given(seed=BYTES32, entropy=st.lists(HEX, min_size=2, max_size=2))
def test_the_same_seed_and_entropy_give_the_same_game(kind: str, seed: bytes, entropy: list[str]) -> None:
    key = game_key(seed, list(entropy))
    assert _deal(kind, 2, key) == _deal(kind, 2, game_key(seed, list(entropy)))


@settings(derandomize=True, max_examples=50, deadline=None)
@given(seed=BYTES32, entropy=st.lists(HEX, min_size=3, max_size=3), other=HEX, seat=st.integers(0, 2))
def test_any_one_seats_entropy_changes_the_deal(
    seed: bytes, entropy: list[str], other: str, seat: int
) -> None:
    """A 52-card deal (two equal deals of different keys: about 1 in 8e67) changes with any one
    seat's entropy, and differs from the deal of the seed alone."""
    cards = list(range(52))
    deal = Rng(game_key(seed, list(entropy)), "setup").shuffle(cards)
    assert deal != Rng(seed, "setup").shuffle(cards)
    changed: list[str | None] = [*entropy[:seat], other, *entropy[seat + 1 :]]
    assert (Rng(game_key(seed, changed), "setup").shuffle(cards) == deal) == (other == entropy[seat])


@pytest.mark.parametrize("kind", sorted(games.known()))
def test_each_games_deal_changes_with_a_seats_entropy(kind: str) -> None:
    """Each game's own setup, for fixed entropies (a one-tile Carcassonne deal may repeat by
    chance for other keys, so this is not a property over all of them)."""
    entropy = [_entropy(i) for i in range(2)]
    deal = _deal(kind, 2, game_key(SEED, entropy))
    assert deal != _deal(kind, 2, SEED), "the seats' entropy must change the deal of the seed alone"
    for seat in range(2):
        changed = [*entropy[:seat], _entropy(100 + seat), *entropy[seat + 1 :]]
        assert _deal(kind, 2, game_key(SEED, changed)) != deal, f"seat {seat}'s entropy is ignored"


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
