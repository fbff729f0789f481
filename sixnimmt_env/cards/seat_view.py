"""What a seated player of a card game may know: the information filter and agent API.

`SeatView` is built from the engine state for one seat per game and exposes only what
that seat may know — its own hand, the table, the cards seen this round, the cards
revealed in the current turn, everyone's scores, the phase — and never another seat's
hand. Agents read it; the encoders (`encoding.py`) turn it into flat observations; the
action encoding is `actions.py`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ..core.cached import cached_property
from ..core.seat_view import SeatViewBase
from .actions import action_size, pass_action
from .rules import N_ROWS, ROW_CAPACITY
from .state import PHASE_CARDS, PHASE_ROW, State
from .worlds import deal_worlds


class SeatView(SeatViewBase):
    """What one seat per game may know, batched game-major: arrays are (n, ...).

    Built lazily: each property is computed on first use, so an agent pays only for what
    it reads. The engine state is kept private; nothing here reveals other hands.

    Args:
        state: the engine state.
        seats: (n,) the observing seat of each entry.
        games: (n,) the game of each entry (default: 0..B-1).
    """

    _st: State
    public = ("phase", "must_act", "is_chooser", "hand_size", "rows", "row_count", "row_bulls", "row_last", "seen",
              "played", "starters", "revealed", "revealed_seat", "unseen", "row_options", "scores", "round_penalty",
              "dealer", "round", "turn")
    """What the seat knows beside its hand, by property: a world (`worlds`) keeps every one
    (sixnimmt_env.testing.worlds checks it)."""

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
    def played(self) -> NDArray[np.int16]:
        """(n, P, H) the card each relative seat revealed in each turn of this round (0: not
        yet revealed). Public: everyone saw who played what."""
        return self._rel(self._st.played).transpose(0, 2, 1)

    @cached_property
    def starters(self) -> NDArray[np.int16]:
        """(n, R) this round's starting cards (public; a taken row no longer begins with its own)."""
        return self._st.starters[:, self._g].T

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
    def round(self) -> NDArray:
        """(n,) index of this round (0 first)."""
        return self._st.round[self._g]

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

    def random_legal_actions(self, rng: np.random.Generator) -> NDArray[np.int64]:
        """(n,) a uniformly random legal action per entry.

        Cheaper than sampling the (n, A) mask: a random hand slot, or a random allowed row.
        """
        cfg = self.config
        n_ids = cfg.variant_data.n_ids
        actions = np.full(self.n, pass_action(cfg), dtype=np.int64)
        cards_phase = self.phase == PHASE_CARDS
        if cards_phase.any():
            slot = (rng.random(self.n) * np.maximum(self.hand_size, 1)).astype(np.intp)
            # hands are filled from slot 0 (swap-remove keeps the held cards in front)
            card = self._hand_by_slot.reshape(-1).take(slot * self.n + np.arange(self.n)).astype(np.int64)
            actions = np.where(cards_phase, card - 1, actions)
        choosing = self.is_chooser
        if choosing.any():
            options = self.row_options[choosing]
            u = rng.random(len(options))[:, None] * options.sum(axis=1, keepdims=True)
            row = (np.cumsum(options, axis=1) <= u).sum(axis=1)
            actions[choosing] = n_ids + row
        return actions

    def worlds(self, entries: NDArray, count: int, rng: np.random.Generator, deal: NDArray | None = None) -> State:
        """The card game's worlds (core.seat_view.SeatViewBase.worlds; cards/worlds.py)."""
        return deal_worlds(self, entries, count, rng, deal)

    def table_ids(self) -> NDArray[np.int16]:
        """(C, R, n) ids on the table, 0 beyond each row's count (engine layout)."""
        cards = self._st.row_cards[:, :, self._g]
        return cards * (np.arange(ROW_CAPACITY)[:, None, None] < self._st.row_count[None, :, self._g])

    def encode(self, layout) -> NDArray[np.float32]:
        """(n, D) the flat observation vectors of `layout` (an ObsLayout, e.g. `card_layout(config)`)."""
        return layout.encode(self)
