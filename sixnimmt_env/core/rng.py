"""Counter-based random numbers, one independent stream per game.

A batch holds games that must come out the same whether they run alone or among 4096
others, so no game may draw from a shared generator. Instead every random number is a
hash of (game seed, round, draw index): the SplitMix64 finaliser, applied element-wise to
uint64 arrays. It is the same idea as JAX/pgx keys, and cheap in NumPy.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from .errors import ConfigError

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)
# Stream tags keep the different uses of one seed apart.
TAG_DEAL = np.uint64(0x6A09E667F3BCC909)
TAG_DEALER = np.uint64(0xBB67AE8584CAA73B)
TAG_GAMES = np.uint64(0x3C6EF372FE94F82B)


def mix64(x: NDArray[np.uint64], out: NDArray[np.uint64] | None = None) -> NDArray[np.uint64]:
    """SplitMix64 finaliser: a bijective, well-mixed hash of each uint64 element.

    Works in place on `out` (which may be `x`) with one scratch array: on large batches the
    temporaries of the plain expression, not the arithmetic, dominate the cost.
    """
    z = np.add(x, _GOLDEN, out=out)
    t = np.empty_like(z)
    for shift, mult in ((_S30, _MIX1), (_S27, _MIX2)):
        np.right_shift(z, shift, out=t)
        z ^= t
        z *= mult
    np.right_shift(z, _S31, out=t)
    z ^= t
    return z


def game_seeds(seed: int, n: int, start: int = 0) -> NDArray[np.uint64]:
    """Seeds of games start..start+n-1 of the run seeded `seed`.

    Game i's seed depends only on (seed, i), so game i is the same game in any batch.
    """
    if not 0 <= seed < 2**64:
        raise ConfigError(f"seed must be in 0..2**64-1, got {seed}")
    base = mix64(np.array([seed], dtype=np.uint64) ^ TAG_GAMES)
    return mix64(base + np.arange(start, start + n, dtype=np.uint64) * _GOLDEN)


def round_keys(seeds: NDArray[np.uint64], tag: np.uint64, counter: NDArray) -> NDArray[np.uint64]:
    """(B,) one random uint64 per game from (seed, tag, counter), e.g. counter = round."""
    return mix64(seeds ^ tag) + mix64(counter.astype(np.uint64) ^ tag)


# The same functions on one game's Python ints (the ParallelEnv's single-game path): a
# NumPy call on a 1-element array costs about a microsecond, these a fraction of it.
_U64 = (1 << 64) - 1


def mix64_int(x: int) -> int:
    """`mix64` of one uint64 given as a Python int."""
    z = (x + int(_GOLDEN)) & _U64
    z = ((z ^ (z >> 30)) * int(_MIX1)) & _U64
    z = ((z ^ (z >> 27)) * int(_MIX2)) & _U64
    return z ^ (z >> 31)


def game_seed_int(seed: int, index: int = 0) -> int:
    """`game_seeds(seed, 1, start=index)[0]` as a Python int."""
    if not 0 <= seed < 2**64:
        raise ConfigError(f"seed must be in 0..2**64-1, got {seed}")
    base = mix64_int(seed ^ int(TAG_GAMES))
    return mix64_int((base + index * int(_GOLDEN)) & _U64)


def round_key_int(seed: int, tag: np.uint64, counter: int) -> int:
    """`round_keys` of one game as a Python int."""
    return (mix64_int(seed ^ int(tag)) + mix64_int(counter ^ int(tag))) & _U64


def draws(keys: NDArray[np.uint64], n: int) -> NDArray[np.uint64]:
    """(B, n) random uint64: n independent draws from each game's key."""
    z = keys[:, None] + np.arange(1, n + 1, dtype=np.uint64)[None, :] * _GOLDEN
    return mix64(z, out=z)


# A shuffle key = random bits over the item's index in the low SHUFFLE_INDEX_BITS bits:
# sorting the keys shuffles the items. 32-bit keys sort several times faster than 64-bit
# ones (and than an argsort); equal random bits (25 of them: ~1.5e-4 per shuffle of 100)
# keep those items in index order.
SHUFFLE_INDEX_BITS = 7  # up to 128 items
_INDEX_MASK = np.uint32((1 << SHUFFLE_INDEX_BITS) - 1)


def permutations(keys: NDArray[np.uint64], n: int) -> NDArray[np.uint32]:
    """(B, n) a random order of 0..n-1 per key (n <= 128): the shuffle of both games."""
    if not 0 < n <= 1 << SHUFFLE_INDEX_BITS:
        raise ValueError(f"permutations: n must be 1..{1 << SHUFFLE_INDEX_BITS}, got {n}")
    sort_keys = draws(keys, (n + 1) // 2).view(np.uint32)[:, :n]
    sort_keys &= ~_INDEX_MASK
    sort_keys |= np.arange(n, dtype=np.uint32)[None, :]
    sort_keys.sort(axis=1)
    sort_keys &= _INDEX_MASK
    return sort_keys
