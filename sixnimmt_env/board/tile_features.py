"""The `tile-features` observation's hand slots: what a player works out for each tile in
hand before putting one out (the board game's counterpart of the cards' `card-features`).

A flat network over the `basic` observation has to learn, for each of the 100 tile
actions separately, where that tile would land and what the field there does. Those
facts are the same rule for every tile, so this observation writes them out per hand
slot, from the placement preview (`placement.preview`: the tile placed alone on the
board as it is) and the tiles the seat has not seen; the tile scorer
(`agents/board/policy.py`) scores every slot with one shared network.

Each slot (tiles in hand ascending, empty slots all 0) holds `SLOT_FEATURES`:

| feature | meaning |
| --- | --- |
| valid | 1: the slot holds a tile |
| id | tile number / 100 (the scorer places the slot's score on this tile's action) |
| bulls | the tile's bullheads / 5 |
| field | the 0-based field it reaches / F |
| fields_left | free fields of its row before the take field / F |
| kind_* | one-hot kind of that field (layout.KIND_NAMES) |
| too_low | lower than every row end |
| gap | tile minus its row's end / 100 (negative when too low) |
| take | the field is the row's take field |
| row_sum | bullheads now in its row / 10 |
| points | its points if placed alone now / 10 (a take: minus the row) |
| points_double | the same with a "2x" / 10 |
| points_plus5 | the same with a "+5" / 10 |
| between | unseen tiles that would land in its row before it / 10 (all unseen below it when too low) |
| next_take | pushed one field on, it would reach the take field |
| next_points | pushed one field on: that field's effect / 10, or minus the row on a take |
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from .layout import KIND_NAMES
from .placement import field_effect, is_take, preview, unseen_ahead, unseen_below
from .rules import N_TILES
from .seat_view import BoardSeatView

POINT_SCALE = 10.0  # points are divided by this
SLOT_FEATURES = ("valid", "id", "bulls", "field", "fields_left", *(f"kind_{k.replace(' ', '_')}" for k in KIND_NAMES), "too_low",
                 "gap", "take", "row_sum", "points", "points_double", "points_plus5", "between", "next_take",
                 "next_points")
ID_FEATURE = SLOT_FEATURES.index("id")


def slot_features(view: BoardSeatView) -> NDArray[np.float32]:
    """(n, S, K) the hand slots of `view`'s entries (S = config.hand_slots, K = len(SLOT_FEATURES))."""
    hand = view.hand.astype(np.int64)
    n, S = hand.shape
    hand = np.sort(np.where(hand > 0, hand, N_TILES + 1), axis=1)  # ascending, empty slots last
    hand[hand > N_TILES] = 0
    # Only the first `held` slots of any entry hold a tile (a hand of ~10 among 100 slots):
    # the features are worked out for those alone, per slot, and the rest stay 0.
    held = max(int((hand > 0).sum(axis=1).max(initial=0)), 1)
    out = np.zeros((n, S, len(SLOT_FEATURES)), dtype=np.float32)
    out[:, :held] = _held_features(view, hand[:, :held])
    return out


def _held_features(view: BoardSeatView, hand: NDArray[np.int64]) -> NDArray[np.float32]:
    """(n, H, K) the features of hand slots `hand` (n, H) (ascending, 0: empty, all 0)."""
    layout = view.config.board
    R, F = layout.kind.shape
    p = preview(layout, view.tiles, view.length, hand)
    valid = p.valid
    between = unseen_ahead(unseen_below(view.unseen), p, hand)
    nxt = np.minimum(p.field + 1, F - 1)
    next_take = ~p.take & is_take(layout.kind[p.row, nxt])
    next_points = np.where(next_take, -p.row_sum, field_effect(layout, p.row, nxt, hand))
    row_len = layout.row_len.astype(np.int64)[p.row]
    parts = [valid, hand / N_TILES, layout.tile_bulls[hand] / 5.0, p.field / F, np.maximum(row_len - 1 - p.field, 0) / F,
             *(p.kind == k for k in range(len(KIND_NAMES))), p.too_low, p.gap / N_TILES, p.take,
             p.row_sum / POINT_SCALE, p.points / POINT_SCALE, p.points_double / POINT_SCALE,
             p.points_plus5 / POINT_SCALE, between / POINT_SCALE, next_take, next_points / POINT_SCALE]
    out = np.stack([np.asarray(a, dtype=np.float32) for a in parts], axis=-1)
    out[~valid] = 0.0
    return out


def slot_bound(config) -> float:
    """The largest |feature| a slot can hold (the Field's bound): a take of a full row
    with "2x", or a printed value, in points / 10; the rest are within 1."""
    layout = config.board
    take = 5 * (int(layout.row_len.max()) + 2) * 2
    return max(1.0, take / POINT_SCALE, float(np.abs(layout.value).max(initial=0)) / POINT_SCALE)
