"""The board's field effects as lookup tables, read by the placing kernel (which states
every placing rule once per game, `_kernel/inputs.py`) and by `placement.py`, which
restates Rules 1-2 on row ends for agents, tested against the engine."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from .layout import FIXED, GREEN, PLAY_TWO, RED, BoardLayout


@dataclass(frozen=True)
class FieldTables:
    """A layout's field effects as lookup tables (the placing kernel's, `_kernel/inputs.py`).

    Attributes:
        bull_sign: (R, F) int32, +1 on green fields, -1 on red ones, 0 elsewhere: a
            landing tile brings bull_sign * its bullheads ...
        fixed: (R, F) int32, ... plus the printed value of a fixed field.
        two_ahead: (R, F + 1) bool, [row, length]: a row of that length (> 0) still has
            an uncovered play-two field.
    """

    bull_sign: NDArray[np.int32]
    fixed: NDArray[np.int32]
    two_ahead: NDArray[np.bool_]


def field_tables(layout: BoardLayout) -> FieldTables:
    """The lookup tables of a layout, computed once per layout object (looked up by
    identity: hashing a layout hashes all its rows, which costs more than a turn's
    bookkeeping)."""
    cached = _TABLES.get(id(layout))
    if cached is None or cached[0] is not layout:
        cached = _TABLES[id(layout)] = (layout, _field_tables(layout))
    return cached[1]


_TABLES: dict[int, tuple[BoardLayout, FieldTables]] = {}  # id -> (layout, tables); the layout kept alive


@lru_cache(maxsize=32)
def _field_tables(layout: BoardLayout) -> FieldTables:
    kind = layout.kind
    F = kind.shape[1]
    bull_sign = np.where(kind == GREEN, 1, np.where(kind == RED, -1, 0)).astype(np.int32)
    fixed = np.where(kind == FIXED, layout.value, 0).astype(np.int32)
    lengths = np.arange(F + 1)
    uncovered = np.arange(F)[None, :] >= lengths[:, None]  # (F+1, F): field f uncovered at length l
    two_ahead = ((kind == PLAY_TWO)[:, None, :] & uncovered[None]).any(axis=2) & (lengths > 0)[None, :]
    return FieldTables(bull_sign, fixed, two_ahead)
