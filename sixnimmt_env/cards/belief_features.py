"""What a belief model reads: for each card a seat has not seen, features of the public
play so far, per other seat (who might hold it) and for the card alone (left out of the deal?).

A belief model (agents/cards/belief.py) predicts, for every unseen card, which other
seat holds it or that it was not dealt. Everything here is public: the card's place on
the ladder against the rows, the turn, and, per other seat, the cards it revealed this
round (every revealed card is shown with its seat) and the bullheads it took. Nothing
reads another hand. Seats are relative, as in the observations: 1 is the seat to the
observer's left.

`belief_inputs(view)` gives, for the n entries of a SeatView:

  pair      (n, N+1, P-1, PAIR_FEATURES)  features of (card id, other seat)
  card      (n, N+1, CARD_FEATURES)       features of the card id alone
  possible  (n, N+1) bool                 the unseen cards: the only ones another seat
                                          can hold (own hand, rows, every revealed card: False)
  holds     (n,)                          cards each other seat holds (all hold as many as
                                          the observer: every seat plays one card a turn)
  left_out  (n,)                          unseen cards that were not dealt
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from .placement import target_rows
from .rules import HAND_SIZE, ROW_CAPACITY

if TYPE_CHECKING:  # for annotations only, as in encoding.py
    from .seat_view import SeatView

PAIR_FIELDS = (
    "the card's ladder value / N",
    "turns completed / 10",
    "share of the seat's revealed cards this round below the card (0: none revealed)",
    "ladder distance from the card to the seat's nearest revealed card / N (1: none)",
    "the seat's last revealed card / N (0: none)",
    "the seat's mean revealed card / N (0: none)",
    "bullheads the seat took this round / 20",
    "1 if the card is lower than every row's end",
    "ladder gap from the row end it joins / N (too low: its value / N)",
    "cards in the row it joins / 5 (too low: 0)",
)
PAIR_FEATURES = len(PAIR_FIELDS)
CARD_FIELDS = (PAIR_FIELDS[0], PAIR_FIELDS[1], *PAIR_FIELDS[7:], "unseen cards / N")
CARD_FEATURES = len(CARD_FIELDS)
PENALTY_SCALE = 20.0


@dataclass
class BeliefInputs:
    """A belief model's inputs for n entries (see the module doc)."""

    pair: NDArray[np.float32]
    card: NDArray[np.float32]
    possible: NDArray[np.bool_]
    holds: NDArray[np.int64]
    left_out: NDArray[np.int64]


def revealed_by_seat(view: SeatView) -> NDArray[np.int16]:
    """(n, P, H) the card ids each seat (relative: 0 the observer) revealed in each turn of
    this round, 0 for turns not revealed yet: public, every revealed card shows its seat."""
    st, g = view._st, view._g
    P = view.players
    seats = (view.seats[:, None] + np.arange(P)[None, :]) % P  # (n, P) absolute seat of relative j
    played = st.played[:, seats, g[:, None]]  # (H, n, P)
    return played.transpose(1, 2, 0)


def belief_inputs(view: SeatView) -> BeliefInputs:
    """The belief model's inputs for every entry of `view`."""
    v = view.config.variant_data
    N, n, P = v.n_ids, view.n, view.players
    ids = np.arange(N + 1)
    value = v.order[ids].astype(np.float32)  # (N+1,)
    possible = view.unseen
    turn = view.turn.astype(np.float32)[:, None] / HAND_SIZE  # (n, 1)
    # the card against the rows
    last = view.row_last.astype(np.int64)
    target, low = target_rows(last, view.row_count, np.broadcast_to(v.order[ids], (n, N + 1)))
    target = np.maximum(target, 0)
    gap = np.where(low, value[None, :], value[None, :] - np.take_along_axis(last, target, axis=1)) / N
    count = np.where(low, 0, np.take_along_axis(view.row_count, target, axis=1)) / ROW_CAPACITY
    unseen = possible.sum(axis=1).astype(np.float32)[:, None] / N
    card = np.stack(np.broadcast_arrays(value[None, :] / N, turn, low.astype(np.float32), gap, count, unseen), axis=-1)
    # per other seat: what it revealed this round
    shown = revealed_by_seat(view)[:, 1:, :]  # (n, P-1, H) ids
    has = shown > 0
    shown_value = v.order[shown].astype(np.float32)  # (n, P-1, H)
    k = has.sum(axis=2)  # (n, P-1)
    below = ((shown_value[:, :, None, :] < value[None, None, :, None]) & has[:, :, None, :]).sum(axis=3)  # (n, P-1, N+1)
    share_below = below / np.maximum(k, 1)[:, :, None]
    dist = np.where(has[:, :, None, :], np.abs(shown_value[:, :, None, :] - value[None, None, :, None]), N).min(axis=3) / N
    # turns are revealed in order from the first: the last revealed one is at k - 1
    last_shown = np.take_along_axis(shown_value, np.maximum(k - 1, 0)[:, :, None], axis=2)[:, :, 0]
    last_shown = np.where(k > 0, last_shown, 0) / N
    mean_shown = (shown_value * has).sum(axis=2) / np.maximum(k, 1) / N
    taken = view.round_penalty[:, 1:].astype(np.float32) / PENALTY_SCALE  # (n, P-1)
    pair = np.empty((n, N + 1, P - 1, PAIR_FEATURES), np.float32)
    pair[..., 0] = (value / N)[None, :, None]
    pair[..., 1] = turn[:, :, None]
    pair[..., 2] = share_below.transpose(0, 2, 1)
    pair[..., 3] = dist.transpose(0, 2, 1)
    pair[..., 4] = last_shown[:, None, :]
    pair[..., 5] = mean_shown[:, None, :]
    pair[..., 6] = taken[:, None, :]
    pair[..., 7:] = card[:, :, None, 2:5]
    holds = view.hand_size.astype(np.int64)
    left_out = possible.sum(axis=1) - (P - 1) * holds
    return BeliefInputs(pair, card.astype(np.float32), possible, holds, left_out)
