"""The card games' flat observations: the layouts and the encoders.

Seats in the vector are relative: index 0 is the observing seat, 1 the seat to its
left, and so on. Card fields are indexed by card id (index 0 stands for "no card" and
is always 0). Each field declares the largest value the rules allow (`Field.high`),
from the configuration: scores grow with `end_score` and `max_rounds`.

Observation variants (`card_layout(config, observation)`, the envs' `observation` option):

- `basic` (the default): the fields of the PettingZoo spec sheet.
- `card-features`: `basic` plus what a player works out before playing a card — for each
  card in hand (sorted, one slot per hand position): the row it would join or that it is
  too low, the gap to that row's end, the row's cards and bullheads, whether it would be
  the sixth card, how many unseen cards fall in the gap; and the rows sorted by their
  last card. The hand slots carry their card id, so a policy can score each card with
  one shared function and put the score on that card's action (agents/cards/policy.py).
- `card-history`: `card-features` plus who played what: every seat's card of every turn
  of this round so far (`history`, appended last). `seen` says which cards are out but not
  whose they were; a player at the table knows that too, and it is what tells one kind of
  opponent from another (issue 47). Being `card-features` with one field appended, a
  network of that observation starts a `card-history` one as the same function
  (training/train.py `start_from` widens its input layers with zero weights).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from ..core.errors import ConfigError
from ..core.layout import Field, ObsLayout
from .placement import target_rows
from .rules import HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, N_ROWS, ROW_CAPACITY, RuleConfig
from .state import PHASE_CARDS, PHASE_ROW

if TYPE_CHECKING:  # for annotations only: imported at run time, it would close a cycle
    from .seat_view import SeatView

SCORE_SCALE = 66.0  # scores and penalties are divided by this
ROW_BULLS_SCALE = 10.0
CARD_BULLS_SCALE = 7.0  # the most bullheads on one classic card
OTHERS_IN_GAP_SCALE = 5.0  # expected opponent cards in a gap: 5 fill a row
OTHERS_IN_GAP_CAP = 2.0
OBSERVATIONS = ("basic", "card-features", "card-history")
CARD_SCORER_OBSERVATIONS = ("card-features", "card-history")
"""The observations with hand slots (the card-scorer policy reads them)."""

# Per hand slot of the card-features observation, in this order (HAND_SLOT_FEATURES wide).
HAND_SLOT_FIELDS = (
    ("held", "1 if the slot holds a card (slots are the hand sorted by id, empty ones last)"),
    ("id", "the card id / N (a policy maps the slot back to its action with it)"),
    ("value", "the card's ladder value / N"),
    ("bulls", f"the card's bullheads / {CARD_BULLS_SCALE:g}"),
    ("too_low", "1 if it is lower than every row's end (it takes a row)"),
    ("gap", "ladder distance to the end of the row it joins / N (too low: its value / N)"),
    ("row_count", "cards in the row it joins / 5 (too low: 0)"),
    ("sixth", "1 if it would be that row's sixth card and take it"),
    ("row_bulls", f"bullheads in the row it joins, or the cheapest row if too low / {ROW_BULLS_SCALE:g}"),
    ("unseen_gap", "unseen cards in the gap (too low: below it) / N"),
    ("others_gap", "expected opponent cards in the gap: unseen in gap x opponent cards / unseen, "
                   f"/ {OTHERS_IN_GAP_SCALE:g}, at most {OTHERS_IN_GAP_CAP:g}"),
    ("unseen_below", "share of the unseen cards below it"),
)
HAND_SLOT_FEATURES = len(HAND_SLOT_FIELDS)
# Per sorted row (lowest end first).
SORTED_ROW_FIELDS = ("last / N", "count / 5", f"bullheads / {ROW_BULLS_SCALE:g}",
                     "unseen cards between its end and the next row's end / N")


def penalty_bounds(config: RuleConfig) -> tuple[int, int, int]:
    """(most bullheads in one row, in one round, in a whole game) for one seat.

    A row holds at most five cards; a seat takes at most the whole deck's bullheads in
    a round; the game ends after the round in which someone reaches end_score (so every
    total before that round is below it) or after max_rounds rounds.
    """
    v = config.variant_data
    bulls = np.sort(v.bullheads[v.deck(config.players, config.deck)].astype(np.int64))
    row, round_ = int(bulls[-ROW_CAPACITY:].sum()), int(bulls.sum())
    game = []
    if config.end_score is not None:
        game.append(config.end_score - 1 + round_)
    if config.max_rounds is not None:
        game.append(config.max_rounds * round_)
    return row, round_, min(game)


@lru_cache(maxsize=64)
def card_layout(config: RuleConfig, observation: str = "basic") -> ObsLayout:
    """The flat observation's layout for one rule configuration and observation variant."""
    if observation not in OBSERVATIONS:
        raise ConfigError(f"observation must be one of {', '.join(OBSERVATIONS)}, got {observation!r}")
    v = config.variant_data
    n = v.n_ids + 1  # card fields are indexed by id, 0 unused
    row_max, round_max, game_max = penalty_bounds(config)
    row_bulls_high = row_max / ROW_BULLS_SCALE
    fields = [
        Field("hand", (n,), "1 where the seat holds card id i"),
        Field("table", (n,), "1 where card id i lies in a row"),
        Field("seen", (n,), "1 where card id i was face up this round (starters, revealed, taken)"),
        Field("revealed", (n,), "1 where card id i was revealed this turn and waits to be placed (row phase)"),
        Field("row_cards", (N_ROWS, ROW_CAPACITY), "row r's i-th card at 5r+i, as its ladder value / N (0: none)"),
        Field("row_count", (N_ROWS,), "cards in row r / 5"),
        Field("row_bulls", (N_ROWS,), f"bullheads in row r / {ROW_BULLS_SCALE:g}", row_bulls_high),
        Field("row_last", (N_ROWS,), "ladder value of row r's last card / N"),
        Field("choice_rows", (N_ROWS,), "1 for the rows this seat may take now (row phase, chooser only)"),
        Field("scores", (MAX_PLAYERS,), f"total bullheads of relative seat i / {SCORE_SCALE:g} (0 beyond P)",
              game_max / SCORE_SCALE),
        Field("round_penalty", (MAX_PLAYERS,), f"bullheads relative seat i took this round / {SCORE_SCALE:g}",
              round_max / SCORE_SCALE),
        Field("phase", (2,), "one-hot: [pick a card, pick a row]; all 0 when this seat has nothing to decide"),
        Field("players", (MAX_PLAYERS - MIN_PLAYERS + 1,), "one-hot of the number of players, 2..10"),
        Field("turn", (1,), "turns completed this round / 10"),
        Field("dealer", (MAX_PLAYERS,), "one-hot relative seat of the dealer"),
    ]
    if observation in CARD_SCORER_OBSERVATIONS:
        slot_high = tuple(row_bulls_high if name == "row_bulls" else OTHERS_IN_GAP_CAP if name == "others_gap"
                          else 1.0 for name, _ in HAND_SLOT_FIELDS)
        fields += [
            Field("hand_slots", (HAND_SIZE, HAND_SLOT_FEATURES),
                  f"slot j's features at {HAND_SLOT_FEATURES}j+k: "
                  + "; ".join(f"{k} {name}" for k, (name, _) in enumerate(HAND_SLOT_FIELDS)), slot_high),
            Field("sorted_rows", (N_ROWS, len(SORTED_ROW_FIELDS)),
                  f"rows by last card, lowest first, {len(SORTED_ROW_FIELDS)} each: "
                  + "; ".join(SORTED_ROW_FIELDS), (1.0, 1.0, row_bulls_high, 1.0)),
        ]
    if observation == "card-history":
        fields.append(Field("history", (MAX_PLAYERS, HAND_SIZE),
                            f"relative seat i's card of turn t this round at {HAND_SIZE}i+t, as its ladder "
                            "value / N (0: not revealed yet, or beyond P)"))
    return ObsLayout(observation, fields, encoder=_encode)


