"""The rules a tile's placing applies on the way, one game at a time (inlined into the
placing kernel, `place.py`): the clovers a score change passes, whether a luck card may
be played, a field's effect (green, red, fixed, the pro side's draw fields, or a played
"+5"), and when an action card's draw needs the deck reshuffled first.
"""

from __future__ import annotations

import numpy as np

from ..layout import DRAW_ACTION, DRAW_TILE
from ..rules import PLUS5, PLUS5_POINTS
from . import inline
from .pro import draw_action_card, draw_tile


@inline
def clovers_passed(clovers, old, new):
    """Luck cards a score change from `old` to `new` gains: one per clover c with
    new <= c < old, only when the score went down (a net loss of one effect)."""
    if new >= old:
        return 0
    return np.searchsorted(clovers, old) - np.searchsorted(clovers, new)


@inline
def usable(b, s, t, kind, seat):
    """Whether the seat holds a luck card of `kind` gained before this turn (a card
    gained in a turn waits for the next)."""
    if not t.luck:
        return False
    return s.luck[b, kind, seat] > s.luck_new[b, kind, seat]



BAD_DRAW = -(1 << 30)  # field_effect's points when a scripted draw cannot be followed


@inline
def field_effect(b, s, t, seat, row, field, tile, plus5):
    """The points of a tile's field (green, red, fixed; on the pro side draw fields draw
    instead), or "+5" in its place (a played "+5" replaces a draw too)."""
    if plus5:
        use_luck(b, s, PLUS5, seat)
        return PLUS5_POINTS
    kind = t.kind[row, field]
    if t.pro and kind == DRAW_TILE:
        draw_tile(b, s, seat)
    elif t.pro and kind == DRAW_ACTION:
        if not draw_action_card(b, s, seat):
            return BAD_DRAW
    return t.bull_sign[row, field] * t.bulls[tile] + t.fixed[row, field]


@inline
def use_luck(b, s, kind, seat):
    """A luck card played goes back on its stack at once."""
    s.luck[b, kind, seat] -= 1
    s.stack[b, kind] += 1


@inline
def needs_reshuffle(b, s, t, row, field, plus5):
    """Whether the tile's field draws an action card from an empty deck while discards
    wait to be reshuffled into it."""
    if not t.pro or plus5 or t.kind[row, field] != DRAW_ACTION or s.deck_at[b] < s.deck_end[b]:
        return False
    for kind in range(s.discard.shape[1]):
        if s.discard[b, kind] > 0:
            return True
    return False


