"""The legal answers of the rules' questions and the storing of an answer, one game at a
time, compiled like the placing (`place.py`).

Every question's legal answers are written here once (docs/rules/board-game.md): yes or
no ("+5", "2×"); a luck card from a stack that holds one; the pro side's free rows; and
the action-card offer — no card always, each card held where the rules allow it now.
The seat views' masks (`views.py`), the driver's checks and its random and
rollout answers (`play.py`) all read them. `store` is the one decoding of an answer into the state (`answer`,
`answer_arg`) that the placing then reads.
"""

from __future__ import annotations

from ..actions import (
    ANSWER_NO,
    ANSWER_YES,
    ASCENDING_ACTION,
    FREE_ROW_ACTION,
    FRONT_ACTION,
    LUCK_ACTION,
    N_ACTIONS,
    NO_CARD_ACTION,
    ONE_MORE_ACTION,
    SKIP_ACTION,
    STOP_ACTION,
    SWAP_ACTION,
)
from ..rules import ASCENDING, FRONT, ONE_MORE, PLUS5, SKIP, STOP, SWAP
from ..state import ASK_ACTION, ASK_FREE_ROW, ASK_LUCK_CARD, ASK_NONE, NO_CARD, NO_SEAT, PHASE_PICK
from . import inline
from .place import rules_row


@inline
def legal_answers(b, s, t, out):
    """Write the legal answers (action ids) of the question game b is asked into `out`,
    ascending; return how many. (Each candidate is written and kept by counting it, `n +=
    legal`, not behind a branch: which rows and tiles qualify is data no branch predictor
    learns, and the seat views list an offer per pro question; docs/speed.md.)"""
    ask = s.ask[b]
    if ask == ASK_ACTION:
        return offer_answers(b, s, t, out)
    n = 0
    if ask == ASK_FREE_ROW:
        for r in range(s.length.shape[1]):
            out[n] = FREE_ROW_ACTION + r
            n += s.length[b, r] == 0
    elif ask == ASK_LUCK_CARD:  # a luck card from a stack that holds one
        for kind in range(s.stack.shape[1]):
            out[n] = LUCK_ACTION[0] + kind
            n += s.stack[b, kind] > 0
    elif ask != ASK_NONE:  # use "+5" / "2×" now: no or yes
        out[0], out[1] = ANSWER_NO, ANSWER_YES
        n = 2
    return n


@inline
def allows(b, s, t, a):
    """Whether action `a` is one of `legal_answers(b, s, t)`: the same preconditions, checked
    for the one answer given (the step's check: no list of answers written and sorted)."""
    ask = s.ask[b]
    R = s.length.shape[1]
    if ask == ASK_ACTION:
        return offer_allows(b, s, t, a)
    if ask == ASK_FREE_ROW:
        return FREE_ROW_ACTION <= a < FREE_ROW_ACTION + R and s.length[b, a - FREE_ROW_ACTION] == 0
    if ask == ASK_LUCK_CARD:
        kind = a - LUCK_ACTION[0]
        return 0 <= kind < s.stack.shape[1] and s.stack[b, kind] > 0
    if ask != ASK_NONE:
        return a == ANSWER_NO or a == ANSWER_YES
    return False


@inline
def offer_allows(b, s, t, a):
    """Whether `a` is one of `offer_answers(b, s, t)` (its preconditions, one answer)."""
    if a == NO_CARD_ACTION:
        return True
    k = s.at[b]
    tile, seat = s.queue[b, k], s.queue_seat[b, k]
    R = s.length.shape[1]
    if STOP_ACTION <= a < STOP_ACTION + R:
        return s.action[b, STOP, seat] > 0 and s.stops_left[b] > 0 and is_open(b, s, t, a - STOP_ACTION)
    if FRONT_ACTION <= a < FRONT_ACTION + R:
        r = a - FRONT_ACTION
        return (s.action[b, FRONT, seat] > 0 and is_open(b, s, t, r) and s.tiles[b, r, 0] > tile
                and s.length[b, r] < t.row_len[r] - 1)
    if ASCENDING_ACTION <= a < ASCENDING_ACTION + R:
        r = a - ASCENDING_ACTION
        return s.action[b, ASCENDING, seat] > 0 and is_open(b, s, t, r) and s.tiles[b, r, s.length[b, r] - 1] < tile
    if a == SKIP_ACTION:
        if s.action[b, SKIP, seat] == 0:
            return False
        row = rules_row(b, s, t, tile)
        return s.length[b, row] + 1 < t.row_len[row] - 1
    if SWAP_ACTION <= a < ONE_MORE_ACTION:  # Swap / One more: a tile of the hand, the card held
        kind, wanted = SWAP, a - SWAP_ACTION + 1
    elif ONE_MORE_ACTION <= a < N_ACTIONS:
        kind, wanted = ONE_MORE, a - ONE_MORE_ACTION + 1
    else:
        return False
    if s.action[b, kind, seat] == 0:
        return False
    h = 0
    while h < s.hands.shape[2] and s.hands[b, seat, h] > 0:
        if s.hands[b, seat, h] == wanted:
            return True
        h += 1
    return False


