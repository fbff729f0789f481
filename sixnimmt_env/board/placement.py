"""Where a tile would go: the board game's placement rules as a preview, for everything
but the engine.

The engine (`engine.py`) places tiles inside its own stage machine, one queue position at
a time; agents (and later hints, encoders or a terminal game) ask the same questions of
what a seat sees — which row and field would this tile reach, what would that field do to
its owner, what would the board look like after it — and ask them here, so each rule is
written once outside the engine. `tests/board/test_board_placement.py` checks these answers
against the engine's own placements.

Boards are the seat view's arrays: `tiles` (..., R, F) the tile on each field (0 empty),
`length` (..., R) tiles per row (0: not active). Tiles to preview are (..., H) numbers
(0: an empty hand slot; its answers are meaningless and `valid` is False). Leading axes
broadcast, so one call previews a whole batch of hands, or every hand slot on its own
copy of the board (`place`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ._rows import field_tables
from .layout import TAKE, TAKE_TO_HAND, BoardLayout
from .rules import PLUS5_POINTS


def row_ends(tiles: NDArray, length: NDArray) -> NDArray[np.int64]:
    """(..., R) the last tile of each row, -1 where the row is not active."""
    length = np.asarray(length).astype(np.intp)
    last = np.take_along_axis(np.asarray(tiles), np.maximum(length - 1, 0)[..., None], axis=-1)[..., 0]
    return np.where(length > 0, last, -1).astype(np.int64)


def target_rows(ends: NDArray, values: NDArray) -> tuple[NDArray[np.intp], NDArray[np.bool_]]:
    """Rules 1-2 and the too-low exception for tiles `values` (..., H) on rows ending in
    `ends` (..., R) (-1: not active): the row each tile joins.

    Rule 1-2: the active row whose end is the highest one below the tile. A tile lower
    than every row end goes after the **highest** row end (no row is taken for lowness).

    Returns (row, too_low), both (..., H).
    """
    ends = np.asarray(ends, dtype=np.int64)[..., None, :]  # (..., 1, R)
    value = np.asarray(values, dtype=np.int64)[..., :, None]  # (..., H, 1)
    below = np.where(ends < value, ends, -1)
    best = below.max(axis=-1)
    too_low = best < 0
    row = np.where(too_low, ends.argmax(axis=-1), below.argmax(axis=-1))
    return row.astype(np.intp), too_low


def field_effect(layout: BoardLayout, row: NDArray, field: NDArray, tile: NDArray) -> NDArray[np.int64]:
    """Points a tile brings its owner by landing on a field that is not a take field:
    green +bullheads, red -bullheads, fixed +-value, anything else 0. Fields beyond a
    row's end and take fields give 0 here (see `Preview.points` for takes)."""
    tables = field_tables(layout)  # the kernels' +-bullheads and fixed values by field: one gather each
    bulls = layout.tile_bulls[np.asarray(tile, dtype=np.intp)].astype(np.int64)
    return tables.bull_sign[row, field] * bulls + tables.fixed[row, field]


@dataclass
class Preview:
    """Where each tile would land if it were placed alone on the board as it is, and what
    that would bring its owner; arrays (..., H).

    Attributes:
        valid: the slot holds a tile.
        row, field: the row and the (0-based) field it reaches.
        kind: that field's kind (layout kinds: PLAIN, GREEN, ..., TAKE).
        too_low: lower than every row end (it goes after the highest end).
        gap: tile minus its row's end (negative when too low).
        take: the field is the row's take field.
        row_sum: bullheads of the tiles now in its row.
        row_bulls: bullheads of the tiles it would take (0 when it takes nothing).
        best_two: bullheads of the row's best two tiles (what "2x" turns to plus; 0 if no take).
        points: points alone: a take costs row_bulls, any other field gives its effect.
        points_double: points of a take with "2x" (2 * best_two - row_bulls); = points elsewhere.
        points_plus5: points with "+5" on any field but a take (+5); = points on a take.
    """

    valid: NDArray[np.bool_]
    row: NDArray[np.intp]
    field: NDArray[np.intp]
    kind: NDArray[np.int8]
    too_low: NDArray[np.bool_]
    gap: NDArray[np.int64]
    take: NDArray[np.bool_]
    row_sum: NDArray[np.int64]
    row_bulls: NDArray[np.int64]
    best_two: NDArray[np.int64]
    points: NDArray[np.int64]
    points_double: NDArray[np.int64]
    points_plus5: NDArray[np.int64]


def is_take(kind: NDArray) -> NDArray[np.bool_]:
    """Whether fields of `kind` take the row (pro: H takes it too, into the hand)."""
    return (kind == TAKE) | (kind == TAKE_TO_HAND)


def unseen_below(unseen: NDArray) -> NDArray[np.int64]:
    """(n, N + 2) from unseen (n, N + 1): [:, t] the unseen tiles numbered below t."""
    below = np.zeros((len(unseen), unseen.shape[1] + 1), dtype=np.int64)
    np.cumsum(unseen, axis=1, out=below[:, 1:])
    return below


def unseen_ahead(below: NDArray, p: Preview, tile: NDArray) -> NDArray[np.int64]:
    """(n, ...) for tiles `tile` (n, ...) previewed as `p`: the unseen tiles that would join
    the tile's row before it (numbered between the row's end and it; all below it when it
    is too low). `below` is `unseen_below` of the n seats' unseen tiles."""
    n = len(below)
    low = np.where(p.too_low, 0, tile - p.gap)  # the row's end; too low: everything below
    flat_low = low.reshape(n, -1).astype(np.intp)
    flat_tile = np.asarray(tile).reshape(n, -1).astype(np.intp)
    rows = np.arange(n)[:, None]
    between = below[rows, flat_tile] - below[rows, np.minimum(flat_low + 1, flat_tile)]
    return np.maximum(between, 0).reshape(np.shape(tile))


