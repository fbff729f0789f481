"""The board game's worlds: whole states a seat cannot tell from the real one (`BoardSeatView.worlds`).

A world starts from the game as the seat knows it (`BoardSeatView.known_state`: the real
state with the other hands, the supply, the others' face-down first tiles under
play-two, the seed and, on the pro side, the action deck and the others' action cards
emptied) and deals what the seat has not seen into those places: the unseen tiles into
the other hands (as many as each holds), the face-down first tiles and the supply's
undrawn part (with 2-3 players before the refill, the refill comes from it), in random
order or the hands from a belief; the observing seat's own hand is shuffled (the rollout
policies play its last slot); on the pro side the action cards it has not seen go to the
other seats (as many as each holds, which is public) and the deck. The writing is
compiled (`_kernel/worlds.py`).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ..core.worlds import belief_hands
from ._kernel.worlds import deal_worlds as _deal_kernel
from ._kernel.worlds import load_deal_worlds
from .rules import N_TILES
from .state import PHASE_PICK_SECOND, BoardState

_NO_SIZES = np.zeros((0, 0), dtype=np.int64)

__all__ = ["deal_action_cards", "deal_worlds", "determinize", "load_deal_worlds"]


def deal_worlds(view, entries: NDArray, count: int, rng: np.random.Generator,
                deal: NDArray | None = None) -> BoardState:
    """`count` worlds of each of `entries` of `view` (a BoardSeatView): world r of entry i
    is game i * count + r. `deal` (len(entries), N+1, P): per entry, each tile's
    probability of being in relative seat j's hand (columns 0..P-2 for seats 1..P-1) or
    elsewhere (face down, the supply: column P-1); None: uniform."""
    entries = np.asarray(entries, dtype=np.intp).reshape(-1)
    if count < 1:
        raise ValueError("count must be >= 1")
    P, k = view.players, len(entries)
    worlds = view.subset(entries).known_state().take(np.repeat(np.arange(k), count))
    seats = view.seats[entries].astype(np.intp).repeat(count)
    absolute = (np.arange(P)[None, :] - view.seats[entries, None]) % P  # relative index of each absolute seat
    sizes = np.take_along_axis(view.hand_sizes[entries], absolute, axis=1).repeat(count, axis=0)
    unseen = view.unseen[entries].repeat(count, axis=0)
    order = None
    if deal is not None:
        counts = view.hand_sizes[entries][:, 1:]  # (k, P-1) relative
        hands = belief_hands(deal, view.unseen[entries], counts, count, rng)
        order = _belief_order(hands, unseen, rng)
    determinize(worlds, seats, unseen, rng, sizes if view.config.pro else None, order)
    if view.config.pro:
        cards = np.take_along_axis(view.action_counts[entries], absolute, axis=1).repeat(count, axis=0)
        deal_action_cards(worlds, seats, cards, rng)
    return worlds


def _belief_order(hands: NDArray, unseen: NDArray[np.bool_], rng: np.random.Generator) -> NDArray[np.int8]:
    """(W, N+1) the order `determinize` deals the unseen tiles in: the other seats' hands
    `hands` (W, P-1, H) as dealt from a belief, seat after seat, then the rest at random."""
    W = len(hands)
    rank = np.where(unseen, 1e6 + rng.random(unseen.shape), np.inf)
    held = hands > 0
    at = np.cumsum(held.reshape(W, -1), axis=1).reshape(held.shape) - 1  # place in the dealing order
    w = np.broadcast_to(np.arange(W)[:, None, None], hands.shape)
    rank[w[held], hands[held]] = at[held]
    return np.argsort(rank, axis=1, kind="stable").astype(np.int8)


def deal_action_cards(known: BoardState, seats: NDArray, counts: NDArray, rng: np.random.Generator) -> None:
    """Pro, in place: deal the cards the seat has not seen (the deck less its own cards and
    the discards) at random: each other seat as many as it holds (`counts` (G, P)), the
    rest to the deck in random order. All games at once: each game's unseen cards, listed
    by kind, are put in the order of one random key each (one draw for the batch)."""
    G, P = known.batch_size, known.players
    kinds = len(known.config.action_cards)
    rows = np.arange(G)
    own = known.action[:, seats, rows]  # (K, G)
    pool = np.maximum(np.array(known.config.action_cards)[:, None] - own - known.discard, 0).T  # (G, K)
    D = int(sum(known.config.action_cards))
    ends = np.cumsum(pool, axis=1)  # card i of a game's list is of the first kind whose end is past i
    listed = (np.arange(D)[None, :, None] >= ends[:, None, :]).sum(axis=2)  # (G, D): kinds == past the pool
    keys = np.where(listed < kinds, rng.random((G, D)), 2.0)  # the cards not in the pool sort last
    cards = np.take_along_axis(listed, np.argsort(keys, axis=1, kind="stable"), axis=1)  # (G, D) shuffled
    total = ends[:, -1]
    # the other seats, from the seat's left, take their counts off the front; the rest is the deck
    order = (seats[:, None] + 1 + np.arange(P - 1)[None, :]) % P  # (G, P-1)
    taken = np.take_along_axis(counts, order, axis=1).astype(np.int64)
    bounds = np.cumsum(taken, axis=1)  # (G, P-1)
    i = np.arange(D)[None, :]
    holder = (i[:, :, None] >= bounds[:, None, :]).sum(axis=2)  # (G, D): index into order, P-1 for the deck
    dealt = (holder < P - 1) & (i < total[:, None])
    g, d = np.nonzero(dealt)
    seat = order[g, holder[g, d]]
    np.add.at(known.action, (cards[g, d], seat, g), 1)
    start = bounds[:, -1]
    pos = i - start[:, None]  # a card's place in the deck
    in_deck = (pos >= 0) & (i < total[:, None])
    known.deck[:] = 0
    g, d = np.nonzero(in_deck)
    known.deck[pos[g, d], g] = cards[g, d]
    known.deck_at[:] = 0
    known.deck_end[:] = np.maximum(total - start, 0)


def determinize(known: BoardState, seats: NDArray, unseen: NDArray, rng: np.random.Generator,
                sizes: NDArray | None = None, order: NDArray | None = None) -> None:
    """In place: deal each game's unseen tiles (unseen (G, N+1) bool) in random order (or
    in `order` (G, N+1), the unseen tiles first) into the other seats' hands (as many as
    sizes[g, seat] when given, else as the observer holds), their face-down first tiles
    (PHASE_PICK_SECOND) and the supply, and shuffle the observing seat's own hand. `known`
    is a known_state() copy (those places empty), seats[g] the observing seat of game g."""
    G, H = known.batch_size, known.hands.shape[1]
    keys = rng.random((G, N_TILES + 1))
    if order is None:
        keys[~unseen] = 2.0  # seen tiles (and tile 0) sort last
        order = np.argsort(keys, axis=1).astype(np.int8)  # (G, N+1): the unseen tiles first, shuffled
    u = unseen.sum(axis=1)
    own_keys = rng.random((G, H))  # the own hand's new order (drawn for every slot, used for the held ones)
    # the writing, game by game (_kernel/worlds.py): the arrays' game-first views, as the state stores them
    bad = _deal_kernel(np.moveaxis(known.hands, -1, 0), np.moveaxis(known.picked, -1, 0),
                       np.moveaxis(known.supply, -1, 0), known.drawn.astype(np.int64),
                       known.phase == PHASE_PICK_SECOND, np.asarray(seats, dtype=np.int64), order, u, own_keys,
                       _NO_SIZES if sizes is None else np.asarray(sizes, dtype=np.int64), N_TILES)
    if bad >= 0:
        raise ValueError("more hidden places than unseen tiles (an inconsistent view)")
