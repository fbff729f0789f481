"""The board game's action encoding: one Discrete space for every phase.

| action | meaning |
| --- | --- |
| 0 .. 99 | put out tile `action + 1` (pick phases) |
| 100, 101 | no / yes (use "+5" now? use "2×" now?) |
| 102, 103 | take a "+5" / a "2×" luck card (a clover was passed) |
| 104 | pass: this seat has nothing to decide in this step |
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from .rules import DOUBLE, LUCK_KINDS, N_TILES, PLUS5

N_TILE_ACTIONS = N_TILES
ANSWER_NO, ANSWER_YES = N_TILES, N_TILES + 1
LUCK_ACTION = (N_TILES + 2, N_TILES + 3)  # by kind: PLUS5, DOUBLE
PASS_ACTION = N_TILES + 4
N_ACTIONS = PASS_ACTION + 1


def tile_action(tile):
    """The action that puts out tile `tile` (scalar or array)."""
    return np.asarray(tile) - 1


def decode(actions: NDArray) -> NDArray[np.int64]:
    """Answer actions -> the answer: 0/1 for no/yes, the luck card's kind for 102/103."""
    actions = np.asarray(actions, dtype=np.int64)
    return np.where(actions >= LUCK_ACTION[PLUS5], actions - LUCK_ACTION[PLUS5], actions - ANSWER_NO)


def describe_action(action: int) -> str:
    """An action in words, for error messages."""
    if 0 <= action < N_TILE_ACTIONS:
        return f"put out tile {action + 1}"
    if action in (ANSWER_NO, ANSWER_YES):
        return "yes" if action == ANSWER_YES else "no"
    if action in LUCK_ACTION:
        return f"take a {LUCK_KINDS[LUCK_ACTION.index(action)]} luck card"
    if action == PASS_ACTION:
        return "pass"
    return "out of range"


assert LUCK_ACTION[DOUBLE] == LUCK_ACTION[PLUS5] + 1
