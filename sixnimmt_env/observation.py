"""What a seated player may know, one action encoding, and the flat observation vector.

`SeatView` is the information filter: built from the engine state for one seat per game,
it exposes only what that seat may know — its own hand, the table, the cards seen this
round, the cards revealed in the current turn, everyone's scores, the phase — and never
another seat's hand. Agents and environments read observations through it.

Actions (one Discrete space for every phase, N = the variant's number of card ids):

| action | meaning |
| --- | --- |
| 0 .. N-1 | play card id `action + 1` (cards phase) |
| N .. N+3 | pick row `action - N` (the chooser, in the row phase: the row a too-low card takes, or in Die Sechste the twin-ended row a card goes behind) |
| N+4 | pass: this seat has nothing to decide in this step |

The flat observation is a float32 vector laid out by one table (`ObsLayout`) of named
slices, which also drives its decoder and the documentation (`ObsLayout.markdown()`).
Seats in the vector are relative: index 0 is the observing seat, 1 the seat to its
left, and so on. Card fields are indexed by card id (index 0 stands for "no card" and
is always 0).

Observation variants (`ObsLayout(config, observation=...)`, chosen by the envs'
`observation` option):

- `basic` (the default): the fields above, as the PettingZoo spec sheet lists them.
- `card-features`: `basic` plus what a player works out before playing a card — for each
  card in hand (sorted, one slot per hand position): the row it would join or that it is
  too low, the gap to that row's end, the row's cards and bullheads, whether it would be
  the sixth card, how many unseen cards fall in the gap; and the rows sorted by their
  last card. The hand slots carry their card id, so a policy can score each card with
  one shared function and put the score on that card's action (training/policy.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
from numpy.typing import NDArray

from .errors import ConfigError
from .rules import HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, N_ROWS, ROW_CAPACITY, RuleConfig
from .state import PHASE_CARDS, PHASE_ROW, State

SCORE_SCALE = 66.0  # scores and penalties are divided by this
ROW_BULLS_SCALE = 10.0
CARD_BULLS_SCALE = 7.0  # the most bullheads on one classic card
OTHERS_IN_GAP_SCALE = 5.0  # expected opponent cards in a gap: 5 fill a row
OBSERVATIONS = ("basic", "card-features")

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
                   f"/ {OTHERS_IN_GAP_SCALE:g}, at most 2"),
    ("unseen_below", "share of the unseen cards below it"),
)
HAND_SLOT_FEATURES = len(HAND_SLOT_FIELDS)
# Per sorted row (lowest end first).
SORTED_ROW_FIELDS = ("last / N", "count / 5", f"bullheads / {ROW_BULLS_SCALE:g}",
                     "unseen cards between its end and the next row's end / N")


def action_size(config: RuleConfig) -> int:
    """Number of discrete actions: cards, rows, pass."""
    return config.variant_data.n_ids + N_ROWS + 1


def row_action(config: RuleConfig, row) -> NDArray:
    """The action that takes row `row`."""
    return config.variant_data.n_ids + np.asarray(row)


def pass_action(config: RuleConfig) -> int:
    """The action of a seat with nothing to decide."""
    return config.variant_data.n_ids + N_ROWS


def engine_actions(config: RuleConfig, phase: NDArray, actions: NDArray) -> NDArray[np.int64]:
    """Encoded actions -> what the engine takes: card ids in the cards phase, rows after."""
    n_ids = config.variant_data.n_ids
    actions = np.asarray(actions, dtype=np.int64)
    return np.where(np.asarray(phase) == PHASE_CARDS, actions + 1, actions - n_ids)


def describe_action(config: RuleConfig, action: int) -> str:
    """An action in words, for error messages."""
    n = config.variant_data.n_ids
    if 0 <= action < n:
        return f"play card {config.variant_data.card_name(action + 1)}"
    if n <= action < n + N_ROWS:
        return f"take row {action - n}"
    if action == n + N_ROWS:
        return "pass"
    return "out of range"


@dataclass(frozen=True)
class Field:
    """One named slice of the flat observation."""

    name: str
    size: int
    description: str


class ObsLayout:
    """The flat observation's layout for one rule configuration and observation variant."""

    def __init__(self, config: RuleConfig, observation: str = "basic"):
        if observation not in OBSERVATIONS:
            raise ConfigError(f"observation must be one of {', '.join(OBSERVATIONS)}, got {observation!r}")
        self.observation = observation
        n = config.variant_data.n_ids + 1  # card fields are indexed by id, 0 unused
        self.fields = [
            Field("hand", n, "1 where the seat holds card id i"),
            Field("table", n, "1 where card id i lies in a row"),
            Field("seen", n, "1 where card id i was face up this round (starters, revealed, taken)"),
            Field("revealed", n, "1 where card id i was revealed this turn and waits to be placed (row phase)"),
            Field("row_cards", N_ROWS * ROW_CAPACITY, "row r's i-th card at 5r+i, as its ladder value / N (0: none)"),
            Field("row_count", N_ROWS, "cards in row r / 5"),
            Field("row_bulls", N_ROWS, f"bullheads in row r / {ROW_BULLS_SCALE:g}"),
            Field("row_last", N_ROWS, "ladder value of row r's last card / N"),
            Field("choice_rows", N_ROWS, "1 for the rows this seat may take now (row phase, chooser only)"),
            Field("scores", MAX_PLAYERS, f"total bullheads of relative seat i / {SCORE_SCALE:g} (0 beyond P)"),
            Field("round_penalty", MAX_PLAYERS, f"bullheads relative seat i took this round / {SCORE_SCALE:g}"),
            Field("phase", 2, "one-hot: [pick a card, pick a row]; all 0 when this seat has nothing to decide"),
            Field("players", MAX_PLAYERS - MIN_PLAYERS + 1, "one-hot of the number of players, 2..10"),
            Field("turn", 1, "turns completed this round / 10"),
            Field("dealer", MAX_PLAYERS, "one-hot relative seat of the dealer"),
        ]
        if observation == "card-features":
            self.fields += [
                Field("hand_slots", HAND_SIZE * HAND_SLOT_FEATURES,
                      f"slot j's features at {HAND_SLOT_FEATURES}j+k: "
                      + "; ".join(f"{k} {name}" for k, (name, _) in enumerate(HAND_SLOT_FIELDS))),
                Field("sorted_rows", N_ROWS * len(SORTED_ROW_FIELDS),
                      f"rows by last card, lowest first, {len(SORTED_ROW_FIELDS)} each: "
                      + "; ".join(SORTED_ROW_FIELDS)),
            ]
        self.offsets: dict[str, int] = {}
        offset = 0
        for f in self.fields:
            self.offsets[f.name] = offset
            offset += f.size
        self.size = offset

    def slice(self, name: str) -> slice:
        """Where field `name` lies in the vector."""
        start = self.offsets[name]
        return slice(start, start + next(f.size for f in self.fields if f.name == name))

    def decode(self, vector: NDArray) -> dict[str, NDArray]:
        """Named slices of one vector (D,) or a batch (B, D)."""
        vector = np.asarray(vector)
        return {f.name: vector[..., self.slice(f.name)] for f in self.fields}

    def markdown(self) -> str:
        """The layout as a markdown table (index range, name, meaning)."""
        lines = ["| indices | field | meaning |", "| --- | --- | --- |"]
        for f in self.fields:
            s = self.slice(f.name)
            lines.append(f"| {s.start}..{s.stop - 1} | `{f.name}` | {f.description} |")
        return "\n".join(lines)


