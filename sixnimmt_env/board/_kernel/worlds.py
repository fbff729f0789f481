"""The deal of the hidden tiles into a seat's worlds, compiled (board/worlds.py draws the
random numbers and orders the unseen tiles; this writes them into the state).

One game at a time, as `board.worlds.determinize` documents: the observing seat's own tiles in
the order of its random keys, then the other seats' hands from the shuffled unseen tiles,
their face-down first tiles under play-two, and the rest into the supply's undrawn part.
It reads no module's constants (everything comes in as an argument), so numba's own cache,
keyed on this file, cannot go stale.
"""

from __future__ import annotations

from numba import njit


@njit(cache=True, nogil=True)
def deal_worlds(hands, picked, supply, drawn, second, seats, perm, unseen_count, own_keys, sizes, last_tile):
    """In place, per game g (game-major arrays: hands (G, P, H), picked (G, 2, P), supply
    (G, S)): seat seats[g]'s held tiles sorted by own_keys[g] (held tiles first); the other
    seats from its left dealt perm[g] in order (as many tiles as the seat holds, or
    sizes[g, seat] when sizes has rows), then under play-two (second[g]) one face-down
    first tile each, the rest to the supply after drawn[g]. Returns the first game with more
    hidden places than unseen tiles, -1 when none (then nothing of that game is trusted)."""
    G, P, H = hands.shape
    S = supply.shape[1]
    keys = own_keys[0].copy() if G else own_keys[:0, 0].copy()
    tiles = hands[0, 0].copy() if G else hands[:0, 0, 0].copy()
    bad = -1
    for g in range(G):
        seat = seats[g]
        n = 0  # the own held tiles, insertion-sorted by key (ascending: np.argsort's order)
        for h in range(H):
            tile = hands[g, seat, h]
            if tile > 0:
                key = own_keys[g, h]
                m = n
                while m > 0 and keys[m - 1] > key:
                    keys[m], tiles[m] = keys[m - 1], tiles[m - 1]
                    m -= 1
                keys[m], tiles[m] = key, tile
                n += 1
        for h in range(H):
            hands[g, seat, h] = tiles[h] if h < n else 0
        taken = 0
        for k in range(P - 1):
            other = (seat + 1 + k) % P
            held = sizes[g, other] if sizes.shape[0] else n
            for h in range(H):
                hands[g, other, h] = perm[g, min(taken + h, last_tile)] if h < held else 0
            taken += held
        if second[g]:
            for k in range(P - 1):
                picked[g, 0, (seat + 1 + k) % P] = perm[g, min(taken, last_tile)]
                taken += 1
        rest = unseen_count[g] - taken
        if rest < 0 and bad < 0:
            bad = g
        for i in range(S):
            pos = i - drawn[g]
            supply[g, i] = perm[g, min(max(taken + pos, 0), last_tile)] if 0 <= pos < rest else 0
    return bad


_LOADED: list[bool] = []


def load_deal_worlds() -> None:
    """Once a process: call `deal_worlds` with no games and the argument types
    `board.worlds.determinize` passes, so numba loads its machine code from the cache (or
    compiles it) when a search agent is made, not inside the first decision it is timed on."""
    if _LOADED:
        return
    _LOADED.append(True)
    import numpy as np

    from ..rules import N_TILES
    deal_worlds(np.zeros((0, 1, 1), np.int8), np.zeros((0, 2, 1), np.int8), np.zeros((0, 1), np.int8),
                np.zeros(0, np.int64), np.zeros(0, np.bool_), np.zeros(0, np.int64), np.zeros((0, 1), np.int8),
                np.zeros(0, np.int64), np.zeros((0, 1), np.float64), np.zeros((0, 0), np.int64), N_TILES)
