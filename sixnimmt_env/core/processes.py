"""Worker processes that end with the process that started them, and the one local pool.

A worker of a pool (`LocalPool` below: label workers of `imitate`, the local pool of
`tournament`, `match` and studies) calls `bind_to_parent` first. Whatever ends the parent (SIGKILL, SIGTERM, a
crash), the worker then ends too instead of computing on and printing BrokenPipe
tracebacks into a closed terminal: on Linux the kernel sends it SIGKILL when the parent
dies (PR_SET_PDEATHSIG), and everywhere a daemon thread polls `os.getppid()` as a second
line. A Ctrl-C is the parent's to handle (it reaches the whole process group): the worker
ignores SIGINT, and the parent ends its pool and prints one line.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1  # linux/prctl.h
POLL_S = 0.5


def bind_to_parent(parent_pid: int) -> None:
    """End this process when `parent_pid`, its parent, is gone; ignore Ctrl-C (see above)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent_pid:  # the parent died before the line above took effect
        os._exit(1)
    threading.Thread(target=_watch, args=(parent_pid,), daemon=True, name="parent-watch").start()


def _watch(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(POLL_S)
    os._exit(1)


class LocalPool:
    """This machine's worker processes: the one local pool (tournaments, matches, studies
    and imitate's label stage use it, through experiments/backends.LocalBackend and
    training/label_runs.LocalUnits).

    `workers` spawned processes (not forked: a forked worker holds the parent's pipe ends,
    torch and BLAS state), each bound to this process's life (`bind_to_parent`) and then
    running `initializer`, if given. With `inline_one` a pool of one worker runs the items
    in this process instead. Use it as a context manager: on the way out the workers end;
    on an error or a Ctrl-C they are killed rather than waited for. The pool starts at the
    first `map_unordered`; used without `with`, each call ends its own pool.
    """

    name = "local"

    def __init__(self, workers: int = 1, initializer=None, inline_one: bool = True):
        self.workers = max(int(workers), 1)
        self.initializer = initializer
        self.inline_one = inline_one
        self._pool = None
        self._entered = False

    def capacity(self) -> int:
        """How many items run at once."""
        return self.workers

    def __enter__(self) -> "LocalPool":
        self._entered = True
        return self

    def __exit__(self, kind, *exc) -> None:
        self._entered = False
        self._close(kill=kind is not None)

    def _close(self, kill: bool) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        if kill:
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                process.kill()  # before shutdown, which forgets them
            pool.shutdown(wait=False, cancel_futures=True)
        else:
            pool.shutdown()

    def map_unordered(self, fn, items, window: int | None = None):
        """Call `fn(*item)` for every item and yield the results as they finish, in any
        order. `window`: at most this many in flight, items taken from `items` only as
        there is room (a caller's iterator can stop at a deadline); None: all at once."""
        if self.workers <= 1 and self.inline_one:
            for item in items:
                yield fn(*item)
            return
        from concurrent.futures import FIRST_COMPLETED, wait
        items = iter(items)
        pool = self._start()
        running: set = set()
        finished = False
        try:
            while True:
                while (window is None or len(running) < window) and (item := next(items, None)) is not None:
                    with _sigint_held():
                        running.add(pool.submit(fn, *item))
                if not running:
                    finished = True
                    return
                done, running = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
        finally:
            if not self._entered:
                self._close(kill=not finished)

    def _start(self):
        if self._pool is None:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_init_worker, initargs=(os.getpid(), self.initializer))
        return self._pool


@contextlib.contextmanager
def _sigint_held():
    """SIGINT blocked in this thread while the block runs (it is delivered after it). A
    submit spawns the pool's workers, and a spawned worker imports for a second or more
    before `bind_to_parent` ignores SIGINT: a Ctrl-C in that window printed the worker's
    KeyboardInterrupt traceback. A blocked signal mask is inherited through fork and exec,
    so the worker starts with SIGINT held until it ignores it (multiprocessing's
    resource tracker is started the same way)."""
    if not hasattr(signal, "pthread_sigmask"):  # not on Windows
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _init_worker(parent_pid: int, initializer) -> None:
    """A pool worker: bound to its parent's life (no orphans), then its pool's initializer."""
    bind_to_parent(parent_pid)
    if initializer is not None:
        initializer()
