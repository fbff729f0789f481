"""How the board state's arrays lie in memory: game-major, shown game-last.

The state's arrays have the game index last (`state.py`), as the card engine's do and as
the NumPy side batches over them. The compiled kernels (`place.py`) walk one game at a
time and read that game's entries of every array. Stored game-last, a game's entries of
an (R, F, B) array lie B bytes apart, one cache line each: a basic turn touches a few
hundred lines per game (and, at B a multiple of 512 bytes, all in the same few L1 sets).
So every array of two or more axes is stored game-major, (B, R, F) C-contiguous: a
game's tiles are one run of bytes. The state holds the game-last view of that storage
(a transpose, no copy): the documented shapes, the same values, other strides. The
kernels are handed the storage itself and index it game first (`s.tiles[b, r, f]`).

The gain, measured against the game-last layout, is in docs/speed.md ("The state
stored game first"). The earlier fix, each game-last array stored one cache line wider against cache-set
aliasing, is no longer needed.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray


def game_last(major: NDArray) -> NDArray:
    """The game-last view of game-major storage (B, ...) (np.moveaxis(major, 0, -1),
    without its argument checks: a deal makes 40 of these)."""
    return major.transpose(tuple(range(1, major.ndim)) + (0,))


def full(shape: tuple[int, ...], fill, dtype) -> NDArray:
    """np.full(shape, fill, dtype) (game index last), stored game-major."""
    if len(shape) < 2:
        return np.full(shape, fill, dtype=dtype)
    return game_last(np.full((shape[-1],) + tuple(shape[:-1]), fill, dtype=dtype))


def games_first(a: NDArray) -> NDArray:
    """The game-first view (B, ...) of the game-last array `a`, however it is stored."""
    return a.transpose((a.ndim - 1,) + tuple(range(a.ndim - 1)))


def game_major(a: NDArray) -> NDArray | None:
    """The game-major C-contiguous storage (B, ...) that the game-last array `a` is a view
    of (a view itself, no copy), or None when `a` is not stored so."""
    g = games_first(a)
    return g if g.flags.c_contiguous else None


def copy(a: NDArray) -> NDArray:
    """A copy of `a` (game index last), stored game-major where it has two or more axes."""
    if a.ndim < 2:
        return a.copy()
    return game_last(np.ascontiguousarray(games_first(a)))


def stored(a: NDArray) -> NDArray:
    """`a`, or a copy of it stored game-major where it has two or more axes and is not."""
    return a if a.ndim < 2 or game_major(a) is not None else copy(a)


def for_kernel(a: NDArray) -> tuple[NDArray, NDArray]:
    """(what a kernel is handed, what the state keeps) for the state array `a`: for two
    or more axes the game-major storage (B, ...) and its game-last view (`a` itself when
    it is one); a one-axis array C-contiguous, as both."""
    if a.ndim < 2:
        a = np.ascontiguousarray(a)
        return a, a
    g = game_major(a)
    if g is None:
        a = copy(a)
        g = game_major(a)
    return g, a
