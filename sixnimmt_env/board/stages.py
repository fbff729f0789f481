"""Placing a turn's tiles and the answers that resume it: the batch-level driver of the
placing kernel (`kernel.py`).

`run_stages` hands the games to place to the kernel, which walks each game's stages
(`BoardState.stage`) until it is asked a question (PHASE_ASK) or its turn is over (the
next turn starts in the kernel too; `after_kernel` does the rest in NumPy). `answer` checks and stores
the askers' answers, so the next `run_stages` goes on where each game stopped.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ..core.errors import IllegalActionError
from . import actioncards, kernel, kernel_answers, kernel_state
from .actions import N_ACTIONS, describe_action
from .events import BoardEvents
from .rules import ACTION_KINDS
from .state import (
    ASK_ACTION,
    ASK_DOUBLE,
    ASK_FREE_ROW,
    ASK_LUCK_CARD,
    ASK_PLUS5,
    BoardState,
)
from .turns import hands_empty


def run_stages(st: BoardState, run: NDArray[np.bool_], ev: BoardEvents | None) -> None:
    """Place on in every game of `run` until it is asked something or its turn ends."""
    games = np.flatnonzero(run)
    if len(games):
        status = np.zeros(len(games), dtype=np.int8)
        kernel.run_games(kernel_state.arrays(st), kernel_state.tables(st.config), kernel_state.events(ev),
                         ev is not None, games, status)
        after_kernel(st, games, status, ev)


def after_kernel(st: BoardState, games: NDArray, status: NDArray, ev: BoardEvents | None) -> None:
    """What the kernel leaves to NumPy, by the status it gave each of `games`: the refill
    or the end of the game where the hands are empty, the action deck's reshuffle (then
    the placing goes on), a replayed record's impossible draw (IllegalActionError)."""
    empty = games[status == kernel.TURN_OVER]
    if len(empty):
        hands_empty(st, empty)
    bad = games[status == kernel.BAD_SCRIPT]
    if len(bad):
        b = int(bad[0])
        n = int(st.action_drawn[b])
        wanted = ACTION_KINDS[int(st.action_script[n, b])]
        raise IllegalActionError(f"action card {n} drawn is {wanted!r}, but the deck holds no {wanted!r} card then")
    again = games[status == kernel.RESHUFFLE]
    if len(again):
        for b in again:
            actioncards.reshuffle(st, b)
        run = np.zeros(st.batch_size, dtype=bool)
        run[again] = True
        run_stages(st, run, ev)


def answer(st: BoardState, games: NDArray, actions: NDArray, validate: bool) -> None:
    """The askers of `games` answer their questions; the placing goes on from there."""
    actions = np.asarray(actions, dtype=np.int64)
    if validate:
        legal = answer_masks(st, games)
        ok = (actions >= 0) & (actions < N_ACTIONS)
        ok[ok] = legal[np.flatnonzero(ok), actions[ok]]
        if not ok.all():
            j = int(np.flatnonzero(~ok)[0])
            b, ask = games[j], int(st.ask[games[j]])
            # name the legal answers of the pro questions, as the rules allow them now
            named = "; legal: " + ", ".join(f"{a} ({describe_action(int(a))})" for a in np.flatnonzero(legal[j]))
            raise IllegalActionError(
                f"game {b}, seat {int(st.asker[b])}, turn {int(st.turn[b])}: action {int(actions[j])} does not "
                f"answer the question {_ASK_WORDS[ask]}{named if ask in (ASK_ACTION, ASK_FREE_ROW) else ''}")
    kernel_answers.store_answers(kernel_state.arrays(st), np.asarray(games, np.intp), actions)


_ASK_WORDS = {ASK_LUCK_CARD: "which luck card (+5 or 2x, from a stack that holds one)", ASK_PLUS5: "use +5 (yes or no)",
              ASK_DOUBLE: "use 2x (yes or no)", ASK_ACTION: "which action card, if any (one the rules allow now)",
              ASK_FREE_ROW: "which free row"}


def answer_masks(st: BoardState, games: NDArray) -> NDArray[np.bool_]:
    """(g, N_ACTIONS) the legal answers of the question each of `games` is asked
    (`kernel_answers.legal_answers`); all False where none is."""
    games = np.asarray(games, dtype=np.intp)
    mask = np.zeros((len(games), N_ACTIONS), dtype=bool)
    if len(games):
        kernel_answers.answer_masks(kernel_state.arrays(st), kernel_state.tables(st.config), games, mask,
                                    np.zeros(N_ACTIONS, dtype=np.int64))
    return mask
