"""The professional side's own rules, batched: action cards, stop signs, draw fields,
tiles taken into the hand, the free-row choice (docs/rules/board-game.md, "Variant 3").

The stage machine (`stages.py`) calls these where the pro rules differ: before a tile is
placed its owner is offered its action cards (`options` lists the legal plays, `play`
carries one out), a draw field draws (`draw_tiles`, `draw_action_cards`), an H field
takes a row into the hand (`to_hand`), and the tile moved after a take goes to the free
row its owner picks (`free_rows`). Hands on the pro side differ in size and grow: they
are kept as tiles in the first slots of a hand of N_TILES slots (`hand_add`,
`hand_remove`).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ..core import rng
from ..core.errors import IllegalActionError
from .actions import (ASCENDING_ACTION, FREE_ROW_ACTION, FRONT_ACTION, N_ACTIONS, NO_CARD_ACTION,
                      ONE_MORE_ACTION, SKIP_ACTION, STOP_ACTION, SWAP_ACTION)
from .rows import packed_rows, target_rows
from .rules import ACTION_KINDS, ASCENDING, FRONT, N_TILES, ONE_MORE, SKIP, STOP, SWAP
from .state import NO_CARD, BoardState

TAG_RESHUFFLE = np.uint64(0x1F83D9ABFB41BD6B)  # the action deck's reshuffles (counter: cards drawn so far)


# --------------------------------------------------------------------------- hands


def hand_add(st: BoardState, seats: NDArray, games: NDArray, tiles: NDArray) -> None:
    """Put one tile (g,) into each seat's hand (tiles 0 are skipped)."""
    keep = np.asarray(tiles) > 0
    seats, games, tiles = seats[keep], games[keep], np.asarray(tiles)[keep]
    for j in range(len(games)):  # a seat may appear twice in one game: one at a time
        s, b = seats[j], games[j]
        st.hands[s, (st.hands[s, :, b] > 0).sum(), b] = tiles[j]


def hand_remove(st: BoardState, seats: NDArray, games: NDArray, tiles: NDArray) -> None:
    """Take one tile (g,) out of each seat's hand (swap-remove: the held tiles stay in front)."""
    for s, b, t in zip(seats, games, tiles):
        hand = st.hands[s, :, b]
        count = int((hand > 0).sum())
        slot = int(np.flatnonzero(hand == t)[0])
        hand[slot] = hand[count - 1]
        hand[count - 1] = 0


# --------------------------------------------------------------------------- draws


def draw_tiles(st: BoardState, seats: NDArray, games: NDArray) -> NDArray[np.int8]:
    """A draw-tile field: each seat draws the next tile of the supply into its hand,
    nothing when the supply is empty. Returns the tiles drawn (g,), 0 for none."""
    at = st.drawn[games].astype(np.intp)
    tile = np.where(at < st.supply.shape[0], st.supply[np.minimum(at, st.supply.shape[0] - 1), games], 0)
    st.drawn[games] += tile > 0
    hand_add(st, seats, games, tile)
    return tile.astype(np.int8)


def draw_action_cards(st: BoardState, seats: NDArray, games: NDArray) -> NDArray[np.int8]:
    """A draw-action field: each seat draws the top card of the action deck; an empty deck
    is first replaced by the discard pile, shuffled; with both empty nothing is drawn.
    Returns the kinds drawn (g,), NO_CARD for none."""
    drawn = np.full(len(games), NO_CARD, dtype=np.int8)
    for j, (s, b) in enumerate(zip(seats, games)):
        if st.deck_at[b] == st.deck_end[b]:
            _reshuffle(st, b)
        if st.deck_at[b] < st.deck_end[b]:
            at, end, n = int(st.deck_at[b]), int(st.deck_end[b]), int(st.action_drawn[b])
            wanted = int(st.action_script[n, b]) if n < st.action_script.shape[0] else NO_CARD
            if wanted != NO_CARD:  # a replayed record says which card comes: bring it to the top
                where = np.flatnonzero(st.deck[at:end, b] == wanted)
                if len(where) == 0:
                    raise IllegalActionError(f"action card {n} drawn is {ACTION_KINDS[wanted]!r}, but the deck "
                                             f"holds no {ACTION_KINDS[wanted]!r} card then")
                i = at + int(where[0])
                st.deck[at, b], st.deck[i, b] = st.deck[i, b], st.deck[at, b]
            kind = int(st.deck[at, b])
            st.action_log[n, b] = kind
            st.deck_at[b] += 1
            st.action[kind, s, b] += 1
            st.action_drawn[b] += 1
            drawn[j] = kind
    return drawn


