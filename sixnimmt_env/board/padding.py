"""How the board state's arrays lie in memory, for the compiled kernels.

The kernels (`kernel.py`) walk one game at a time and read that game's entries of every
state array. With the game index last, a game's entries of an (..., B) array lie
B * itemsize bytes apart. When that distance is a multiple of 512 bytes (B = 4096 int8:
exactly 4 KiB, a power-of-two batch as people choose them), they all fall into the
same few of the L1 cache's 64 sets (a set is picked by address bits 6-11), so a game's
few hundred cache lines fight over 8 ways and nearly every read misses L1. Measured
2026-12-03 (random play, 4 players, B=4096, one thread, this padding on and off in one
process): the pro kernel 2.68 -> 1.91 us a game-turn, basic 1.01 -> 0.67 (docs/speed.md).

Such an array is stored one cache line wider (`LINE` bytes of games past B that nothing
reads or writes: the kernels touch only games < B) and the state holds the view of the
first B games. The kernels are handed the wider array itself (`for_kernel`), which is
C-contiguous like an unpadded one, so the compiled code and its cache are unchanged.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

LINE = 64  # bytes: one cache line of extra games
_ALIAS = 512  # a game stride that is a multiple of this visits at most 8 of the 64 L1 sets


def aliases(shape: tuple[int, ...], dtype: np.dtype) -> bool:
    """Whether an array of `shape` (game index last) would put a game's entries into a
    few cache sets: two or more entries per game, B * itemsize a multiple of 512 bytes."""
    stride = shape[-1] * np.dtype(dtype).itemsize
    return len(shape) >= 2 and stride > 0 and stride % _ALIAS == 0 and int(np.prod(shape[:-1])) > 1


def full(shape: tuple[int, ...], fill, dtype) -> NDArray:
    """np.full(shape, fill, dtype), stored one cache line wider where `aliases` says so."""
    if not aliases(shape, dtype):
        return np.full(shape, fill, dtype=dtype)
    wide = np.full(shape[:-1] + (shape[-1] + LINE // np.dtype(dtype).itemsize,), fill, dtype=dtype)
    return wide[..., :shape[-1]]


def copy(a: NDArray) -> NDArray:
    """A copy of `a`, stored one cache line wider where it `aliases` (one copy either way)."""
    if not aliases(a.shape, a.dtype):
        return a.copy()
    view = full(a.shape, 0, a.dtype)
    view[...] = a
    return view


def padded(a: NDArray) -> NDArray:
    """`a`, or a copy of it stored one cache line wider where it `aliases`."""
    return a if not aliases(a.shape, a.dtype) or _wide(a) is not None else copy(a)


def for_kernel(a: NDArray) -> tuple[NDArray, NDArray]:
    """(what a kernel is handed, what the state keeps) for the state array `a`: where it
    `aliases`, the wider storage and its view of the first B games (`a` itself when it is
    such a view); else `a` made C-contiguous, as both."""
    if not aliases(a.shape, a.dtype):
        a = np.ascontiguousarray(a)
        return a, a
    wide = _wide(a)
    if wide is None:
        a = copy(a)
        wide = a.base
    return wide, a


def _wide(a: NDArray) -> NDArray | None:
    """The C-contiguous wider array whose first B games `a` is, or None."""
    wide = a.base
    if (wide is None or not isinstance(wide, np.ndarray) or not wide.flags.c_contiguous or wide.ndim != a.ndim
            or wide.shape[:-1] != a.shape[:-1] or wide.shape[-1] <= a.shape[-1] or wide.strides != a.strides
            or wide.ctypes.data != a.ctypes.data):
        return None
    return wide
