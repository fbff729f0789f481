"""Sorting networks: a fixed list of compare-exchanges that sorts n values, so that a
batch sorts its (n, B) columns with 2 * pairs element-wise min/max calls instead of a
per-column sort (both games sort the few cards or tiles a turn reveals this way)."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numpy.typing import NDArray


def sorting_network(n: int) -> list[tuple[int, int]]:
    """Compare-exchange pairs (i, j), i < j, that sort n values (Batcher's odd-even merge).

    Pairs reaching past n are dropped, which is valid: padding with +inf never moves.
    """
    pairs = []
    p = 1
    while p < n:
        k = p
        while k >= 1:
            for j in range(k % p, n - k, 2 * k):
                for i in range(min(k, n - j - k)):
                    if (i + j) // (2 * p) == (i + j + k) // (2 * p):
                        pairs.append((i + j, i + j + k))
            k //= 2
        p *= 2
    return pairs


@lru_cache(maxsize=None)
def network(n: int) -> tuple[tuple[int, int], ...]:
    """`sorting_network(n)`, computed once."""
    return tuple(sorting_network(n))


def sort_columns(keys: NDArray) -> None:
    """Sort every column of `keys` (n, B) ascending, in place, by the network for n."""
    for i, j in network(keys.shape[0]):
        low = np.minimum(keys[i], keys[j])
        np.maximum(keys[i], keys[j], out=keys[j])
        keys[i] = low
