"""Lockstep placing: the k-th tile of every game's queue at once.

The stage machine (`stages.run_stages`) can stop any game at any tile to ask its owner a
question, so it keeps a stage per game and works on index lists of the games in each
stage. Most tiles ask nothing (the basic variant never asks), and for them that
bookkeeping is most of the cost. `place_turn` places a whole turn's queue position by
position over the full batch width instead. A game leaves the lockstep at the first tile
where the rules would ask its owner something, untouched by that tile, and the stage
machine places the rest of its turn from there. Both paths use the primitives of
`rows.py`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from .rows import (FREE_ROW, best_rows, contiguous, field_tables, landing_points, next_free_rows, next_free_table,
                   row_lists_table, taken_points, ROW_BITS)
from .rules import PLUS5
from .state import STAGE_PLACE, BoardState


class _Slots:
    """The active rows of the games being placed, packed (S, w): slot s of a game holds
    `end << RS_BITS | row << S_BITS | s` (its last tile, its row, the slot), FREE_ROW for
    a slot without a row. A take frees one row and opens another, so a game's slots only
    change rows, never in number; S is the most active rows any game has (4 on a board
    dealt by the rules). Local to one `place_turn`: rebuilt from the state each turn."""

    def __init__(self, st: BoardState, tiles_flat: NDArray, length_flat: NDArray):
        R, F, B = st.tiles.shape
        active = st.length > 0
        table = row_lists_table(R)
        if table is not None:
            self.occupied = (active * ROW_BITS[:R]).sum(axis=0)  # (B,) bit r: row r active
            S = int(table.counts[self.occupied].max())
            rows = table.rows[:S, self.occupied].astype(np.intp)  # (S, B); R past a game's rows
        else:
            self.occupied = None  # next_free_table is None too
            S = int(active.sum(axis=0).max())
            rows = np.sort(np.where(active, np.arange(R)[:, None], R), axis=0)[:S]
        valid = rows < R
        valid = None if valid.all() else valid
        rows = np.minimum(rows, R - 1)
        self.s_bits = max(S - 1, 1).bit_length()
        self.rs_bits = self.s_bits + max(R - 1, 1).bit_length()
        ar = np.arange(B)
        length = length_flat[rows * B + ar].astype(np.intp)
        ends = tiles_flat[(rows * F + np.maximum(length - 1, 0)) * B + ar].astype(np.int32)
        packed = ((ends << self.rs_bits) | (rows << self.s_bits) | np.arange(S)[:, None]).astype(np.int32)
        self.packed = np.ascontiguousarray(packed if valid is None else np.where(valid, packed, np.int32(FREE_ROW)))

    def keep(self, local: NDArray) -> None:
        """Go on with the games at local positions `local` only."""
        self.packed = np.ascontiguousarray(self.packed[:, local])
        if self.occupied is not None:
            self.occupied = self.occupied[local]

    def target(self, tile: NDArray) -> tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.int32]]:
        """Rules 1-2 for tiles (w,): (slot, row) each joins (target_rows over the slots),
        and that slot's packed value."""
        best = best_rows(self.packed, tile, 1 << self.rs_bits)
        index = best & ((1 << self.rs_bits) - 1)
        return (index & ((1 << self.s_bits) - 1)).astype(np.intp), (index >> self.s_bits).astype(np.intp), best

    def value(self, tile: NDArray, row: NDArray, slot: NDArray) -> NDArray:
        """The packed value of a row ending in `tile`, in `slot`."""
        return (tile << self.rs_bits) | (row << self.s_bits) | slot

    def write(self, slot: NDArray, local: NDArray, value: NDArray) -> None:
        self.packed[slot, local] = value


COMPACT_BELOW = 0.5  # the lockstep narrows to the games still placing when fewer than this share are


