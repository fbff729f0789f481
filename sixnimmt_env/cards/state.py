"""The batched game state: B independent games as a struct of fixed-shape arrays.

The game index is the last axis of every array, so that looking across the 4 rows or the
P seats of all games is a handful of element-wise operations on contiguous memory.
`P` is the number of seats, `R` = 4 rows, `C` = 5 row capacity, `H` = 10 hand slots
(= turns per round), `N` = the variant's number of card ids. Card id 0 means "no card".
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ..core.batch import GameBatch, concat  # noqa: F401  (concat: batches of any game)
from .packing import BULLS_MASK, BULLS_SHIFT, COUNT_MASK, COUNT_SHIFT, LAST_SHIFT
from .rules import RuleConfig

# Phases of a game, per game in `State.phase`.
PHASE_CARDS = 0  # every seat picks a card
PHASE_ROW = 1  # an owner (State.chooser) picks a row: a too-low card's row to take, or
#               in Die Sechste one of two equally long rows ending in twins
PHASE_OVER = 2  # the game has ended; actions are ignored
PHASE_NAMES = ("cards", "row", "over")
NO_SEAT = -1


@dataclass
class State(GameBatch):
    """B games of one rule configuration.

    Attributes (shape, dtype, sentinel):
        config: the rule options shared by every game of the batch (not an array).
        seed: (B,) uint64, the game's own seed; deals are a function of (seed, round).
        round: (B,) int32, index of the current round (of the last one once over).
        turn: (B,) int16, turns completed in the current round, 0..9.
        phase: (B,) int8, PHASE_CARDS, PHASE_ROW or PHASE_OVER.
        dealer: (B,) int16, seat of this round's dealer.
        hands: (P, H, B) int16, card ids; the first 10 - turn slots hold the hand (in no
            particular order), later slots are 0.
        rows: (R, B) int32, each row packed as (ladder value of its last card, bullheads,
            card count, row index) — see packing.py and the row_* properties.
        row_cards: (C, R, B) int16, row_cards[i, r] is the i-th card of row r in placing
            order (slot-major: the engine writes a card with one flat index); slots at or
            beyond the row's count hold stale ids and must be ignored.
        starters: (R, B) int16, the four cards that started the rows this round.
        played: (H, P, B) int16, played[t, p] is the card seat p revealed in turn t of this
            round, 0 for turns not yet revealed.
        penalty: (P, B) int16, bullheads each seat took in the current round.
        score: (P, B) int32, totals of the completed rounds.
        revealed: (P, B) int16, while phase is PHASE_ROW: the turn's cards in placing
            order (lowest first), still to be placed; 0 otherwise.
        revealed_seat: (P, B) int16, the seat that played revealed[k].
        chooser: (B,) int16, the seat that must pick a row in PHASE_ROW, else NO_SEAT.
        row_options: (R, B) bool, rows the chooser may pick (all rows for a too-low card,
            the two twin-ended rows for Die Sechste's twin-row choice).
    """

    # One array per fact (documented above): the scan pairs such field lists with other games' by shape alone.
    config: RuleConfig
    seed: NDArray[np.uint64]
    round: NDArray[np.int32]
    turn: NDArray[np.int16]
    phase: NDArray[np.int8]
    dealer: NDArray[np.int16]
    hands: NDArray[np.int16]
    rows: NDArray[np.int32]
    row_cards: NDArray[np.int16]
    starters: NDArray[np.int16]
    played: NDArray[np.int16]
    penalty: NDArray[np.int16]
    score: NDArray[np.int32]
    revealed: NDArray[np.int16]
    revealed_seat: NDArray[np.int16]
    chooser: NDArray[np.int16]
    row_options: NDArray[np.bool_]

    # ------------------------------------------------------------------ sizes and views

    @property
    def row_last(self) -> NDArray[np.int32]:
        """(R, B) ladder value of each row's last card."""
        return self.rows >> LAST_SHIFT

    @property
    def row_count(self) -> NDArray[np.int32]:
        """(R, B) cards in each row, 1..5."""
        return (self.rows >> COUNT_SHIFT) & COUNT_MASK

    @property
    def row_bulls(self) -> NDArray[np.int32]:
        """(R, B) bullheads in each row."""
        return (self.rows >> BULLS_SHIFT) & BULLS_MASK

    def row_lists(self, game: int) -> list[list[int]]:
        """The four rows of one game as lists of card ids in placing order."""
        count = self.row_count[:, game]
        return [self.row_cards[: count[r], r, game].tolist() for r in range(len(count))]

    def hand_lists(self, game: int) -> list[list[int]]:
        """Each seat's hand in one game, sorted ascending."""
        return [sorted(int(c) for c in self.hands[p, :, game] if c) for p in range(self.players)]

    def seen(self) -> NDArray[np.bool_]:
        """(N + 1, B) ids face up this round: row starters, revealed cards, the table."""
        B = self.batch_size
        seen = np.zeros((self.config.variant_data.n_ids + 1, B), dtype=bool)
        games = np.arange(B)
        seen[self.starters, games] = True
        seen[self.played.reshape(-1, B), games] = True
        # The cards on the table too: after from_deal they are not all starters or played.
        on_table = np.arange(self.row_cards.shape[0])[:, None, None] < self.row_count[None]
        seen[self.row_cards * on_table, games] = True
        seen[0] = False
        return seen

    def total(self) -> NDArray[np.int32]:
        """(P, B) bullheads so far in the game, the current round included."""
        return self.score + self.penalty

    def game_over(self) -> NDArray[np.bool_]:
        """(B,) whether each game has ended."""
        return self.phase == PHASE_OVER

    def winners(self) -> NDArray[np.bool_]:
        """(P, B) every seat with the lowest total (ties: all win); all False while a game runs."""
        totals = self.total()
        return (totals == totals.min(axis=0)) & self.game_over()[None, :]

    def legal_cards(self) -> NDArray[np.bool_]:
        """(P, N + 1, B) whether seat p may play card id c now (PHASE_CARDS only)."""
        P, _, B = self.hands.shape
        mask = np.zeros((P, self.config.variant_data.n_ids + 1, B), dtype=bool)
        mask[np.arange(P)[:, None, None], self.hands, np.arange(B)[None, None, :]] = True
        mask[:, 0, :] = False
        mask &= (self.phase == PHASE_CARDS)[None, None, :]
        return mask

    def legal_rows(self) -> NDArray[np.bool_]:
        """(P, R, B) whether seat p may pick row r now (only the chooser, in PHASE_ROW)."""
        is_chooser = np.arange(self.players)[:, None] == self.chooser[None, :]
        return is_chooser[:, None, :] & self.row_options[None, :, :] & (self.phase == PHASE_ROW)

    def __repr__(self) -> str:
        phases = np.bincount(self.phase, minlength=3)
        counts = ", ".join(f"{n}={c}" for n, c in zip(PHASE_NAMES, phases))
        return f"State(B={self.batch_size}, players={self.players}, {counts})"
