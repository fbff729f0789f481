"""The observation half of `SingleGame` (single_game.py): its flat observations and masks.

`SingleGame` keeps every seat's observation up to date as cards move; these are the
writes it makes (a placed card, a row phase, scores, the turn) and the rebuild from
scratch, apart from the rules they follow. The buffers and offsets (`_shared`, `_seats`,
`_o_*`, `_t`, ...) are set up by `SingleGame.__init__`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from .encoding import SCORE_SCALE
from .rules import HAND_SIZE, MIN_PLAYERS, N_ROWS, ROW_CAPACITY
from .state import PHASE_CARDS, PHASE_ROW


class SingleGameObservations:
    """Writes of one game's observations into the flat buffers `SingleGame` owns."""

    def observations(self) -> tuple[NDArray[np.float32], NDArray[np.int8]]:
        """(P, D) every seat's observation and (P, A) action mask, fresh arrays."""
        common = self._common
        self._seats_np[:, common] = self._shared_np[common]
        obs = self._seats_np.copy()
        if self.phase == PHASE_CARDS:
            mask = self._cards_mask_np.copy()
        elif self.phase == PHASE_ROW:
            mask = self._row_masks[self.chooser].copy()
        else:
            mask = self._over_mask.copy()
        return obs, mask


    def _encode_row(self, r: int, card: int, i: int) -> None:
        """Card `card` now lies in slot i of row r."""
        shared = self._shared
        shared[self._o_table + card] = 1.0
        shared[self._o_cards + r * ROW_CAPACITY + i] = self._card_value[card]
        shared[self._o_count + r] = self._count_value[self.row_count[r]]
        shared[self._o_bulls + r] = self._bulls_value[self.row_bulls[r]]
        shared[self._o_last + r] = self._last_value[self.row_last[r]]

    def _encode_row_phase(self, chooser: int, on: float) -> None:
        """Enter (on=1) or leave (on=0) a row phase: the revealed cards, the phase
        fields, the chooser's rows (every row: a too-low card may take any)."""
        shared, rev = self._shared, self._o_revealed
        for c in self.revealed:
            shared[rev + c] = on
        seats, D, t = self._seats, self.D, self._t
        for p in range(self.players):
            seats[p * D + t["phase"]] = 1.0 - on
        seats[chooser * D + t["phase"] + 1] = on
        for r in range(N_ROWS):
            seats[chooser * D + t["choice_rows"] + r] = on

    def _encode_scores(self) -> None:
        seats, D, so, po = self._seats, self.D, self._t["scores"], self._t["round_penalty"]
        totals, penalty, scale = self.totals(), self.penalty, 1.0 / SCORE_SCALE
        for p, rel in enumerate(self._rel):
            base = p * D
            for i, j in enumerate(rel):
                seats[base + so + i] = totals[j] * scale
                seats[base + po + i] = penalty[j] * scale

    def _encode_turn(self) -> None:
        seats, D, at, value = self._seats, self.D, self._t["turn"], self.turn * (1.0 / HAND_SIZE)
        for p in range(self.players):
            seats[p * D + at] = value

    def _encode_all(self) -> None:
        """Every field from scratch (a new deal, a loaded state, the game's end)."""
        P, A, D, t = self.players, self.n_actions, self.D, self._t
        self._shared_np[:] = 0.0
        self._seats_np[:] = 0.0
        self._cards_mask_np[:] = 0
        shared, seen = self._shared, self._o_seen
        for r in range(N_ROWS):
            for i in range(self.row_count[r]):
                card = self.row_slots[r][i]
                shared[seen + card] = 1.0
                self._encode_row(r, card, i)
        for c in self.starters:
            shared[seen + c] = 1.0
        for turn in self.played:
            for c in turn:
                if c:
                    shared[seen + c] = 1.0
        shared[seen] = 0.0
        for p, hand in enumerate(self.hands):
            for c in hand:
                self._seats[p * D + c] = 1.0
                if self.phase == PHASE_CARDS:
                    self._cards_mask[p * A + c - 1] = 1
        tail = self._seats
        for p in range(P):
            base = p * D
            tail[base + t["phase"]] = float(self.phase == PHASE_CARDS)
            tail[base + t["players"] + P - MIN_PLAYERS] = 1.0
            tail[base + t["dealer"] + (self.dealer - p) % P] = 1.0
        if self.phase == PHASE_ROW:
            self._encode_row_phase(self.chooser, 1.0)
        self._encode_scores()
        self._encode_turn()
