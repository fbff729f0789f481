"""The card games' action encoding: one Discrete space for every phase.

N = the variant's number of card ids:

| action | meaning |
| --- | --- |
| 0 .. N-1 | play card id `action + 1` (cards phase) |
| N .. N+3 | pick row `action - N` (the chooser, in the row phase: the row a too-low card takes, or in Die Sechste the twin-ended row a card goes behind) |
| N+4 | pass: this seat has nothing to decide in this step |

The engine itself takes card ids in the cards phase and row indices in the row phase;
`engine_actions` translates.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from .rules import N_ROWS, RuleConfig
from .state import PHASE_CARDS


def action_size(config: RuleConfig) -> int:
    """Number of discrete actions: cards, rows, pass."""
    return config.variant_data.n_ids + N_ROWS + 1


def card_action(card):
    """The action that plays card id `card` (scalar or array)."""
    return card - 1


def row_action(config: RuleConfig, row) -> NDArray:
    """The action that takes row `row`."""
    return config.variant_data.n_ids + np.asarray(row)


def pass_action(config: RuleConfig) -> int:
    """The action of a seat with nothing to decide."""
    return config.variant_data.n_ids + N_ROWS


def engine_actions(config: RuleConfig, phase: NDArray, actions: NDArray) -> NDArray[np.int64]:
    """Encoded actions -> what the engine takes: card ids in the cards phase, rows after."""
    n_ids = config.variant_data.n_ids
    actions = np.asarray(actions, dtype=np.int64)
    return np.where(np.asarray(phase) == PHASE_CARDS, actions + 1, actions - n_ids)


def describe_action(config: RuleConfig, action: int) -> str:
    """An action in words, for error messages."""
    n = config.variant_data.n_ids
    if 0 <= action < n:
        return f"play card {config.variant_data.card_name(action + 1)}"
    if n <= action < n + N_ROWS:
        return f"take row {action - n}"
    if action == n + N_ROWS:
        return "pass"
    return "out of range"
