"""What the compiled kernels (`place.py`, `turns.py`) are handed: the state's
arrays, the layout and rule options, the events, as named tuples of NumPy arrays (numba
reads a named tuple's fields by name). The arrays of two or more axes are handed as
their game-major storage (`board/_storage.py`), so the kernels read as `s.tiles[b, r, f]`: game
b's field f of row r. A step fetches them once (`fetch`: the state's arrays and its
rules' tables in one lookup) and hands them to every kernel it calls.
"""

from __future__ import annotations

import operator
import weakref
from collections import namedtuple

import numpy as np

from .. import _storage as storage
from .._events import BoardEvents
from .._rows import field_tables
from ..rules import BoardConfig
from ..state import BoardState
from . import calls

# The state arrays the kernels read and write (BoardState's names).
STATE_FIELDS = ("queue", "queue_seat", "queue_extra", "at", "stage", "phase", "ask", "asker", "answer", "answered",
                "answer_arg", "row", "field", "gain", "after_gain", "tiles", "length", "gone", "score", "pointer",
                "luck", "luck_new", "stack", "hands", "supply", "drawn", "action", "deck", "deck_at", "deck_end",
                "discard", "action_drawn", "action_log", "action_script", "stops", "stops_left", "card",
                "card_row", "turn", "picks", "picked")
Arrays = namedtuple("Arrays", STATE_FIELDS)
# The layout and rule options: field kinds (R, F); the points a landing tile brings,
# bull_sign * bullheads + fixed (both (R, F)); two_ahead (R, F + 1): a row of that length
# still has an uncovered play-two field; bullheads by tile; the clovers (sorted); the
# fields of each row (R,); whether hands are refilled once (2-3 players).
Tables = namedtuple("Tables", ("kind", "bull_sign", "fixed", "two_ahead", "bulls", "clovers", "luck", "pro",
                               "scan", "row_len", "refill"))
EVENT_FIELDS = ("tile", "seat", "row", "field", "kind", "points", "taken", "moved_to", "plus5", "double",
                "luck_gained", "turn_over")
Events = namedtuple("Events", EVENT_FIELDS)
# What every kernel call of a step is handed: the state's arrays (`s`) and its rules' tables (`t`)
Inputs = namedtuple("Inputs", ("s", "t"))


def fetch(st: BoardState) -> Inputs:
    """The state's arrays and its config's tables, as the kernels take them (`arrays`,
    `tables`): fetched once a step, or once a seat view, and handed down."""
    return Inputs(arrays(st), tables(st.config))


def arrays(st: BoardState) -> Arrays:
    """The state's arrays for a kernel: C-contiguous (a kernel is compiled for one memory
    layout), game first where they have two or more axes (`board/_storage.py`); a state field
    not stored so is replaced by the game-last view of the storage the kernel writes.
    Kept per state while its fields stay the same arrays (checking 40 arrays costs more
    than a game's turn)."""
    fields = _STATE_ARRAYS(st)  # (a tuple, read and compared in C: a public step asks this ~10 times)
    known = _ARRAYS.get(id(st))
    if known is not None and known[0]() is st and all(map(operator.is_, known[1], fields)):
        return known[2]
    fields = list(fields)
    out = []
    for i, name in enumerate(STATE_FIELDS):
        kernel_array, kept = storage.for_kernel(fields[i])
        if kept is not fields[i]:
            setattr(st, name, kept)
            fields[i] = kept
        out.append(kernel_array)
    key, kernel_arrays = id(st), Arrays(*out)
    old = _ARRAYS.get(key)
    if old is not None:
        calls.forget(old[2])
    calls.remember(kernel_arrays)  # (their types, keyed once for the calls: calls.py)

    def drop(_) -> None:
        gone = _ARRAYS.pop(key, None)
        if gone is not None:
            calls.forget(gone[2])

    _ARRAYS[key] = (weakref.ref(st, drop), tuple(fields), kernel_arrays)
    return kernel_arrays


# id(state) -> (the state, weakly; its fields; their kernel arrays), dropped with the state
_ARRAYS: dict[int, tuple[weakref.ref, tuple, Arrays]] = {}
_STATE_ARRAYS = operator.attrgetter(*STATE_FIELDS)


def events(ev: BoardEvents | None) -> Events:
    """The events a kernel writes; empty arrays (never written) when none are asked for."""
    return NO_EVENTS if ev is None else Events(*(getattr(ev, name) for name in EVENT_FIELDS))


NO_EVENTS = Events(*(np.zeros((0, 0), dtype=dtype) for dtype in (
    np.int8, np.int8, np.int8, np.int8, np.int8, np.int16, np.int8, np.int8, bool, bool, np.int8)),
    np.zeros(0, dtype=bool))
calls.remember(NO_EVENTS)


def tables(config: BoardConfig) -> Tables:
    """The layout and rule options as the kernels read them, built once per config object
    (looked up by identity, as `_rows.field_tables`)."""
    cached = _TABLES.get(id(config))
    if cached is None or cached[0] is not config:
        layout = config.board
        ft = field_tables(layout)
        # a copy of the kind array: a layout's own may be read-only (one loaded and frozen) or
        # not, and numba compiles (and caches) the kernels once per flag: the same signature
        # everywhere, or a process with the other flag compiles them all again (~1 minute)
        cached = _TABLES[id(config)] = (config, Tables(
            np.array(layout.kind, dtype=np.int8, order="C"), ft.bull_sign, ft.fixed,
            ft.two_ahead, layout.tile_bulls.astype(np.int32),
            np.asarray(layout.clovers, dtype=np.int64), config.luck, config.pro, config.next_row == "scan",
            layout.row_len.astype(np.int64), config.refill))
        calls.remember(cached[1])  # (kept with its config, like the tables)
    return cached[1]


_TABLES: dict[int, tuple[BoardConfig, Tables]] = {}  # id -> (config, tables); the config kept alive
