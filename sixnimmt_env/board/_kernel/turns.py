"""A turn's bookkeeping for one game, compiled like the placing (`place.py`): tiles put
out by hand slot, the reveal into the placing queue (lowest first), the end of a turn
and the start of the next (one tile or two). `turns.py` drives these over the batch and
keeps, in NumPy, what happens at most twice a game: the refill and the end of the game.
"""

from __future__ import annotations

from ..layout import PLAY_TWO
from ..rules import STOP_SIGNS
from ..state import PHASE_OVER, PHASE_PICK, PHASE_PICK_SECOND, STAGE_OFFER, STAGE_PLACE
from . import inline, kernel

# How put_out finds each seat's slot (the driver's policies, `play.py`).
# SLOT_OF_TILE: the tile actions[p, b] + 1 names (slot 0 when the hand holds no such tile: a pro pass), or the
# last tile held where actions[p, b] < 0 (the rollout's choice beside a given one).
SLOT_OF_TILE = 0
SLOT_AT_FRACTION = 1  # the slot at fraction numbers[j, p] of the tiles held
SLOT_LAST = 2  # the last tile held
# SLOT_FOUND: slot and tiles held as found[j, p] gives them (slot << HELD_BITS | held), found by the step's check
# (`play.illegal_at`), so a given tile's hand is searched once a step
SLOT_FOUND = 3
HELD_BITS = 8  # (a hand holds fewer than 2^8 tiles)


@inline
def put_out(b, s, t, how, actions, numbers, found, j):
    """Every seat of game b puts out a tile of its hand, its slot found `how` (swap-remove:
    the held tiles stay in front; an empty pro hand puts out nothing). Returns whether the
    game's tiles are all out, so its placing starts (then revealed)."""
    second = s.phase[b] == PHASE_PICK_SECOND
    count = 0
    for p in range(s.hands.shape[1]):
        if how == SLOT_FOUND:
            count = found[j, p] & ((1 << HELD_BITS) - 1)
        elif p == 0 or t.pro:  # on the basic side every seat holds as many tiles
            count = 0
            while count < s.hands.shape[2] and s.hands[b, p, count] > 0:
                count += 1
        last = max(count - 1, 0)
        if how == SLOT_LAST:
            slot = last
        elif how == SLOT_AT_FRACTION:
            slot = int(numbers[j, p] * count)
        elif how == SLOT_FOUND:
            slot = found[j, p] >> HELD_BITS
        elif actions[p, b] < 0:
            slot = last
        else:
            slot = 0
            tile = actions[p, b] + 1
            for h in range(count):
                if s.hands[b, p, h] == tile:
                    slot = h
                    break
        chosen = s.hands[b, p, slot]
        s.hands[b, p, slot] = s.hands[b, p, last]
        s.hands[b, p, last] = 0
        s.picked[b, 1 if second else 0, p] = chosen
    if not second and s.picks[b] == 2:
        s.phase[b] = PHASE_PICK_SECOND
        return False
    reveal(b, s, t)
    return True


@inline
def reveal(b, s, t):
    """Sort the tiles put out in game b into its placing queue, lowest first."""
    Q = s.queue.shape[1]
    for q in range(Q):
        s.queue[b, q] = 0
        s.queue_seat[b, q] = 0
    n = 0
    for i in range(s.picks[b]):
        for p in range(s.hands.shape[1]):
            x = s.picked[b, i, p]
            if x == 0:
                continue
            m = n
            while m > 0 and s.queue[b, m - 1] > x:
                s.queue[b, m], s.queue_seat[b, m] = s.queue[b, m - 1], s.queue_seat[b, m - 1]
                m -= 1
            s.queue[b, m], s.queue_seat[b, m] = x, p
            n += 1
    s.at[b] = 0
    s.stage[b] = STAGE_OFFER if t.pro else STAGE_PLACE
    s.phase[b] = PHASE_PICK  # placing: not waiting for anyone


@inline
def end_turn(b, s, t):
    """Turn over in game b: luck cards become usable, stop signs come off. Returns whether
    the next turn started; False where the hands are empty (every hand; pro: some hand),
    for the caller's refill or end of the game."""
    s.turn[b] += 1
    P = s.hands.shape[1]
    if t.luck:
        for kind in range(s.luck_new.shape[1]):
            for p in range(P):
                s.luck_new[b, kind, p] = 0
    for i in range(s.picked.shape[1]):
        for p in range(P):
            s.picked[b, i, p] = 0
    for q in range(s.queue.shape[1]):
        s.queue[b, q] = 0
        if t.pro:
            s.queue_extra[b, q] = False
    s.at[b] = 0
    s.stage[b] = STAGE_OFFER if t.pro else STAGE_PLACE
    empty = s.hands[b, 0, 0] == 0
    if t.pro:
        for r in range(s.stops.shape[1]):
            s.stops[b, r] = False
        s.stops_left[b] = STOP_SIGNS
        for p in range(P):
            if s.hands[b, p, 0] == 0:
                empty = True
    if empty:
        return False
    start_turn(b, s, t)
    return True


@inline
def start_turn(b, s, t):
    """A new turn in game b: one tile each, or two while an active row has an uncovered
    play-two field (pro: a field a Skip left empty stays uncovered) and the hands hold two."""
    two = False
    for r in range(s.length.shape[1]):
        n = s.length[b, r]
        if t.two_ahead[r, n]:
            two = True
        elif t.pro:
            for f in range(n):  # (the layout's kind first: few fields are play-two fields)
                if t.kind[r, f] == PLAY_TWO and s.tiles[b, r, f] == 0:
                    two = True
    if two:
        two = s.hands[b, 0, 1] > 0
        if t.pro:  # a seat holding one tile puts out one
            for p in range(s.hands.shape[1]):
                if s.hands[b, p, 1] > 0:
                    two = True
    s.picks[b] = 2 if two else 1
    s.phase[b] = PHASE_PICK


@kernel
def start_turns(s, t, games):
    for b in games:
        start_turn(b, s, t)


@inline
def end_game(b, s, t):
    """Game b is over (its hands are empty and none are refilled): the pro side's final
    scoring (every seat gains 1 point per action card in hand and loses the bullheads of
    every tile still in hand), then PHASE_OVER. The one home of a game's end: the driver
    ends a game here where no refill comes (4+ players, `place.place_on`), and `end_games`
    where NumPy's refill found none to make (`board/_turns.hands_empty`)."""
    if t.pro:
        for p in range(s.hands.shape[1]):
            points = 0
            for kind in range(s.action.shape[1]):
                points += s.action[b, kind, p]
            for h in range(s.hands.shape[2]):
                tile = s.hands[b, p, h]
                if tile == 0:  # the held tiles are in front (pro.hand_add, hand_remove)
                    break
                points -= t.bulls[tile]
            s.score[b, p] += points
    s.phase[b] = PHASE_OVER


@kernel
def end_games(s, t, games):
    """`end_game` of every game of `games` (the NumPy side's end of a game, after a
    refill or where a pro supply is too short for one)."""
    for b in games:
        end_game(b, s, t)
