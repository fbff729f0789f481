"""The batched board-game engine: B games stepped at once.

A turn goes: every seat puts out one tile, or two while an active row has an uncovered
play-two field (PHASE_PICK, then PHASE_PICK_SECOND); the tiles are revealed and placed
lowest first by Rules 1–2, a tile lower than every row end going after the highest one.
The field a tile lands on acts (plain, green, red, fixed value, play two); a take field
scores the tiles left of it, which leave the game, and the tile moves to field 1 of the
next free row. With luck cards, the questions the rules ask while placing (use "+5"?,
use "2×"?, which luck card?) stop a game in PHASE_ASK until the asked seat answers; then
its placing goes on where it stopped. With 2–3 players hands are refilled once; the game
ends when every tile is placed.

Every path runs the one compiled driver (`kernel_play.play`) under a policy: `step` with
the actions given (behind `Game.step`), `play_random` uniformly at random, `rollout` the
board search's rollout policy. The driver walks each game's stages (`BoardState.stage`, a
small per-game program counter, `_kernel/place.py`), stopping a game where the rules ask its
owner something and going on from there once answered; `_driver.py` does the NumPy side
(the checks' error words, the refill, the end of a game, the deck's reshuffle).

The package's modules: `_deal.py` starts games, `_turns.py` keeps what NumPy does of a
turn's books (the refill, the end of the game), `_kernel/` holds the compiled rules,
`_events.py` reports; this module is the API (`__all__`).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..core.batch import step_actions
from ._deal import empty_state, from_deal, from_position, new_games, shuffled_tiles
from ._driver import NO_ACTIONS, NO_LIMIT, NOT_FOUND, PLAY, after_kernel, checked_step, play
from ._events import BoardEvents
from ._kernel import inputs
from ._kernel import play as kernel_play
from ._kernel.threads import blocks, run_blocks
from .actions import N_ACTIONS
from .state import PHASE_OVER, BoardState

__all__ = ["BoardEvents", "empty_state", "from_deal", "from_position", "new_games", "play_random", "rollout",
           "shuffled_tiles", "step", "thread_count"]


def step(state: BoardState, actions: ArrayLike, *, inplace: bool = False, report: bool = False,
         validate: bool = True, games: ArrayLike | None = None) -> tuple[BoardState, BoardEvents | None]:
    """Advance every game by one decision step.

    Args:
        state: the batch.
        actions: (P, B) encoded actions (`actions.py`). In PHASE_PICK / PHASE_PICK_SECOND
            every seat with tiles puts out one; in PHASE_ASK only the asker's entry is read.
            Entries of seats that are not asked, and of games that are over, are ignored.
        inplace: mutate `state` instead of a copy.
        report: also return BoardEvents of the tiles placed.
        validate: raise IllegalActionError on an illegal action (else the result is undefined).
        games: (B,) bool, only these games advance (default: all).

    Returns:
        (new state, events or None).
    """
    st = state if inplace else state.copy()
    actions = np.ascontiguousarray(step_actions(st, actions), dtype=np.int64)
    ev = BoardEvents.empty(st.queue.shape[0], st.batch_size) if report else None
    live = st.phase != PHASE_OVER if games is None else (st.phase != PHASE_OVER) & np.asarray(games, bool)
    games = np.flatnonzero(live)
    if validate and len(games):
        checked_step(st, games, actions, ev)  # (the check and the play in one compiled call)
    else:
        play(st, games, kernel_play.GIVEN, ev, actions=actions)
    return st, ev


def rollout(st: BoardState, limit: ArrayLike, first: NDArray | None = None, threads: int | None = 1) -> None:
    """The board search's rollout policy (`kernel_play.ROLLOUT`: every seat puts out the
    last tile it holds, questions answered by the heuristics' rules) in every game not
    over, until game b has played limit[b] turns or is over. `first` (P, B): the first
    decision takes first[p, b] where it is >= 0 (e.g. the searcher's candidate), the
    rollout's choice elsewhere. The games are split over `threads` threads (None: all
    cores). Mutates `st`."""
    limit = np.asarray(limit, dtype=np.int64)
    actions = NO_ACTIONS if first is None else np.ascontiguousarray(first, dtype=np.int64)
    while len(games := np.flatnonzero((st.phase != PHASE_OVER) & (st.turn < limit))):
        play(st, games, kernel_play.ROLLOUT, actions=actions, limit=np.ascontiguousarray(limit[games]), threads=threads)
        actions = NO_ACTIONS


def play_random(st: BoardState, uniforms: NDArray, threads: int | None = None) -> None:
    """Fast path of uniformly random play, a turn in one compiled call: every game not
    over uses its row of `uniforms` ((n, P + K) float32 in [0, 1), game first: n = B,
    row b for game b; or n = the number of games not over, row i for the i-th of them,
    so a driver draws numbers only for the games still on). Picking, seat p puts out the
    tile at fraction row[p] of its hand; asked a question (or asked while placing), the
    asker answers with the legal answer at fraction row[P + i] of the legal answers (the
    seat views' mask, in ascending order) for its next K questions, and the placing goes
    on between them; a game with more questions waits in PHASE_ASK for the next call.
    Nothing is checked but the random numbers' shape; mutates `st`. The board benchmark times
    this. The games are split over `threads` threads (None: all cores; `_kernel/threads.py`):
    the same games whatever the count.
    """
    games = np.flatnonzero(st.phase != PHASE_OVER)
    uniforms = np.ascontiguousarray(uniforms, dtype=np.float32)
    if uniforms.ndim != 2 or uniforms.shape[1] < st.players or len(uniforms) not in (st.batch_size, len(games)):
        raise ValueError(f"play_random: random numbers of shape {uniforms.shape} for {len(games)} games not over "
                         f"of a batch of {st.batch_size}, {st.players} seats")
    if len(uniforms) != len(games):  # a row per game of the batch: the live games' rows
        uniforms = uniforms[games]
    status = np.zeros(len(games), dtype=np.int8)
    kin = inputs.fetch(st)
    s, t = kin

    def block(lo: int, hi: int) -> None:
        PLAY(s, t, inputs.NO_EVENTS, False, kernel_play.RANDOM, games[lo:hi], NO_ACTIONS,
             uniforms[lo:hi], NO_LIMIT, np.zeros(N_ACTIONS, dtype=np.int64), status[lo:hi], NOT_FOUND)

    run_blocks(block, len(games), threads)
    after_kernel(st, games, status, None, kin)


def thread_count(games: int, threads: int | None = None) -> int:
    """The threads `play_random` and `rollout` split `games` games over when asked for
    `threads` (None: all cores): fewer when each thread's block would be small."""
    return len(blocks(games, threads))

