"""The games of a batch split over threads: the compiled driver (`play.py`) or the deal's
shuffles (`_deal.py`).

The kernels are compiled `nogil`, and each game's rules read and write only that game's
entries of the state arrays (its random numbers are its own row, drawn by the
caller), so contiguous blocks of the games can run at once on separate cores and play
exactly the games one thread plays. Plain Python threads do the splitting, not numba's
`parallel=True`: the kernel keeps its cached, reference-count-free compile (a `prange`
over the inlined rules would compile them anew through numba's parallel passes).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

MIN_GAMES_PER_THREAD = 64  # below this a block is not worth a thread's hand-over

_POOLS: dict[int, ThreadPoolExecutor] = {}


def all_cores() -> int:
    """The cores this process may run on (the default thread count)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def blocks(n: int, threads: int | None) -> list[tuple[int, int]]:
    """[lo, hi) blocks of n games, one per thread (fewer when blocks would be small)."""
    k = max(1, min(all_cores() if threads is None else threads, n // MIN_GAMES_PER_THREAD))
    return [(i * n // k, (i + 1) * n // k) for i in range(k)]


def run_blocks(run: Callable[[int, int], None], n: int, threads: int | None) -> None:
    """run(lo, hi) on every block of n games, the blocks at once on `threads` threads
    (None: all cores), the calling thread running the first (one hand-over fewer a call;
    docs/speed.md). `run` must not call
    run_blocks itself: the pool's threads would wait for each other."""
    parts = blocks(n, threads)
    if len(parts) == 1:
        run(*parts[0])
        return
    pool = _POOLS.get(len(parts) - 1)
    if pool is None:
        pool = _POOLS[len(parts) - 1] = ThreadPoolExecutor(len(parts) - 1, thread_name_prefix="board-kernel")
    others = [pool.submit(run, lo, hi) for lo, hi in parts[1:]]
    try:
        run(*parts[0])
    finally:  # never return while another block still writes the state
        for done in others:
            done.result()
