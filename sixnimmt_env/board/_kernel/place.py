"""The placing of a turn's tiles, one game at a time in a compiled loop over the batch.

Every board rule that acts while tiles are placed (Rules 1-2 and the too-low exception,
the field effects, a take, the move to a free row, luck cards gained and played, the
pro side's action cards, draws and H fields) is written here once, as plain Python on
one game's entries of the state arrays (`state.py`; the pro side's hands, draws and
cards in `pro.py`, the field effects and luck cards in `effects.py`, the
questions' legal answers in `answers.py`), and compiled by numba (`@njit`):
the loop over the batch's games runs inside the compiled call, so branchy per-game
rules cost what they cost in C, with the state still the documented NumPy arrays. With
NUMBA_DISABLE_JIT=1 the same functions run as Python (the tests do, on a sample).

Each game walks the stages of its current tile (`BoardState.stage`, a per-game program
counter): it stops where the rules ask its owner something (`park`: PHASE_ASK, the
question in `ask`), and goes on from the same stage once `answers.store` has
stored the answer (`answer`, `answered`). `place_on` returns why a game stopped: a
question, the end of its turn (the next one started, or the hands are empty: the refill
or the end of the game follow in NumPy), or an action deck to reshuffle first (the
shuffle uses the counter-based generator of `core/rng.py`, in NumPy; the stage is left
untouched, so running it again goes on exactly there). The one compiled driver that
calls it is `play.play`.
"""

from __future__ import annotations

from ..layout import TAKE, TAKE_TO_HAND
from ..rules import ASCENDING, DOUBLE, FRONT, PLUS5, SKIP
from ..state import (
    ASK_ACTION,
    ASK_DOUBLE,
    ASK_FREE_ROW,
    ASK_LUCK_CARD,
    ASK_PLUS5,
    NO_CARD,
    PHASE_ASK,
    STAGE_FREE,
    STAGE_GAIN,
    STAGE_LAND,
    STAGE_MOVE,
    STAGE_MOVED,
    STAGE_NEXT,
    STAGE_OFFER,
    STAGE_PLACE,
    STAGE_TAKE,
)
from . import inline, inline_once, turns
from .effects import BAD_DRAW, clovers_passed, field_effect, needs_reshuffle, usable, use_luck
from .pro import hand_add, play_card

# Why a game's placing stopped (place_on's result, the driver's status).
GO = 0  # (inside: the next stage follows)
ASKED = 1  # a question: the game waits in PHASE_ASK
TURN_OVER = 2  # the turn is over and the hands are empty: the caller refills or ends the game
RESHUFFLE = 3  # an action card must be drawn from an empty deck: reshuffle, then run again
BAD_SCRIPT = 4  # a replayed record's draw names a kind the deck does not hold
NEXT_TURN = 5  # the turn is over, the next one started
PICKING = 6  # the seats put out their first tile of two: no placing yet
GAME_OVER = 7  # the turn is over, the hands are empty and none are refilled: the game ended here



@inline
def park(b, s, ask):
    """Stop game b until the current tile's owner answers `ask`."""
    s.phase[b] = PHASE_ASK
    s.ask[b] = ask
    s.asker[b] = s.queue_seat[b, s.at[b]]
    return ASKED


@inline_once
def place_on(b, s, t, e, report):
    """Game b's stages until one stops; a turn over ends there (the next one starts; or
    the hands are empty: GAME_OVER where no refill comes, the game ended as `turns.py`'s
    `hands_empty` ends it, else TURN_OVER for the caller's refill)."""
    why = run_game(b, s, t, e, report)
    if why == TURN_OVER:
        if turns.end_turn(b, s, t):
            return NEXT_TURN
        if not t.refill:  # (a pro game ends at its first empty hand: most steps end a few games)
            turns.end_game(b, s, t)
            return GAME_OVER
    return why


@inline_once
def run_game(b, s, t, e, report):
    """The stages of game b's current tiles, one after the other, until one stops."""
    while True:
        stage = s.stage[b]
        if stage == STAGE_OFFER:
            why = offer(b, s, t)
        elif stage == STAGE_PLACE:
            why = place(b, s, t)
        elif stage == STAGE_TAKE:
            why = take(b, s, t, e, report)
        elif stage == STAGE_LAND:
            why = land(b, s, t, e, report)
        elif stage == STAGE_GAIN:
            why = gain(b, s, e, report)
        elif stage == STAGE_FREE:
            why = free(b, s, t, e, report)
        elif stage == STAGE_MOVE:
            why = move(b, s, t, e, report)
        elif stage == STAGE_MOVED:
            why = moved(b, s, t, e, report)
        else:
            why = next_tile(b, s, t, e, report)
        if why != GO:
            return why


# --------------------------------------------------------------------------- the stages


