"""What a step of the board engine placed, per tile of the turn's queue."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray


@dataclass
class BoardEvents:
    """What one step placed, per tile k of the turn's queue (built only when asked for).

    Attributes:
        tile: (Q, B) int8, the tile placed in this step at queue position k; 0 elsewhere.
        seat: (Q, B) int8, who put it out.
        row, field: (Q, B) int8, where it landed (before any move after a take).
        kind: (Q, B) int8, the kind of that field (layout kinds).
        points: (Q, B) int16, the points it brought its owner (all effects of the tile).
        taken: (Q, B) int8, tiles it took off the board (0: no take).
        moved_to: (Q, B) int8, the row it moved to after a take, -1 otherwise.
        plus5, double: (Q, B) bool, a "+5" / "2×" card was played on it.
        luck_gained: (Q, B) int8, luck cards its owner gained with it.
        turn_over: (B,) bool, a turn ended in this step.
    """

    tile: NDArray[np.int8]
    seat: NDArray[np.int8]
    row: NDArray[np.int8]
    field: NDArray[np.int8]
    kind: NDArray[np.int8]
    points: NDArray[np.int16]
    taken: NDArray[np.int8]
    moved_to: NDArray[np.int8]
    plus5: NDArray[np.bool_]
    double: NDArray[np.bool_]
    luck_gained: NDArray[np.int8]
    turn_over: NDArray[np.bool_]

    @classmethod
    def empty(cls, queue: int, batch: int) -> "BoardEvents":
        def z(dtype=np.int8):
            return np.zeros((queue, batch), dtype=dtype)
        return cls(z(), z(), z(), z(), z(), z(np.int16), z(), np.full((queue, batch), -1, np.int8),
                   z(bool), z(bool), z(), np.zeros(batch, dtype=bool))
