"""The batch side of the compiled driver (`_kernel/play.py`): the states' arrays handed to
it, its actions checked before it runs, and what it leaves to NumPy after it stops.

`play` runs the driver over a list of games under a policy (kernel_play's GIVEN, RANDOM,
ROLLOUT; GIVEN through the public step's machine code, `kernel_play.checked_step`
unchecked) and then `after_kernel` does, by each game's status, the refill or the
end of the game where the hands are empty and the action deck's reshuffle (the placing
then goes on). `illegal_action` words the first illegal action of a step, as
IllegalActionError, once the driver's check (`kernel_play.illegal_at`) found one;
`checked_step` is `Game.step`'s check and play in one compiled call.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ..core.errors import IllegalActionError
from . import actioncards
from ._events import BoardEvents
from ._kernel import inputs, place
from ._kernel import play as kernel_play
from ._kernel import views as kernel_views
from ._kernel.calls import Fast
from ._kernel.threads import run_blocks
from ._turns import hands_empty
from .actions import N_ACTIONS, N_TILE_ACTIONS, describe_action
from .rules import ACTION_KINDS
from .state import ASK_ACTION, ASK_DOUBLE, ASK_FREE_ROW, ASK_LUCK_CARD, ASK_PLUS5, PHASE_ASK, BoardState

NO_ACTIONS = np.zeros((0, 0), dtype=np.int64)  # a policy that reads no actions
NO_LIMIT = np.zeros(0, dtype=np.int64)  # ... no turn limit
NOT_FOUND = np.zeros((0, 0), dtype=np.int64)  # ... no slots found by a check (the driver searches the hands)
# The driver and the step's check called without numba's dispatch on every call (calls.py)
PLAY, CHECKED_STEP = Fast(kernel_play.play), Fast(kernel_play.checked_step)
# the statuses after_kernel acts on, one range of codes (its one-pass check)
assert (place.TURN_OVER, place.RESHUFFLE, place.BAD_SCRIPT) == tuple(range(place.TURN_OVER, place.BAD_SCRIPT + 1))


def play(st: BoardState, games: NDArray, policy: int, ev: BoardEvents | None = None, actions: NDArray = NO_ACTIONS,
         numbers: NDArray | None = None, limit: NDArray = NO_LIMIT, threads: int | None = 1,
         kin: inputs.Inputs | None = None) -> NDArray[np.int8]:
    """The driver over `games` (ascending indices) under `policy`, split over `threads`
    threads (None: all cores; `_kernel/threads.py`: the same games whatever the count), then
    `after_kernel`; returns each game's status (_kernel/place.py's codes). `kin`: the
    state's kernel inputs where the caller fetched them (`inputs.fetch`)."""
    games = np.asarray(games, dtype=np.intp)
    status = np.zeros(len(games), dtype=np.int8)
    if not len(games):
        return status
    if numbers is None:
        numbers = np.zeros((0, st.players), dtype=np.float32)
    kin = kin or inputs.fetch(st)
    s, t, e = kin.s, kin.t, inputs.events(ev)

    def block(lo: int, hi: int) -> None:
        some = numbers[lo:hi] if len(numbers) else numbers
        until = limit[lo:hi] if len(limit) else limit
        scratch = np.zeros(N_ACTIONS, dtype=np.int64)
        if policy == kernel_play.GIVEN:  # (GIVEN's own machine code: one compile less for a first game)
            CHECKED_STEP(s, t, e, ev is not None, games[lo:hi], actions, some, until, scratch, status[lo:hi], NOT_FOUND)
        else:
            PLAY(s, t, e, ev is not None, policy, games[lo:hi], actions, some, until, scratch, status[lo:hi], NOT_FOUND)

    run_blocks(block, len(games), threads)
    after_kernel(st, games, status, ev, kin)
    return status


def checked_step(st: BoardState, games: NDArray, actions: NDArray, ev: BoardEvents | None) -> None:
    """`Game.step` on `games` (ascending, not over): the check of `actions` (P, B) and the
    driver under GIVEN in one compiled call (`kernel_play.checked_step`, one thread), then
    `after_kernel`; IllegalActionError (`illegal_action`) with the state untouched where an
    action is not legal."""
    status = np.zeros(len(games), dtype=np.int8)
    kin = inputs.fetch(st)  # (once a step: every kernel of the step is handed these)
    if CHECKED_STEP(kin.s, kin.t, inputs.events(ev), ev is not None, games, actions,
                    np.zeros((0, st.players), dtype=np.float32), NO_LIMIT, np.zeros(N_ACTIONS, dtype=np.int64),
                    status, np.empty((len(games), st.players), dtype=np.int64)) >= 0:
        raise illegal_action(st, games, actions)
    after_kernel(st, games, status, ev, kin)


