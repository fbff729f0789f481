"""The professional side's action cards, batched: the answers to the offer decoded
(`decode_play`, for the records and the table view) and the action deck's reshuffle
(docs/rules/board-game.md, "Variant 3"). The questions' legal answers are
`_kernel/answers.py`'s.

Carrying the cards out, the draw fields and the H fields are part of the placing
(`_kernel/place.py`). Hands on the pro side differ in size and grow: they are kept as tiles in
the first slots of a hand of N_TILES slots.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ..core import rng
from ._kernel import answers as kernel_answers
from .rules import ACTION_KINDS
from .state import BoardState

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
    """Answers to the offer -> (kind, argument), entry by entry: the kernels' one decoding
    (`kernel_answers.decode_play`, run as Python) — NO_CARD or the card kind; the row
    (Stop, Front, Ascending) or the tile (Swap, One more), 0 otherwise."""
    a = np.asarray(actions, dtype=np.int64)
    pairs = [_decode(int(x)) for x in a.ravel()]
    kind = np.array([k for k, _ in pairs], dtype=np.int8).reshape(a.shape)
    arg = np.array([x for _, x in pairs], dtype=np.int8).reshape(a.shape)
    return kind, arg


_decode = getattr(kernel_answers.decode_play, "py_func", kernel_answers.decode_play)  # (the function itself with the JIT off)
