"""What a seated player of the board game may know: the information filter and agent API.

A `BoardSeatView` is built from the engine state for one seat per game (arrays are
game-major: (n, ...)). It shows the seat's own tiles and the tiles it put out this turn,
the board with its field kinds, every score, everyone's luck cards and the stacks, the
tiles out of the game, the tiles revealed this turn, and the question asked — never
another seat's hand or the order of the supply. Seats are relative where several appear:
index 0 is the observing seat, 1 the seat to its left.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ..core.cached import cached_property
from ..core.seat_view import SeatViewBase
from ._kernel import inputs, pcg64
from ._kernel import views as kernel_views
from ._kernel.calls import Fast
from .actions import N_ACTIONS
from .rules import N_TILES
from .state import PHASE_ASK, PHASE_PICK_SECOND, BoardState
from .worlds import deal_worlds

_NONE = np.zeros(0)  # no numbers drawn
# the views' kernels called without numba's dispatch on every call (calls.py)
_RANDOM_ACTIONS, _ACTION_MASKS, _HAND_SIZES, _RANDOM_LEGAL = (
    Fast(kernel_views.random_actions), Fast(kernel_views.action_masks), Fast(kernel_views.hand_sizes),
    Fast(kernel_views.random_legal))


class BoardSeatView(SeatViewBase):
    """One seat per game of a board-game batch (args: core.seat_view.SeatViewBase; the
    engine state is kept private)."""

    _st: BoardState
    _counts: tuple[int, int, int]  # entries picking, asked, asked a pro question (set with _status)
    public = ("phase", "must_act", "is_asker", "picking", "ask", "hand_size", "action_cards", "action_counts",
              "hand_sizes", "stops", "stops_left", "deck_size", "discard", "picked", "picks", "tiles", "length",
              "row_end", "gone", "revealed", "revealed_seat", "current", "scores", "luck", "luck_usable", "stack",
              "pointer", "turn", "unseen")
    """What the seat knows beside its hand, by property: a world (`worlds`) keeps every one
    (sixnimmt_env.testing.worlds checks it)."""

    @cached_property
    def _inputs(self) -> inputs.Inputs:
        """The state's arrays and tables as the kernels take them, fetched once a view (~3 µs
        a fetch; like the view's other answers, they are the state's when first asked)."""
        return inputs.fetch(self._st)

    @cached_property
    def _status(self) -> NDArray[np.int8]:
        """(n,) each entry's decision (kernel_views.IDLE, PICKING, ASKED, ASKED_PRO), in
        one compiled pass."""
        status = np.empty(self.n, dtype=np.int8)
        s = self._inputs.s
        self._counts = kernel_views.seat_status(s.phase, s.asker, s.ask, s.hands, self.seats, self.games, status)
        return status

    @cached_property
    def is_asker(self) -> NDArray[np.bool_]:
        """(n,) this seat must answer a question now."""
        return self._status >= kernel_views.ASKED

    @cached_property
    def picking(self) -> NDArray[np.bool_]:
        """(n,) this seat must put out a tile now."""
        return self._status == kernel_views.PICKING

    @cached_property
    def must_act(self) -> NDArray[np.bool_]:
        """(n,) this seat has a decision now."""
        return self._status != kernel_views.IDLE

    @cached_property
    def ask(self) -> NDArray[np.int8]:
        """(n,) the question asked of this seat (state.ASK_*), ASK_NONE when none."""
        return self._st.ask[self.games] * self.is_asker

    @cached_property
    def hand(self) -> NDArray[np.int8]:
        """(n, H) own tiles, 0-padded, held tiles first."""
        return self._st.hands[self.seats, :, self.games]

    @cached_property
    def hand_size(self) -> NDArray[np.int64]:
        """(n,) tiles in hand (on the basic side every seat holds as many)."""
        size = np.empty(self.n, dtype=np.int64)
        _HAND_SIZES(self._inputs.s, self.seats, self.games, size)
        return size

    @cached_property
    def action_cards(self) -> NDArray[np.int8]:
        """(n, K) pro: own action cards by kind."""
        return self._st.action[:, self.seats, self.games].T

    @cached_property
    def action_counts(self) -> NDArray[np.int64]:
        """(n, P) pro: action cards held by each seat (relative), how many, not which."""
        return self._rel(self._st.action.sum(axis=0, dtype=np.int64))

    @cached_property
    def hand_sizes(self) -> NDArray[np.int64]:
        """(n, P) tiles in each seat's hand (relative): on the pro side hands differ."""
        return self._rel((self._st.hands > 0).sum(axis=1))

    @cached_property
    def stops(self) -> NDArray[np.bool_]:
        """(n, R) pro: rows under a stop sign."""
        return self._st.stops[:, self.games].T

    @cached_property
    def stops_left(self) -> NDArray[np.int8]:
        """(n,) pro: stop signs not on the board."""
        return self._st.stops_left[self.games]

    @cached_property
    def deck_size(self) -> NDArray[np.int64]:
        """(n,) pro: action cards left in the deck (their order is hidden)."""
        return (self._st.deck_end[self.games] - self._st.deck_at[self.games]).astype(np.int64)

    @cached_property
    def discard(self) -> NDArray[np.int8]:
        """(n, K) pro: the discard pile by kind (played cards are shown)."""
        return self._st.discard[:, self.games].T

    @cached_property
    def picked(self) -> NDArray[np.int8]:
        """(n, 2) own tiles put out this turn (first, second), 0 none."""
        return self._st.picked[:, self.seats, self.games].T

    @cached_property
    def picks(self) -> NDArray[np.int8]:
        """(n,) tiles each seat puts out this turn (2 under play-two)."""
        return self._st.picks[self.games]

    @cached_property
    def tiles(self) -> NDArray[np.int8]:
        """(n, R, F) the board: tile on each field, 0 empty."""
        return np.moveaxis(self._st.tiles[:, :, self.games], -1, 0)

    @cached_property
    def length(self) -> NDArray[np.int8]:
        """(n, R) tiles in each row (0: the row is not active)."""
        return self._st.length[:, self.games].T

    @cached_property
    def row_end(self) -> NDArray[np.int64]:
        """(n, R) the last tile of each row, -1 for rows not active."""
        length = self.length.astype(np.intp)
        ends = np.take_along_axis(self.tiles, np.maximum(length - 1, 0)[:, :, None], axis=2)[:, :, 0]
        return np.where(length > 0, ends, -1).astype(np.int64)

    @cached_property
    def gone(self) -> NDArray[np.bool_]:
        """(n, N+1) tiles out of the game (taken with a row)."""
        return self._st.gone[:, self.games].T

    @cached_property
    def revealed(self) -> NDArray[np.int8]:
        """(n, Q) this turn's tiles still to be placed, in placing order (while a question
        stops the placing; all 0 otherwise). The first is the tile asked about."""
        queue = self._waiting(self._st.queue)
        return queue * (self.phase == PHASE_ASK)[:, None]

    @cached_property
    def revealed_seat(self) -> NDArray[np.int64]:
        """(n, Q) who put out each revealed tile, relative to this seat."""
        seats = self._waiting(self._st.queue_seat).astype(np.int64)
        return (seats - self.seats[:, None]) % self.players

    def _waiting(self, queued: NDArray) -> NDArray:
        """(n, Q) a (Q, B) queue array from the tile being placed on, 0-padded: the queue
        itself keeps the placed tiles before `at`, and "the first revealed tile is the one
        asked about" is what every reader of `revealed` relies on."""
        queued = queued[:, self.games].T
        Q = queued.shape[1]
        k = np.arange(Q)[None, :] + self._st.at[self.games].astype(np.intp)[:, None]
        shifted = np.take_along_axis(queued, np.minimum(k, Q - 1), axis=1)
        return np.where(k < Q, shifted, 0).astype(queued.dtype)

    @cached_property
    def current(self) -> tuple[NDArray, NDArray]:
        """(row, field) (n,), (n,) where the tile asked about goes (during a question)."""
        return self._st.row[self.games], self._st.field[self.games]

    @cached_property
    def scores(self) -> NDArray[np.int32]:
        """(n, P) points so far, relative seat order."""
        return self._rel(self._st.score)

    @cached_property
    def luck(self) -> NDArray[np.int8]:
        """(n, P, 2) luck cards held by kind ("+5", "2×"), relative seat order (public)."""
        return np.moveaxis(self._rel(self._st.luck), 1, 2)

    @cached_property
    def luck_usable(self) -> NDArray[np.int8]:
        """(n, 2) own luck cards by kind that may be played this turn."""
        st = self._st
        return (st.luck[:, self.seats, self.games] - st.luck_new[:, self.seats, self.games]).T

    @cached_property
    def stack(self) -> NDArray[np.int8]:
        """(n, 2) luck cards left in the two stacks."""
        return self._st.stack[:, self.games].T

    @cached_property
    def pointer(self) -> NDArray[np.int8]:
        """(n,) the most recently opened row (where next_row="rotate" counts from; public)."""
        return self._st.pointer[self.games]

    @cached_property
    def turn(self) -> NDArray[np.int16]:
        """(n,) turns completed."""
        return self._st.turn[self.games]

    @cached_property
    def unseen(self) -> NDArray[np.bool_]:
        """(n, N+1) tiles this seat has not seen: the other hands and the supply."""
        seen = np.zeros((self.n, N_TILES + 1), dtype=bool)
        rows = np.arange(self.n)[:, None]
        seen[rows, self.hand] = True
        seen[rows, self.picked] = True
        seen[rows, self.tiles.reshape(self.n, -1)] = True
        seen[rows, self._st.queue[:, self.games].T] = True  # revealed this turn (0 when not)
        seen |= self.gone
        seen[:, 0] = True
        return ~seen

    def action_mask(self) -> NDArray[np.bool_]:
        """(n, A) legal actions: tiles in hand, the answers to a question, else pass only."""
        mask = np.zeros((self.n, N_ACTIONS), dtype=bool)
        _ACTION_MASKS(*self._inputs, self.seats,
                      self.games, self._status, np.zeros(N_ACTIONS, dtype=np.int64), mask)
        return mask

    def random_legal_actions(self, rng: np.random.Generator) -> NDArray[np.int64]:
        """(n,) a uniformly random legal action per entry: a tile of the hand, no or yes
        (a luck card from a stack that holds one), one of a pro question's legal answers.
        The numbers are drawn here, a draw of n for the tiles when any entry picks, n for
        the answers when any is asked, one per pro question (the games' random streams),
        and used by `kernel_views.random_actions`. With a NumPy Generator on PCG64 (its
        default) the kernel computes them itself, only those used, and leaves the
        generator where these draws would (`kernel_views.random_legal`: the same numbers,
        one compiled pass a view)."""
        drawing = pcg64.words(rng)
        if drawing is not None:
            lock, state = drawing
            status = np.empty(self.n, dtype=np.int8)
            actions = np.empty(self.n, dtype=np.int64)
            with lock:  # (as NumPy's own draws hold it)
                self._counts = _RANDOM_LEGAL(*self._inputs, self.seats, self.games, state,
                                             np.empty((2 * pcg64.SHORT, 2), dtype=np.uint64), status,
                                             np.zeros(N_ACTIONS, dtype=np.int64), actions)
            self.__dict__.setdefault("_status", status)  # (the cached property's value, computed on the way)
            return actions
        status = self._status
        n_pick, n_ask, n_pro = self._counts  # (counted by the status kernel)
        pick = rng.random(self.n) if n_pick else _NONE
        ask = rng.random(self.n) if n_ask else _NONE
        pro = rng.random(n_pro) if n_pro else _NONE
        actions = np.empty(self.n, dtype=np.int64)
        _RANDOM_ACTIONS(*self._inputs, self.seats,
                        self.games, status, pick, ask, pro, np.zeros(N_ACTIONS, dtype=np.int64),
                        actions)
        return actions

    def worlds(self, entries: NDArray, count: int, rng: np.random.Generator,
               deal: NDArray | None = None) -> BoardState:
        """The board game's worlds (core.seat_view.SeatViewBase.worlds; board/worlds.py)."""
        return deal_worlds(self, entries, count, rng, deal)

    def known_state(self) -> BoardState:
        """The entries' games as this seat knows them, for search agents: a copy of the
        state (one game per entry) with every other hand and the supply emptied; `worlds`
        deals the `unseen` tiles into them (board/worlds.py)."""
        st = self._st.take(self.games)
        others = np.arange(self.players)[:, None] != self.seats[None, :]  # (P, n)
        st.hands *= ~others[:, None, :]
        # under play-two the others' first tiles stay face down until all are out
        st.picked *= ~(others & (st.phase == PHASE_PICK_SECOND)[None, :])[None, :, :]
        st.supply[:] = 0
        st.seed[:] = 0  # the deal is a function of the seed: it would tell every hidden tile
        if self.config.pro:  # the deck's order and which cards the others hold are hidden
            st.deck[:] = 0  # (how many each holds is public: `action_counts`, for determinizing)
            st.action *= ~others[None, :, :]
        return st
