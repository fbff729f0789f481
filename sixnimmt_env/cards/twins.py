"""Die Sechste's twin rules in the engine: two decks, so two cards may share a ladder value.

- Twins of one turn are placed in seat order from the dealer's left (the sort key in
  engine._reveal); a twin may follow its counterpart (rows.target's "not above").
- A card behind two rows ending in twins goes to the shorter one. Equally long, under
  row_choice="player" its owner chooses: the game stops mid-turn in PHASE_ROW, the cards
  already placed stay, the ones still to be placed move to the front of `revealed`, and
  the next step places the chosen card on its row like any other card. Under
  row_choice="cheapest" the row with fewer bullheads is taken, then the lower index.
- A too-low card is handled by Rule 4 alone, never by the twin-row rule.

`place_twins` is the engine's placement loop for variants with twins (`_place_plain`'s
counterpart); `twin_tie` also checks a resumed turn in deal.from_deal.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from .events import RULE_ON_TWIN, RULE_TWIN_CHOICE, RULE_TWIN_SHORTER
from .packing import COUNT_MASK, COUNT_SHIFT, LAST_SHIFT, ROW_LOW_MASK
from .rows import RowWriter, park, target
from .state import State

_NO_KEY = np.iinfo(np.int32).max  # sorts after every row of the pair
_NOT_PARKED = -1
# As uint8 scalars: bool * flag stays uint8, like StepEvents.rule.
_ON_TWIN, _TWIN_CHOICE, _TWIN_SHORTER = (np.uint8(f) for f in (RULE_ON_TWIN, RULE_TWIN_CHOICE, RULE_TWIN_SHORTER))


def twin_tie(rows: NDArray[np.int32], best: NDArray[np.int32]):
    """The two rows ending in twins, for cards whose target row is `best` (b,).

    Args:
        rows: (R, b) packed rows.
        best: (b,) each card's packed target row (from rows.target; 0: too low).

    Returns:
        (same, pair, equal, shorter): same (R, b) marks the rows ending with the target's
        ladder value; pair (b,) says there are two of them; equal (b,) that they are
        equally long (the owner chooses); shorter (b,) the packed row the card goes to
        when nobody chooses: the shorter row, then (row_choice="cheapest" on equal length)
        fewer bullheads, then the lower index.
    """
    same = ((rows >> LAST_SHIFT) == (best >> LAST_SHIFT)[None, :]) & (best > 0)[None, :]
    pair = same.sum(axis=0) == 2
    count = (rows >> COUNT_SHIFT) & COUNT_MASK
    key = np.where(same, (count << LAST_SHIFT) | (rows & ROW_LOW_MASK), _NO_KEY)
    pick = key.argmin(axis=0)
    shorter = rows[pick, np.arange(rows.shape[1])]
    longest = np.where(same, count, 0).max(axis=0)
    shortest = np.where(same, count, COUNT_MASK + 1).min(axis=0)
    return same, pair, pair & (longest == shortest), shorter


def place_twins(st: State, writer: RowWriter, cards: NDArray, seats: NDArray, codes: NDArray[np.int32],
                first_best: NDArray[np.int32], first_takes: NDArray[np.bool_],
                first_chosen: bool) -> NDArray[np.bool_]:
    """Place revealed cards k = 0..P-1 of the writer's games with the twin rules, and
    add what they take to the owners' penalties.

    Args:
        st: the batch (phase, chooser, row options and `revealed` of parked games change).
        writer: the games' rows.
        cards, seats: (P, b) the revealed cards in placing order (a resumed turn's tail is
            0) and their owners.
        codes: (P, b) their packed row codes.
        first_best: (b,) the packed row card 0 goes to (from rows.target, or a chosen row).
        first_takes: (b,) bool, card 0 takes that row whatever its length (Rule 4).
        first_chosen: card 0's row was picked by its owner (no twin-row question for it).

    Returns:
        (b,) bool, the games stopped for a twin-row choice.
    """
    P, b = codes.shape
    active = np.ones(b, dtype=bool)  # not parked for a twin-row choice
    park_at = np.full(b, _NOT_PARKED, dtype=np.intp)
    report = writer.ev is not None
    pens = np.empty((P, b), dtype=np.int32)
    for k in range(P):
        best = first_best if k == 0 else target(writer.rows, codes[k])
        takes = first_takes if k == 0 else None
        live = active & (cards[k] > 0)
        rule = None
        if k == 0 and first_chosen:
            if report:  # a chosen row that is not Rule 4's is the twin-row choice
                rule = _TWIN_CHOICE * ~first_takes
        else:
            best, pair, stop = _twin_rows(st, writer, best, takes, live, seats[k])
            if stop.any():
                park_at[stop] = k
                active &= ~stop
                live &= ~stop
            if report:  # the card's row ends in its twin: the same ladder value
                on_twin = (best >> LAST_SHIFT) == (codes[k] >> LAST_SHIFT)
                rule = _TWIN_SHORTER * pair | _ON_TWIN * on_twin
        pens[k] = writer.write(k, best, codes[k], cards[k], seats[k], takes, live, rule)
    # A resumed turn's 0-padded tail repeats seat 0: accumulate, not assign.
    flat_seat = seats.astype(np.intp) * st.batch_size + writer.gi
    np.add.at(st.penalty.reshape(-1), flat_seat, pens.astype(np.int16))
    parked = park_at != _NOT_PARKED
    if parked.any():
        _keep_unplaced(st, writer.gi[parked], park_at[parked])
    return parked


def _twin_rows(st: State, writer: RowWriter, best: NDArray[np.int32], takes: NDArray[np.bool_] | None,
               live: NDArray[np.bool_], seat: NDArray):
    """Apply the twin-row rule to cards headed for packed rows `best` (b,) (from
    rows.target), of which `takes` (b,) take their row by Rule 4 (None: none do), `live`
    (b,) are placed now, and `seat` (b,) are the owners.

    Returns (best, pair, stop): the row each card goes to; pair (b,), the rule picked it
    (where a card is placed: the writer masks the rest); stop (b,), the games parked for
    their owner's choice.
    """
    same, pair, equal, shorter = twin_tie(writer.rows, best)
    if takes is not None:  # a too-low card takes its row: Rule 4, not a twin question
        pair &= ~takes
        equal &= ~takes
    stop = live & equal if st.config.row_choice == "player" else np.zeros_like(live)
    if stop.any():
        park(st, writer.gi[stop], same[:, stop], seat[stop])
    best = np.where(pair, shorter, best)
    return best, pair, stop


def _keep_unplaced(st: State, games: NDArray, k0: NDArray) -> None:
    """Parked `games` (g,) stopped at card k0 (g,): the cards not yet placed move to the
    front of `revealed` (and their seats), 0-padded at the end."""
    P = st.players
    src = k0[None, :] + np.arange(P)[:, None]  # (P, g)
    inside = src < P
    src = np.minimum(src, P - 1)
    st.revealed[:, games] = st.revealed[src, games[None, :]] * inside
    st.revealed_seat[:, games] = st.revealed_seat[src, games[None, :]] * inside
