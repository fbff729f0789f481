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
    """(n, ...) what landing `tile` on (row, field) brings its owner, as the module doc says.

    tiles: (n, R, F) the boards; tile: (n,); row, field: (n, ...), several places per board."""
    row = np.asarray(row, dtype=np.intp)
    n, more = len(row), (1,) * (row.ndim - 1)
    field = np.minimum(np.asarray(field, dtype=np.intp), layout.kind.shape[1] - 1)
    kind = layout.kind[row, field]
    bulls = layout.tile_bulls[np.asarray(tile, dtype=np.intp)].astype(np.float64).reshape((n,) + more)
    boards = np.arange(n).reshape((n,) + more)
    row_bulls = layout.tile_bulls[tiles[boards, row].astype(np.intp)].sum(axis=-1).astype(np.float64)
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
        every = np.broadcast_to(rows, (len(free), R))  # field 1 of every row at once: (m, R)
        value = field_value(layout, tiles[free], every, np.zeros_like(every), tile[free])
        room = layout.row_len.astype(np.float64)[None, :] * 1e-3
        actions[free] = FREE_ROW_ACTION + np.argmax(np.where(legal, value + room, -np.inf), axis=1)
    return actions


def _best_card(layout, mask, tiles, length, tile, view, entries, R) -> NDArray[np.int64]:
    """The offer's answer per entry: the placing card that gains CARD_GAIN, else no card.
    Of the legal options (Skip, then Front and Ascending row by row) the one worth most,
    the last of equals (as a scan keeping any option at least as good as the best so far)."""
    m = len(entries)
    at = np.arange(m)
    natural_row = _rules_row(tiles, length, tile, view.stops[entries])
    natural = field_value(layout, tiles, natural_row, length[at, natural_row], tile)
    rows = np.empty((m, 1 + 2 * R), dtype=np.intp)  # the options' rows and fields, in _OPTIONS' order
    fields = np.empty((m, 1 + 2 * R), dtype=np.intp)
    rows[:, 0], fields[:, 0] = natural_row, length[at, natural_row] + 1
    rows[:, 1::2], fields[:, 1::2] = np.arange(R), 0
    rows[:, 2::2], fields[:, 2::2] = np.arange(R), length
    actions = _options(R)
    value = np.where(mask[:, actions], field_value(layout, tiles, rows, fields, tile), -np.inf)
    last = value.shape[1] - 1 - np.argmax(value[:, ::-1], axis=1)  # the last of the best
    best = value[at, last]
    return np.where(best >= natural + CARD_GAIN, actions[last], NO_CARD_ACTION).astype(np.int64)


def _options(R: int) -> NDArray[np.int64]:
    """The placing cards' actions in the order they are weighed: Skip, then Front and
    Ascending of row 0, of row 1, ..."""
    return np.array([SKIP_ACTION] + [a for r in range(R) for a in (FRONT_ACTION + r, ASCENDING_ACTION + r)])


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
