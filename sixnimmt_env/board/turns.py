"""A turn's bookkeeping over the batch that NumPy keeps (the tiles put out, the reveal and
the end of a turn are compiled, `_kernel/turns.py`): what comes at most twice a game, the
refill, the end of the game after it and the pro side's final scoring; and the start of the
first turn of a deal. (A game without a refill, 4 players or more, ends in the compiled
driver, `_kernel/turns.end_game`: the same scoring, compiled.)"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ._kernel import inputs
from ._kernel import turns as kernel_turns
from .rules import HAND_SIZE
from .state import PHASE_OVER, BoardState


def hands_empty(st: BoardState, games: NDArray) -> None:
    """The turn of `games` is over and their hands are empty (pro: some hand): refill once
    (2-3 players) and go on, else the game is over (pro: with its final scoring)."""
    if len(games) == 0:
        return
    refilling = games[~st.refilled[games]] if st.config.refill else games[:0]
    if len(refilling):
        refill(st, refilling)
        if st.config.pro:  # a supply too short for a tile each leaves a hand empty: the end
            still = (st.hands[:, 0, refilling] == 0).any(axis=0)
            refilling = refilling[~still]
    over = np.setdiff1d(games, refilling) if len(refilling) else games  # (setdiff1d sorts: ~60 us a call)
    if st.config.pro:
        final_scoring(st, over)
    st.phase[over] = PHASE_OVER
    start_turn(st, refilling)


def final_scoring(st: BoardState, games: NDArray) -> None:
    """Pro: every seat gains 1 point per action card in hand and loses the bullheads of
    every tile still in hand (`kernel_turns.final_scores`)."""
    if len(games):
        s = inputs.arrays(st)
        kernel_turns.final_scores(s.hands, s.action, s.score, inputs.tables(st.config).bulls,
                                  np.asarray(games, np.intp))


def refill(st: BoardState, games: NDArray) -> None:
    """Every seat draws 12 tiles from the supply, seat 0 first (pro: onto what it holds,
    an equal share of a supply shorter than 12 a seat)."""
    P = st.players
    if not st.config.pro:
        first = st.drawn[games].astype(np.intp)
        idx = first[None, :] + np.arange(P * HAND_SIZE)[:, None]  # (P*H, g)
        st.hands[:, :HAND_SIZE, games] = st.supply[idx, games[None, :]].reshape(P, HAND_SIZE, -1)
        st.drawn[games] += P * HAND_SIZE
    else:
        for b in games:  # once a game, at most twice a batch's life: plain loops
            left = int((st.supply[:, b] > 0).sum()) - int(st.drawn[b])
            share = min(HAND_SIZE, max(left, 0) // P)
            for p in range(P):
                count = int((st.hands[p, :, b] > 0).sum())
                first = int(st.drawn[b])
                st.hands[p, count:count + share, b] = st.supply[first:first + share, b]
                st.drawn[b] += share
    st.refilled[games] = True


def start_turn(st: BoardState, games: NDArray) -> None:
    """A new turn: one tile each, or two while an active row has an uncovered play-two field."""
    if len(games):
        kernel_turns.start_turns(inputs.arrays(st), inputs.tables(st.config), np.asarray(games, np.intp))
