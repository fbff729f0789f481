"""Rule-of-thumb players, batched. Each picks a card from what its seat can see; when the
rules ask it for a row it takes the one with the fewest bullheads (then fewest cards,
then the lowest index).

| name | the card it plays |
| --- | --- |
| `lowest` | its lowest card that lands safely (no sixth card, not too low); else as `greedy` |
| `highest` | its highest card |
| `min-gap` | the card landing closest above a row end without being a sixth card; else as `greedy` |
| `safe-high` | its highest card that lands safely (no sixth card, not too low); else as `greedy` |
| `greedy` | the card that would cost least if played alone now (a sixth card or a too-low card costs a row); ties to the smallest gap |
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from sixnimmt_env.cards.actions import pass_action, row_action
from sixnimmt_env.cards.placement import cheapest_row, is_sixth, target_rows
from sixnimmt_env.cards.seat_view import SeatView
from sixnimmt_env.cards.state import PHASE_CARDS

from ..rule_table import RuleTableAgent

_BIG = 1 << 20


@dataclass
class CardOutlook:
    """Where each hand card would go if it were played alone now; arrays (n, H)."""

    card: NDArray  # card id, 0 for an empty slot
    valid: NDArray  # slot holds a card
    value: NDArray  # ladder value
    too_low: NDArray  # below every row end (Rule 4)
    sixth: NDArray  # would be a row's sixth card (Rule 3)
    gap: NDArray  # ladder distance above its row's end (_BIG when too low)
    alone_cost: NDArray  # bullheads it would cost if nobody else played


def outlook(view: SeatView) -> CardOutlook:
    """The placement of every hand card against the table as it is."""
    order = view.config.variant_data.order
    card = view.hand.astype(np.int64)
    valid = card > 0
    value = order[card].astype(np.int64)
    target, too_low = target_rows(view.row_last, view.row_count, value)  # (n, H)
    row = np.maximum(target, 0)
    bulls = np.take_along_axis(view.row_bulls, row, axis=1)
    sixth = is_sixth(view.row_count, target)
    cheapest = view.row_bulls.min(axis=1)[:, None]
    alone_cost = np.where(too_low, cheapest, np.where(sixth, bulls, 0))
    target_last = np.take_along_axis(view.row_last.astype(np.int64), row, axis=1)
    gap = np.where(too_low, _BIG, value - target_last)
    return CardOutlook(card, valid, value, too_low, sixth, gap, alone_cost)


def cheapest_rows(view: SeatView) -> NDArray[np.int64]:
    """(n,) among the rows the seat may take: fewest bullheads, fewest cards, lowest index."""
    return cheapest_row(view.row_bulls, view.row_count, view.row_options)


def _pick(o: CardOutlook, key: NDArray) -> NDArray[np.int64]:
    """(n,) the card with the smallest key among valid slots."""
    key = np.where(o.valid, key, np.iinfo(np.int64).max)
    return o.card[np.arange(len(key)), key.argmin(axis=1)]


def greedy_key(o: CardOutlook) -> NDArray:
    """Cost if played alone first, then the gap to its row's end, then the value (lowest first)."""
    return o.alone_cost * _BIG * 4 + np.minimum(o.gap, _BIG) * 256 + o.value


def _safe_or_greedy(o: CardOutlook, safe_key: NDArray) -> NDArray:
    """Prefer safe cards ordered by safe_key; unsafe ones come after, by greedy_key."""
    safe = ~o.too_low & ~o.sixth
    return np.where(safe, safe_key, _BIG * _BIG + greedy_key(o))


CARD_RULES = {
    "lowest": lambda o: _safe_or_greedy(o, o.value),
    "highest": lambda o: -o.value,
    "min-gap": lambda o: _safe_or_greedy(o, o.gap),
    "safe-high": lambda o: _safe_or_greedy(o, -o.value),
    "greedy": greedy_key,
}


class HeuristicAgent(RuleTableAgent):
    """A card rule from CARD_RULES plus the cheapest-row choice."""

    RULES = CARD_RULES

    def act(self, view: SeatView, rng: np.random.Generator) -> NDArray[np.int64]:
        actions = np.full(view.n, pass_action(view.config), dtype=np.int64)
        cards = view.phase == PHASE_CARDS
        if cards.any():
            o = outlook(view)
            actions = np.where(cards, _pick(o, self.rule(o)) - 1, actions)
        choosing = view.is_chooser
        if choosing.any():
            actions = np.where(choosing, row_action(view.config, cheapest_rows(view)), actions)
        return actions