@inline
def place(b, s, t):
    """Rules 1-2 (and the too-low exception) among the open rows, or the placing card's
    row and field; the "2×" or "+5" question of the field reached."""
    k = s.at[b]
    tile, seat = s.queue[b, k], s.queue_seat[b, k]
    row = rules_row(b, s, t, tile)
    field = s.length[b, row]
    card = s.card[b]
    if t.pro and card != NO_CARD:
        if card == ASCENDING or card == FRONT:
            row = s.card_row[b]
            field = s.length[b, row]
        if card == SKIP:
            field += 1
        elif card == FRONT:
            field = 0
    kind = t.kind[row, field]
    is_take = (kind == TAKE) | (kind == TAKE_TO_HAND)
    s.row[b], s.field[b] = row, field
    s.stage[b] = STAGE_TAKE if is_take else STAGE_LAND
    s.answer[b] = 0
    s.answered[b] = False
    if kind == TAKE and usable(b, s, t, DOUBLE, seat):  # "2×" only where a row is scored
        return park(b, s, ASK_DOUBLE)
    if not is_take and usable(b, s, t, PLUS5, seat):
        return park(b, s, ASK_PLUS5)
    return GO


@inline
def rules_row(b, s, t, tile):
    """The active row without a stop sign whose end is the highest one below `tile`; a
    tile lower than every such end goes after the highest one."""
    # One maximum over the rows' keys, below << 16 | end << 8 | row: a row whose end is below
    # the tile beats every row whose end is not, then the higher end wins (ends are distinct
    # tiles; rows < 128: layout.py); -1 for an empty row or one under a stop sign. Two copies
    # of the loop, so the rule options' branch is not taken per row.
    best = -1
    if t.pro:
        for r in range(s.length.shape[1]):  # every row, without a branch on the data (docs/speed.md)
            n = s.length[b, r]
            if n < 0:  # (never) an exit, so LLVM keeps this short loop scalar: its 4-wide version
                break  # (gathers, then a reduction) was slower (docs/speed.md, issue 49)
            end = 0 if s.stops[b, r] else int(s.tiles[b, r, max(n - 1, 0)])  # (0: an empty row)
            key = ((1 << 16) if end < tile else 0) | end << 8 | r
            best = max(best, key if end > 0 else -1)
    else:
        for r in range(s.length.shape[1]):
            n = s.length[b, r]
            if n < 0:
                break
            end = int(s.tiles[b, r, max(n - 1, 0)])
            key = ((1 << 16) if end < tile else 0) | end << 8 | r
            best = max(best, key if end > 0 else -1)
    return best & 0xFF


@inline
def take(b, s, t, e, report):
    """The tile reached a take field: its owner scores the tiles left of it, which leave
    the game ("2×": the two best count plus); on an H field they go into the hand
    unscored. The tile moves on (STAGE_MOVE, or the free-row choice on the pro side)."""
    k = s.at[b]
    tile, seat, row, field = s.queue[b, k], s.queue_seat[b, k], s.row[b], s.field[b]
    to_hand = t.kind[row, field] == TAKE_TO_HAND
    s.card[b] = NO_CARD  # (an Ascending that reached the take field is used up)
    lost, best, second, count = 0, 0, 0, 0
    for f in range(s.tiles.shape[2]):
        x = s.tiles[b, row, f]
        if x == 0:
            continue
        count += 1
        s.tiles[b, row, f] = 0
        if to_hand:
            hand_add(b, s, seat, x)
            continue
        s.gone[b, x] = True
        bulls = t.bulls[x]
        lost += bulls
        if bulls > best:
            best, second = bulls, best
        elif bulls > second:
            second = bulls
    s.length[b, row] = 0
    double = s.answer[b] == 1
    points = 2 * (best + second) - lost if double else -lost
    if double:
        use_luck(b, s, DOUBLE, seat)
    if report:
        e.taken[k, b] = count
        e.double[k, b] = double
        record(b, s, t, e, k, tile, seat, row, field, points)
    return score(b, s, t, seat, points, STAGE_FREE if t.pro else STAGE_MOVE)


@inline
def land(b, s, t, e, report):
    """The tile lands on a field that takes nothing: the field's effect, or "+5". Front:
    the row's tiles and gaps first move one field right (they trigger nothing)."""
    k = s.at[b]
    tile, seat, row, field = s.queue[b, k], s.queue_seat[b, k], s.row[b], s.field[b]
    plus5 = s.answer[b] == 1
    if needs_reshuffle(b, s, t, row, field, plus5):
        return RESHUFFLE
    n = s.length[b, row]
    if s.card[b] == FRONT:
        for f in range(n, 0, -1):
            s.tiles[b, row, f] = s.tiles[b, row, f - 1]
        s.length[b, row] = n + 1
    else:
        s.length[b, row] = field + 1
    s.card[b] = NO_CARD
    s.tiles[b, row, field] = tile
    points = field_effect(b, s, t, seat, row, field, tile, plus5)
    if points == BAD_DRAW:
        return BAD_SCRIPT
    if report:
        e.plus5[k, b] = plus5
        record(b, s, t, e, k, tile, seat, row, field, points)
    return score(b, s, t, seat, points, STAGE_NEXT)


