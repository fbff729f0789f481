"""The card games' worlds: whole states a seat cannot tell from the real one (`SeatView.worlds`).

A world is the real game copied — every public field as it is: the rows and their points,
the round's starters, who played what in each turn, the cards waiting for a row, the
scores, the dealer, the round, the phase — with the two hidden things dealt anew: the
other seats' hands (from the cards the seat has not seen, uniformly or from a belief) and
the game's seed (later rounds are dealt from it, so it would tell them). Copying the state
rather than rebuilding it field by field is the point: a field added to the state is in
every world without a search knowing of it.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ..core.worlds import deal_hands
from .rules import HAND_SIZE
from .state import State

_SEED_LIMIT = 1 << 62


def deal_worlds(view, entries: NDArray, count: int, rng: np.random.Generator,
                deal: NDArray | None = None) -> State:
    """`count` worlds of each of `entries` of `view` (a cards SeatView): world r of entry i
    is game i * count + r. `deal` (len(entries), N+1, P): per entry, each card's
    probability of being held by relative seat j (columns 0..P-2 for seats 1..P-1) or not
    dealt (column P-1), e.g. `BeliefModel.of_view`; None: uniform. A card the seat has
    seen is never dealt, whatever `deal` says."""
    entries = np.asarray(entries, dtype=np.intp).reshape(-1)
    if count < 1:
        raise ValueError("count must be >= 1")
    P = view.players
    st = view._st.take(np.repeat(view.games[entries], count))
    W = st.batch_size
    # every seat holds as many cards as the observer (the turn's revealed cards are out of all hands)
    counts = np.repeat(view.hand_size[entries, None], P - 1, axis=1)
    others = deal_hands(view.unseen[entries], counts, count, rng, deal)  # (W, P-1, h)
    hands = np.zeros((W, P - 1, HAND_SIZE), dtype=st.hands.dtype)
    hands[:, :, :others.shape[2]] = others
    seats = np.repeat(view.seats[entries], count)
    worlds = np.arange(W)
    for j in range(1, P):
        st.hands[(seats + j) % P, :, worlds] = hands[:, j - 1]
    st.seed[:] = rng.integers(0, _SEED_LIMIT, size=W, dtype=np.uint64)
    return st
