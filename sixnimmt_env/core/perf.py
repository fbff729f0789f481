"""Process-wide performance settings for long NumPy runs.

Stepping a batch of thousands of games makes temporaries of a few hundred kilobytes on
every operation. glibc serves allocations that large with fresh mmap pages and hands
them back on free, so each step pays for page faults that cost more than the arithmetic
(measured: the engine benchmark runs 1.3–1.7× faster with the thresholds raised).
`tune_allocator` keeps such blocks in the heap for reuse. It changes the whole process,
so the library never calls it on import: the `sixnimmt` CLI does, and users may.
"""

from __future__ import annotations

import ctypes
import ctypes.util

_M_TRIM_THRESHOLD = -1  # glibc mallopt parameter numbers (malloc.h)
_M_MMAP_THRESHOLD = -3
_MMAP_THRESHOLD = 64 << 20  # blocks below 64 MiB come from the heap
_TRIM_THRESHOLD = 256 << 20  # keep up to 256 MiB of freed heap for reuse

_tuned: bool | None = None


def tune_allocator() -> bool:
    """Raise glibc's mmap and trim thresholds once; returns whether it took effect.

    A no-op (returning False) where the C library is not glibc.
    """
    global _tuned
    if _tuned is None:
        _tuned = False
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
            mallopt = libc.mallopt
        except (OSError, AttributeError):
            return False
        mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
        _tuned = bool(mallopt(_M_MMAP_THRESHOLD, _MMAP_THRESHOLD)) and bool(
            mallopt(_M_TRIM_THRESHOLD, _TRIM_THRESHOLD))
    return _tuned
