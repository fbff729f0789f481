"""The batched rules engine: B games stepped at once with array operations.

A turn goes: every seat picks a card (PHASE_CARDS); the cards are revealed and sorted
lowest first; each is placed by Rules 1–3. A card lower than every row end (Rule 4) can
only be the lowest card of the turn; under row_choice="player" its game waits in PHASE_ROW
until its owner picks the row to take, then the turn's other cards are placed. With twins
(Die Sechste, two decks) a card behind two equally long rows ending in twins also waits
for its owner, mid-turn (twins.py). After ten turns the round is scored; the game ends,
or the next seat to the left deals a new round (deal.py).

Loops run only over the few seats and rows, never over games. The private functions
mutate the State they are given; `step` copies first unless told `inplace=True`.

The engine's API (`__all__`): `new_games`, `restart`, `from_deal`, `step`, `play_slots`,
and for the single-game fast path `empty_state`, `deal_ids`, `first_dealer`; `StepEvents`
(events.py) is what `step(..., report=True)` returns.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..core.batch import step_actions
from ..core.errors import IllegalActionError
from ..core.sorting import sort_columns, sorting_network
from .deal import deal_ids, deal_round, empty_state, first_dealer, from_deal, new_games, restart
from .events import StepEvents
from .packing import INDEX_MASK, LAST_SHIFT, ROW_LOW_MASK
from .rows import RowWriter, park, target
from .rules import HAND_SIZE, N_ROWS
from .state import NO_SEAT, PHASE_CARDS, PHASE_OVER, PHASE_ROW, State
from .twins import place_twins

__all__ = ["StepEvents", "deal_ids", "empty_state", "first_dealer", "from_deal", "new_games",
           "play_slots", "restart", "sorting_network", "step"]

# Turn sort key = ladder value << _SEAT_BITS | seat (or, with twins, the seat's position
# counted from the dealer's left, so twins are placed in that order).
_SEAT_BITS = 4  # up to 16 seats
_SEAT_MASK = (1 << _SEAT_BITS) - 1
_SEAT_COLUMN = np.arange(1 << _SEAT_BITS, dtype=np.int32)[:, None]



# --------------------------------------------------------------------------- stepping


def step(
    state: State,
    actions: ArrayLike,
    *,
    inplace: bool = False,
    report: bool = False,
    validate: bool = True,
    games: ArrayLike | None = None,
) -> tuple[State, StepEvents | None]:
    """Advance every game by one decision.

    Args:
        state: the batch.
        actions: (P, B) ints. In PHASE_CARDS, the card id each seat plays. In PHASE_ROW,
            actions[chooser] is the row (0..3) to take; other seats' entries are ignored,
            as are all entries of games that are over.
        inplace: mutate `state` instead of working on a copy (the fast path).
        report: also return StepEvents describing every placement.
        validate: raise IllegalActionError on an illegal action (else the result is
            undefined).
        games: (B,) bool, only these games advance (default: all); the others' actions
            are ignored.

    Returns:
        (new state, events or None).
    """
    st = state if inplace else state.copy()
    actions = step_actions(st, actions, " (card ids or rows)")
    ev = StepEvents.empty(st.players, st.batch_size) if report else None
    card_games = st.phase == PHASE_CARDS
    row_games = st.phase == PHASE_ROW
    if games is not None:
        card_games &= games
        row_games &= games
    row_games = np.flatnonzero(row_games)
    if len(row_games):
        _choose_rows(st, row_games, actions[st.chooser[row_games], row_games], validate, ev)
    if card_games.all():
        _play_cards(st, None, actions, validate, ev)
    elif card_games.any():
        _play_cards(st, np.flatnonzero(card_games), actions, validate, ev)
    if ev is not None:
        ev.chooser[:] = st.chooser
    return st, ev


def play_slots(st: State, slots: NDArray) -> None:
    """Fast path: every seat of every game plays the card in hand slot slots[p, b].

    All games must be in PHASE_CARDS with row_choice="cheapest", and
    0 <= slots < cards in hand; nothing is checked. Mutates `st`. The engine benchmark
    times this.
    """
    _resolve(st, None, None, None, _reveal(st, None, slots))


def _play_cards(st: State, cols, cards: NDArray, validate: bool, ev) -> None:
    """Games `cols` (None: all) play card ids `cards` (P, B) (entries outside cols ignored)."""
    n_ids = st.config.variant_data.n_ids
    wanted = (cards * ((cards > 0) & (cards <= n_ids))).astype(np.int16)  # no int16 wrap-around
    # Find each card's hand slot with one pass per slot over whole (P, B) planes: cheaper
    # than a (P, H, B) comparison reduced along its middle axis.
    slots = np.zeros(wanted.shape, dtype=np.intp)
    held = np.zeros(wanted.shape, dtype=bool)
    for h in range(HAND_SIZE):
        match = st.hands[:, h] == wanted
        slots += match * h
        held |= match
    held &= wanted > 0
    if cols is not None:
        slots, held = slots[:, cols], held[:, cols]
    if validate and not held.all():
        p, j = np.argwhere(~held)[0]
        b = j if cols is None else cols[j]
        legal = sorted(int(c) for c in st.hands[p, :, b] if c)
        raise IllegalActionError(
            f"game {b}, seat {p}, round {int(st.round[b])}, turn {int(st.turn[b])}: "
            f"card {int(cards[p, b])} is not in the hand; legal cards: {legal}")
    _resolve(st, cols, None, ev, _reveal(st, cols, slots))


def _reveal(st: State, cols, slots: NDArray) -> NDArray[np.int32]:
    """Take the cards in hand `slots` (P, b) out of the hands and sort them into
    `revealed` / `revealed_seat`, lowest first; returns their row codes in that order."""
    B, P = st.batch_size, st.players
    v = st.config.variant_data
    gi = np.arange(B) if cols is None else cols
    # Swap-remove: the hand's last card moves into the played slot.
    flat = st.hands.reshape(-1)
    # (P, b) flat offsets of each seat's hand in game b (slot 0); computed, not gathered
    seat_base = _seat_base(P, B, HAND_SIZE * B) if cols is None else \
        (np.arange(P) * (HAND_SIZE * B))[:, None] + cols
    turn = st.turn if cols is None else st.turn[cols]
    in_step = cols is None and turn[0] == turn[-1] and (turn == turn[0]).all()
    last = seat_base + (HAND_SIZE - 1 - int(turn[0])) * B if in_step else \
        seat_base + (HAND_SIZE - 1 - turn.astype(np.intp)) * B
    slot_idx = seat_base + slots * B
    cards = flat[slot_idx]
    flat[slot_idx] = flat[last]
    flat[last] = 0
    if in_step:  # all games at the same turn: the common case, one plain write
        st.played[int(turn[0])] = cards
    else:
        st.played.reshape(-1)[(np.arange(P) * B)[:, None] + (gi + turn.astype(np.intp) * (P * B))] = cards
    # Sort the cards' packed row codes (ladder value in the high bits) with the seat in
    # the low bits, by a sorting network: a few element-wise min/max. Sorting the codes
    # rather than the ids hands the placement loop its codes without another lookup.
    if v.has_twins:  # equal values are placed in seat order from the dealer's left
        dealer = st.dealer[gi]
        tiebreak = (np.arange(P)[:, None] - dealer - 1) % P
    else:
        tiebreak = _SEAT_COLUMN[:P]
    keys = v.row_code[cards] << _SEAT_BITS
    keys |= tiebreak
    sort_columns(keys)
    seats = keys & _SEAT_MASK
    if v.has_twins:
        seats += dealer + 1
        seats %= P
    revealed = (keys >> (_SEAT_BITS + LAST_SHIFT)) if v.order_is_id else cards[seats, np.arange(len(gi))]
    if cols is None:
        st.revealed[:] = revealed
        st.revealed_seat[:] = seats
    else:
        st.revealed[:, cols] = revealed
        st.revealed_seat[:, cols] = seats
    return keys >> _SEAT_BITS


_SEAT_BASES: dict[tuple[int, int, int], NDArray[np.intp]] = {}


def _seat_base(P: int, B: int, stride: int) -> NDArray[np.intp]:
    """(P, B) flat offsets p * stride + b, cached (read-only): reused on every turn."""
    key = (P, B, stride)
    if key not in _SEAT_BASES:
        if len(_SEAT_BASES) > 64:
            _SEAT_BASES.clear()
        base = (np.arange(P) * stride)[:, None] + np.arange(B)[None, :]
        base.flags.writeable = False
        _SEAT_BASES[key] = base
    return _SEAT_BASES[key]


def _choose_rows(st: State, cols: NDArray, rows: NDArray, validate: bool, ev) -> None:
    """Games `cols` in PHASE_ROW: the chooser takes row `rows` (b,); the turn goes on."""
    rows = rows.astype(np.intp)
    if validate:
        ok = (rows >= 0) & (rows < N_ROWS)
        ok[ok] = st.row_options[rows[ok], cols[ok]]
        if not ok.all():
            j = int(np.flatnonzero(~ok)[0])
            b = cols[j]
            legal = np.flatnonzero(st.row_options[:, b]).tolist()
            raise IllegalActionError(
                f"game {b}, seat {int(st.chooser[b])}, round {int(st.round[b])}, "
                f"turn {int(st.turn[b])}: row {int(rows[j])} cannot be chosen; legal rows: {legal}")
    st.phase[cols] = PHASE_CARDS
    st.chooser[cols] = NO_SEAT
    st.row_options[:, cols] = False
    _resolve(st, cols, rows, ev)


def _resolve(st: State, cols, chosen: NDArray | None, ev, codes: NDArray | None = None) -> None:
    """Place this turn's revealed cards of games `cols` (None: all), then end the turn.

    `chosen` (b,) gives the rows picked in a PHASE_ROW step by the owner of the first
    card still to be placed: a too-low card takes that row (Rule 4); with twins, a card
    behind two equally long rows ending in twins is placed on the picked one. Otherwise
    a too-low first card takes the cheapest row, or, under row_choice="player", parks its
    game in PHASE_ROW before anything is placed. Only the turn's lowest card (k = 0) can
    be too low: once placed it ends a row below every later card, so Rule 4 is looked at
    for k = 0 alone. `codes` (P, b): the row codes of the revealed cards, when the caller
    has them.
    """
    gi = np.arange(st.batch_size) if cols is None else cols
    if codes is None:
        codes = st.config.variant_data.row_code[_columns(st.revealed, cols)]
    rows = _columns(st.rows, cols)  # (R, b), st.rows itself on the fast path
    if chosen is not None:
        best, takes = _chosen_rows(st, rows, chosen, codes[0])
    else:
        best = target(rows, codes[0])
        takes = best == 0  # Rule 4: too low for every row
        too_low = takes.any()
        if too_low and st.config.row_choice == "cheapest":
            best = np.where(takes, _cheapest(rows, gi if cols is None else None), best)
        elif too_low:  # the owners choose: those games wait, the others go on
            park(st, gi[takes])
            if takes.all():
                return
            keep = ~takes
            gi, rows, best, codes, takes = gi[keep], _columns(rows, keep), best[keep], codes[:, keep], takes[keep]
            cols = gi
    _place(st, cols, gi, rows, codes, best, takes, ev, first_chosen=chosen is not None)


def _place(st: State, cols, gi: NDArray, rows: NDArray[np.int32], codes: NDArray[np.int32],
           first_best: NDArray[np.int32], first_takes: NDArray[np.bool_], ev, first_chosen: bool) -> None:
    """Place the revealed cards of games `cols` (None: all; indices `gi` (b,)) on their
    rows `rows` (R, b), write the rows back, and end the turn of the games not stopped.

    codes: (P, b) the revealed cards' packed codes; first_best (b,): the packed row card
    0 goes to; first_takes (b,): card 0 takes it by Rule 4; first_chosen: card 0's row
    was picked by its owner in this step.
    """
    cards = st.revealed if cols is None else st.revealed[:, cols]
    seats = st.revealed_seat if cols is None else st.revealed_seat[:, cols]
    writer = RowWriter(st, cols, gi, rows, ev)
    parked = None
    if st.config.variant_data.has_twins:
        parked = place_twins(st, writer, cards, seats, codes, first_best, first_takes, first_chosen)
    else:
        _place_plain(st, writer, cards, seats, codes, first_best, first_takes)
    if cols is not None:
        st.rows[:, cols] = rows
    if parked is not None and parked.any():  # they wait for a twin-row choice
        cols = gi[~parked]
    _end_turn(st, cols, ev)


def _chosen_rows(st: State, rows: NDArray[np.int32], chosen: NDArray,
                 first_code: NDArray[np.int32]) -> tuple[NDArray[np.int32], NDArray[np.bool_]]:
    """The packed rows (b,) picked in `chosen` (b,), and whether the card takes it (b,).

    Without twins every choice is Rule 4's; with twins it may be the twin-row one, whose
    card is placed like any other (and takes the row only as a sixth card).
    """
    b = rows.shape[1]
    best = rows.reshape(-1)[chosen * b + np.arange(b)]
    if st.config.variant_data.has_twins:
        return best, target(rows, first_code) == 0
    return best, np.ones(b, dtype=bool)


def _cheapest(rows: NDArray[np.int32], local: NDArray | None = None) -> NDArray[np.int32]:
    """(b,) the packed row taken under row_choice="cheapest": fewest bullheads, then
    fewest cards, then the lowest index (the packed low bits in that order). `local`:
    arange(b), when the caller has it."""
    b = rows.shape[1]
    cheapest = (rows & ROW_LOW_MASK).min(axis=0) & INDEX_MASK
    return rows.reshape(-1)[cheapest * b + (np.arange(b) if local is None else local)]


def _columns(a: NDArray, cols) -> NDArray:
    """Games `cols` of a batch array as a C-contiguous copy (`a` itself for None).

    Contiguity matters: the placement code writes through flat views, and NumPy's
    advanced indexing on the last axis may return a non-contiguous array, whose
    reshape(-1) would silently be a copy.
    """
    return a if cols is None else np.ascontiguousarray(a[..., cols])


def _place_plain(st: State, writer: RowWriter, cards: NDArray, seats: NDArray, codes: NDArray[np.int32],
                 first_best: NDArray[np.int32], first_takes: NDArray[np.bool_]) -> None:
    """Place revealed cards k = 0..P-1 of the writer's games (no twins: nothing stops a
    turn), and add what they take to the owners' penalties.

    Args:
        cards, seats: (P, b) the revealed cards in placing order and their owners.
        codes: (P, b) the packed row each revealed card would start (Variant.row_code).
        first_best: (b,) the packed row card 0 goes to (from rows.target, or a chosen row).
        first_takes: (b,) bool, card 0 takes that row whatever its length (Rule 4).
    """
    P, b = codes.shape
    pens = np.empty((P, b), dtype=np.int32)
    write, rows = writer.write, writer.rows
    pens[0] = write(0, first_best, codes[0], cards[0], seats[0], first_takes)
    for k in range(1, P):
        pens[k] = write(k, target(rows, codes[k]), codes[k], cards[k], seats[k])
    # Every seat places one card per game: a plain scatter-add is safe.
    st.penalty.reshape(-1)[seats.astype(np.intp) * st.batch_size + writer.gi] += pens.astype(np.int16)


def _end_turn(st: State, cols, ev) -> None:
    """Games `cols` (None: all) finished a turn; a tenth turn ends the round."""
    if cols is None:
        st.turn += 1
        st.revealed[:] = 0
        ended = st.turn == HAND_SIZE
        if not ended.any():
            return
        ended = slice(None) if ended.all() else np.flatnonzero(ended)
    else:
        st.turn[cols] += 1
        st.revealed[:, cols] = 0
        ended = cols[st.turn[cols] == HAND_SIZE]
    if isinstance(ended, slice) or len(ended):
        _end_round(st, ended, ev)


def _end_round(st: State, cols, ev) -> None:
    """Score the round of games `cols` (indices or a slice); end each game or deal anew."""
    cfg = st.config
    penalty = st.penalty[:, cols]
    if ev is not None:
        ev.round_over[cols] = True
        ev.round_penalty[:, cols] = penalty
    st.score[:, cols] += penalty
    st.penalty[:, cols] = 0
    over = np.zeros(st.score[0, cols].shape, dtype=bool)
    if cfg.end_score is not None:
        over |= st.score[:, cols].max(axis=0) >= cfg.end_score
    if cfg.max_rounds is not None:
        over |= st.round[cols] + 1 >= cfg.max_rounds
    if not over.any():
        going_on = cols
    else:
        cols = np.arange(st.batch_size)[cols]
        st.phase[cols[over]] = PHASE_OVER
        going_on = cols[~over]
        if len(going_on) == 0:
            return
    st.round[going_on] += 1
    st.dealer[going_on] = (st.dealer[going_on] + 1) % cfg.players
    deal_round(st, going_on)
