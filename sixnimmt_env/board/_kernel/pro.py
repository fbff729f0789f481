"""The pro side's part of the placing kernel (`place.py`), one game at a time: hands
that grow and shrink (tiles kept in the first slots), the draw fields, and the action
cards carried out (the offer itself is a stage of `place.py`).
"""

from __future__ import annotations

from ..rules import ASCENDING, FRONT, ONE_MORE, SKIP, STOP, SWAP
from ..state import NO_CARD
from . import inline


@inline
def hand_add(b, s, seat, tile):
    """Put a tile into the seat's hand, after the tiles it holds."""
    n = 0
    while n < s.hands.shape[2] and s.hands[b, seat, n] > 0:
        n += 1
    s.hands[b, seat, n] = tile


@inline
def hand_remove(b, s, seat, tile):
    """Take a tile out of the seat's hand (swap-remove: the held tiles stay in front)."""
    n, slot = 0, 0
    while n < s.hands.shape[2] and s.hands[b, seat, n] > 0:
        if s.hands[b, seat, n] == tile:
            slot = n
        n += 1
    s.hands[b, seat, slot] = s.hands[b, seat, n - 1]
    s.hands[b, seat, n - 1] = 0


@inline
def draw_tile(b, s, seat):
    """A draw-tile field: the next tile of the supply into the hand, if any is left."""
    at = s.drawn[b]
    if at < s.supply.shape[1] and s.supply[b, at] > 0:
        s.drawn[b] += 1
        hand_add(b, s, seat, s.supply[b, at])


@inline
def draw_action_card(b, s, seat):
    """A draw-action field: the top card of the deck (the caller reshuffled an empty deck
    first); with deck and discards empty nothing is drawn. A replayed record's script
    brings the kind it names to the top. Returns False where the deck holds no such card."""
    at, end, n = s.deck_at[b], s.deck_end[b], s.action_drawn[b]
    if at >= end:
        return True
    wanted = s.action_script[b, n] if n < s.action_script.shape[1] else NO_CARD
    if wanted != NO_CARD:
        i = at
        while i < end and s.deck[b, i] != wanted:
            i += 1
        if i == end:
            return False
        s.deck[b, at], s.deck[b, i] = s.deck[b, i], s.deck[b, at]
    kind = s.deck[b, at]
    s.action_log[b, n] = kind
    s.deck_at[b] += 1
    s.action[b, kind, seat] += 1
    s.action_drawn[b] += 1
    return True


@inline
def play_card(b, s, seat, kind, arg):
    """The seat plays the card `kind` with its argument on its current tile (it goes to
    the discard pile at once). Returns whether the card places the tile (Skip, Front,
    Ascending: placed next); else the seat is offered its cards again."""
    k = s.at[b]
    s.action[b, kind, seat] -= 1
    s.discard[b, kind] += 1
    if kind == SKIP or kind == FRONT or kind == ASCENDING:
        s.card[b], s.card_row[b] = kind, arg
        return True
    if kind == STOP:
        s.stops[b, arg] = True
        s.stops_left[b] -= 1
    elif kind == SWAP:  # the revealed tile back into the hand, the new one in its place
        hand_remove(b, s, seat, arg)
        hand_add(b, s, seat, s.queue[b, k])
        s.queue[b, k] = arg
    elif kind == ONE_MORE:
        hand_remove(b, s, seat, arg)
        one_more(b, s, seat, k, arg)
    return False


@inline
def one_more(b, s, seat, k, extra):
    """The extra tile and the current tile are placed now, lower first, before any tile
    still waiting: the lower one stays current (the seat's next cards act on it), the
    other joins the seat's tiles waiting to be placed now (the extra tiles queued after
    the current one, kept ascending: a Swap may have made the current tile the highest)."""
    if extra < s.queue[b, k]:
        extra, s.queue[b, k] = s.queue[b, k], extra
        s.queue_extra[b, k] = True
    Q = s.queue.shape[1]
    at = k + 1
    while at < Q and s.queue_extra[b, at] and s.queue[b, at] < extra:
        at += 1
    for i in range(Q - 1, at, -1):
        s.queue[b, i], s.queue_seat[b, i], s.queue_extra[b, i] = s.queue[b, i - 1], s.queue_seat[b, i - 1], \
            s.queue_extra[b, i - 1]
    s.queue[b, at], s.queue_seat[b, at], s.queue_extra[b, at] = extra, seat, True
