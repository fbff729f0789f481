"""Dealing the ids a seat has not seen into worlds: the part every game's world dealer shares.

A search asks a seat view for worlds (`SeatViewBase.worlds`): whole states of the game
consistent with everything the seat has seen, the ids it has not seen (cards, tiles)
dealt anew. Which fields are public is each game's knowledge (its seat view copies the
real state and deals only the hidden places); how to shuffle the unseen ids, uniformly
or from a belief, is this module's. As OpenSpiel's `ResampleFromInfostate`: the game, not
every search, knows what a world is (a search that built its worlds field by field lost
a public field twice, 6c9cf7e and 9d3005a).

A belief is (k, N+1, S) probabilities per entry and id: columns 0..S-2 the other seats in
relative order (seat 1 is the one to the observer's left), column S-1 "elsewhere" (not
dealt, the supply); each unseen id's row sums to one (agents/cards/belief.py makes them).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

_ID_BITS = 8  # an id in the low bits of a sorting key (games of at most 255 ids)
_KEY_BITS = 23  # random bits above it; bit 31 sorts the ids not to deal last
_FLOOR = 1e-300  # a share that underflowed still ranks above the ids no seat may take


def shuffled_unseen(unseen: NDArray[np.bool_], rng: np.random.Generator) -> NDArray[np.intp]:
    """(W, N+1) per world, its unseen ids (unseen (W, N+1) bool) first in random order,
    then the other ids; one sort of random keys (cheaper than an argsort per world)."""
    W, width = unseen.shape
    if width > 1 << _ID_BITS:
        raise ValueError(f"at most {1 << _ID_BITS} ids can be dealt, got {width}")
    keys = rng.integers(0, 1 << _KEY_BITS, size=(W, width), dtype=np.uint32) << _ID_BITS
    keys |= np.arange(width, dtype=np.uint32)
    keys |= (~unseen).astype(np.uint32) << 31
    keys.sort(axis=1)
    return (keys & ((1 << _ID_BITS) - 1)).astype(np.intp)


def uniform_hands(unseen: NDArray[np.bool_], counts: NDArray, rng: np.random.Generator) -> NDArray[np.intp]:
    """(W, S, H) the hands of S other seats in W worlds: seat j holds counts[w, j] distinct
    ids drawn uniformly from the world's unseen ids (unseen (W, N+1)), 0-padded to H, the
    largest count; no id twice in a world. ValueError when a world has too few."""
    counts = np.asarray(counts, dtype=np.intp)
    W, S = counts.shape
    if (counts.sum(axis=1) > unseen.sum(axis=1)).any():
        raise ValueError("more hidden places than unseen ids (an inconsistent view)")
    perm = shuffled_unseen(unseen, rng)
    H = max(int(counts.max(initial=0)), 1)
    start = np.concatenate([np.zeros((W, 1), np.intp), np.cumsum(counts, axis=1)[:, :-1]], axis=1)
    at = start[:, :, None] + np.arange(H)[None, None, :]  # (W, S, H)
    held = np.arange(H)[None, None, :] < counts[:, :, None]
    picked = np.take_along_axis(perm, np.minimum(at, perm.shape[1] - 1).reshape(W, -1), axis=1).reshape(W, S, H)
    return picked * held


def belief_hands(belief: NDArray, unseen: NDArray[np.bool_], counts: NDArray, worlds: int,
                 rng: np.random.Generator) -> NDArray[np.intp]:
    """(k * worlds, S, H) as `uniform_hands`, dealt from `belief` (k, N+1, S+1) (see the
    module doc) instead: each other seat in turn draws its count without replacement,
    weighted by its share of what the seats after it and "elsewhere" may still take
    (Gumbel top-k). Only unseen ids (unseen (k, N+1)) are dealt, whatever the belief says;
    world r of entry i is row i * worlds + r, counts (k, S) per entry."""
    p = np.asarray(belief, dtype=np.float64) * unseen[:, :, None]
    counts = np.asarray(counts, dtype=np.intp)
    k, width, columns = p.shape
    S = columns - 1
    if counts.shape != (k, S):
        raise ValueError(f"a belief of {S} other seats needs counts of shape ({k}, {S}), got {counts.shape}")
    if (counts.sum(axis=1) > unseen.sum(axis=1)).any():
        raise ValueError("more hidden places than unseen ids (an inconsistent view)")
    H = max(int(counts.max(initial=0)), 1)
    taken = np.broadcast_to(~unseen[:, None, :], (k, worlds, width)).copy()
    taken[:, :, 0] = True
    out = np.zeros((k, worlds, S, H), np.intp)
    left = p[:, :, ::-1].cumsum(axis=2)[:, :, ::-1]  # mass of seats j.. and elsewhere
    for j in range(S):
        share = np.divide(p[:, :, j], left[:, :, j], out=np.zeros((k, width)), where=left[:, :, j] > 0)
        keys = np.log(np.maximum(share, _FLOOR))[:, None, :] + rng.gumbel(size=(k, worlds, width))
        keys[taken] = -np.inf
        best = np.argsort(-keys, axis=2, kind="stable")[:, :, :H]  # (k, worlds, H), best first
        held = np.arange(H)[None, None, :] < counts[:, j, None, None]
        out[:, :, j] = best * held
        np.put_along_axis(taken, np.where(held, best, 0), True, axis=2)
    return out.reshape(k * worlds, S, H)


def deal_hands(unseen: NDArray[np.bool_], counts: NDArray, worlds: int, rng: np.random.Generator,
               belief: NDArray | None = None) -> NDArray[np.intp]:
    """(k * worlds, S, H) the other seats' hands of `worlds` worlds per entry: uniformly
    (`uniform_hands`) or from `belief` (k, N+1, S+1) (`belief_hands`); unseen (k, N+1),
    counts (k, S) the ids each other seat holds (relative order)."""
    if belief is None:
        return uniform_hands(np.repeat(unseen, worlds, axis=0), np.repeat(counts, worlds, axis=0), rng)
    return belief_hands(belief, unseen, counts, worlds, rng)
