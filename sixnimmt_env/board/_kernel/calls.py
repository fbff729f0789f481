"""Calling a compiled kernel without numba's type dispatch on every call.

Before each call numba's dispatcher types every argument to choose the machine code. It
does that in C for arrays and scalars, but the kernels' named tuples (the state's 41
arrays, `inputs.py`) are typed in Python, item by item: ~10 µs a call, more than a public
step's check or a seat view's status pass costs for 4096 games (docs/speed.md, issue 49).
`Fast(kernel)` keeps, per key of its arguments, the entry point of the machine code the
dispatcher chose for them the first time (the dispatcher compiles or loads from the cache
as always), and later calls with the same key go straight to it.

The key holds what decides numba's type of an argument and nothing looser: an array's
dtype, dimensions and flags (contiguity, alignment, writeability: numba's layout and
read-only flag); a tuple's class and its items' keys (the tuples `inputs.py` caches are
keyed once, `remember`, and stand in the call's key as a short token: hashing the state's
41 item keys, dtypes and all, at every lookup cost ~4 µs a call); a bool, an int that
fits int64, a float by class. An argument of any other kind (an object numba types from
its contents) takes the dispatcher's path.
"""

from __future__ import annotations

from typing import Any

import numpy as np

_INT64_LIMIT = 1 << 63
# id(tuple) -> (the tuple, its token): the named tuples `inputs.py` keeps (the tuple is held,
# so its id is not reused while the entry lives; `forget` drops it with its state)
_KNOWN: dict[int, tuple[tuple, tuple | None]] = {}
# a remembered tuple's full key -> its token, ("known", n): tuples of one numba type share
# a token (and so the entry points), and a token is never another argument's key
_TOKENS: dict[tuple, tuple[str, int]] = {}


def key(x: Any) -> tuple | type | None:
    """What decides numba's type of `x`, hashable; None where the dispatcher must decide."""
    t = type(x)
    if t is np.ndarray:
        return (x.dtype, x.ndim, x.flags.num)
    if t is bool or t is float:
        return t
    if t is int:
        return int if -_INT64_LIMIT <= x < _INT64_LIMIT else None
    if isinstance(x, tuple):
        known = _KNOWN.get(id(x))
        if known is not None and known[0] is x:
            return known[1]
        items = tuple(map(key, x))
        return None if None in items else (t,) + items
    if isinstance(x, (np.bool_, np.integer, np.floating)):
        return t
    return None


def remember(x: tuple) -> None:
    """Key the tuple `x` once (a state's arrays, a config's tables) for the calls to come:
    its key is a token standing for its items' keys (cheap to hash)."""
    full = key(x)
    token = None if full is None else _TOKENS.setdefault(full, ("known", len(_TOKENS)))
    _KNOWN[id(x)] = (x, token)


def forget(x: tuple) -> None:
    """Drop the tuple `x` (its state is gone)."""
    known = _KNOWN.get(id(x))
    if known is not None and known[0] is x:
        del _KNOWN[id(x)]


class Fast:
    """`kernel` (a numba dispatcher) called through the entry points kept per key of the
    arguments (the module doc); the same results as calling the kernel."""

    def __init__(self, kernel):
        self.kernel = kernel
        self._entries: dict[tuple, Any] = {}
        self._jit = hasattr(kernel, "overloads")  # (NUMBA_DISABLE_JIT=1: a plain function)

    def __call__(self, *args):
        if not self._jit:
            return self.kernel(*args)
        k = tuple(map(key, args))
        entry = self._entries.get(k)
        if entry is not None:
            return entry(*args)
        result = self.kernel(*args)  # types, compiles or loads, runs
        if None not in k:
            compiled = self.kernel.overloads.get(tuple(map(self.kernel.typeof_pyval, args)))
            if compiled is not None:
                self._entries[k] = compiled.entry_point
        return result
