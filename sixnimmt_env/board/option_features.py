"""The pro side's `tile-features` options: what each answer to an action-card offer or a
free-row question would do with the tile asked about.

Measured 2026-12-02 (4 players, 20 deals x 4 rotations against three `mcs`): the pro
network with its action-card offers answered by `mcs` scored -17.4 points a game, the
network alone -23.3, the network never playing a card -23.0; the free rows by `mcs`
-21.3. The network had learnt nearly nothing about its action cards: whether Front into
row 3 helps is a fact about row 3's first field and the tile, which a flat context over
the whole board has to work out for every row on its own. These rows write it out, one
per answer (`option_actions`), and the tile scorer scores every row with one shared
network (agents/board/policy.py), as it scores the hand slots.

Each option row (0 everywhere but for the seat asked an offer or a free row, and for
answers the layout has no row for) holds `OPTION_FEATURES`:

| feature | meaning |
| --- | --- |
| is_* | one-hot answer: free row, no card, Stop, Front, Ascending, Skip |
| kind_* | one-hot kind of the field the tile would land on (layout.KIND_NAMES) |
| points | the field's points / 10 (a take: minus the row's bullheads; on H a cost deferred to the end) |
| gain | points minus those of playing no card / 10 (0 for free rows) |
| take | the field takes the row (T, or H into the hand) |
| row_bulls | bullheads in the landing row now / 10 |
| field | the 0-based landing field / F |
| fields_left | free fields of the row before its take field after landing / F |

Where the tile lands, by answer: a free row, its field 1; no card, Rules 1-2 (and the
too-low exception) among the rows without a stop sign; Stop on row r, the same with r
stopped too; Front into r, field 1 of r; Ascending onto r, the end of r; Skip, one field
beyond no card's. An answer's legality is the action mask's business: an illegal one's
row is filled in all the same, and masked.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from .actions import ASCENDING_ACTION, FREE_ROW_ACTION, FRONT_ACTION, NO_CARD_ACTION, SKIP_ACTION, STOP_ACTION
from .layout import KIND_NAMES
from .placement import field_effect, is_take, row_ends, target_rows
from .seat_view import BoardSeatView
from .state import ASK_ACTION, ASK_FREE_ROW
from .tile_features import POINT_SCALE

ANSWERS = ("free_row", "no_card", "stop", "front", "ascending", "skip")
OPTION_FEATURES = (*(f"is_{a}" for a in ANSWERS), *(f"kind_{k.replace(' ', '_')}" for k in KIND_NAMES),
                   "points", "gain", "take", "row_bulls", "field", "fields_left")


def option_actions(rows: int) -> NDArray[np.int64]:
    """(4R + 2,) the action of each option row for a board of `rows` rows: free row r,
    no card, Stop on r, Front into r, Ascending onto r, Skip."""
    r = np.arange(rows)
    return np.concatenate([FREE_ROW_ACTION + r, [NO_CARD_ACTION], STOP_ACTION + r, FRONT_ACTION + r,
                           ASCENDING_ACTION + r, [SKIP_ACTION]]).astype(np.int64)


def option_features(view: BoardSeatView) -> NDArray[np.float32]:
    """(n, 4R + 2, K) the option rows of `view`'s entries (K = len(OPTION_FEATURES))."""
    layout = view.config.board
    R, F = layout.kind.shape
    n = view.n
    out = np.zeros((n, 4 * R + 2, len(OPTION_FEATURES)), dtype=np.float32)
    offer = view.is_asker & (view.ask == ASK_ACTION)
    free = view.is_asker & (view.ask == ASK_FREE_ROW)
    e = np.flatnonzero(offer | free)
    if not len(e):
        return out
    m = len(e)
    tiles, length = view.tiles[e].astype(np.int64), view.length[e].astype(np.intp)
    tile = view.revealed[e, 0].astype(np.int64)
    stops = view.stops[e]
    ends = row_ends(tiles, length)
    open_ends = np.where(stops, -1, ends)
    natural = target_rows(open_ends, tile[:, None])[0][:, 0]
    at = np.arange(m)
    every = np.broadcast_to(np.arange(R), (m, R))
    stop_ends = np.where(np.eye(R, dtype=bool)[None, :, :], -1, open_ends[:, None, :])  # (m, R stopped, R)
    stopped = target_rows(stop_ends, np.broadcast_to(tile[:, None, None], (m, R, 1)))[0][..., 0]  # (m, R)
    landings = [  # (row, field) per answer, each (m, k)
        (every, np.zeros((m, R), np.intp)),
        (natural[:, None], length[at, natural][:, None]),
        (stopped, np.take_along_axis(length, stopped, axis=1)),
        (every, np.zeros((m, R), np.intp)),
        (every, length),
        (natural[:, None], length[at, natural][:, None] + 1),
    ]
    row = np.concatenate([r for r, _ in landings], axis=1)
    field = np.minimum(np.concatenate([f for _, f in landings], axis=1), F - 1)
    answer = np.concatenate([np.full(r.shape[1], k) for k, (r, _) in enumerate(landings)])
    kind = layout.kind[row, field]
    take = is_take(kind)
    row_bulls = layout.tile_bulls[np.take_along_axis(tiles, row[:, :, None], axis=1).astype(np.intp)].sum(axis=2)
    points = np.where(take, -row_bulls, field_effect(layout, row, field, tile[:, None]))
    gain = np.where(answer[None, :] == 0, 0, points - points[:, [R]])  # column R: no card
    row_len = layout.row_len.astype(np.int64)[row]
    parts = [*(np.broadcast_to(answer == k, row.shape) for k in range(len(ANSWERS))),
             *(kind == k for k in range(len(KIND_NAMES))), points / POINT_SCALE, gain / POINT_SCALE, take,
             row_bulls / POINT_SCALE, field / F, np.maximum(row_len - 1 - field, 0) / F]
    feats = np.stack([np.asarray(a, dtype=np.float32) for a in parts], axis=-1)
    keep = np.where(free[e][:, None], answer[None, :] == 0, answer[None, :] > 0)  # the question's own answers
    out[e] = feats * keep[..., None]
    return out