def _encode(view: SeatView, layout: ObsLayout) -> NDArray[np.float32]:
    """(n, D) the flat observations of `view`'s entries (both variants share this part)."""
    v = view.config.variant_data
    st, g = view._st, view._g
    n, N, P, D = view.n, v.n_ids, view.players, layout.size
    out = np.zeros((n, D), dtype=np.float32)
    flat = out.reshape(-1)
    entry_base = np.arange(n) * D

    def multi_hot(name, ids):
        # ids with the entry axis last, any order: one flat scatter, no transposes
        flat[ids + (entry_base + layout.offsets[name])] = 1.0
        out[:, layout.offsets[name]] = 0.0  # id 0 is "no card"

    multi_hot("hand", view._hand_by_slot)
    table = view.table_ids()
    multi_hot("table", table)
    # Seen this round: starters, every revealed card, and the table (which adds
    # something only for positions built with from_deal). Turns after every entry's
    # current one hold no cards yet: skipped.
    turns = min(int(view.turn.max(initial=0)) + 1, st.played.shape[0])
    multi_hot("seen", st.played[:turns, :, g])
    flat[st.starters[:, g] + (entry_base + layout.offsets["seen"])] = 1.0
    multi_hot("seen", table)
    multi_hot("revealed", st.revealed[:, g] * (view.phase == PHASE_ROW))
    cards_at = layout.offsets["row_cards"]
    out[:, cards_at:cards_at + N_ROWS * ROW_CAPACITY].reshape(n, N_ROWS, ROW_CAPACITY)[:] = \
        ((table if v.order_is_id else v.order[table]) * np.float32(1.0 / N)).transpose(2, 1, 0)
    out[:, layout.slice("row_count")] = view.row_count * (1.0 / ROW_CAPACITY)
    out[:, layout.slice("row_bulls")] = view.row_bulls * (1.0 / ROW_BULLS_SCALE)
    out[:, layout.slice("row_last")] = view.row_last * (1.0 / N)
    out[:, layout.slice("choice_rows")] = view.row_options
    score_at = layout.offsets["scores"]
    out[:, score_at:score_at + P] = view.scores * (1.0 / SCORE_SCALE)
    pen_at = layout.offsets["round_penalty"]
    out[:, pen_at:pen_at + P] = view.round_penalty * (1.0 / SCORE_SCALE)
    phase_at = layout.offsets["phase"]
    out[:, phase_at] = view.phase == PHASE_CARDS
    out[:, phase_at + 1] = view.is_chooser
    out[:, layout.offsets["players"] + P - MIN_PLAYERS] = 1.0
    out[:, layout.offsets["turn"]] = view.turn * (1.0 / HAND_SIZE)
    flat[entry_base + layout.offsets["dealer"] + view.dealer] = 1.0
    if layout.name in CARD_SCORER_OBSERVATIONS:
        _encode_card_features(view, out, layout)
    if layout.name == "card-history":
        _encode_history(view, out, layout)
    return out


