"""The board's batched row primitives, beside `cards/rows.py`: Rules 1-2 on packed rows
(the pro questions' legal answers use them, `actioncards.py`) and the field effects as
lookup tables (read by the placing kernel, which states every placing rule once per game).

Rows are packed one int32 per row and game: `end * R + row` for an active row (its last
tile and its index), -1 for a free one. Ordering by the packed value is ordering by row
end, so Rules 1-2 are one max over the rows. `placement.py` restates Rules 1-2 on row ends
for agents, tested against the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from .layout import FIXED, GREEN, PLAY_TWO, RED, BoardLayout

FREE_ROW = -1  # the packed value of a row that holds no tile


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


def packed_rows(tiles: NDArray[np.int8], length: NDArray[np.int8]) -> NDArray[np.int32]:
    """(R, b) the packed rows of boards `tiles` (R, F, b) with `length` (R, b)."""
    R = length.shape[0]
    last = np.maximum(length.astype(np.intp) - 1, 0)[:, None, :]
    ends = np.take_along_axis(tiles, last, axis=1)[:, 0, :].astype(np.int32)
    return np.where(length > 0, ends * R + np.arange(R, dtype=np.int32)[:, None], FREE_ROW)


def target_rows(packed: NDArray[np.int32], tile: NDArray, scale: int) -> NDArray[np.intp]:
    """Rules 1-2 and the too-low exception: (b,) the row each tile (b,) joins.

    Rows come packed (n, b) as `end * scale + index` (index < scale), -1 for a free row;
    the result is the chosen row's index. The active row whose end is the highest one
    below the tile; a tile lower than every row end goes after the highest row end.
    Active rows ineligible for the tile count 0 in the first max and eligible ones at
    least `scale`, so 0 means "too low" (every board has an active row).
    """
    return (best_rows(packed, tile, scale) % scale).astype(np.intp)


def best_rows(packed: NDArray[np.int32], tile: NDArray, scale: int) -> NDArray[np.int32]:
    """`target_rows`, but the chosen row's packed value itself."""
    below = (packed * (packed < tile.astype(packed.dtype) * scale)).max(axis=0)
    return np.where(below > 0, below, packed.max(axis=0))

