"""Packed-row primitives shared by the engine's placement loops (plain and Die Sechste's).

A row is one int32 (packing.py): ladder value of its last card, bullheads, card count,
row index. `target` finds a card's row by Rules 1–2 with one max over the packed rows;
`RowWriter.write` writes one placement per game (Rule 3 or a forced take included) into
the packed rows and the state's row cards, and reports it when asked; `park` stops games
until an owner picks a row.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from .events import RULE_SIXTH, RULE_TOO_LOW, StepEvents
from .packing import BULLS_MASK, BULLS_SHIFT, COUNT_MASK, COUNT_SHIFT, INDEX_MASK, ROW_LOW_MASK
from .rules import N_ROWS, ROW_CAPACITY
from .state import PHASE_ROW, State

# A taken row restarts with the placed card alone: it keeps only its index bits.
_ALL_BUT_INDEX = ROW_LOW_MASK & ~INDEX_MASK
assert N_ROWS <= INDEX_MASK + 1 and ROW_CAPACITY <= COUNT_MASK, "rows do not fit their packed bits"
# The flags as uint8 scalars, so that bool * flag stays uint8 like StepEvents.rule.
_TOO_LOW, _SIXTH = np.uint8(RULE_TOO_LOW), np.uint8(RULE_SIXTH)


def target(rows: NDArray[np.int32], code: NDArray[np.int32]) -> NDArray[np.int32]:
    """Rules 1–2: the packed row a card (given as its packed code) follows, 0 if too low.

    Args:
        rows: (R, b) packed rows.
        code: (b,) the card's packed code (Variant.row_code).

    Returns:
        (b,) the packed row whose last card is the highest one not above the card, 0
        where the card is lower than every row end (Rule 4).

    Packed rows order by their last card first, so that row is simply the max over the
    eligible rows. "Not above" rather than "below" lets a twin follow its counterpart;
    distinct cards never compare equal.
    """
    return (rows * (rows <= (code | ROW_LOW_MASK))).max(axis=0)


def park(st: State, games: NDArray, options: NDArray | bool = True, chooser: NDArray | None = None) -> None:
    """Stop `games` (g,) in PHASE_ROW until `chooser` (g,) picks one of the rows `options`
    (R, g) (default: any row, asked of the first revealed card's owner: Rule 4 under
    row_choice="player")."""
    st.phase[games] = PHASE_ROW
    st.chooser[games] = st.revealed_seat[0, games] if chooser is None else chooser
    st.row_options[:, games] = options


class RowWriter:
    """Writes placements onto the packed rows `rows` (R, b) of games `gi` (b,).

    `rows` is updated in place (it is st.rows itself when cols is None, else the
    caller's copy of those games' columns); cards are written straight into the state's
    (C, R, B) row cards, also for a subset of games: gathering the subset's row cards and
    scattering them back cost more than the placements themselves.

    When reporting (`ev`), each write also fills its placement's events.
    """

    __slots__ = ("rows", "rows_flat", "cards_flat", "gi", "ev", "b", "local", "batch", "slot_stride")

    def __init__(self, st: State, cols, gi: NDArray, rows: NDArray[np.int32], ev: StepEvents | None):
        self.rows = rows
        self.rows_flat = rows.reshape(-1)
        assert np.may_share_memory(self.rows_flat, rows), "rows must be C-contiguous"
        self.cards_flat = st.row_cards.reshape(-1)
        assert np.may_share_memory(self.cards_flat, st.row_cards), "row_cards must be C-contiguous"
        self.gi, self.ev = gi, ev
        self.b = len(gi)
        self.local = gi if cols is None else np.arange(self.b)  # gi is arange(B) for all games
        self.batch = None if cols is None else st.batch_size  # None: rows are all of st.rows
        self.slot_stride = N_ROWS * st.batch_size  # (C, R, B): slot-major

    def write(self, k: int, best: NDArray[np.int32], code: NDArray[np.int32], card: NDArray,
              seat: NDArray, takes: NDArray[np.bool_] | None = None, live: NDArray[np.bool_] | None = None,
              rule: NDArray | None = None) -> NDArray[np.int32]:
        """Place the k-th revealed card of every game on its packed row `best`.

        Args:
            k: placing order within the step (for the events).
            best: (b,) the packed row each card goes to.
            code: (b,) the cards' packed codes (count 1 and their bullheads).
            card, seat: (b,) the card ids and their owners.
            takes: (b,) bool, the card takes its row whatever its length (Rule 4); None: no
                card does. Otherwise a card takes a full row as its sixth card (Rule 3).
            live: (b,) bool, the games that place a card here (None: all); the others'
                rows and row cards are left exactly as they were.
            rule: (b,) RULE_* flags known only to the caller (Die Sechste's twin rules);
                the writer flags RULE_TOO_LOW and RULE_SIXTH itself. Reported games only.

        Returns:
            (b,) int32, the bullheads each card's owner took.
        """
        row = best & INDEX_MASK
        count = (best >> COUNT_SHIFT) & COUNT_MASK
        take = count == ROW_CAPACITY  # Rule 3: the sixth card takes the row
        if takes is not None:
            take |= takes
        if live is not None:
            take &= live
        pen = ((best >> BULLS_SHIFT) & BULLS_MASK) * take
        idx = row * self.b + self.local
        at = idx if self.batch is None else row * self.batch + self.gi  # the row's column in (R, B)
        if self.ev is not None:
            self._record(k, card, seat, row, count, take, pen, takes, live, rule, at)
        # The card's code holds count 1 and its bullheads: plus the row's low bits it
        # extends the row; a taken row restarts with the card alone.
        low_bits = best & ROW_LOW_MASK
        new_row = code + low_bits - take * (low_bits & _ALL_BUT_INDEX)
        slot = count * ~take  # arithmetic: np.where with a scalar is slower here
        if live is None:
            self.cards_flat[slot * self.slot_stride + at] = card
        else:
            slot *= live  # a full row that an idle game's card does not take: stay in bounds
            pos = slot * self.slot_stride + at
            new_row = np.where(live, new_row, self.rows_flat[idx])
            self.cards_flat[pos] = np.where(live, card, self.cards_flat[pos])
        self.rows_flat[idx] = new_row
        return pen

    def _record(self, k, card, seat, row, count, take, pen, takes, live, rule, at) -> None:
        """Fill the events of placement k, from the row as it is before the card."""
        before = self.cards_flat[(np.arange(ROW_CAPACITY) * self.slot_stride)[:, None] + at]  # (C, b)
        flags = take * _SIXTH  # take is False where no card is placed
        if takes is not None:  # a too-low card takes its row by Rule 4, not as a sixth card
            flags = np.where(takes & take, _TOO_LOW, flags)
        if live is not None:  # idle games place nothing
            card = card * live
            if rule is not None:
                rule = rule * live
        if rule is not None:
            flags |= rule
        self.ev.record(k, self.gi, card, seat, row, before, count, take, pen, flags)
