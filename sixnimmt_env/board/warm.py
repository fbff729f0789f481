"""Compile the board kernels once, before the work that needs them.

numba compiles each compiled driver (`_kernel/`, `@kernel`) the first time it is called
with a given signature, and keeps the machine code in a cache shared by every install of
the same sources (`_kernel/jit.py`), so only the first run on a machine pays (the figure:
docs/speed.md); two processes that start cold at once compile each kernel once between
them (`_kernel/compiling.py`'s lock). `compile_kernels()` plays a few games of
every variant through the checked interface (`Game.step`, the seat views' masks and
random legal actions) and the random-play fast path, which calls every kernel with the
signatures the engine uses (the search's rollouts run the same driver with the same
signature; the views' random actions drawn from a generator other than NumPy's PCG64,
`kernel_views.random_actions`, compile where first used); with the cache warm it takes
about a second. The test suite calls it once
before its workers start (tests/conftest.py); `python -m sixnimmt_env.board.warm` does it
by hand."""

from __future__ import annotations

import numpy as np

from ..core.game import make_game
from ..core.rng import game_seeds
from . import engine
from ._kernel import compiling, inputs
from ._kernel import play as kernel_play
from .actions import N_ACTIONS
from .rules import VARIANTS, BoardConfig
from .seat_view import BoardSeatView
from .state import BoardState


def compile_kernels(players: int = 3, games: int = 4, seed: int = 0) -> None:
    """Play `games` games of every variant through the checked interface and the random-play
    fast path, to their end (which compiles every kernel driver, or loads it from the cache)."""
    rng = np.random.default_rng(seed)
    for variant in VARIANTS:
        game = make_game("board", players=players, variant=variant)
        state = game.new_games(game_seeds(seed, games))
        fast = state.copy()
        turn = 0
        while not game.game_over(state).all():
            view = game.view(state, np.repeat(np.arange(players), games), np.tile(np.arange(games), players))
            view.action_mask()  # (the views' masks and hand sizes: their own small kernels)
            view.hand_size
            actions = view.random_legal_actions(rng).reshape(players, games)
            game.step(state, actions, inplace=True, report=turn % 2 == 0)  # with and without the events
            turn += 1
        while not game.game_over(fast).all():
            engine.play_random(fast, rng.random((games, players + 1), dtype=np.float32), threads=1)


_LOADED: list[bool] = []


def load_kernels(state: BoardState) -> None:
    """Once a process: hand the kernels every game calls (the step's check and play, the
    seat views' who-must-act) an empty list of games of `state`, so numba loads their
    machine code from the cache (or compiles it) now, with the signatures the engine uses,
    and not inside the first decision an agent is timed on (`BoardGame.new_games` calls
    this). The other kernels (the driver's random play and rollouts, the views' masks,
    random actions and hand sizes) load where used: loading them here would compile them
    on a first run that never calls them."""
    if _LOADED:
        return
    _LOADED.append(True)
    s, t = inputs.fetch(state)
    none = np.zeros(0, dtype=np.intp)
    scratch = np.zeros(N_ACTIONS, dtype=np.int64)
    actions = np.zeros((state.players, state.batch_size), dtype=np.int64)
    found = np.zeros((0, state.players), dtype=np.int64)
    numbers, limit, status = np.zeros((0, state.players), dtype=np.float32), np.zeros(0, np.int64), np.zeros(0, np.int8)
    with compiling.counted(2):  # (the compile lines say "k/2")
        kernel_play.checked_step(s, t, inputs.NO_EVENTS, False, none, actions, numbers, limit, scratch, status, found)
        compiling.next_kernel()
        BoardSeatView(state, none, none).must_act  # (who must act: with the argument types a view passes)


_DRIVER: list[bool] = []


def load_driver() -> None:
    """Once a process: the driver's machine code for random play and rollouts
    (`kernel_play.play`, the policy an int64; a game that only steps never needs it), loaded
    from the cache (or compiled) now, with the argument types `engine.rollout` and
    `engine.play_random` pass: the board search calls this when it is made, so its first
    decision timed does not pay it."""
    if _DRIVER:
        return
    _DRIVER.append(True)
    state = engine.empty_state(BoardConfig(), np.zeros(1, dtype=np.uint64))
    s, t = inputs.fetch(state)
    kernel_play.play(s, t, inputs.NO_EVENTS, False, kernel_play.ROLLOUT, np.zeros(0, dtype=np.intp),
                     np.zeros((0, 0), dtype=np.int64), np.zeros((0, state.players), dtype=np.float32),
                     np.zeros(0, np.int64), np.zeros(N_ACTIONS, dtype=np.int64), np.zeros(0, np.int8),
                     np.zeros((0, 0), dtype=np.int64))


if __name__ == "__main__":
    import time
    t0 = time.perf_counter()
    compile_kernels()
    print(f"board kernels ready in {time.perf_counter() - t0:.1f} s")