class SeatView:
    """What one seat per game may know, batched game-major: arrays are (n, ...).

    Built lazily: each property is computed on first use, so an agent pays only for what
    it reads. The engine state is kept private; nothing here reveals other hands.

    Args:
        state: the engine state.
        seats: (n,) the observing seat of each entry.
        games: (n,) the game of each entry (default: 0..B-1).
    """

    def __init__(self, state: State, seats, games=None):
        self._st = state
        self.config = state.config
        self.players = state.players
        self.games = np.arange(state.batch_size) if games is None else np.asarray(games, dtype=np.intp)
        self.seats = np.broadcast_to(np.asarray(seats, dtype=np.intp), self.games.shape)
        self.n = len(self.games)
        # Index for reading per-game arrays: a plain slice when the view covers every
        # game in order (the common case in vectorized envs) avoids gathering copies.
        identity = self.n == state.batch_size and (self.games == np.arange(self.n)).all()
        self._g = slice(None) if identity else self.games

    @cached_property
    def _rel_at(self) -> NDArray[np.intp]:
        """(n, P) flat indices into a (P, B) array, in relative seat order."""
        order = (self.seats[:, None] + np.arange(self.players)[None, :]) % self.players
        return order * self._st.batch_size + self.games[:, None]

    def _rel(self, a: NDArray) -> NDArray:
        """(P, B) per-seat array -> (n, P) in relative seat order (own seat first)."""
        return a.reshape(-1).take(self._rel_at)  # flat take: far cheaper than 2-D fancy indexing

    @cached_property
    def phase(self) -> NDArray[np.int8]:
        """(n,) PHASE_CARDS, PHASE_ROW or PHASE_OVER."""
        return self._st.phase[self._g]

    @cached_property
    def is_chooser(self) -> NDArray[np.bool_]:
        """(n,) this seat must pick a row now."""
        return (self.phase == PHASE_ROW) & (self._st.chooser[self._g] == self.seats)

    @cached_property
    def must_act(self) -> NDArray[np.bool_]:
        """(n,) this seat has a decision now (a card, or a row as chooser)."""
        return (self.phase == PHASE_CARDS) | self.is_chooser

    @cached_property
    def hand(self) -> NDArray[np.int16]:
        """(n, H) own card ids, 0-padded, in no particular order."""
        return self._hand_by_slot.T

    @cached_property
    def _hand_by_slot(self) -> NDArray[np.int16]:
        """(H, n) own card ids, slot-major: reductions over slots run on whole rows."""
        return self._st.hands.reshape(-1).take(self._hand_at)

    @cached_property
    def _hand_at(self) -> NDArray[np.intp]:
        """(H, n) flat indices of each entry's hand slots in `hands` (P, H, B)."""
        H, B = self._st.hands.shape[1:]
        return (self.seats * (H * B) + self.games)[None, :] + (np.arange(H) * B)[:, None]

    @cached_property
    def hand_size(self) -> NDArray[np.int64]:
        """(n,) cards in hand."""
        return (self._hand_by_slot > 0).sum(axis=0)

    @cached_property
    def rows(self) -> NDArray[np.int16]:
        """(n, R, C) row card ids in placing order, 0-padded."""
        cards = self._st.row_cards[:, :, self._g].transpose(2, 1, 0)  # (n, R, C)
        return cards * (np.arange(ROW_CAPACITY)[None, None, :] < self.row_count[:, :, None])

    @cached_property
    def row_count(self) -> NDArray:
        """(n, R) cards per row."""
        return self._st.row_count[:, self._g].T

    @cached_property
    def row_bulls(self) -> NDArray:
        """(n, R) bullheads per row."""
        return self._st.row_bulls[:, self._g].T

    @cached_property
    def row_last(self) -> NDArray:
        """(n, R) ladder value of each row's last card."""
        return self._st.row_last[:, self._g].T

    @cached_property
    def seen(self) -> NDArray[np.bool_]:
        """(n, N+1) ids face up this round (starters, revealed cards, the table)."""
        return self._st.seen()[:, self.games].T

    @cached_property
    def revealed(self) -> NDArray[np.int16]:
        """(n, P) this turn's cards waiting to be placed, lowest first (row phase), else 0."""
        return self._st.revealed[:, self._g].T * (self.phase == PHASE_ROW)[:, None]

    @cached_property
    def revealed_seat(self) -> NDArray[np.int64]:
        """(n, P) who played each revealed card, as a seat relative to this one (row phase)."""
        seats = self._st.revealed_seat[:, self._g].T.astype(np.int64)
        return (seats - self.seats[:, None]) % self.players

    @cached_property
    def unseen(self) -> NDArray[np.bool_]:
        """(n, N+1) cards of this round's deck this seat has not seen and does not hold:
        the ones the other hands are made of (plus the cards left out of the deal)."""
        cfg = self.config
        deck = np.zeros(cfg.variant_data.n_ids + 1, dtype=bool)
        deck[cfg.variant_data.deck(cfg.players, cfg.deck)] = True
        unseen = deck[None, :] & ~self.seen
        unseen[np.arange(self.n)[:, None], self.hand] = False
        unseen[:, 0] = False
        return unseen

    @cached_property
    def row_options(self) -> NDArray[np.bool_]:
        """(n, R) rows this seat may take now (all False unless it is the chooser)."""
        return self._st.row_options[:, self._g].T & self.is_chooser[:, None]

    @cached_property
    def scores(self) -> NDArray:
        """(n, P) totals so far (this round included), relative seat order."""
        return self._rel(self._st.total())

    @cached_property
    def round_penalty(self) -> NDArray:
        """(n, P) bullheads taken this round, relative seat order."""
        return self._rel(self._st.penalty)

    @cached_property
    def dealer(self) -> NDArray:
        """(n,) the dealer's seat relative to this one (0: this seat deals)."""
        return (self._st.dealer[self._g] - self.seats) % self.players

    @cached_property
    def turn(self) -> NDArray:
        """(n,) turns completed this round."""
        return self._st.turn[self._g]

    def action_mask(self) -> NDArray[np.bool_]:
        """(n, A) legal actions: cards in hand, rows for the chooser, else pass only."""
        cfg = self.config
        n_ids = cfg.variant_data.n_ids
        A = action_size(cfg)
        mask = np.zeros((self.n, A), dtype=bool)
        # Card id c is action c-1: one flat scatter (the padding id 0 lands on action -1,
        # the previous entry's pass, which is set last), only where a card is wanted.
        cards_at = np.flatnonzero(self.phase == PHASE_CARDS)
        mask.reshape(-1)[self.hand[cards_at] + (cards_at * A - 1)[:, None]] = True
        mask[:, n_ids:n_ids + N_ROWS] = self.row_options
        mask[:, n_ids + N_ROWS] = ~self.must_act
        return mask

    def _table_ids(self) -> NDArray[np.int16]:
        """(C, R, n) ids on the table, 0 beyond each row's count (engine layout)."""
        cards = self._st.row_cards[:, :, self._g]
        return cards * (np.arange(ROW_CAPACITY)[:, None, None] < self._st.row_count[None, :, self._g])

    def encode(self, layout: ObsLayout | None = None) -> NDArray[np.float32]:
        """(n, D) the flat observation vectors."""
        layout = layout or ObsLayout(self.config)
        v = self.config.variant_data
        st, g = self._st, self._g
        n, N, P, D = self.n, v.n_ids, self.players, layout.size
        out = np.zeros((n, D), dtype=np.float32)
        flat = out.reshape(-1)
        entry_base = np.arange(n) * D

        def multi_hot(name, ids):
            # ids with the entry axis last, any order: one flat scatter, no transposes
            flat[ids + (entry_base + layout.offsets[name])] = 1.0
            out[:, layout.offsets[name]] = 0.0  # id 0 is "no card"

        multi_hot("hand", self._hand_by_slot)
        table = self._table_ids()
        multi_hot("table", table)
        # Seen this round: starters, every revealed card, and the table (which adds
        # something only for positions built with from_deal). Turns after every entry's
        # current one hold no cards yet: skipped.
        turns = min(int(self.turn.max(initial=0)) + 1, st.played.shape[0])
        multi_hot("seen", st.played[:turns, :, g])
        flat[st.starters[:, g] + (entry_base + layout.offsets["seen"])] = 1.0
        multi_hot("seen", table)
        multi_hot("revealed", st.revealed[:, g] * (self.phase == PHASE_ROW))
        cards_at = layout.offsets["row_cards"]
        out[:, cards_at:cards_at + N_ROWS * ROW_CAPACITY].reshape(n, N_ROWS, ROW_CAPACITY)[:] = \
            ((table if v.order_is_id else v.order[table]) * np.float32(1.0 / N)).transpose(2, 1, 0)
        out[:, layout.slice("row_count")] = self.row_count * (1.0 / ROW_CAPACITY)
        out[:, layout.slice("row_bulls")] = self.row_bulls * (1.0 / ROW_BULLS_SCALE)
        out[:, layout.slice("row_last")] = self.row_last * (1.0 / N)
        out[:, layout.slice("choice_rows")] = self.row_options
        score_at = layout.offsets["scores"]
        out[:, score_at:score_at + P] = self.scores * (1.0 / SCORE_SCALE)
        pen_at = layout.offsets["round_penalty"]
        out[:, pen_at:pen_at + P] = self.round_penalty * (1.0 / SCORE_SCALE)
        phase_at = layout.offsets["phase"]
        out[:, phase_at] = self.phase == PHASE_CARDS
        out[:, phase_at + 1] = self.is_chooser
        out[:, layout.offsets["players"] + P - MIN_PLAYERS] = 1.0
        out[:, layout.offsets["turn"]] = self.turn * (1.0 / HAND_SIZE)
        flat[entry_base + layout.offsets["dealer"] + self.dealer] = 1.0
        if layout.observation == "card-features":
            self._encode_card_features(out, layout)
        return out

    def _encode_card_features(self, out: NDArray[np.float32], layout: ObsLayout) -> None:
        """Fill the card-features fields of `out` (n, D): hand slots and sorted rows."""
        v = self.config.variant_data
        N, n = v.n_ids, self.n
        hand = np.sort(self.hand, axis=1)
        # sorting puts the 0 padding first: move the held cards to the front slots
        hand = np.take_along_axis(hand, np.argsort(hand == 0, axis=1, kind="stable"), axis=1)
        held = hand > 0
        value = v.order[hand].astype(np.int64)  # (n, H)
        last = self.row_last.astype(np.int64)  # (n, R)
        below = last[:, None, :] < value[:, :, None]  # (n, H, R)
        target_last = np.where(below, last[:, None, :], -1).max(axis=2)
        target = np.where(below, last[:, None, :], -1).argmax(axis=2)
        too_low = held & (target_last < 0)
        joins = held & ~too_low
        count = np.take_along_axis(self.row_count, target, axis=1) * joins
        bulls = np.where(too_low, self.row_bulls.min(axis=1, keepdims=True),
                         np.take_along_axis(self.row_bulls, target, axis=1) * joins)
        gap = np.where(too_low, value, value - target_last) * held
        # unseen cards by ladder value: unseen_below(x) = how many unseen cards are lower than x
        unseen = self.unseen
        by_value, rank_of_value = _value_ranks(v.order)
        # value-major (ids, n): the running sum adds whole contiguous rows
        below_count = np.zeros((len(by_value) + 1, n), np.int16)
        np.cumsum(unseen.T[by_value], axis=0, dtype=np.int16, out=below_count[1:])
        entry = np.arange(n)[:, None]

        def unseen_below(x):
            return below_count[rank_of_value[x], entry]

        in_gap = (unseen_below(value) - np.where(too_low, 0, unseen_below(target_last + 1))) * held
        total_unseen = np.maximum(unseen.sum(axis=1, keepdims=True), 1)
        # every seat holds as many cards as this one (public), the rest of the unseen
        # cards were left out of the deal
        others_cards = (self.players - 1) * self.hand_size[:, None]
        slots = out[:, layout.slice("hand_slots")].reshape(n, HAND_SIZE, HAND_SLOT_FEATURES)
        H = hand.shape[1]
        for k, column in enumerate((
                held, hand / N, value / N, v.bullheads[hand] / CARD_BULLS_SCALE, too_low,
                gap / N, count / ROW_CAPACITY, joins & (count >= ROW_CAPACITY),
                bulls / ROW_BULLS_SCALE, in_gap / N,
                np.minimum(in_gap * others_cards / total_unseen / OTHERS_IN_GAP_SCALE, 2.0),
                unseen_below(value) * held / total_unseen)):
            slots[:, :H, k] = column
        order = np.argsort(last, axis=1)
        s_last = np.take_along_axis(last, order, axis=1)
        next_last = np.concatenate([s_last[:, 1:], np.full((n, 1), v.order.max() + 1)], axis=1)
        rows = out[:, layout.slice("sorted_rows")].reshape(n, N_ROWS, len(SORTED_ROW_FIELDS))
        rows[:, :, 0] = s_last / N
        rows[:, :, 1] = np.take_along_axis(self.row_count, order, axis=1) / ROW_CAPACITY
        rows[:, :, 2] = np.take_along_axis(self.row_bulls, order, axis=1) / ROW_BULLS_SCALE
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


def uniform_legal_actions(view: SeatView, rng: np.random.Generator) -> NDArray[np.int64]:
    """(n,) a uniformly random legal action per entry, from the view alone.

    Cheaper than sampling the (n, A) mask: a random hand slot, or a random allowed row.
    """
    cfg = view.config
    n_ids = cfg.variant_data.n_ids
    actions = np.full(view.n, pass_action(cfg), dtype=np.int64)
    cards_phase = view.phase == PHASE_CARDS
    if cards_phase.any():
        slot = (rng.random(view.n) * np.maximum(view.hand_size, 1)).astype(np.intp)
        # hands are filled from slot 0 (swap-remove keeps the held cards in front)
        card = view._hand_by_slot.reshape(-1).take(slot * view.n + np.arange(view.n)).astype(np.int64)
        actions = np.where(cards_phase, card - 1, actions)
    choosing = view.is_chooser
    if choosing.any():
        options = view.row_options[choosing]
        u = rng.random(len(options))[:, None] * options.sum(axis=1, keepdims=True)
        row = (np.cumsum(options, axis=1) <= u).sum(axis=1)
        actions[choosing] = n_ids + row
    return actions
