"""Lockstep placing: the k-th tile of every game's queue at once, and the placing rules
as batched primitives the engine's stage machine shares.

The stage machine (`stages.run_stages`) can stop any game at any tile to ask its owner a
question, so it keeps a stage per game and works on index lists of the games in each
stage. Most tiles ask nothing (the basic variant never asks), and for them that
bookkeeping is most of the cost. `place_turn` places a whole turn's queue position by
position over the full batch width instead: per position a handful of array operations
on (R, B) and (B,) arrays. A game leaves the lockstep at the first tile where the rules
would ask its owner something (a luck card it could play; luck cards gained for clovers
passed), untouched by that tile, and the stage machine places the rest of its turn from
there. Both paths use the primitives below, so Rules 1-2, the field effects and the move
after a take are each written once in the engine (`placement.py` restates them for
agents, tested against the engine); `tests/test_golden_board.py` pins the result to the
stage machine's games bit for bit.

Rows are also kept packed, one int32 per row and game: `end * R + row` for an active
row (its last tile and its index), -1 for a free one. Ordering by the packed value is
ordering by row end, so Rules 1-2 are one max over the rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from .layout import FIXED, GREEN, PLAY_TWO, RED, TAKE, BoardLayout
from .rules import PLUS5
from .state import STAGE_PLACE, BoardState

FREE_ROW = -1  # the packed value of a row that holds no tile


@dataclass(frozen=True)
class FieldTables:
    """A layout's fields as flat lookup tables, indexed by `row * F + field`.

    Attributes:
        fields: F, the fields of the longest row.
        kind: (R*F,) int8, the field kinds (layout.kind flattened).
        take: (R*F,) bool, a take field.
        bull_sign: (R*F,) int32, +1 on green fields, -1 on red ones, 0 elsewhere: a
            landing tile brings bull_sign * its bullheads ...
        fixed: (R*F,) int32, ... plus the printed value of a fixed field.
        two_ahead: (R*(F+1),) bool, indexed by `row * (F+1) + length`: a row of that
            length (> 0) still has an uncovered play-two field.
        rows_with_two: the rows that have a play-two field at all.
    """

    fields: int
    kind: NDArray[np.int8]
    take: NDArray[np.bool_]
    bull_sign: NDArray[np.int32]
    fixed: NDArray[np.int32]
    two_ahead: NDArray[np.bool_]
    rows_with_two: NDArray[np.intp]


def field_tables(layout: BoardLayout) -> FieldTables:
    """The lookup tables of a layout, computed once per layout object (looked up by
    identity: hashing a layout hashes all its rows, which costs more than a turn's
    bookkeeping)."""
    cached = _TABLES.get(id(layout))
    if cached is None or cached[0] is not layout:
        cached = _TABLES[id(layout)] = (layout, _field_tables(layout))
    return cached[1]


_TABLES: dict[int, tuple[BoardLayout, FieldTables]] = {}  # id -> (layout, tables); the layout kept alive


@lru_cache(maxsize=32)
def _field_tables(layout: BoardLayout) -> FieldTables:
    kind = layout.kind
    R, F = kind.shape
    bull_sign = np.where(kind == GREEN, 1, np.where(kind == RED, -1, 0)).astype(np.int32)
    fixed = np.where(kind == FIXED, layout.value, 0).astype(np.int32)
    lengths = np.arange(F + 1)
    uncovered = np.arange(F)[None, :] >= lengths[:, None]  # (F+1, F): field f uncovered at length l
    two_ahead = ((kind == PLAY_TWO)[:, None, :] & uncovered[None]).any(axis=2) & (lengths > 0)[None, :]
    return FieldTables(F, kind.reshape(-1).copy(), (kind == TAKE).reshape(-1), bull_sign.reshape(-1),
                       fixed.reshape(-1), two_ahead.reshape(-1), np.flatnonzero((kind == PLAY_TWO).any(axis=1)))


def packed_rows(tiles: NDArray[np.int8], length: NDArray[np.int8]) -> NDArray[np.int32]:
    """(R, b) the packed rows of boards `tiles` (R, F, b) with `length` (R, b)."""
    R = length.shape[0]
    last = np.maximum(length.astype(np.intp) - 1, 0)[:, None, :]
    ends = np.take_along_axis(tiles, last, axis=1)[:, 0, :].astype(np.int32)
    return np.where(length > 0, ends * R + np.arange(R, dtype=np.int32)[:, None], FREE_ROW)


def target_rows(packed: NDArray[np.int32], tile: NDArray, scale: int) -> NDArray[np.intp]:
    """Rules 1-2 and the too-low exception: (b,) the row each tile (b,) joins.

    Rows come packed (n, b) as `end * scale + index` (index < scale), -1 for a free row;
    the result is the chosen row's index. The active row whose end is the highest one
    below the tile; a tile lower than every row end goes after the highest row end.
    Active rows ineligible for the tile count 0 in the first max and eligible ones at
    least `scale`, so 0 means "too low" (every board has an active row).
    """
    return (best_rows(packed, tile, scale) % scale).astype(np.intp)


def best_rows(packed: NDArray[np.int32], tile: NDArray, scale: int) -> NDArray[np.int32]:
    """`target_rows`, but the chosen row's packed value itself."""
    below = (packed * (packed < tile.astype(packed.dtype) * scale)).max(axis=0)
    return np.where(below > 0, below, packed.max(axis=0))