@inline
def record(b, s, t, e, k, tile, seat, row, field, points):
    e.tile[k, b], e.seat[k, b] = tile, seat
    e.row[k, b], e.field[k, b] = row, field
    e.kind[k, b] = t.kind[row, field]
    e.points[k, b] += points


@inline
def score(b, s, t, seat, points, then):
    """Add one effect's points; a net loss that passes clovers gains luck cards
    (STAGE_GAIN), else the tile goes on to `then`."""
    s.answered[b] = False  # the question before this effect is answered and used
    old = s.score[b, seat]
    s.score[b, seat] = old + points
    gained = clovers_passed(t.clovers, old, old + points) if t.luck else 0
    s.gain[b] = gained
    s.after_gain[b] = then
    s.stage[b] = STAGE_GAIN if gained > 0 else then
    return GO


@inline
def gain(b, s, e, report):
    """One luck card per clover passed, of the owner's choice (a question for every card
    gained; with one stack empty the other is the only answer; with both empty nothing is
    gained and nothing asked)."""
    k = s.at[b]
    some = (s.stack[b, PLUS5] > 0) | (s.stack[b, DOUBLE] > 0)
    if some and not s.answered[b]:
        return park(b, s, ASK_LUCK_CARD)
    if some:
        kind, seat = s.answer[b], s.queue_seat[b, k]
        s.luck[b, kind, seat] += 1
        s.luck_new[b, kind, seat] += 1
        s.stack[b, kind] -= 1
        if report:
            e.luck_gained[k, b] += 1
        s.gain[b] -= 1
    else:
        s.gain[b] = 0
    s.answered[b] = False
    if s.gain[b] == 0:
        s.stage[b] = s.after_gain[b]
    return GO


@inline
def move(b, s, t, e, report):
    """After a take the tile moves to field 1 of the next free row (next_row option):
    the first empty row after the origin, wrapping, never the row just taken."""
    taken = s.row[b]
    origin = taken if t.scan else s.pointer[b]
    R = s.length.shape[1]
    row = 0
    for i in range(1, R + 1):
        row = (origin + i) % R
        if s.length[b, row] == 0 and row != taken:
            break
    return move_to(b, s, t, e, report, row)


@inline
def free(b, s, t, e, report):
    """Pro: after a take the tile's owner picks the free row it moves to."""
    if not s.answered[b]:
        return park(b, s, ASK_FREE_ROW)
    s.answered[b] = False
    return move_to(b, s, t, e, report, s.answer[b])


@inline
def move_to(b, s, t, e, report, row):
    """The tile moves to field 1 of `row`; a "+5" may act on that field."""
    k = s.at[b]
    s.tiles[b, row, 0] = s.queue[b, k]
    s.length[b, row] = 1
    s.pointer[b] = row
    s.row[b], s.field[b] = row, 0
    if report:
        e.moved_to[k, b] = row
    s.answer[b] = 0
    s.answered[b] = False
    s.stage[b] = STAGE_MOVED
    if usable(b, s, t, PLUS5, s.queue_seat[b, k]):
        return park(b, s, ASK_PLUS5)
    return GO


@inline
def moved(b, s, t, e, report):
    """The moved tile on field 1: the field's effect (plain on the basic side), or "+5"."""
    k = s.at[b]
    tile, seat, row = s.queue[b, k], s.queue_seat[b, k], s.row[b]
    plus5 = s.answer[b] == 1
    if needs_reshuffle(b, s, t, row, 0, plus5):
        return RESHUFFLE
    points = field_effect(b, s, t, seat, row, 0, tile, plus5)
    if points == BAD_DRAW:
        return BAD_SCRIPT
    if report:
        if plus5:
            e.plus5[k, b] = True
        e.points[k, b] += points
    return score(b, s, t, seat, points, STAGE_NEXT)


@inline
def next_tile(b, s, t, e, report):
    """The next tile of the queue, or the end of the turn."""
    at = s.at[b] + 1
    if at < s.queue.shape[1] and s.queue[b, at] > 0:
        s.at[b] = at
        s.stage[b] = STAGE_OFFER if t.pro else STAGE_PLACE
        return GO
    if report:
        e.turn_over[b] = True
    return TURN_OVER


@inline
def offer(b, s, t):
    """Pro: before a tile is placed its owner, while holding action cards, is offered them
    (playable or not), one card at a time; a card that places the tile, or no card, ends
    the offer (STAGE_PLACE). Stop, Swap and One more are played and the offer comes again."""
    seat = s.queue_seat[b, s.at[b]]
    if s.answered[b]:
        s.answered[b] = False
        kind = s.answer[b]
        if kind == NO_CARD or play_card(b, s, seat, kind, s.answer_arg[b]):
            s.stage[b] = STAGE_PLACE
        return GO
    for kind in range(s.action.shape[1]):
        if s.action[b, kind, seat] > 0:
            return park(b, s, ASK_ACTION)
    s.stage[b] = STAGE_PLACE
    return GO
