"""What one engine step did, for records and renderers (built only when asked for).

`step(..., report=True)` fills a `StepEvents`; the fast path builds none.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from .rules import ROW_CAPACITY
from .state import NO_SEAT

@dataclass
class StepEvents:
    """What one step did, for records and renderers (built only when asked for).

    Placements are indexed by k, the placing order within the step (lowest card first;
    in a PHASE_ROW step k = 0 is the card whose owner just chose, then the turn's later
    cards).

    Attributes:
        card: (P, B) int16, id placed k-th in this step; 0 where nothing was placed.
        seat: (P, B) int16, who played it.
        row: (P, B) int16, the row it went to.
        taken: (P, C, B) int16, ids that seat took with that placement (0-padded).
        taken_bulls: (P, B) int16, bullheads of those cards.
        chooser: (B,) int16, the seat asked to pick a row after this step, else NO_SEAT.
        round_over: (B,) bool, a round ended in this step.
        round_penalty: (P, B) int16, the penalties of that round (0 elsewhere).
    """

    card: NDArray[np.int16]
    seat: NDArray[np.int16]
    row: NDArray[np.int16]
    taken: NDArray[np.int16]
    taken_bulls: NDArray[np.int16]
    chooser: NDArray[np.int16]
    round_over: NDArray[np.bool_]
    round_penalty: NDArray[np.int16]

    @classmethod
    def empty(cls, players: int, batch: int) -> "StepEvents":
        """Events of a step in which nothing has happened yet."""
        def z(*shape):
            return np.zeros(shape + (batch,), dtype=np.int16)
        return cls(z(players), z(players), z(players), z(players, ROW_CAPACITY), z(players),
                   np.full(batch, NO_SEAT, np.int16), np.zeros(batch, dtype=bool), z(players))

    def record(self, k: int, gi: NDArray, card: NDArray, seat: NDArray, row: NDArray,
               before: NDArray, count: NDArray, take: NDArray, pen: NDArray) -> None:
        """Fill placement k of games `gi` (b,).

        Args:
            card, seat, row: (b,) what was placed (card 0: nothing), by whom, where.
            before: (C, b) the row's card slots before the card (stale beyond `count`).
            count: (b,) cards in the row before the card.
            take: (b,) bool, the card took the row.
            pen: (b,) bullheads taken.
        """
        held = np.arange(ROW_CAPACITY)[:, None] < count[None, :]
        self.card[k, gi], self.seat[k, gi], self.row[k, gi] = card, seat, row
        self.taken[k][:, gi] = before * held * take
        self.taken_bulls[k, gi] = pen