def _encode_history(view: SeatView, out: NDArray[np.float32], layout: ObsLayout) -> None:
    """Fill `history` (n, P, H): each relative seat's revealed card of each turn, by value.
    `State.played` holds a turn's cards once they are revealed (0 before), so nothing of a
    turn still being chosen shows. A position built by `from_deal` holds the earlier turns
    as given by its `played` (the searches pass the real history); given by `seen` alone,
    they sit in arbitrary seats' slots."""
    v = view.config.variant_data
    played = view.played  # (n, P, H)
    P, H = view.players, played.shape[2]
    out[:, layout.slice("history")].reshape(view.n, MAX_PLAYERS, HAND_SIZE)[:, :P, :H] = \
        v.order[played] * np.float32(1.0 / v.n_ids)  # order[0] = 0: no card


def _encode_card_features(view: SeatView, out: NDArray[np.float32], layout: ObsLayout) -> None:
    """Fill the card-features fields of `out` (n, D): hand slots and sorted rows."""
    v = view.config.variant_data
    N, n = v.n_ids, view.n
    hand = np.sort(view.hand, axis=1)
    # sorting puts the 0 padding first: move the held cards to the front slots
    hand = np.take_along_axis(hand, np.argsort(hand == 0, axis=1, kind="stable"), axis=1)
    held = hand > 0
    value = v.order[hand].astype(np.int64)  # (n, H)
    last = view.row_last.astype(np.int64)  # (n, R)
    target, low = target_rows(last, view.row_count, value)  # (n, H); Rules 1-2, twins too
    target = np.maximum(target, 0)
    target_last = np.where(low, -1, np.take_along_axis(last, target, axis=1))
    too_low = held & low
    joins = held & ~too_low
    count = np.take_along_axis(view.row_count, target, axis=1) * joins
    bulls = np.where(too_low, view.row_bulls.min(axis=1, keepdims=True),
                     np.take_along_axis(view.row_bulls, target, axis=1) * joins)
    gap = np.where(too_low, value, value - target_last) * held
    # unseen cards by ladder value: unseen_below(x) = how many unseen cards are lower than x
    unseen = view.unseen
    by_value, rank_of_value = _value_ranks(v.order)
    # value-major (ids, n): the running sum adds whole contiguous rows
    below_count = np.zeros((len(by_value) + 1, n), np.int16)
    np.cumsum(unseen.T[by_value], axis=0, dtype=np.int16, out=below_count[1:])
    entry = np.arange(n)[:, None]

    def unseen_below(x):
        return below_count[rank_of_value[x], entry]

    # a card behind its twin (target_last == value) has an empty gap: clip the difference at 0
    in_gap = np.maximum(unseen_below(value) - np.where(too_low, 0, unseen_below(target_last + 1)), 0) * held
    total_unseen = np.maximum(unseen.sum(axis=1, keepdims=True), 1)
    # every seat holds as many cards as this one (public), the rest of the unseen
    # cards were left out of the deal
    others_cards = (view.players - 1) * view.hand_size[:, None]
    slots = out[:, layout.slice("hand_slots")].reshape(n, HAND_SIZE, HAND_SLOT_FEATURES)
    H = hand.shape[1]
    for k, column in enumerate((
            held, hand / N, value / N, v.bullheads[hand] / CARD_BULLS_SCALE, too_low,
            gap / N, count / ROW_CAPACITY, joins & (count >= ROW_CAPACITY),
            bulls / ROW_BULLS_SCALE, in_gap / N,
            np.minimum(in_gap * others_cards / total_unseen / OTHERS_IN_GAP_SCALE, OTHERS_IN_GAP_CAP),
            unseen_below(value) * held / total_unseen)):
        slots[:, :H, k] = column
    order = np.argsort(last, axis=1)
    s_last = np.take_along_axis(last, order, axis=1)
    next_last = np.concatenate([s_last[:, 1:], np.full((n, 1), v.order.max() + 1)], axis=1)
    rows = out[:, layout.slice("sorted_rows")].reshape(n, N_ROWS, len(SORTED_ROW_FIELDS))
    rows[:, :, 0] = s_last / N
    rows[:, :, 1] = np.take_along_axis(view.row_count, order, axis=1) / ROW_CAPACITY
    rows[:, :, 2] = np.take_along_axis(view.row_bulls, order, axis=1) / ROW_BULLS_SCALE
    rows[:, :, 3] = (unseen_below(next_last) - unseen_below(s_last + 1)) / N





_VALUE_RANKS: dict[bytes, tuple[NDArray, NDArray]] = {}


def _value_ranks(order: NDArray) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """Ids sorted by ladder value, and for each value 0..max+1 how many ids lie below it.

    Cached per variant: the card-features encoder counts unseen cards in value ranges
    with one cumulative sum in value order and these lookups.
    """
    key = order.tobytes()
    if key not in _VALUE_RANKS:
        by_value = np.argsort(order, kind="stable")
        values = np.arange(int(order.max()) + 2)
        _VALUE_RANKS[key] = by_value, np.searchsorted(order[by_value], values, side="left")
    return _VALUE_RANKS[key]