@inline
def is_open(b, s, t, r):
    """An active row without a stop sign: a row a tile may join. (Both tests made, no
    branch: `legal_answers` counts rows by it.)"""
    return (s.length[b, r] > 0) & ((not t.pro) | (not s.stops[b, r]))


@inline
def offer_answers(b, s, t, out):
    """The action-card offer for game b's current tile (the preconditions of
    docs/rules/board-game.md, "Professional side"): no card; Stop on an open row while a
    stop sign is left; Front into an open row whose first tile is higher, with a free
    field before its take field; Ascending onto an open row the tile is higher than;
    Skip while the rules' row has two free fields before its take field; Swap and One
    more with any tile of the hand (each tile at its rank in the hand: ascending).
    Candidates are kept by counting, as in `legal_answers`."""
    k = s.at[b]
    tile, seat = s.queue[b, k], s.queue_seat[b, k]
    R = s.length.shape[1]
    out[0] = NO_CARD_ACTION
    n = 1
    if s.action[b, STOP, seat] > 0 and s.stops_left[b] > 0:
        for r in range(R):
            out[n] = STOP_ACTION + r
            n += is_open(b, s, t, r)
    if s.action[b, FRONT, seat] > 0:
        for r in range(R):
            out[n] = FRONT_ACTION + r
            n += is_open(b, s, t, r) & (s.tiles[b, r, 0] > tile) & (s.length[b, r] < t.row_len[r] - 1)
    if s.action[b, ASCENDING, seat] > 0:
        for r in range(R):
            out[n] = ASCENDING_ACTION + r
            # (an empty row reads its last field here, index -1: not open, not kept)
            n += is_open(b, s, t, r) & (s.tiles[b, r, s.length[b, r] - 1] < tile)
    if s.action[b, SKIP, seat] > 0:
        row = rules_row(b, s, t, tile)
        out[n] = SKIP_ACTION
        n += s.length[b, row] + 1 < t.row_len[row] - 1
    swap = s.action[b, SWAP, seat] > 0
    more = s.action[b, ONE_MORE, seat] > 0
    if swap or more:  # one answer per tile in hand while the card is held: Swap's, then One more's
        held = 0
        while held < s.hands.shape[2] and s.hands[b, seat, held] > 0:
            held += 1
        swaps = held if swap else 0
        for h in range(held):
            x = s.hands[b, seat, h]
            rank = 0  # (the tiles are distinct: their ranks are 0..held-1)
            for g in range(held):
                rank += s.hands[b, seat, g] < x
            if swap:
                out[n + rank] = SWAP_ACTION + int(x) - 1  # (int: a NumPy int8 would overflow without the JIT)
            if more:
                out[n + swaps + rank] = ONE_MORE_ACTION + int(x) - 1
        n += swaps + (held if more else 0)
    return n


@inline
def store(b, s, action):
    """Game b's asker answers `action` (legal): the answer is stored for the stage that
    asked (`answer`: 0/1 for no/yes, the luck card's kind, the card's kind or NO_CARD, the
    free row; `answer_arg`: the card's row or tile), and the placing may go on."""
    ask = s.ask[b]
    if ask == ASK_ACTION:
        kind, arg = decode_play(action)
        s.answer[b], s.answer_arg[b] = kind, arg
    elif ask == ASK_FREE_ROW:
        s.answer[b], s.answer_arg[b] = action - FREE_ROW_ACTION, 0
    elif action >= LUCK_ACTION[PLUS5]:
        s.answer[b] = action - LUCK_ACTION[PLUS5]
    else:
        s.answer[b] = action - ANSWER_NO
    s.phase[b] = PHASE_PICK
    s.ask[b] = ASK_NONE
    s.asker[b] = NO_SEAT
    s.answered[b] = True


@inline
def decode_play(action):
    """An answer to the offer -> (kind, argument): NO_CARD or the card kind; the row
    (Stop, Front, Ascending) or the tile (Swap, One more), 0 otherwise."""
    if action >= ONE_MORE_ACTION:
        return ONE_MORE, action - ONE_MORE_ACTION + 1
    if action >= SWAP_ACTION:
        return SWAP, action - SWAP_ACTION + 1
    if action >= SKIP_ACTION:
        return SKIP, 0
    if action >= ASCENDING_ACTION:
        return ASCENDING, action - ASCENDING_ACTION
    if action >= FRONT_ACTION:
        return FRONT, action - FRONT_ACTION
    if action >= STOP_ACTION:
        return STOP, action - STOP_ACTION
    return NO_CARD, 0
