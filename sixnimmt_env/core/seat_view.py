"""What every game's seat view shares: one seat per game of a batch, and seats relative
to the observing one.

A game's view (`cards.seat_view.SeatView`, `board.seat_view.BoardSeatView`) subclasses
`SeatViewBase` and adds what its seat may know; the state stays private to the view.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from .cached import cached_property


class SeatViewBase:
    """One seat per game of a batch, game-major: arrays are (n, ...).

    Args:
        state: the engine state (a core.batch.GameBatch with a `phase` (B,) array).
        seats: (n,) the observing seat of each entry.
        games: (n,) the game of each entry (default: 0..B-1).
    """

    public: tuple[str, ...] = ()
    """The names of the properties that hold what the seat knows beside its own hand (the
    worlds check compares them); each game's view lists its own."""

    def __init__(self, state, seats, games=None):
        self._st = state
        self.config = state.config
        self.players = state.players
        if type(seats) is list and type(games) is list and len(seats) == len(games):
            self._from_lists(state, seats, games)
            return
        # Both contiguous, the seats read-only, whatever the caller passed (a scalar seat, a
        # strided slice): the board's compiled views take them as arguments, and numba compiles
        # (and caches) a kernel once per layout and flag — any other would compile it anew.
        self.games = np.arange(state.batch_size) if games is None else np.ascontiguousarray(games, dtype=np.intp)
        seats = np.broadcast_to(np.asarray(seats, dtype=np.intp), self.games.shape)
        if not seats.flags.c_contiguous:  # (a broadcast scalar: stride 0)
            seats = np.ascontiguousarray(seats)
            seats.flags.writeable = False
        self.seats = seats
        self.n = len(self.games)
        # Index for reading per-game arrays: a plain slice when the view covers every
        # game in order (the common case in vectorized envs) avoids gathering copies.
        # Without `games` that is known, and the comparison is skipped (a view a step).
        identity = games is None or (self.n == state.batch_size and (self.games == np.arange(self.n)).all())
        self._g = slice(None) if identity else self.games

    def _from_lists(self, state, seats: list, games: list) -> None:
        """`__init__` for seats and games given as lists of the same length (a server's
        view of a seat or two of one game): the same arrays and flags, from plain Python,
        where NumPy's broadcasting and comparisons cost more than the view's first reads."""
        self.games = np.array(games, dtype=np.intp)
        self.seats = np.array(seats, dtype=np.intp)
        self.seats.flags.writeable = False
        self.n = len(games)
        identity = self.n == state.batch_size and games == list(range(self.n))
        self._g = slice(None) if identity else self.games

    def subset(self, entries: NDArray) -> SeatViewBase:
        """The view of these entries only (same seats and games, the same view class)."""
        view = type(self)(self._st, self.seats[entries], self.games[entries])
        view._tabler = self._tabler
        return view

    @cached_property
    def _order(self) -> NDArray[np.intp]:
        """(n, P) the absolute seats in relative order (own seat first, then to its left)."""
        return (self.seats[:, None] + np.arange(self.players)[None, :]) % self.players

    @cached_property
    def _rel_at(self) -> NDArray[np.intp]:
        """(n, P) flat indices into a (P, B) array, in relative seat order."""
        return self._order * self._st.batch_size + self.games[:, None]

    def _rel(self, a: NDArray) -> NDArray:
        """(..., P, B) per-seat array -> (n, ..., P) in relative seat order (own seat first)."""
        if a.ndim == 2:
            return a.reshape(-1).take(self._rel_at)  # flat take: far cheaper than 2-D fancy indexing
        return np.moveaxis(a[..., self._order, self.games[:, None]], -2, 0)

    @cached_property
    def phase(self) -> NDArray[np.int8]:
        """(n,) the game's phase (the game's state.PHASE_*)."""
        return self._st.phase[self._g]

    def worlds(self, entries: NDArray, count: int, rng: np.random.Generator, deal: NDArray | None = None):
        """The game's state of `count` worlds of each of `entries` (world r of entry i is
        game i * count + r): whole games this seat cannot tell from the real one — its
        view, legal actions and public history the same — with what it has not seen (the
        other hands, the undealt cards or tiles, the seed) dealt anew, uniformly or from
        `deal` (core.worlds: (len(entries), N+1, P) probabilities per unseen id). Every
        search of the lab deals its worlds here (sixnimmt_env.testing.worlds checks them)."""
        raise NotImplementedError(f"{type(self).__name__} deals no worlds")

    _tabler = None  # the game's table_view, set by Game.view (the views module cannot import it: a cycle)

    def table_view(self, e: int = 0) -> dict:
        """Entry e as its game's table view (`Game.table_view`: JSON-able data of what the
        entry's seat may know), e.g. for a bot in another program; views made by `Game.view`."""
        if self._tabler is None:
            raise TypeError("table_view() needs a view made by Game.view")
        return self._tabler(self._st, int(self.seats[e]), int(self.games[e]))