def row_bullheads(layout: BoardLayout, row_tiles: NDArray) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """(bullheads of the row, those of its best two tiles) for rows of tiles (..., F), 0
    where empty: what a take scores (minus the first) and what "2x" turns to plus (the best
    two, a one-tile row its tile)."""
    bulls = layout.tile_bulls[np.asarray(row_tiles).astype(np.intp)].astype(np.int64)
    return bulls.sum(axis=-1), -np.sort(-bulls, axis=-1)[..., :2].sum(axis=-1)


def _row_tiles(tiles: NDArray, row: NDArray) -> NDArray:
    """(..., H, F) the tiles of row `row` (..., H) of boards `tiles` (..., R, F)."""
    return np.take_along_axis(np.asarray(tiles), np.asarray(row)[..., None], axis=-2)


def preview(layout: BoardLayout, tiles: NDArray, length: NDArray, hand: NDArray) -> Preview:
    """The placement of every tile of `hand` (..., H) against the board (tiles (..., R, F),
    length (..., R)), each tile alone."""
    hand = np.asarray(hand).astype(np.int64)
    length = np.asarray(length).astype(np.intp)
    ends = row_ends(tiles, length)
    row, too_low = target_rows(ends, hand)
    lead = np.broadcast_shapes(length.shape[:-1], hand.shape[:-1])
    length_b = np.broadcast_to(length, lead + length.shape[-1:])
    field = np.take_along_axis(length_b, row, axis=-1)
    end = np.take_along_axis(np.broadcast_to(ends, lead + ends.shape[-1:]), row, axis=-1)
    kind = layout.kind[row, field]
    take = is_take(kind)
    row_sum, best_two = row_bullheads(layout, _row_tiles(tiles, row))
    row_bulls = np.where(take, row_sum, 0)
    best_two = np.where(take, best_two, 0)
    effect = field_effect(layout, row, field, hand)
    points = np.where(take, -row_bulls, effect)
    return Preview(valid=hand > 0, row=row, field=field, kind=kind, too_low=too_low, gap=hand - end,
                   take=take, row_sum=row_sum, row_bulls=row_bulls, best_two=best_two, points=points,
                   points_double=np.where(take, 2 * best_two - row_bulls, points),
                   points_plus5=np.where(take, points, PLUS5_POINTS))


def next_free_row(length: NDArray, taken: NDArray, origin: NDArray | None = None) -> NDArray[np.intp]:
    """(...) the row a tile moves to after taking row `taken` (...): the first empty row
    after `origin` (default: the taken row, next_row="scan"; for "rotate" pass the most
    recently opened row), wrapping, never the taken row itself. `length` (..., R) is the
    board *before* the take (the taken row still counts as holding tiles)."""
    length = np.asarray(length)
    R = length.shape[-1]
    taken = np.asarray(taken, dtype=np.intp)
    origin = taken if origin is None else np.asarray(origin, dtype=np.intp)
    steps = np.arange(1, R + 1)
    candidates = (origin[..., None] + steps) % R  # (..., R)
    lb = np.broadcast_to(length, taken.shape + (R,))
    empty = (np.take_along_axis(lb, candidates, axis=-1) == 0) & (candidates != taken[..., None])
    return np.take_along_axis(candidates, empty.argmax(axis=-1)[..., None], axis=-1)[..., 0]


def place(layout: BoardLayout, tiles: NDArray, length: NDArray, tile: NDArray,
          origin: NDArray | None = None) -> tuple[NDArray, NDArray, Preview]:
    """The board after placing `tile` (...) (one tile per board, 0: none) on boards
    `tiles` (..., R, F), `length` (..., R), as the engine places a lone tile: Rules 1-2,
    the field, and on a take the row cleared and the tile on field 1 of the next free row
    (`origin` as in `next_free_row`).

    Returns (tiles, length, preview of the tile) — new arrays; the preview's arrays have
    shape (...).
    """
    tile = np.asarray(tile).astype(np.int64)
    lead = tile.shape
    R, F = np.shape(tiles)[-2:]
    tile = tile.reshape(-1)
    tiles = np.broadcast_to(tiles, lead + (R, F)).reshape(-1, R, F).copy()
    length = np.broadcast_to(length, lead + (R,)).reshape(-1, R).copy()
    p = preview(layout, tiles, length, tile[:, None])
    p = Preview(**{k: v[:, 0] for k, v in p.__dict__.items()})
    at = np.flatnonzero(p.valid)
    row, field, take = p.row[at], p.field[at], p.take[at]
    lay = at[~take]
    tiles[lay, row[~take], field[~take]] = tile[lay]
    length[lay, row[~take]] += 1
    if take.any():
        g, t_row = at[take], row[take]
        moved = next_free_row(length[g], t_row, None if origin is None else
                              np.broadcast_to(origin, lead).reshape(-1)[g])
        tiles[g, t_row] = 0
        length[g, t_row] = 0
        tiles[g, moved, 0] = tile[g]
        length[g, moved] = 1
    p = Preview(**{k: v.reshape(lead) for k, v in p.__dict__.items()})
    return tiles.reshape(lead + (R, F)), length.reshape(lead + (R,)), p

