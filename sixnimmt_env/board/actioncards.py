"""The professional side's questions, batched: the legal answers of the action-card
offer (`options`) and of the free-row choice (`free_rows`), the answers decoded
(`decode_play`), and the action deck's reshuffle (docs/rules/board-game.md, "Variant 3").

Carrying the cards out, the draw fields and the H fields are part of the placing
(`kernel.py`). Hands on the pro side differ in size and grow: they are kept as tiles in
the first slots of a hand of N_TILES slots.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ..core import rng
from .actions import (
    ASCENDING_ACTION,
    FREE_ROW_ACTION,
    FRONT_ACTION,
    N_ACTIONS,
    NO_CARD_ACTION,
    ONE_MORE_ACTION,
    SKIP_ACTION,
    STOP_ACTION,
    SWAP_ACTION,
)
from .rows import packed_rows, target_rows
from .rules import ACTION_KINDS, ASCENDING, FRONT, N_TILES, ONE_MORE, SKIP, STOP, SWAP
from .state import NO_CARD, BoardState

TAG_RESHUFFLE = np.uint64(0x1F83D9ABFB41BD6B)  # the action deck's reshuffles (counter: cards drawn so far)


def reshuffle(st: BoardState, b: int) -> None:
    """The discards of game b, shuffled, become its deck (a function of the game's seed and
    how many cards it has drawn)."""
    kinds = np.repeat(np.arange(len(ACTION_KINDS)), st.discard[:, b]).astype(np.int8)
    if len(kinds) == 0:
        return
    key = rng.round_keys(st.seed[b:b + 1], TAG_RESHUFFLE, st.action_drawn[b:b + 1])
    order = rng.permutations(key, len(kinds))[0]
    st.deck[:, b] = 0
    st.deck[:len(kinds), b] = kinds[order]
    st.deck_at[b], st.deck_end[b] = 0, len(kinds)
    st.discard[:, b] = 0


# --------------------------------------------------------------------------- the offer


def open_rows(st: BoardState, games: NDArray) -> NDArray[np.bool_]:
    """(R, g) active rows without a stop sign: the rows a tile may join."""
    return (st.length[:, games] > 0) & ~st.stops[:, games]


def rules_row(st: BoardState, games: NDArray, tile: NDArray) -> NDArray[np.intp]:
    """(g,) the row Rules 1-2 (or the too-low exception) give among the open rows."""
    length = np.where(open_rows(st, games), st.length[:, games], 0).astype(np.int8)
    return target_rows(packed_rows(st.tiles[:, :, games], length), tile, st.length.shape[0])


def options(st: BoardState, games: NDArray, seats: NDArray, tile: NDArray) -> NDArray[np.bool_]:
    """(g, N_ACTIONS) the legal answers of each seat offered its action cards for `tile`:
    no card always; each card it holds where the rules allow it (the preconditions of
    docs/rules/board-game.md, "Professional side")."""
    g = len(games)
    R = st.length.shape[0]
    row_len = st.config.board.row_len.astype(np.intp)
    held = st.action[:, seats, games] > 0  # (K, g)
    length = st.length[:, games].astype(np.intp)  # (R, g)
    active = open_rows(st, games)
    ends = np.take_along_axis(st.tiles[:, :, games], np.maximum(length - 1, 0)[:, None, :], axis=1)[:, 0]
    first = st.tiles[:, 0, games]
    mask = np.zeros((g, N_ACTIONS), dtype=bool)
    mask[:, NO_CARD_ACTION] = True
    rows = np.arange(R)
    stop = held[STOP] & (st.stops_left[games] > 0)
    mask[:, STOP_ACTION + rows] = (active & stop[None, :]).T
    # Front: a row whose first tile is higher, with a free field before its take field
    front = active & (first > tile[None, :]) & (length < row_len[:, None] - 1)
    mask[:, FRONT_ACTION + rows] = (front & held[FRONT][None, :]).T
    # Ascending: any open row the tile is higher than (it may land on the take field)
    ascending = active & (ends < tile[None, :])
    mask[:, ASCENDING_ACTION + rows] = (ascending & held[ASCENDING][None, :]).T
    # Skip: two free fields in the rules' row before its take field is reached
    target = rules_row(st, games, tile)
    skip_ok = length[target, np.arange(g)] + 1 < row_len[target] - 1
    mask[:, SKIP_ACTION] = held[SKIP] & skip_ok
    # Swap and One more: any tile in the hand
    in_hand = np.zeros((g, N_TILES + 1), dtype=bool)
    hands = st.hands[seats, :, games]  # (g, H)
    in_hand[np.arange(g)[:, None], hands.astype(np.intp)] = True
    in_hand[:, 0] = False
    mask[:, SWAP_ACTION:SWAP_ACTION + N_TILES] = in_hand[:, 1:] & held[SWAP][:, None]
    mask[:, ONE_MORE_ACTION:ONE_MORE_ACTION + N_TILES] = in_hand[:, 1:] & held[ONE_MORE][:, None]
    return mask


def decode_play(actions: NDArray) -> tuple[NDArray[np.int8], NDArray[np.int8]]:
    """Answers to the offer -> (kind, argument): NO_CARD or the card kind; the row (Stop,
    Front, Ascending) or the tile (Swap, One more), 0 otherwise."""
    a = np.asarray(actions, dtype=np.int64)
    kind = np.full(a.shape, NO_CARD, dtype=np.int8)
    arg = np.zeros(a.shape, dtype=np.int8)
    for base, width, k in ((STOP_ACTION, FRONT_ACTION - STOP_ACTION, STOP),
                           (FRONT_ACTION, ASCENDING_ACTION - FRONT_ACTION, FRONT),
                           (ASCENDING_ACTION, SKIP_ACTION - ASCENDING_ACTION, ASCENDING),
                           (SKIP_ACTION, 1, SKIP), (SWAP_ACTION, N_TILES, SWAP), (ONE_MORE_ACTION, N_TILES, ONE_MORE)):
        hit = (a >= base) & (a < base + width)
        kind[hit] = k
        arg[hit] = (a[hit] - base + (1 if k in (SWAP, ONE_MORE) else 0)).astype(np.int8)
    return kind, arg


def free_rows(st: BoardState, games: NDArray) -> NDArray[np.bool_]:
    """(g, N_ACTIONS) the legal answers of the free-row question: every empty row."""
    R = st.length.shape[0]
    mask = np.zeros((len(games), N_ACTIONS), dtype=bool)
    mask[:, FREE_ROW_ACTION + np.arange(R)] = (st.length[:, games] == 0).T
    return mask
