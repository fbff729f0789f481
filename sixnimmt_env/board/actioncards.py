"""The professional side's action cards, batched: the answers to the offer decoded
(`decode_play`, for the records and the table view) and the action deck's reshuffle
(docs/rules/board-game.md, "Variant 3"). The questions' legal answers are
`kernel_answers.py`'s.

Carrying the cards out, the draw fields and the H fields are part of the placing
(`kernel.py`). Hands on the pro side differ in size and grow: they are kept as tiles in
the first slots of a hand of N_TILES slots.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ..core import rng
from .actions import (
    ASCENDING_ACTION,
    FRONT_ACTION,
    ONE_MORE_ACTION,
    SKIP_ACTION,
    STOP_ACTION,
    SWAP_ACTION,
)
from .rules import ACTION_KINDS, ASCENDING, FRONT, N_TILES, ONE_MORE, SKIP, STOP, SWAP
from .state import NO_CARD, BoardState

TAG_RESHUFFLE = np.uint64(0x1F83D9ABFB41BD6B)  # the action deck's reshuffles (counter: cards drawn so far)


def reshuffle(st: BoardState, b: int) -> None:
    """The discards of game b, shuffled, become its deck (a function of the game's seed and
    how many cards it has drawn)."""
    kinds = np.repeat(np.arange(len(ACTION_KINDS)), st.discard[:, b]).astype(np.int8)
    if len(kinds) == 0:
        return
    key = rng.round_keys(st.seed[b:b + 1], TAG_RESHUFFLE, st.action_drawn[b:b + 1])
    order = rng.permutations(key, len(kinds))[0]
    st.deck[:, b] = 0
    st.deck[:len(kinds), b] = kinds[order]
    st.deck_at[b], st.deck_end[b] = 0, len(kinds)
    st.discard[:, b] = 0


def decode_play(actions: NDArray) -> tuple[NDArray[np.int8], NDArray[np.int8]]:
    """Answers to the offer -> (kind, argument): NO_CARD or the card kind; the row (Stop,
    Front, Ascending) or the tile (Swap, One more), 0 otherwise."""
    a = np.asarray(actions, dtype=np.int64)
    kind = np.full(a.shape, NO_CARD, dtype=np.int8)
    arg = np.zeros(a.shape, dtype=np.int8)
    for base, width, k in ((STOP_ACTION, FRONT_ACTION - STOP_ACTION, STOP),
                           (FRONT_ACTION, ASCENDING_ACTION - FRONT_ACTION, FRONT),
                           (ASCENDING_ACTION, SKIP_ACTION - ASCENDING_ACTION, ASCENDING),
                           (SKIP_ACTION, 1, SKIP), (SWAP_ACTION, N_TILES, SWAP), (ONE_MORE_ACTION, N_TILES, ONE_MORE)):
        hit = (a >= base) & (a < base + width)
        kind[hit] = k
        arg[hit] = (a[hit] - base + (1 if k in (SWAP, ONE_MORE) else 0)).astype(np.int8)
    return kind, arg
