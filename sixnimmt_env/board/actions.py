"""The board game's action encoding: one Discrete space for every phase and variant.

| action | meaning |
| --- | --- |
| 0 .. 99 | put out tile `action + 1` (pick phases) |
| 100, 101 | no / yes (use "+5" now? use "2×" now?) |
| 102, 103 | take a "+5" / a "2×" luck card (a clover was passed) |
| 104 | pass: this seat has nothing to decide in this step |
| 105 .. 120 | pro: put the tile moved after a take into free row `action - 105` |
| 121 | pro: play no (more) action card on this tile |
| 122 .. 137 | pro: Stop on row `action - 122` |
| 138 .. 153 | pro: Front into row `action - 138` |
| 154 .. 169 | pro: Ascending onto row `action - 154` |
| 170 | pro: Skip |
| 171 .. 270 | pro: Swap: put out tile `action - 170` instead |
| 271 .. 370 | pro: One more: put out tile `action - 270` too |

The basic and luck variants never allow an action past 104. Rows in the encoding go up to
MAX_ACTION_ROWS; a pro layout with more rows is refused (rules.py).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from .rules import DOUBLE, LUCK_KINDS, MAX_ACTION_ROWS, N_TILES, PLUS5

N_TILE_ACTIONS = N_TILES
ANSWER_NO, ANSWER_YES = N_TILES, N_TILES + 1
LUCK_ACTION = (N_TILES + 2, N_TILES + 3)  # by kind: PLUS5, DOUBLE
PASS_ACTION = N_TILES + 4
FREE_ROW_ACTION = PASS_ACTION + 1  # + row
NO_CARD_ACTION = FREE_ROW_ACTION + MAX_ACTION_ROWS
STOP_ACTION = NO_CARD_ACTION + 1  # + row
FRONT_ACTION = STOP_ACTION + MAX_ACTION_ROWS  # + row
ASCENDING_ACTION = FRONT_ACTION + MAX_ACTION_ROWS  # + row
SKIP_ACTION = ASCENDING_ACTION + MAX_ACTION_ROWS
SWAP_ACTION = SKIP_ACTION + 1  # + tile - 1
ONE_MORE_ACTION = SWAP_ACTION + N_TILES  # + tile - 1
N_ACTIONS = ONE_MORE_ACTION + N_TILES


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
    if FREE_ROW_ACTION <= action < NO_CARD_ACTION:
        return f"put the tile into free row {action - FREE_ROW_ACTION + 1}"
    if action == NO_CARD_ACTION:
        return "play no action card"
    for base, name in ((STOP_ACTION, "Stop on"), (FRONT_ACTION, "Front into"), (ASCENDING_ACTION, "Ascending onto")):
        if base <= action < base + MAX_ACTION_ROWS:
            return f"{name} row {action - base + 1}"
    if action == SKIP_ACTION:
        return "Skip"
    if SWAP_ACTION <= action < ONE_MORE_ACTION:
        return f"Swap for tile {action - SWAP_ACTION + 1}"
    if ONE_MORE_ACTION <= action < N_ACTIONS:
        return f"One more: tile {action - ONE_MORE_ACTION + 1}"
    return "out of range"


assert LUCK_ACTION[DOUBLE] == LUCK_ACTION[PLUS5] + 1
