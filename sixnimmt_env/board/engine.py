"""The batched board-game engine: B games stepped at once with array operations.

A turn goes: every seat puts out one tile, or two while an active row has an uncovered
play-two field (PHASE_PICK, then PHASE_PICK_SECOND); the tiles are revealed and placed
lowest first by Rules 1–2, a tile lower than every row end going after the highest one.
The field a tile lands on acts (plain, green, red, fixed value, play two); a take field
scores the tiles left of it, which leave the game, and the tile moves to field 1 of the
next free row. With luck cards, the questions the rules ask while placing (use "+5"?,
use "2×"?, which luck card?) stop a game in PHASE_ASK until the asked seat answers; then
its placing goes on where it stopped. With 2–3 players hands are refilled once; the game
ends when every tile is placed.

Placing is one path for every variant: the placing kernel (`kernel.py`) walks each
game's stages (`BoardState.stage`, a small per-game program counter) in a compiled loop
over the batch's games, stopping a game where the rules ask its owner something and
going on from there once answered. The private functions mutate the state they are
given; `step` copies first unless told `inplace=True`.

The package's modules: `deal.py` starts games, `turns.py` keeps a turn's books (tiles
put out, the queue, the end of a turn), `kernel.py` places (driven by `stages.py`, which
also takes the answers), `rows.py` holds the batched row primitives, `events.py`
reports; this module is the API (`__all__`).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..core.batch import step_actions
from ..core.errors import IllegalActionError
from . import kernel, kernel_random, kernel_state
from .actions import N_ACTIONS, N_TILE_ACTIONS
from .deal import empty_state, from_deal, from_position, new_games, shuffled_tiles
from .events import BoardEvents
from .stages import after_kernel, answer, run_stages
from .state import PHASE_ASK, PHASE_OVER, PHASE_PICK, PHASE_PICK_SECOND, BoardState
from .threads import run_blocks
from .turns import put_out

__all__ = ["BoardEvents", "empty_state", "from_deal", "from_position", "new_games", "play_random", "play_slots",
           "shuffled_tiles", "step"]


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
    actions = step_actions(st, actions)
    ev = BoardEvents.empty(st.queue.shape[0], st.batch_size) if report else None
    live = st.phase != PHASE_OVER if games is None else (st.phase != PHASE_OVER) & np.asarray(games, bool)
    asked = np.flatnonzero(live & (st.phase == PHASE_ASK))
    picking = np.flatnonzero(live & ((st.phase == PHASE_PICK) | (st.phase == PHASE_PICK_SECOND)))
    run = np.zeros(st.batch_size, dtype=bool)
    if len(asked):
        answer(st, asked, actions[st.asker[asked].astype(np.intp), asked], validate)
        run[asked] = True
    if len(picking):
        everyone = len(picking) == st.batch_size
        revealed = _pick(st, picking, actions if everyone else actions[:, picking], validate, everyone)
        _place_revealed(st, revealed, run, ev)
    run_stages(st, run, ev)
    return st, ev


def play_slots(st: BoardState, slots: NDArray) -> None:
    """Fast path: every seat of every picking game puts out the tile in hand slot
    slots[p, b] (games asked a question, or over, are left as they are).

    0 <= slots < tiles in hand; nothing is checked. Questions are asked as in `step`
    (games stop in PHASE_ASK). Mutates `st`. The board benchmark times this, as the card
    benchmark times the card engine's play_slots.
    """
    games = np.flatnonzero((st.phase == PHASE_PICK) | (st.phase == PHASE_PICK_SECOND))
    slots = np.asarray(slots, dtype=np.intp)
    slots = np.ascontiguousarray((slots if len(games) == st.batch_size else slots[:, games]).T)  # (g, P): kernels read a game's row
    status = np.zeros(len(games), dtype=np.int8)
    kernel.play_games(kernel_state.arrays(st), kernel_state.tables(st.config), kernel_state.NO_EVENTS, False, games,
                      slots, status)
    after_kernel(st, games, status, None)


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
    this. The games are split over `threads` threads (None: all cores; `threads.py`):
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
    s, t = kernel_state.arrays(st), kernel_state.tables(st.config)

    def block(lo: int, hi: int) -> None:
        kernel_random.play_random(s, t, kernel_state.NO_EVENTS, games[lo:hi], uniforms[lo:hi],
                                  np.zeros(N_ACTIONS, dtype=np.int64), status[lo:hi])

    run_blocks(block, len(games), threads)
    after_kernel(st, games, status, None)


def _place_revealed(st: BoardState, revealed: NDArray, run: NDArray, ev: BoardEvents | None) -> None:
    """The revealed games start placing their turn's tiles (`run_stages`)."""
    run[revealed] = True


def _pick(st: BoardState, games: NDArray, actions: NDArray, validate: bool, everyone: bool) -> NDArray:
    """Every seat of `games` puts out the tile `actions` (P, g) names; returns the games
    whose tiles are all out (revealed: their placing starts). `everyone`: games is every
    game of the batch (the hands are read in place, not gathered)."""
    hands = st.hands if everyone else st.hands[:, :, games]  # (P, H, g)
    in_range = (actions >= 0) & (actions < N_TILE_ACTIONS)  # tile actions: a puts out tile a + 1
    tiles = np.where(in_range, actions + 1, -1).astype(np.int8)
    match = hands == tiles[:, None, :]
    slot = match.argmax(axis=1)  # (P, g)
    if validate:
        held = np.take_along_axis(match, slot[:, None, :], axis=1)[:, 0, :]
        if st.config.pro:  # a pro hand can run out before the second play-two tile: that seat passes
            held |= hands[:, 0, :] == 0
        if not held.all():
            p, j = np.argwhere(~held)[0]
            b = games[j]
            raise IllegalActionError(
                f"game {b}, seat {p}, turn {int(st.turn[b])}: action {int(actions[p, j])} does not put out a "
                f"tile of the hand; tiles in hand: {sorted(int(t) for t in st.hands[p, :, b] if t)}")
    return put_out(st, games, slot)