def after_kernel(st: BoardState, games: NDArray, status: NDArray, ev: BoardEvents | None,
                 kin: inputs.Inputs) -> None:
    """What the kernel leaves to NumPy, by the status it gave each of `games`: the refill
    or the end of the game where the hands are empty, the action deck's reshuffle (then
    the placing goes on), a replayed record's impossible draw (IllegalActionError). `kin`:
    the kernel inputs the step fetched."""
    # Most calls leave none of these (the codes TURN_OVER..BAD_SCRIPT): one pass says so,
    # where three masks and their fancy indexing cost ~25 µs a public step.
    if not (status.view(np.uint8) - np.uint8(place.TURN_OVER) <= place.BAD_SCRIPT - place.TURN_OVER).any():
        return
    empty = games[status == place.TURN_OVER]
    if len(empty):
        hands_empty(st, empty, kin)
    bad = games[status == place.BAD_SCRIPT]
    if len(bad):
        b = int(bad[0])
        n = int(st.action_drawn[b])
        wanted = ACTION_KINDS[int(st.action_script[n, b])]
        raise IllegalActionError(f"action card {n} drawn is {wanted!r}, but the deck holds no {wanted!r} card then")
    again = games[status == place.RESHUFFLE]
    if len(again):
        for b in again:
            actioncards.reshuffle(st, b)
        play(st, again, kernel_play.GIVEN, ev, kin=kin)  # (they take no decision: `kernel_play.placing`)


def illegal_action(st: BoardState, games: NDArray, actions: NDArray) -> IllegalActionError:
    """The error naming the first illegal action of `actions` (P, B) for `games`: an
    asker's answer first (in game order), then a tile not in the hand (seat first)."""
    asked = games[st.phase[games] == PHASE_ASK]
    if len(asked):
        answers = actions[st.asker[asked].astype(np.intp), asked]
        legal = answer_masks(st, asked)
        ok = (answers >= 0) & (answers < N_ACTIONS)
        ok[ok] = legal[np.flatnonzero(ok), answers[ok]]
        if not ok.all():
            j = int(np.flatnonzero(~ok)[0])
            b, ask = asked[j], int(st.ask[asked[j]])
            # name the legal answers of the pro questions, as the rules allow them now
            named = "; legal: " + ", ".join(f"{a} ({describe_action(int(a))})" for a in np.flatnonzero(legal[j]))
            return IllegalActionError(
                f"game {b}, seat {int(st.asker[b])}, turn {int(st.turn[b])}: action {int(answers[j])} does not "
                f"answer the question {ASK_WORDS[ask]}{named if ask in (ASK_ACTION, ASK_FREE_ROW) else ''}")
    picking = games[st.phase[games] != PHASE_ASK]
    picks = actions[:, picking]
    hands = st.hands[:, :, picking]  # (P, H, g)
    tiles = np.where((picks >= 0) & (picks < N_TILE_ACTIONS), picks + 1, -1)
    held = (hands == tiles[:, None, :]).any(axis=1)
    if st.config.pro:  # a pro hand can run out before the second play-two tile: that seat passes
        held |= hands[:, 0, :] == 0
    p, j = np.argwhere(~held)[0]
    b = picking[j]
    return IllegalActionError(
        f"game {b}, seat {p}, turn {int(st.turn[b])}: action {int(picks[p, j])} does not put out a "
        f"tile of the hand; tiles in hand: {sorted(int(t) for t in st.hands[p, :, b] if t)}")


ASK_WORDS = {ASK_LUCK_CARD: "which luck card (+5 or 2x, from a stack that holds one)", ASK_PLUS5: "use +5 (yes or no)",
             ASK_DOUBLE: "use 2x (yes or no)", ASK_ACTION: "which action card, if any (one the rules allow now)",
             ASK_FREE_ROW: "which free row"}


def answer_masks(st: BoardState, games: NDArray) -> NDArray[np.bool_]:
    """(g, N_ACTIONS) the legal answers of the question each of `games` is asked (the
    asker's rows of the seat views' masks, `kernel_views.action_masks`)."""
    games = np.asarray(games, dtype=np.intp)
    mask = np.zeros((len(games), N_ACTIONS), dtype=bool)
    if len(games):
        kin = inputs.fetch(st)
        kernel_views.action_masks(kin.s, kin.t,
                                  st.asker[games].astype(np.intp), games, np.full(len(games), kernel_views.ASKED, np.int8),
                                  np.zeros(N_ACTIONS, dtype=np.int64), mask)
    return mask
