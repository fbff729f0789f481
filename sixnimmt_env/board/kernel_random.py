"""Random play in one compiled call a turn: the fast path of the benchmark (and of any
caller that plays uniformly at random), compiled like the placing (`kernel.py`).

A game picking puts out a random tile per seat (`kernel_turns.put_out` by fraction of
the hand) and places; a game asked a question answers it with a uniformly random legal
answer (`kernel_answers.legal_answers`, the rules the seat views' masks and the answer
checks use) and places on, question after question, so the rules' questions of a turn
cost no trip back to Python. The random numbers come from the caller (NumPy), one
row per game (a game's numbers in one cache line).
"""

from __future__ import annotations

from numba import njit

from . import kernel_answers, kernel_turns
from .kernel import ASKED, PICKING, place_on
from .state import PHASE_ASK


@njit(cache=True, nogil=True, _nrt=False)
def play_random(s, t, e, games, uniforms, scratch, status):
    """Every game of `games` (j-th: row j of `uniforms`, (g, P + K) in [0, 1)):
    picking, seat p puts out the tile at fraction uniforms[j, p] of its hand; asked,
    it answers its next K questions with uniforms[j, P:] (the legal answer at that
    fraction of the legal answers), placing on between them. status[j]: why game j
    stopped (kernel.py's codes; ASKED when its K answers are used up)."""
    P = s.hands.shape[1]
    K = uniforms.shape[1] - P
    for j in range(len(games)):
        b = games[j]
        asked = s.phase[b] == PHASE_ASK
        if not asked and not kernel_turns.put_out(s, t, b, uniforms, j, True):
            status[j] = PICKING
            continue
        # One loop places after the put-out and after each answer, so the stage machine
        # is inlined here once: 9,149 instructions, 13,288 with two copies (docs/speed.md).
        i = 0
        while True:
            why = ASKED if asked else place_on(s, t, e, False, b)
            if why != ASKED or i == K:
                break
            n = kernel_answers.legal_answers(s, t, b, scratch)
            kernel_answers.store(s, b, scratch[int(uniforms[j, P + i] * n)])
            asked = False
            i += 1
        status[j] = why
