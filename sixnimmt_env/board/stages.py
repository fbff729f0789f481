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
from . import actioncards, kernel, kernel_state
from .actions import ANSWER_NO, FREE_ROW_ACTION, LUCK_ACTION, N_ACTIONS, decode, describe_action
from .events import BoardEvents
from .rules import ACTION_KINDS, DOUBLE, PLUS5
from .state import (
    ASK_ACTION,
    ASK_DOUBLE,
    ASK_FREE_ROW,
    ASK_LUCK_CARD,
    ASK_NONE,
    ASK_PLUS5,
    NO_SEAT,
    PHASE_PICK,
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
    ask = st.ask[games]
    actions = np.asarray(actions, dtype=np.int64)
    yes_no = (actions == ANSWER_NO) | (actions == ANSWER_NO + 1)
    kind = np.clip(actions - LUCK_ACTION[PLUS5], 0, 1)
    luck = ((actions == LUCK_ACTION[PLUS5]) | (actions == LUCK_ACTION[DOUBLE])) & (st.stack[kind, games] > 0)
    ok = np.where(ask == ASK_LUCK_CARD, luck, yes_no)
    pro = (ask == ASK_ACTION) | (ask == ASK_FREE_ROW)
    if pro.any():
        g = games[pro]
        legal = np.where((ask[pro] == ASK_ACTION)[:, None], action_options(st, g), actioncards.free_rows(st, g))
        a = actions[pro]
        ok[pro] = (a >= 0) & (a < N_ACTIONS) & legal[np.arange(len(g)), np.clip(a, 0, N_ACTIONS - 1)]
    if validate and not ok.all():
        j = int(np.flatnonzero(~ok)[0])
        b = games[j]
        legal = ""
        if pro[j]:  # name the legal answers, as the rules allow them now
            g = np.array([b])
            mask = action_options(st, g) if ask[j] == ASK_ACTION else actioncards.free_rows(st, g)
            legal = "; legal: " + ", ".join(f"{a} ({describe_action(int(a))})" for a in np.flatnonzero(mask[0]))
        raise IllegalActionError(
            f"game {b}, seat {int(st.asker[b])}, turn {int(st.turn[b])}: action {int(actions[j])} does not "
            f"answer the question {_ASK_WORDS[int(ask[j])]}{legal}")
    st.answer[games] = decode(actions).astype(np.int8)
    if pro.any():
        g, a = games[pro], actions[pro]
        card, arg = actioncards.decode_play(a)
        st.answer[g] = np.where(ask[pro] == ASK_ACTION, card, a - FREE_ROW_ACTION).astype(np.int8)
        st.answer_arg[g] = arg
    st.phase[games] = PHASE_PICK
    st.ask[games] = ASK_NONE
    st.asker[games] = NO_SEAT
    st.answered[games] = True


_ASK_WORDS = {ASK_LUCK_CARD: "which luck card (+5 or 2x, from a stack that holds one)", ASK_PLUS5: "use +5 (yes or no)",
              ASK_DOUBLE: "use 2x (yes or no)", ASK_ACTION: "which action card, if any (one the rules allow now)",
              ASK_FREE_ROW: "which free row"}


def action_options(st: BoardState, games: NDArray) -> NDArray[np.bool_]:
    """(g, N_ACTIONS) the legal answers of the action-card offer in each of `games`."""
    _, tile, seat = _current(st, games)
    return actioncards.options(st, games, seat, tile)


def _current(st: BoardState, games: NDArray) -> tuple[NDArray, NDArray, NDArray]:
    """(k, tile, seat) of the tile being placed in each of `games`."""
    k = st.at[games].astype(np.intp)
    return k, st.queue[k, games].astype(np.intp), st.queue_seat[k, games].astype(np.intp)