def place_turn(st: BoardState, games: NDArray, ev) -> NDArray[np.intp]:
    """Place this turn's queued tiles of `games` (just revealed), lowest first.

    Returns the games stopped by a question, each at the tile that asks (its `at` set,
    stage STAGE_PLACE): the stage machine goes on with them. Every other game has placed
    all its tiles; its turn is over (the caller ends it).

    The games placing are `cols` (w,); arrays named local are indexed 0..w-1 over them.
    Under play-two only some games have tiles left after the first P, so the lockstep
    narrows to those (`_Slots.keep`) rather than carry the whole batch along.
    """
    contiguous(st, "tiles", "length", "score", "gone")
    cfg, layout = st.config, st.config.board
    tables = field_tables(layout)
    R, F = layout.kind.shape
    B = st.batch_size
    tiles_flat, length_flat = st.tiles.reshape(-1), st.length.reshape(-1)
    score_flat, gone_flat = st.score.reshape(-1), st.gone.reshape(-1)
    slots = _Slots(st, tiles_flat, length_flat)
    everyone = len(games) == B
    cols = np.arange(B) if everyone else np.asarray(games, dtype=np.intp)
    if not everyone:
        slots.keep(cols)
    next_free = next_free_table(R)
    bulls_table = layout.tile_bulls.astype(np.int32)
    row_fields = np.arange(F)[None, :] * B
    stopped = []
    gone = []  # index lists of tiles leaving the game, marked once at the end
    on = np.ones(len(cols), dtype=bool)  # local: not stopped by a question
    if cfg.luck:
        usable = st.luck > st.luck_new  # (2, P, B); fixed while the lockstep runs: it gains and plays none
        usable_plus5, usable_any = usable[PLUS5].reshape(-1), usable.any(axis=0).reshape(-1)
        clovers = np.asarray(layout.clovers)
    for k in range(st.queue.shape[0]):
        tile = (st.queue[k] if everyone else st.queue[k, cols]).astype(np.intp)
        if stopped:
            tile *= on  # games stopped by a question place nothing more here
        here = tile > 0
        n_here = int(np.count_nonzero(here))
        if n_here == 0:
            break
        if n_here < COMPACT_BELOW * len(cols):
            local = np.flatnonzero(here)
            cols, tile, everyone = cols[local], tile[local], False
            slots.keep(local)
            here = on = np.ones(len(cols), dtype=bool)
        w = len(cols)
        lanes = np.arange(w)
        seat = (st.queue_seat[k] if everyone else st.queue_seat[k, cols]).astype(np.intp)
        slot, row, best = slots.target(tile)
        at_row = row * B + cols
        field = length_flat[at_row].astype(np.intp)
        field_index = row * F + field
        take = tables.take[field_index]
        points = landing_points(tables, field_index, bulls_table[tile])
        takers = np.flatnonzero(here & take)  # local
        at_taken = (row[takers] * (F * B) + cols[takers])[:, None] + row_fields  # (g, F) the taken rows' fields
        row_tiles = tiles_flat[at_taken].astype(np.intp)
        points[takers] = -taken_points(bulls_table, row_tiles)
        at_seat = seat * B + cols
        if cfg.luck:
            asks = np.where(take, usable_any[at_seat], usable_plus5[at_seat])
            old = score_flat[at_seat]
            gains = (np.searchsorted(clovers, old) > np.searchsorted(clovers, old + points)) & (points < 0)
            stop = here & (asks | gains)
            if stop.any():
                stopping = cols[stop]
                st.at[stopping] = k
                st.stage[stopping] = STAGE_PLACE
                stopped.append(stopping)
                here &= ~stop
                on &= ~stop
                keep = ~stop[takers]
                takers, at_taken, row_tiles = takers[keep], at_taken[keep], row_tiles[keep]
                tile = tile * here
        # Every game writes its target field, row length and slot; those without a tile
        # here write back what was there (tile 0 on an uncovered field, the same length,
        # the same slot), and a taker's writes are overwritten by its take below: no
        # index list of the landing games.
        if n_here == len(cols) and not stopped:  # the common case: every game places a tile
            score_flat[at_seat] += points
            length_flat[at_row] = field + 1
            slots.write(slot, lanes, slots.value(tile, row, slot))
        else:
            score_flat[at_seat] += points * here
            length_flat[at_row] = field + here
            slots.write(slot, lanes, np.where(here, slots.value(tile, row, slot), best))
        tiles_flat[field_index * B + cols] = tile
        if len(takers):
            games_taking, taken = cols[takers], row[takers]
            gone.append(row_tiles * B + games_taking[:, None])  # empty fields mark tile 0, cleared below
            tiles_flat[at_taken] = 0
            length_flat[at_row[takers]] = 0
            origin = taken if cfg.next_row == "scan" else st.pointer[games_taking].astype(np.intp)
            if next_free is not None:
                new = next_free[origin, slots.occupied[takers]].astype(np.intp)
                slots.occupied[takers] ^= (1 << taken) | (1 << new)
            else:
                new = next_free_rows(st.length, origin, taken, games_taking)
            tiles_flat[new * (F * B) + games_taking] = tile[takers]
            length_flat[new * B + games_taking] = 1
            slots.write(slot[takers], takers, slots.value(tile[takers], new, slot[takers]))
            st.pointer[games_taking] = new
        if ev is not None:
            placed = np.flatnonzero(here)
            g = cols[placed]
            ev.tile[k, g], ev.seat[k, g] = tile[placed], seat[placed]
            ev.row[k, g], ev.field[k, g] = row[placed], field[placed]
            ev.kind[k, g] = tables.kind[field_index[placed]]
            ev.points[k, g] += points[placed].astype(np.int16)
            if len(takers):
                ev.taken[k, games_taking] = (row_tiles > 0).sum(axis=1)
                ev.moved_to[k, games_taking] = new
    if gone:
        gone_flat[np.concatenate([g.reshape(-1) for g in gone])] = True
        st.gone[0] = False
    return np.sort(np.concatenate(stopped)) if stopped else np.zeros(0, dtype=np.intp)