def landing_points(tables: FieldTables, field_index: NDArray, bulls: NDArray) -> NDArray[np.int32]:
    """Points a tile with `bulls` bullheads brings by landing on the fields `field_index`
    (row * F + field) that are not take fields: green +bullheads, red -bullheads, fixed
    +-value, every other kind 0."""
    return tables.bull_sign[field_index] * bulls + tables.fixed[field_index]


def next_free_rows(length: NDArray[np.int8], origin: NDArray, taken: NDArray, games: NDArray) -> NDArray[np.intp]:
    """(g,) the first free row after `origin` (g,), wrapping, never the row `taken` (g,)
    just emptied: where a tile goes after its take (origin: the taken row for
    next_row="scan", the most recently opened row for "rotate")."""
    R = length.shape[0]
    candidates = (np.asarray(origin, dtype=np.intp)[None, :] + np.arange(1, R + 1)[:, None]) % R  # (R, g)
    free = (length[candidates, games[None, :]] == 0) & (candidates != np.asarray(taken)[None, :])
    return candidates[free.argmax(axis=0), np.arange(len(games))]


def taken_points(bulls_table: NDArray, row_tiles: NDArray) -> NDArray[np.int32]:
    """(g,) the bullheads of the rows `row_tiles` (g, F) a take scores against its owner."""
    return bulls_table[row_tiles].sum(axis=1, dtype=np.int32)


def contiguous(st: BoardState, *names: str) -> None:
    """Flat views below write through to the state: make its arrays C-contiguous."""
    for name in names:
        a = getattr(st, name)
        if not a.flags.c_contiguous:
            setattr(st, name, np.ascontiguousarray(a))


@lru_cache(maxsize=8)
def next_free_table(rows: int) -> NDArray[np.int8] | None:
    """(R, 2**R) the row `next_free_rows` gives for each origin and set of occupied rows
    (bit r: row r holds tiles, the taken row included), or None for boards too large for
    a table (more than MAX_TABLE_ROWS rows)."""
    if rows > MAX_TABLE_ROWS:
        return None
    masks = np.arange(1 << rows)
    origin = np.repeat(np.arange(rows), len(masks))
    occupied = np.tile(masks, rows)
    length = ((occupied[None, :] >> np.arange(rows)[:, None]) & 1).astype(np.int8)  # (R, n)
    taken = np.full(len(origin), -1)  # the taken row is among the occupied ones here
    table = next_free_rows(length, origin, taken, np.arange(len(origin)))
    table[(length == 1).all(axis=0)] = -1  # no free row (never on a valid board)
    return table.reshape(rows, len(masks)).astype(np.int8)


MAX_TABLE_ROWS = 14  # a 14 x 16384 table: 229 KB
_ROW_BITS = (1 << np.arange(MAX_TABLE_ROWS, dtype=np.int32))[:, None]


@dataclass(frozen=True)
class RowListsTable:
    """For each set of active rows (bit r: row r), its rows in order and how many.

    Attributes:
        rows: (R, 2**R) int8, rows[s, mask] the s-th active row of `mask`, R past the last.
        counts: (2**R,) int8, the number of active rows of `mask`.
    """

    rows: NDArray[np.int8]
    counts: NDArray[np.int8]


@lru_cache(maxsize=8)
def row_lists_table(rows: int) -> RowListsTable | None:
    """The RowListsTable of boards with `rows` rows, None past MAX_TABLE_ROWS."""
    if rows > MAX_TABLE_ROWS:
        return None
    masks = np.arange(1 << rows)
    bits = ((masks[None, :] >> np.arange(rows)[:, None]) & 1).astype(bool)  # (R, n)
    ordered = np.sort(np.where(bits, np.arange(rows)[:, None], rows), axis=0).astype(np.int8)
    return RowListsTable(ordered, bits.sum(axis=0).astype(np.int8))


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
            self.occupied = (active * _ROW_BITS[:R]).sum(axis=0)  # (B,) bit r: row r active
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
