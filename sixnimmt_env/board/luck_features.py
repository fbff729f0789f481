"""The luck questions' option rows of the `tile-answers` observation: what each answer to
"+5 now?", "2x now?" and "which luck card?" would do.

Measured 2026-12-04 (4 players, 300 duplicate deals, seed 19, against three `mcs`): the
4-player luck network scored -8.92 points a game; the same network with its luck
questions answered by `mcs` -8.34, level with the `mcs` seats (-8.50); `mcs` with the
network's answers lost 0.9 points to its table. The network answered those questions from
its context head, a flat map of the whole observation, which has to work out from the
board, the tile and the score track what a "+5" here would bring; the pro side's offers
had the same trouble until their option rows (option_features.py). These rows write it
out, one per answer (`luck_option_actions`), and the tile scorer scores them with a
shared network of their own (agents/board/policy.py).

Each row (0 everywhere but for the seat asked a luck question, and but for the answers
of the question asked) holds `LUCK_FEATURES`:

| feature | meaning |
| --- | --- |
| is_* | one-hot question and answer: "+5" no / yes, "2x" no / yes, take a "+5" / a "2x" |
| kind_* | one-hot kind of the field the tile lands on ("+5" and "2x" questions) |
| points | the points the answer scores now / 10 (no: the field's effect or minus the row) |
| gain | points minus those of answering no / 10 |
| gained | luck cards the answer's score change gains (clovers passed, net loss only) |
| held | own luck cards of the kind the answer plays or takes / the kind's card count |
| stack | cards of that kind left in its stack / the kind's card count |
| row_bulls | bullheads of the row taken / 10 ("2x" question) |
| to_clover | the score minus the highest clover below it / 10 (a loss that large gains a card) |

An answer's legality is the action mask's business (a "take" from an empty stack is
masked); its row is filled in all the same.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from .actions import ANSWER_NO, ANSWER_YES, LUCK_ACTION
from .layout import KIND_NAMES
from .placement import field_effect, row_bullheads
from .rules import DOUBLE, PLUS5, PLUS5_POINTS, BoardConfig
from .seat_view import BoardSeatView
from .state import ASK_DOUBLE, ASK_LUCK_CARD, ASK_PLUS5
from .tile_features import POINT_SCALE

LUCK_ANSWERS = ("plus5_no", "plus5_yes", "double_no", "double_yes", "take_plus5", "take_double")
LUCK_FEATURES = (*(f"is_{a}" for a in LUCK_ANSWERS), *(f"kind_{k.replace(' ', '_')}" for k in KIND_NAMES),
                 "points", "gain", "gained", "held", "stack", "row_bulls", "to_clover")
LUCK_ROWS = 4  # no, yes, take a "+5", take a "2x"


def luck_option_actions() -> NDArray[np.int64]:
    """(LUCK_ROWS,) the action of each luck option row: no, yes, take "+5", take "2x"."""
    return np.array([ANSWER_NO, ANSWER_YES, LUCK_ACTION[PLUS5], LUCK_ACTION[DOUBLE]], dtype=np.int64)


def clovers_gained(clovers: NDArray, old: NDArray, new: NDArray) -> NDArray[np.int64]:
    """Luck cards score changes from `old` to `new` gain: one per clover c with new <= c < old,
    only for a net loss (the NumPy form of kernel_effects.clovers_passed, which the engine
    applies; tests/board/test_board_luck_features.py holds the two to each other)."""
    clovers = np.asarray(clovers, dtype=np.int64)
    old, new = np.asarray(old, dtype=np.int64), np.asarray(new, dtype=np.int64)
    passed = np.searchsorted(clovers, old) - np.searchsorted(clovers, new)
    return np.where(new < old, passed, 0)


def luck_bound(config: BoardConfig) -> float:
    """The largest |feature| a luck row can hold (the Field's bound): a "2x" take of a full
    row or a printed value in points / 10, the cards gained by one effect, a card count
    ratio; else 1."""
    layout = config.board
    R, F = layout.kind.shape
    take = 5 * (F + 2) / POINT_SCALE
    cards = max(config.plus5_cards, config.double_cards, 1)
    most_gained = max(len(layout.clovers), 1)
    return max(1.0, 2 * take, float(np.abs(layout.value).max(initial=0)) / POINT_SCALE, most_gained,
               127 / cards)


def luck_option_features(view: BoardSeatView) -> NDArray[np.float32]:
    """(n, LUCK_ROWS, K) the luck option rows of `view`'s entries (K = len(LUCK_FEATURES))."""
    config, layout = view.config, view.config.board
    n, K = view.n, len(LUCK_FEATURES)
    out = np.zeros((n, LUCK_ROWS, K), dtype=np.float32)
    ask = view.ask
    e = np.flatnonzero(view.is_asker & np.isin(ask, (ASK_PLUS5, ASK_DOUBLE, ASK_LUCK_CARD)))
    if not len(e):
        return out
    m = len(e)
    ask = ask[e]
    row, field = (np.asarray(a)[e].astype(np.intp) for a in view.current)
    tile = view.revealed[e, 0].astype(np.int64)
    plus5, double, card = ask == ASK_PLUS5, ask == ASK_DOUBLE, ask == ASK_LUCK_CARD
    row_tiles = view.tiles[e, row].astype(np.intp)  # (m, F) the row the tile lands in or takes
    row_bulls, best_two = row_bullheads(layout, row_tiles)
    effect = field_effect(layout, row, field, tile)
    # (m, 4) points by row (no, yes, take "+5", take "2x"): the card choice scores nothing
    no_points = np.select([plus5, double], [effect, -row_bulls], 0)
    yes_points = np.select([plus5, double], [np.full(m, PLUS5_POINTS), 2 * best_two - row_bulls], 0)
    points = np.stack([no_points, yes_points, np.zeros(m, np.int64), np.zeros(m, np.int64)], axis=1)
    score = view.scores[e, 0].astype(np.int64)
    gained = clovers_gained(layout.clovers, score[:, None], score[:, None] + points)
    which = np.stack([np.where(double, 2, 0), np.where(double, 3, 1), np.full(m, 4), np.full(m, 5)], axis=1)
    kind_of_row = np.stack([np.where(double, DOUBLE, PLUS5)] * 2 + [np.full(m, PLUS5), np.full(m, DOUBLE)], axis=1)
    counts = np.array([max(config.plus5_cards, 1), max(config.double_cards, 1)], dtype=np.float32)
    held = np.take_along_axis(view.luck[e, 0].astype(np.float32), kind_of_row, axis=1) / counts[kind_of_row]
    stack = np.take_along_axis(view.stack[e].astype(np.float32), kind_of_row, axis=1) / counts[kind_of_row]
    below = np.asarray(layout.clovers, dtype=np.int64)
    at = np.searchsorted(below, score, side="left") - 1  # the highest clover below the score: a loss
    # of at least score - c passes it (a clover at the score itself is passed by no loss)
    to_clover = np.where(at >= 0, score - below[np.maximum(at, 0)], 0) if len(below) else np.zeros(m, np.int64)
    kind = np.where(card, -1, layout.kind[row, field])
    parts = [*(which == k for k in range(len(LUCK_ANSWERS))),
             *(np.broadcast_to((kind == k)[:, None], (m, LUCK_ROWS)) for k in range(len(KIND_NAMES))),
             points / POINT_SCALE, (points - points[:, :1]) / POINT_SCALE, gained, held, stack,
             np.broadcast_to((np.where(double, row_bulls, 0) / POINT_SCALE)[:, None], (m, LUCK_ROWS)),
             np.broadcast_to((to_clover / POINT_SCALE)[:, None], (m, LUCK_ROWS))]
    feats = np.stack([np.asarray(a, dtype=np.float32) for a in parts], axis=-1)
    keep = np.where(card[:, None], np.arange(LUCK_ROWS) >= 2, np.arange(LUCK_ROWS) < 2)  # the question's answers
    out[e] = feats * keep[..., None]
    return out
