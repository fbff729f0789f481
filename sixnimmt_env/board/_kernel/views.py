"""What a seat view asks of the state, entry by entry in one compiled call: who must act,
the legal actions (tiles in hand, the legal answers of `answers.legal_answers`),
and a uniformly random legal action, so a view's questions cost no NumPy pass over the
(n, N_ACTIONS) masks (`seat_view.py`). `random_legal` is the public step's random action:
the statuses, NumPy's random numbers (`pcg64.py`) and the actions in one pass.
"""

from __future__ import annotations

from ..actions import ANSWER_NO, LUCK_ACTION, PASS_ACTION
from ..rules import DOUBLE, PLUS5
from ..state import ASK_ACTION, ASK_FREE_ROW, ASK_LUCK_CARD, PHASE_ASK, PHASE_PICK, PHASE_PICK_SECOND
from . import inline, kernel
from .answers import legal_answers
from .pcg64 import draw, jump, jumps_for

# An entry's decision (seat_status): none, a tile to put out, a yes/no or luck-card
# question, a pro question (an action card or a free row: answers chosen from a list).
IDLE, PICKING, ASKED, ASKED_PRO = 0, 1, 2, 3


@kernel
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
        status[i] = now = decision(games[i], phase, asker, ask, hands, seats[i])
        n_pick += now == PICKING
        n_ask += now >= ASKED
        n_pro += now == ASKED_PRO
    return n_pick, n_ask, n_pro


@inline
def decision(b, phase, asker, ask, hands, p):
    """Seat p's decision in game b (IDLE, PICKING, ASKED, ASKED_PRO)."""
    now = phase[b]
    if (now == PHASE_PICK or now == PHASE_PICK_SECOND) and hands[b, p, 0] > 0:  # held tiles in front
        return PICKING
    if now == PHASE_ASK and asker[b] == p:
        return ASKED_PRO if ask[b] == ASK_ACTION or ask[b] == ASK_FREE_ROW else ASKED
    return IDLE


@inline
def held(b, s, p):
    """Tiles in seat p's hand in game b (the held tiles are in front)."""
    n = 0
    while n < s.hands.shape[2] and s.hands[b, p, n] > 0:
        n += 1
    return n


@kernel
def hand_sizes(s, seats, games, size):
    """size[i]: tiles in seat seats[i]'s hand in game games[i]."""
    for i in range(len(games)):
        size[i] = held(games[i], s, seats[i])


@kernel
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
            for k in range(legal_answers(b, s, t, scratch)):
                mask[i, scratch[k]] = True
        else:
            mask[i, PASS_ACTION] = True


@kernel
def random_actions(s, t, seats, games, status, pick, ask, pro, scratch, out):
    """out[i]: a uniformly random legal action of entry i from the caller's numbers: the
    tile in hand slot pick[i] * (tiles held) (picking); no or yes by ask[i] < 0.5, a luck card
    likewise from the stacks that hold one (asked); the legal answer at fraction pro[k] of
    the legal answers for the k-th pro question; the pass otherwise."""
    k = 0
    for i in range(len(games)):
        now = status[i]
        out[i] = random_action(games[i], s, t, seats[i], now, pick[i] if now == PICKING else ask[i] if now == ASKED
                               else pro[k] if now == ASKED_PRO else 0.0, scratch)
        k += now == ASKED_PRO


@inline
def random_action(b, s, t, p, now, u, scratch):
    """Seat p's random legal action in game b, its decision `now`, from its number u in [0, 1):
    the tile in hand slot u * (tiles held); no or yes by u < 0.5, a luck card likewise from
    the stacks that hold one; the legal answer at fraction u of the legal answers; the pass."""
    if now == PICKING:
        return s.hands[b, p, int(u * held(b, s, p))] - 1
    if now == ASKED:
        second = 1 if u < 0.5 else 0
        if s.ask[b] == ASK_LUCK_CARD:
            if s.stack[b, PLUS5] == 0:
                second = 1
            elif s.stack[b, DOUBLE] == 0:
                second = 0
            return LUCK_ACTION[0] + second
        return ANSWER_NO + second
    if now == ASKED_PRO:
        return scratch[int(u * legal_answers(b, s, t, scratch))]
    return PASS_ACTION


@kernel
def random_legal(s, t, seats, games, state, jumps, status, scratch, out):
    """`seat_status` into `status` and `random_actions` into `out` in one pass, the numbers
    NumPy's PCG64 at `state` (`pcg64.words`) would give `seat_view.random_legal_actions`:
    n for the tiles when any entry picks, then n for the answers when any is asked, then one
    per pro question. Each entry's number is computed where it is used (a jump to it, the
    numbers between are not), and the generator is left where NumPy's draws leave it.
    `jumps` (2 * pcg64.SHORT, 2) uint64 is room. Returns the counts, as `seat_status`."""
    n = len(games)
    some_pick = some_ask = False  # which of the two draws of n NumPy makes
    for i in range(n):
        now = decision(games[i], s.phase, s.asker, s.ask, s.hands, seats[i])
        some_pick |= now == PICKING
        some_ask |= now >= ASKED
        if some_pick and some_ask:
            break
    jumps_for(state, jumps)
    pick_lo, pick_hi = state[0], state[1]  # each draw's state before its number `*_at`
    ask_lo, ask_hi = jump(pick_lo, pick_hi, n if some_pick else 0, jumps)
    pro_lo, pro_hi = jump(ask_lo, ask_hi, n if some_ask else 0, jumps)
    pick_at = ask_at = 0
    n_pick = n_ask = n_pro = 0
    for i in range(n):
        b, p = games[i], seats[i]
        status[i] = now = decision(b, s.phase, s.asker, s.ask, s.hands, p)
        u = 0.0
        if now == PICKING:
            pick_lo, pick_hi = jump(pick_lo, pick_hi, i + 1 - pick_at, jumps)
            pick_at = i + 1
            u = draw(pick_lo, pick_hi)
            n_pick += 1
        elif now == ASKED:
            ask_lo, ask_hi = jump(ask_lo, ask_hi, i + 1 - ask_at, jumps)
            ask_at = i + 1
            u = draw(ask_lo, ask_hi)
            n_ask += 1
        elif now == ASKED_PRO:
            pro_lo, pro_hi = jump(pro_lo, pro_hi, 1, jumps)
            u = draw(pro_lo, pro_hi)
            n_ask += 1
            n_pro += 1
        out[i] = random_action(b, s, t, p, now, u, scratch)
    state[0], state[1] = pro_lo, pro_hi  # (after the pro numbers: where NumPy's last draw leaves it)
    return n_pick, n_ask, n_pro
