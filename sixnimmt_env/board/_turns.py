"""A turn's bookkeeping over the batch that NumPy keeps (the tiles put out, the reveal and
the end of a turn are compiled, `_kernel/turns.py`): the refill, at most once a game, and
the start of the first turn of a deal. A game's end (the pro side's final scoring, then
PHASE_OVER) has one home, the compiled `_kernel/turns.end_game`: the driver ends a game
without a refill there (4 players or more), `hands_empty` the others."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ._kernel import inputs
from ._kernel import turns as kernel_turns
from .rules import HAND_SIZE
from .state import BoardState


def hands_empty(st: BoardState, games: NDArray, kin: inputs.Inputs) -> None:
    """The turn of `games` is over and their hands are empty (pro: some hand): refill once
    (2-3 players) and go on, else the game is over (`_kernel/turns.end_game`). `kin`: the
    state's kernel inputs (`inputs.fetch`)."""
    if len(games) == 0:
        return
    refilling = games[~st.refilled[games]] if st.config.refill else games[:0]
    if len(refilling):
        refill(st, refilling)
        if st.config.pro:  # a supply too short for a tile each leaves a hand empty: the end
            still = (st.hands[:, 0, refilling] == 0).any(axis=0)
            refilling = refilling[~still]
    over = np.setdiff1d(games, refilling) if len(refilling) else games  # (setdiff1d sorts: ~60 us a call)
    if len(over):
        kernel_turns.end_games(kin.s, kin.t, np.asarray(over, np.intp))
    start_turn(st, refilling, kin)


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


def start_turn(st: BoardState, games: NDArray, kin: inputs.Inputs | None = None) -> None:
    """A new turn: one tile each, or two while an active row has an uncovered play-two field.
    `kin`: the state's kernel inputs where the caller fetched them."""
    if len(games):
        kin = kin or inputs.fetch(st)
        kernel_turns.start_turns(kin.s, kin.t, np.asarray(games, np.intp))
