"""One compile of the board kernels a machine, and a line on stderr while it runs.

A cold compile of the board kernels takes a while (docs/speed.md), and every process that
starts with an empty cache would pay it, each on its own: the test suite's two workers,
`imitate`'s label workers. `kernel(fn)` (the decorator of every board kernel, `@kernel` in
the kernel modules) holds a file lock in the kernels' cache directory (jit.py) from the
cache miss to the saved machine code: one process compiles a kernel, the others wait, then
load it from the cache. The lock is taken only on a miss (a warm start never waits), and
the cache is read again once it is held (the machine code the other process saved).

While a kernel compiles, a line on stderr names it (`CompileNotice`), with the count of
the kernels `counted()` expects (a first game's: `warm.load_kernels`), so a cold start
never looks like a hang.
"""

from __future__ import annotations

import os
import sys
import time
from contextlib import contextmanager

from numba import njit
from numba.core import event

try:
    import fcntl
except ImportError:  # (not on Windows: no lock there, each process compiles for itself)
    fcntl = None

LOCK_NAME = "compiling.lock"  # in the kernels' cache directory
COMPILE_EVENT = "numba:compile"  # numba's event around a compile (a cache miss; a hit loads without one)
NOTICE = "compiling the board kernels (once per machine: numba caches them; {cost})"
COST = ("about 30 s of CPU for a first game, up to 10 s more where a search or random play first runs, a few "
        "seconds for each kernel used later")  # `sixnimmt bench cold`, docs/speed.md, 2026-12-07 (sixth session)


class _Lock:
    """The file lock, held by this process across nested compiles (a driver's compile
    compiles the kernels it calls); numba compiles one function at a time in a process
    (its compiler lock), so a depth count is enough within it."""

    depth = 0
    file = None

    def acquire(self, directory: str) -> None:
        if self.depth == 0 and fcntl is not None:
            try:
                f = open(os.path.join(directory, LOCK_NAME), "a")
            except OSError:
                f = None  # (a cache directory numba can write but we cannot open: no lock)
            if f is not None:
                try:
                    fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    print("waiting for another process compiling the board kernels...", file=sys.stderr, flush=True)
                    fcntl.flock(f, fcntl.LOCK_EX)
            self.file = f
        self.depth += 1

    def release(self) -> None:
        self.depth -= 1
        if self.depth == 0 and self.file is not None:
            fcntl.flock(self.file, fcntl.LOCK_UN)
            self.file.close()
            self.file = None


LOCK = _Lock()


def kernel(fn=None, **options):
    """`njit(cache=True, nogil=True, _nrt=False, no_cfunc_wrapper=True)` (options override), its
    compiles under the machine's lock (the module doc). Usable as `@kernel` or `@kernel(_nrt=True)`.
    No C entry point: Python calls a kernel through its CPython one, and nothing takes its C
    address, so numba would build, optimise and cache a wrapper unboxing the state's ~40 arrays
    for nothing (as for the rules, `_kernel/__init__.py`)."""
    if fn is None:
        return lambda f: kernel(f, **options)
    dispatcher = njit(**{"cache": True, "nogil": True, "_nrt": False, "no_cfunc_wrapper": True, **options})(fn)
    if hasattr(dispatcher, "_cache"):  # (NUMBA_DISABLE_JIT=1: a plain function)
        _lock_compiles(dispatcher)
    return dispatcher


def _lock_compiles(dispatcher) -> None:
    """Wrap the dispatcher's cache and compiler (numba's `Dispatcher.compile`: load, on a miss
    compile, then save): the lock from the miss to the save, or to a failed compile."""
    cache, compiler = dispatcher._cache, dispatcher._compiler
    load, save, compile_ = cache.load_overload, cache.save_overload, compiler.compile

    def load_overload(sig, target_context):
        cres = load(sig, target_context)
        if cres is None:
            LOCK.acquire(cache._cache_path)
            cres = load(sig, target_context)  # saved by the process that held the lock
            if cres is not None:
                LOCK.release()
        return cres

    def save_overload(sig, cres):
        try:
            save(sig, cres)
        finally:
            LOCK.release()

    def compile_under_lock(args, return_type):
        try:
            return compile_(args, return_type)
        except BaseException:
            LOCK.release()  # (no save follows)
            raise

    cache.load_overload, cache.save_overload, compiler.compile = load_overload, save_overload, compile_under_lock


class _Count:
    """The kernels `counted` expects and how many of them have been asked for."""

    n = 0
    k = 0


COUNT = _Count()


@contextmanager
def counted(n: int):
    """Number the compile lines of the `n` kernels loaded inside (`next()` after each)."""
    COUNT.n, COUNT.k = n, 0
    try:
        yield COUNT
    finally:
        COUNT.n = COUNT.k = 0


def next_kernel() -> None:
    """One of the counted kernels is loaded (from the cache or compiled)."""
    COUNT.k += 1


class CompileNotice(event.Listener):
    """Says on stderr which board kernel compiles (a cache miss), once a kernel and process:
    the first time with what it costs (`NOTICE`), then a line per kernel, "k/n" inside
    `counted`."""

    said = False

    def __init__(self) -> None:
        self._started: list[tuple[str, float]] = []

    def on_start(self, ev) -> None:
        dispatcher = (ev.data or {}).get("dispatcher")
        py_func = getattr(dispatcher, "py_func", None)
        module = getattr(py_func, "__module__", "") or ""
        if not module.startswith(__package__ + "."):
            return
        if self._started:  # (compiled inside a driver's compile: part of its line)
            self._started.append(("", 0.0))
            return
        if not CompileNotice.said:
            CompileNotice.said = True
            print(NOTICE.format(cost=COST) + "...", file=sys.stderr, flush=True)
        name = py_func.__name__
        where = f" {COUNT.k + 1}/{COUNT.n}" if COUNT.n else ""
        print(f"  compiling{where} {name}...", file=sys.stderr, flush=True)
        self._started.append((name, time.process_time()))

    def on_end(self, ev) -> None:
        dispatcher = (ev.data or {}).get("dispatcher")
        module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
        if not module.startswith(__package__ + ".") or not self._started:
            return
        name, t0 = self._started.pop()
        if name and getattr(ev, "_exc_details", None) is None:  # (numba's `is_failed` reads inverted)
            print(f"  {name} compiled ({time.process_time() - t0:.0f} s of CPU)", file=sys.stderr, flush=True)


_NOTICE: list[CompileNotice] = []  # the listener, once registered


def install_notice() -> None:
    """Register `CompileNotice` with numba's event API (once)."""
    if not _NOTICE:
        _NOTICE.append(CompileNotice())
        event.register(COMPILE_EVENT, _NOTICE[0])
