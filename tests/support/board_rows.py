"""Rules 1-2 on packed rows, numpy: the oracle of the questions' legal answers in
tests/board/test_board_answers.py (the engine states them once, in its compiled kernel).

Rows are packed one int32 per row and game: `end * R + row` for an active row (its last
tile and its index), -1 for a free one. Ordering by the packed value is ordering by row
end, so Rules 1-2 are one max over the rows.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

FREE_ROW = -1  # the packed value of a row that holds no tile


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

