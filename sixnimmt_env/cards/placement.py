"""Where a card would go: the placement rules as a preview, for everything but the engine.

The engine (`engine.py`) places cards on packed rows in its own hot loop; agents, the
card-features encoder, the demo and the terminal game ask the same questions of what a
seat sees — which row would this card join, is it too low, which row is cheapest — and
ask them here, so each rule is written once outside the engine. `tests/cards/test_placement.py`
checks these answers against the engine's own placements.

Arrays put the rows on the last axis: `row_last` and `row_count` are (..., R).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from .rules import ROW_CAPACITY

_BIG = np.iinfo(np.int64).max


def target_rows(row_last: NDArray, row_count: NDArray, values: NDArray) -> tuple[NDArray, NDArray]:
    """Rules 1–2 for cards of ladder values `values` (..., H): the row each would join.

    A card follows the row whose last card is the highest one *not above* it ("not
    above" lets a Die Sechste card follow its twin). When two rows end in that value
    (twins), the card goes to the shorter one; equally long, the owner chooses, and the
    preview names the lower index.

    Returns:
        (row, too_low), both (..., H): the row index (-1 when too low), and whether the
        card is lower than every row's end (Rule 4: it takes a row).
    """
    last = np.asarray(row_last, dtype=np.int64)[..., None, :]  # (..., 1, R)
    count = np.asarray(row_count, dtype=np.int64)[..., None, :]
    value = np.asarray(values, dtype=np.int64)[..., :, None]  # (..., H, 1)
    eligible = last <= value
    best_last = np.where(eligible, last, -1).max(axis=-1, keepdims=True)
    R = last.shape[-1]
    shorter_first = count * R + np.arange(R)
    row = np.where(eligible & (last == best_last), shorter_first, _BIG).argmin(axis=-1)
    too_low = best_last[..., 0] < 0
    return np.where(too_low, -1, row), too_low


def is_sixth(row_count: NDArray, row: NDArray) -> NDArray[np.bool_]:
    """Rule 3: whether a card joining `row` (..., H) (-1: too low) would be its sixth card."""
    count = np.take_along_axis(np.asarray(row_count), np.maximum(row, 0), axis=-1)
    return (row >= 0) & (count == ROW_CAPACITY)


def cheapest_row(row_bulls: NDArray, row_count: NDArray, options: NDArray | None = None) -> NDArray:
    """The row taken under row_choice="cheapest", among `options` (..., R) when given:
    fewest bullheads, then fewest cards, then the lowest index. Shape (...)."""
    bulls = np.asarray(row_bulls, dtype=np.int64)
    count = np.asarray(row_count, dtype=np.int64)
    R = bulls.shape[-1]
    key = (bulls * (ROW_CAPACITY + 1) + count) * R + np.arange(R)
    if options is not None:
        key = np.where(options, key, _BIG)
    return key.argmin(axis=-1)
