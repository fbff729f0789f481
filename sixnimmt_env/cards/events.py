"""What one engine step did, for records, renderers and studies (built only when asked for).

`step(..., report=True)` fills a `StepEvents`; the fast path builds none. Each placement
also says which rule, if any, decided its row or made it take one (`StepEvents.rule`),
so nothing outside the engine has to follow the row ends to find out.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from .rules import ROW_CAPACITY
from .state import NO_SEAT

# Bit flags of StepEvents.rule: why a card went to its row, or took it. A placement may
# carry several (a card behind its twin at the end of a full row: RULE_ON_TWIN | RULE_SIXTH).
RULE_NONE = 0  # Rules 1–2 alone: the card joined the row that ends closest below it
RULE_TOO_LOW = 1 << 0  # Rule 4: lower than every row end, it took a row (chosen or cheapest)
RULE_SIXTH = 1 << 1  # Rule 3: its row held five cards, it took them (not for a too-low card)
RULE_ON_TWIN = 1 << 2  # Die Sechste: its row ended in its twin (same ladder value)
RULE_TWIN_SHORTER = 1 << 3  # Die Sechste: behind two rows ending in twins, the rule picked
#   the row: the shorter one, or under row_choice="cheapest" on equal length the cheaper
RULE_TWIN_CHOICE = 1 << 4  # Die Sechste: behind two equally long twin-ended rows, its
#   owner chose the row (row_choice="player")
RULE_NAMES = {RULE_TOO_LOW: "too_low", RULE_SIXTH: "sixth", RULE_ON_TWIN: "on_twin",
              RULE_TWIN_SHORTER: "twin_shorter", RULE_TWIN_CHOICE: "twin_choice"}


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
        rule: (P, B) uint8, RULE_* bit flags of that placement (RULE_NONE where nothing
            special happened or nothing was placed). A card that waits for its owner's
            row choice is flagged once, in the step that places it.
        chooser: (B,) int16, the seat asked to pick a row after this step, else NO_SEAT.
        round_over: (B,) bool, a round ended in this step.
        round_penalty: (P, B) int16, the penalties of that round (0 elsewhere).
    """

    # One array per fact (documented above): the scan pairs such field lists with other games' by shape alone.
    card: NDArray[np.int16]
    seat: NDArray[np.int16]
    row: NDArray[np.int16]
    taken: NDArray[np.int16]
    taken_bulls: NDArray[np.int16]
    rule: NDArray[np.uint8]
    chooser: NDArray[np.int16]
    round_over: NDArray[np.bool_]
    round_penalty: NDArray[np.int16]

    @classmethod
    def empty(cls, players: int, batch: int) -> "StepEvents":
        """Events of a step in which nothing has happened yet."""
        def z(*shape):
            return np.zeros(shape + (batch,), dtype=np.int16)
        return cls(z(players), z(players), z(players), z(players, ROW_CAPACITY), z(players),
                   np.zeros((players, batch), dtype=np.uint8),
                   np.full(batch, NO_SEAT, np.int16), np.zeros(batch, dtype=bool), z(players))

    def record(self, k: int, gi: NDArray, card: NDArray, seat: NDArray, row: NDArray,
               before: NDArray, count: NDArray, take: NDArray, pen: NDArray, rule: NDArray) -> None:
        """Fill placement k of games `gi` (b,).

        Args:
            card, seat, row: (b,) what was placed (card 0: nothing), by whom, where.
            before: (C, b) the row's card slots before the card (stale beyond `count`).
            count: (b,) cards in the row before the card.
            take: (b,) bool, the card took the row.
            pen: (b,) bullheads taken.
            rule: (b,) RULE_* flags.
        """
        held = np.arange(ROW_CAPACITY)[:, None] < count[None, :]
        self.card[k, gi], self.seat[k, gi], self.row[k, gi] = card, seat, row
        self.taken[k][:, gi] = before * held * take
        self.taken_bulls[k, gi] = pen
        self.rule[k, gi] = rule
