"""What a seat view asks of the state, entry by entry in one compiled call: who must act,
the legal actions (tiles in hand, the legal answers of `answers.legal_answers`),
and a uniformly random legal action, so a view's questions cost no NumPy pass over the
(n, N_ACTIONS) masks (`seat_view.py`).
"""

from __future__ import annotations

from numba import njit

from ..actions import ANSWER_NO, LUCK_ACTION, PASS_ACTION
from ..rules import DOUBLE, PLUS5
from ..state import ASK_ACTION, ASK_FREE_ROW, ASK_LUCK_CARD, PHASE_ASK, PHASE_PICK, PHASE_PICK_SECOND
from . import inline
from .answers import legal_answers

# An entry's decision (seat_status): none, a tile to put out, a yes/no or luck-card
# question, a pro question (an action card or a free row: answers chosen from a list).
IDLE, PICKING, ASKED, ASKED_PRO = 0, 1, 2, 3


@njit(cache=True, nogil=True, _nrt=False)
def seat_status(phase, asker, ask, hands, seats, games, status):
    """status[i]: the decision of seat seats[i] in game games[i] (IDLE, PICKING, ASKED,
    ASKED_PRO); returns how many entries pick, are asked (ASKED or ASKED_PRO) and are
    asked a pro question (the counts `random_legal_actions` draws its numbers by).
    (The hand is not counted here: most of a pro game's steps are questions, and a pro
    hand has 100 slots; `hand_sizes` counts where asked.) Handed the four arrays it reads
    (`hands` game-major), not the whole state: unboxing ~40 arrays costs ~5 us a call, four
    calls a step."""
    n_pick = n_ask = n_pro = 0
    for i in range(len(games)):
        b, p = games[i], seats[i]
        now = phase[b]
        if (now == PHASE_PICK or now == PHASE_PICK_SECOND) and hands[b, p, 0] > 0:  # held tiles in front
            status[i] = PICKING
            n_pick += 1
        elif now == PHASE_ASK and asker[b] == p:
            n_ask += 1
            if ask[b] == ASK_ACTION or ask[b] == ASK_FREE_ROW:
                status[i] = ASKED_PRO
                n_pro += 1
            else:
                status[i] = ASKED
        else:
            status[i] = IDLE
    return n_pick, n_ask, n_pro


@inline
def held(s, b, p):
    """Tiles in seat p's hand in game b (the held tiles are in front)."""
    n = 0
    while n < s.hands.shape[2] and s.hands[b, p, n] > 0:
        n += 1
    return n


@njit(cache=True, nogil=True, _nrt=False)
def hand_sizes(s, seats, games, size):
    """size[i]: tiles in seat seats[i]'s hand in game games[i]."""
    for i in range(len(games)):
        size[i] = held(s, games[i], seats[i])


@njit(cache=True, nogil=True, _nrt=False)
def action_masks(s, t, seats, games, status, scratch, mask):
    """mask[i] (N_ACTIONS,): entry i's legal actions (mask all False on entry)."""
    for i in range(len(games)):
        b, p = games[i], seats[i]
        if status[i] == PICKING:
            h = 0
            while h < s.hands.shape[2] and s.hands[b, p, h] > 0:
                mask[i, s.hands[b, p, h] - 1] = True  # tile x is action x - 1
                h += 1
        elif status[i] != IDLE:
            for k in range(legal_answers(s, t, b, scratch)):
                mask[i, scratch[k]] = True
        else:
            mask[i, PASS_ACTION] = True


@njit(cache=True, nogil=True, _nrt=False)
def random_actions(s, t, seats, games, status, pick, ask, pro, scratch, out):
    """out[i]: a uniformly random legal action of entry i from the caller's numbers: the
    tile in hand slot pick[i] * (tiles held) (picking); no or yes by ask[i] < 0.5, a luck card
    likewise from the stacks that hold one (asked); the legal answer at fraction pro[k] of
    the legal answers for the k-th pro question; the pass otherwise."""
    k = 0
    for i in range(len(games)):
        b = games[i]
        if status[i] == PICKING:
            out[i] = s.hands[b, seats[i], int(pick[i] * held(s, b, seats[i]))] - 1
        elif status[i] == ASKED:
            second = 1 if ask[i] < 0.5 else 0
            if s.ask[b] == ASK_LUCK_CARD:
                if s.stack[b, PLUS5] == 0:
                    second = 1
                elif s.stack[b, DOUBLE] == 0:
                    second = 0
                out[i] = LUCK_ACTION[0] + second
            else:
                out[i] = ANSWER_NO + second
        elif status[i] == ASKED_PRO:
            out[i] = scratch[int(pro[k] * legal_answers(s, t, b, scratch))]
            k += 1
        else:
            out[i] = PASS_ACTION
