"""A turn's bookkeeping: tiles put out and revealed into the placing queue, the end of a
turn (refill, the end of the game) and the start of the next (one tile or two)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ..core.sorting import sort_columns
from .layout import PLAY_TWO
from .rows import contiguous, field_tables
from .rules import HAND_SIZE, N_TILES, STOP_SIGNS
from .state import PHASE_OVER, PHASE_PICK, PHASE_PICK_SECOND, STAGE_OFFER, STAGE_PLACE, BoardState

_SEAT_BITS = 3  # queue key = tile << _SEAT_BITS | seat (at most 8 seats)


_NO_TILE_KEY = (N_TILES + 1) << _SEAT_BITS  # sorts after every tile



def put_out(st: BoardState, games: NDArray, slot: NDArray) -> NDArray:
    """Every seat of `games` (g,) puts out the tile in its hand slot `slot` (P, g); returns
    the games whose tiles are all out, their queue sorted (revealed)."""
    contiguous(st, "hands")
    P, H, B = st.hands.shape
    hands_flat = st.hands.reshape(-1)
    if st.config.pro:  # hands differ in size; an empty hand's slot 0 holds 0, so it puts out nothing
        count = (st.hands[:, :, columns(st, games)] > 0).sum(axis=1)  # (P, g)
    else:  # every seat holds as many tiles
        count = (st.hands[0][:, columns(st, games)] > 0).sum(axis=0)[None, :]
    base = np.arange(P)[:, None] * (H * B) + games[None, :]  # (P, g): slot 0 of each seat's hand
    at_slot = base + slot * B
    at_last = base + np.maximum(count - 1, 0) * B
    chosen = hands_flat[at_slot]
    hands_flat[at_slot] = hands_flat[at_last]  # swap-remove keeps the tiles in front
    hands_flat[at_last] = 0
    cols = columns(st, games)
    second = st.phase[cols] == PHASE_PICK_SECOND
    if not second.any():
        st.picked[0][:, cols] = chosen
    elif second.all():
        st.picked[1][:, cols] = chosen
    else:  # flat: picked is (2, P, B)
        contiguous(st, "picked")
        st.picked.reshape(-1)[(second * P + np.arange(P)[:, None]) * B + games[None, :]] = chosen
    more = ~second & (st.picks[cols] == 2)
    if more.any():
        st.phase[games[more]] = PHASE_PICK_SECOND
        games = games[~more]
    reveal(st, games)
    return games


def columns(st: BoardState, games: NDArray) -> NDArray | slice:
    """`games` (sorted, distinct) as an index: a slice when it is every game of the batch,
    which NumPy reads and writes without gathering."""
    return slice(None) if len(games) == st.batch_size else games


def reveal(st: BoardState, games: NDArray) -> None:
    """Sort the tiles put out in `games` into the placing queue, lowest first."""
    cols = columns(st, games)
    two = st.picks[cols] == 2
    if two.all() or not two.any():
        queue_tiles(st, cols, 2 if two.any() else 1)
    else:  # sorting 2P tiles costs twice P: only the games that put out two sort them all
        queue_tiles(st, games[two], 2)
        queue_tiles(st, games[~two], 1)
    st.at[cols] = 0
    st.stage[cols] = first_stage(st)
    st.phase[cols] = PHASE_PICK  # placing: not waiting for anyone (PHASE_ASK when a question stops it)


def first_stage(st: BoardState) -> int:
    """Where the placing of each queued tile starts: the action-card offer (pro), else
    finding its row."""
    return STAGE_OFFER if st.config.pro else STAGE_PLACE


def queue_tiles(st: BoardState, cols: NDArray | slice, picks: int) -> None:
    """The placing queue of games `cols` whose seats put out `picks` tiles each."""
    P = st.players
    picked = st.picked[:picks, :, cols].reshape(picks * P, -1).astype(np.int16)  # (n, g), first picks first
    seat = np.tile(np.arange(P, dtype=np.int16), picks)[:, None]
    keys = np.where(picked > 0, (picked << _SEAT_BITS) | seat, np.int16(_NO_TILE_KEY))
    sort_columns(keys)
    n = picks * P
    st.queue[:n, cols] = np.where(keys < _NO_TILE_KEY, keys >> _SEAT_BITS, 0)
    st.queue_seat[:n, cols] = keys & ((1 << _SEAT_BITS) - 1)
    st.queue[n:, cols] = 0
    st.queue_seat[n:, cols] = 0


def end_turn(st: BoardState, games: NDArray) -> None:
    """Turn over: luck cards become usable; refill once (2-3 players) or end the game when
    every hand is empty; else the next turn starts."""
    cols = columns(st, games)
    st.turn[cols] += 1
    if st.config.luck:
        st.luck_new[:, :, cols] = 0
    st.picked[:, :, cols] = 0
    st.queue[:, cols] = 0
    if st.config.pro:
        st.queue_extra[:, cols] = False
    st.at[cols] = 0
    st.stage[cols] = first_stage(st)
    if st.config.pro:  # stop signs are removed at the end of the turn
        st.stops[:, cols] = False
        st.stops_left[cols] = STOP_SIGNS
        empty = (st.hands[:, 0, cols] == 0).any(axis=0)  # pro: as soon as some hand is empty
    else:
        empty = st.hands[0, 0, cols] == 0  # every hand is as empty as the others
    if empty.any():
        out = games[empty]
        refilling = out[~st.refilled[out]] if st.config.refill else out[:0]
        if len(refilling):
            refill(st, refilling)
            if st.config.pro:  # a supply too short for a tile each leaves a hand empty: the end
                still = (st.hands[:, 0, refilling] == 0).any(axis=0)
                refilling = refilling[~still]
        over = np.setdiff1d(out, refilling)
        if st.config.pro:
            final_scoring(st, over)
        st.phase[over] = PHASE_OVER
        games = np.setdiff1d(games, over)
    start_turn(st, games)


def final_scoring(st: BoardState, games: NDArray) -> None:
    """Pro: every seat gains 1 point per action card in hand and loses the bullheads of
    every tile still in hand."""
    if len(games) == 0:
        return
    bulls = st.config.board.tile_bulls.astype(np.int32)
    cards = st.action[:, :, games].sum(axis=0, dtype=np.int32)  # (P, g)
    in_hand = bulls[st.hands[:, :, games].astype(np.intp)].sum(axis=1, dtype=np.int32)  # (P, g)
    st.score[:, games] += cards - in_hand


def refill(st: BoardState, games: NDArray) -> None:
    """Every seat draws 12 tiles from the supply, seat 0 first (pro: onto what it holds,
    an equal share of a supply shorter than 12 a seat)."""
    P = st.players
    if not st.config.pro:
        first = st.drawn[games].astype(np.intp)
        idx = first[None, :] + np.arange(P * HAND_SIZE)[:, None]  # (P*H, g)
        st.hands[:, :HAND_SIZE, games] = st.supply[idx, games[None, :]].reshape(P, HAND_SIZE, -1)
        st.drawn[games] += P * HAND_SIZE
    else:
        for b in games:  # once a game, at most twice a batch's life: plain loops
            left = int((st.supply[:, b] > 0).sum()) - int(st.drawn[b])
            share = min(HAND_SIZE, max(left, 0) // P)
            for p in range(P):
                count = int((st.hands[p, :, b] > 0).sum())
                first = int(st.drawn[b])
                st.hands[p, count:count + share, b] = st.supply[first:first + share, b]
                st.drawn[b] += share
    st.refilled[games] = True


def start_turn(st: BoardState, games: NDArray) -> None:
    """A new turn: one tile each, or two while an active row has an uncovered play-two field."""
    if len(games) == 0:
        return
    tables = field_tables(st.config.board)
    cols = columns(st, games)
    rows = tables.rows_with_two  # only rows with a play-two field can have one uncovered
    at_length = (rows * (tables.fields + 1))[:, None] + st.length[rows][:, cols]  # (r, g)
    play_two = tables.two_ahead[at_length].any(axis=0)
    if st.config.pro:  # a field a Skip left empty stays uncovered: a skipped play-two field counts
        kind = st.config.board.kind[:, :, None]
        skipped = (st.tiles[:, :, cols] == 0) & (np.arange(kind.shape[1])[None, :, None] < st.length[:, None, cols])
        play_two |= ((kind == PLAY_TWO) & skipped).any(axis=(0, 1))
    # two tiles in hand (held tiles fill the first slots); pro: a seat holding one puts out one
    two = play_two & ((st.hands[:, 1, cols] > 0).any(axis=0) if st.config.pro else (st.hands[0, 1, cols] > 0))
    st.picks[cols] = np.where(two, 2, 1)
    st.phase[cols] = PHASE_PICK