def _reshuffle(st: BoardState, b: int) -> None:
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


def discard(st: BoardState, kind: NDArray, seats: NDArray, games: NDArray) -> None:
    """Each seat plays one action card of `kind` (g,): it goes to the discard pile at once."""
    np.add.at(st.action, (kind, seats, games), -1)
    np.add.at(st.discard, (kind, games), 1)


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


def play(st: BoardState, games: NDArray, seats: NDArray, kind: NDArray, arg: NDArray) -> NDArray[np.bool_]:
    """Each seat plays the card `kind` (g,) with its argument on its current tile.
    Returns (g,) True where the card places the tile (Skip, Front, Ascending: the stage
    machine places it next), False where the seat is offered its cards again."""
    k = st.at[games].astype(np.intp)
    discard(st, kind.astype(np.intp), seats, games)
    places = (kind == SKIP) | (kind == FRONT) | (kind == ASCENDING)
    st.card[games] = np.where(places, kind, st.card[games])
    st.card_row[games] = np.where(places, arg, st.card_row[games])
    for j in np.flatnonzero(~places):
        s, b, a, kk = seats[j], games[j], int(arg[j]), k[j]
        if kind[j] == STOP:
            st.stops[a, b] = True
            st.stops_left[b] -= 1
        elif kind[j] == SWAP:  # the revealed tile back into the hand, the new one in its place
            old = int(st.queue[kk, b])
            hand_remove(st, np.array([s]), np.array([b]), np.array([a]))
            hand_add(st, np.array([s]), np.array([b]), np.array([old]))
            st.queue[kk, b] = a
        elif kind[j] == ONE_MORE:  # the extra tile joins the tiles placed now, lower first
            hand_remove(st, np.array([s]), np.array([b]), np.array([a]))
            now = kk + 1  # the tiles placed now: this one and the extra tiles queued after it
            while now < st.queue.shape[0] and st.queue_extra[now, b]:
                now += 1
            at = kk + int((st.queue[kk:now, b] < a).sum())  # its place among them, ascending
            for name in ("queue", "queue_seat", "queue_extra"):
                q = getattr(st, name)
                q[at + 1:, b] = q[at:-1, b].copy()
            st.queue[at, b], st.queue_seat[at, b], st.queue_extra[at, b] = a, s, True
            if at == kk:  # the extra tile is lower: it is placed first, the other one waits
                st.queue_extra[kk + 1, b] = True
    return places


def free_rows(st: BoardState, games: NDArray) -> NDArray[np.bool_]:
    """(g, N_ACTIONS) the legal answers of the free-row question: every empty row."""
    R = st.length.shape[0]
    mask = np.zeros((len(games), N_ACTIONS), dtype=bool)
    mask[:, FREE_ROW_ACTION + np.arange(R)] = (st.length[:, games] == 0).T
    return mask


def to_hand(st: BoardState, seats: NDArray, games: NDArray, row: NDArray) -> NDArray[np.intp]:
    """An H field: the tiles of each row (g,) go into the seat's hand unscored. Returns how
    many (g,)."""
    taken = st.tiles[row, :, games]  # (g, F)
    for j in range(len(games)):
        for t in taken[j][taken[j] > 0]:
            hand_add(st, seats[j:j + 1], games[j:j + 1], np.array([t]))
    return (taken > 0).sum(axis=1)

