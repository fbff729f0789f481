"""Rule-of-thumb answers to the professional side's questions, batched over a view.

Every board heuristic (and `mcs`'s rollouts) answers them the same way:

- **Action cards**: a card is worth a point in hand at the end, so one is played only
  where it changes the tile's own result by at least `CARD_GAIN` points. The placing
  cards are compared by where they would put the tile — Skip (one field further in the
  rules' row), Front (field 1 of a row whose first tile is higher), Ascending (the end of
  any row the tile is higher than) — against no card; Stop, Swap and One more are kept
  (their value depends on the other tiles of the turn, which a one-tile rule cannot see).
- **Free row**: the free row whose field 1 is best for the moved tile; ties to the row
  with the most fields (the most room before its take field).

A field's value for a tile (`field_value`): green +bullheads, red −bullheads, fixed ±value,
draw an action card +1 (a card in hand scores 1 at the end), draw a tile −1 (a tile in hand
costs its bullheads at the end unless it is played), a take field −(the row's bullheads),
a take-into-hand field −half of them (tiles in hand can still be played), other kinds 0.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from sixnimmt_env.board.actions import ASCENDING_ACTION, FREE_ROW_ACTION, FRONT_ACTION, NO_CARD_ACTION, SKIP_ACTION
from sixnimmt_env.board.layout import DRAW_ACTION, DRAW_TILE, FIXED, GREEN, RED, TAKE, TAKE_TO_HAND
from sixnimmt_env.board.state import ASK_ACTION, ASK_FREE_ROW

CARD_GAIN = 2.0  # points a card must gain to be worth playing (it scores 1 kept)
DRAW_TILE_VALUE, DRAW_ACTION_VALUE = -1.0, 1.0


def field_value(layout, tiles: NDArray, row: NDArray, field: NDArray, tile: NDArray) -> NDArray[np.float64]:
    """(n,) what landing `tile` on (row, field) brings its owner, as the module doc says.

    tiles: (n, R, F) the boards; row, field, tile: (n,)."""
    n = len(row)
    row = np.asarray(row, dtype=np.intp)
    field = np.minimum(np.asarray(field, dtype=np.intp), layout.kind.shape[1] - 1)
    kind = layout.kind[row, field]
    bulls = layout.tile_bulls[np.asarray(tile, dtype=np.intp)].astype(np.float64)
    row_bulls = layout.tile_bulls[tiles[np.arange(n), row].astype(np.intp)].sum(axis=1).astype(np.float64)
    fixed = np.where(kind == FIXED, layout.value[row, field], 0).astype(np.float64)
    return (_BULLS[kind] * bulls + fixed + _CONSTANT[kind] + _ROW[kind] * row_bulls) + 0.0


# by field kind: the tile's bullheads (green +, red -), a constant (the draw fields), the
# row's bullheads (a take all of them lost, an H field half: the tiles come back to the hand)
_BULLS = np.zeros(16)
_BULLS[GREEN], _BULLS[RED] = 1.0, -1.0
_CONSTANT = np.zeros(16)
_CONSTANT[DRAW_ACTION], _CONSTANT[DRAW_TILE] = DRAW_ACTION_VALUE, DRAW_TILE_VALUE
_ROW = np.zeros(16)
_ROW[TAKE], _ROW[TAKE_TO_HAND] = -1.0, -0.5


def answer_pro(view, actions: NDArray[np.int64]) -> NDArray[np.int64]:
    """`actions` (n,) with the pro questions of `view` answered (other entries unchanged)."""
    offer = np.flatnonzero(view.is_asker & (view.ask == ASK_ACTION))
    free = np.flatnonzero(view.is_asker & (view.ask == ASK_FREE_ROW))
    if not len(offer) and not len(free):
        return actions
    mask = view.action_mask()
    layout = view.config.board
    tiles, length = view.tiles.astype(np.int64), view.length.astype(np.intp)
    tile = view.revealed[:, 0].astype(np.int64)
    R = length.shape[1]
    if len(offer):
        actions[offer] = _best_card(layout, mask[offer], tiles[offer], length[offer], tile[offer], view, offer, R)
    if len(free):
        rows = np.arange(R)
        legal = mask[free][:, FREE_ROW_ACTION + rows]  # (m, R)
        value = np.stack([field_value(layout, tiles[free], np.full(len(free), r), np.zeros(len(free), np.intp),
                                      tile[free]) for r in rows], axis=1)
        room = layout.row_len.astype(np.float64)[None, :] * 1e-3
        actions[free] = FREE_ROW_ACTION + np.argmax(np.where(legal, value + room, -np.inf), axis=1)
    return actions


def _best_card(layout, mask, tiles, length, tile, view, entries, R) -> NDArray[np.int64]:
    """The offer's answer per entry: the placing card that gains CARD_GAIN, else no card."""
    m = len(entries)
    natural_row = _rules_row(tiles, length, tile, view.stops[entries])
    natural = field_value(layout, tiles, natural_row, length[np.arange(m), natural_row], tile)
    best = np.full(m, NO_CARD_ACTION, dtype=np.int64)
    best_value = natural + CARD_GAIN
    options = [(SKIP_ACTION, natural_row, length[np.arange(m), natural_row] + 1)]
    for r in range(R):
        options.append((FRONT_ACTION + r, np.full(m, r), np.zeros(m, np.intp)))
        options.append((ASCENDING_ACTION + r, np.full(m, r), length[:, r]))
    for action, r, f in options:
        legal = mask[:, action]
        if not legal.any():
            continue
        value = field_value(layout, tiles, r, f, tile)
        better = legal & (value >= best_value)
        best = np.where(better, action, best)
        best_value = np.where(better, value, best_value)
    return best


def _rules_row(tiles, length, tile, stops) -> NDArray[np.intp]:
    """(m,) Rules 1-2 (too low: the highest end) among the open rows (active, no sign)."""
    open_ = (length > 0) & ~stops
    ends = np.where(open_, _ends(tiles, length), -1)
    below = np.where(ends < tile[:, None], ends, -1)
    return np.where(below.max(axis=1) >= 0, below.argmax(axis=1), ends.argmax(axis=1)).astype(np.intp)


def _ends(tiles, length) -> NDArray[np.int64]:
    """(m, R) each row's last tile (0 for a free row)."""
    last = np.maximum(length - 1, 0)
    return np.take_along_axis(tiles, last[:, :, None], axis=2)[:, :, 0]
