"""The board's row primitives: Rules 1-2 on packed rows, the field effects as lookup
tables, the next free row, and the two rules every placing path asks (clovers passed,
whether placing stops to ask), each written once (beside `cards/rows.py`).

Rows are kept packed, one int32 per row and game: `end * R + row` for an active row (its
last tile and its index), -1 for a free one. Ordering by the packed value is ordering by
row end, so Rules 1-2 are one max over the rows. `placement.py` restates Rules 1-2 on row
ends for agents, tested against the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from .layout import FIXED, GREEN, PLAY_TWO, RED, TAKE, BoardLayout
from .state import BoardState

FREE_ROW = -1  # the packed value of a row that holds no tile


@dataclass(frozen=True)
class FieldTables:
    """A layout's fields as flat lookup tables, indexed by `row * F + field`.

    Attributes:
        fields: F, the fields of the longest row.
        kind: (R*F,) int8, the field kinds (layout.kind flattened).
        take: (R*F,) bool, a take field.
        bull_sign: (R*F,) int32, +1 on green fields, -1 on red ones, 0 elsewhere: a
            landing tile brings bull_sign * its bullheads ...
        fixed: (R*F,) int32, ... plus the printed value of a fixed field.
        two_ahead: (R*(F+1),) bool, indexed by `row * (F+1) + length`: a row of that
            length (> 0) still has an uncovered play-two field.
        rows_with_two: the rows that have a play-two field at all.
    """

    fields: int
    kind: NDArray[np.int8]
    take: NDArray[np.bool_]
    bull_sign: NDArray[np.int32]
    fixed: NDArray[np.int32]
    two_ahead: NDArray[np.bool_]
    rows_with_two: NDArray[np.intp]


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
    R, F = kind.shape
    bull_sign = np.where(kind == GREEN, 1, np.where(kind == RED, -1, 0)).astype(np.int32)
    fixed = np.where(kind == FIXED, layout.value, 0).astype(np.int32)
    lengths = np.arange(F + 1)
    uncovered = np.arange(F)[None, :] >= lengths[:, None]  # (F+1, F): field f uncovered at length l
    two_ahead = ((kind == PLAY_TWO)[:, None, :] & uncovered[None]).any(axis=2) & (lengths > 0)[None, :]
    return FieldTables(F, kind.reshape(-1).copy(), (kind == TAKE).reshape(-1), bull_sign.reshape(-1),
                       fixed.reshape(-1), two_ahead.reshape(-1), np.flatnonzero((kind == PLAY_TWO).any(axis=1)))


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


def landing_points(tables: FieldTables, field_index: NDArray, bulls: NDArray) -> NDArray[np.int32]:
    """Points a tile with `bulls` bullheads brings by landing on the fields `field_index`
    (row * F + field) that are not take fields: green +bullheads, red -bullheads, fixed
    +-value, every other kind 0."""
    return tables.bull_sign[field_index] * bulls + tables.fixed[field_index]


def next_free_rows(length: NDArray[np.int8], origin: NDArray, taken: NDArray, games: NDArray) -> NDArray[np.intp]:
    """(g,) the first free row after `origin` (g,), wrapping, never the row `taken` (g,)
    just emptied: where a tile goes after its take (origin: the taken row for
    next_row="scan", the most recently opened row for "rotate")."""
    R = length.shape[0]
    candidates = (np.asarray(origin, dtype=np.intp)[None, :] + np.arange(1, R + 1)[:, None]) % R  # (R, g)
    free = (length[candidates, games[None, :]] == 0) & (candidates != np.asarray(taken)[None, :])
    return candidates[free.argmax(axis=0), np.arange(len(games))]


def taken_points(bulls_table: NDArray, row_tiles: NDArray) -> NDArray[np.int32]:
    """(g,) the bullheads of the rows `row_tiles` (g, F) a take scores against its owner."""
    return bulls_table[row_tiles].sum(axis=1, dtype=np.int32)


def contiguous(st: BoardState, *names: str) -> None:
    """Flat views below write through to the state: make its arrays C-contiguous."""
    for name in names:
        a = getattr(st, name)
        if not a.flags.c_contiguous:
            setattr(st, name, np.ascontiguousarray(a))


@lru_cache(maxsize=8)
def next_free_table(rows: int) -> NDArray[np.int8] | None:
    """(R, 2**R) the row `next_free_rows` gives for each origin and set of occupied rows
    (bit r: row r holds tiles, the taken row included), or None for boards too large for
    a table (more than MAX_TABLE_ROWS rows)."""
    if rows > MAX_TABLE_ROWS:
        return None
    masks = np.arange(1 << rows)
    origin = np.repeat(np.arange(rows), len(masks))
    occupied = np.tile(masks, rows)
    length = ((occupied[None, :] >> np.arange(rows)[:, None]) & 1).astype(np.int8)  # (R, n)
    taken = np.full(len(origin), -1)  # the taken row is among the occupied ones here
    table = next_free_rows(length, origin, taken, np.arange(len(origin)))
    table[(length == 1).all(axis=0)] = -1  # no free row (never on a valid board)
    return table.reshape(rows, len(masks)).astype(np.int8)


MAX_TABLE_ROWS = 14  # a 14 x 16384 table: 229 KB
ROW_BITS = (1 << np.arange(MAX_TABLE_ROWS, dtype=np.int32))[:, None]


@dataclass(frozen=True)
class RowListsTable:
    """For each set of active rows (bit r: row r), its rows in order and how many.

    Attributes:
        rows: (R, 2**R) int8, rows[s, mask] the s-th active row of `mask`, R past the last.
        counts: (2**R,) int8, the number of active rows of `mask`.
    """

    rows: NDArray[np.int8]
    counts: NDArray[np.int8]


@lru_cache(maxsize=8)
def row_lists_table(rows: int) -> RowListsTable | None:
    """The RowListsTable of boards with `rows` rows, None past MAX_TABLE_ROWS."""
    if rows > MAX_TABLE_ROWS:
        return None
    masks = np.arange(1 << rows)
    bits = ((masks[None, :] >> np.arange(rows)[:, None]) & 1).astype(bool)  # (R, n)
    ordered = np.sort(np.where(bits, np.arange(rows)[:, None], rows), axis=0).astype(np.int8)
    return RowListsTable(ordered, bits.sum(axis=0).astype(np.int8))
