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

Placing has two paths over the same rule primitives (`lockstep.py`). A turn's tiles are
first placed in lockstep: queue position by position over every revealed game at once
(`lockstep.place_turn`). A game the rules would ask something (a luck card it could
play, luck cards gained) leaves the lockstep at that tile, untouched by it, for the
stage machine: a small state machine per game (`BoardState.stage`) whose every pass of
`_run` advances each running game through the stages of its current tile, and which can
stop after any stage to wait for an answer. Loops run over queue positions and stages,
never over games. The private functions mutate the state they are given; `step` copies
first unless told `inplace=True`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..core import rng
from ..core.errors import ConfigError, IllegalActionError
from ..core.sorting import sort_columns
from .actions import ANSWER_NO, LUCK_ACTION, N_TILE_ACTIONS, decode
from .layout import TAKE
from .lockstep import (contiguous, field_tables, landing_points, next_free_rows, packed_rows, place_turn,
                       taken_points, target_rows)
from .rules import DOUBLE, HAND_SIZE, N_TILES, PLUS5, PLUS5_POINTS, START_ROWS, BoardConfig
from .state import (ASK_DOUBLE, ASK_LUCK_CARD, ASK_NONE, ASK_PLUS5, NO_SEAT, PHASE_ASK, PHASE_OVER,
                    PHASE_PICK, PHASE_PICK_SECOND, STAGE_GAIN, STAGE_LAND, STAGE_MOVE, STAGE_MOVED,
                    STAGE_NEXT, STAGE_PLACE, STAGE_TAKE, BoardState)

TAG_BOARD_DEAL = np.uint64(0xA4093822299F31D0)  # the shuffle of the 100 tiles
_SEAT_BITS = 3  # queue key = tile << _SEAT_BITS | seat (at most 8 seats)
_NO_TILE_KEY = (N_TILES + 1) << _SEAT_BITS  # sorts after every tile


@dataclass
class BoardEvents:
    """What one step placed, per tile k of the turn's queue (built only when asked for).

    Attributes:
        tile: (Q, B) int8, the tile placed in this step at queue position k; 0 elsewhere.
        seat: (Q, B) int8, who put it out.
        row, field: (Q, B) int8, where it landed (before any move after a take).
        kind: (Q, B) int8, the kind of that field (layout kinds).
        points: (Q, B) int16, the points it brought its owner (all effects of the tile).
        taken: (Q, B) int8, tiles it took off the board (0: no take).
        moved_to: (Q, B) int8, the row it moved to after a take, -1 otherwise.
        plus5, double: (Q, B) bool, a "+5" / "2×" card was played on it.
        luck_gained: (Q, B) int8, luck cards its owner gained with it.
        turn_over: (B,) bool, a turn ended in this step.
    """

    tile: NDArray[np.int8]
    seat: NDArray[np.int8]
    row: NDArray[np.int8]
    field: NDArray[np.int8]
    kind: NDArray[np.int8]
    points: NDArray[np.int16]
    taken: NDArray[np.int8]
    moved_to: NDArray[np.int8]
    plus5: NDArray[np.bool_]
    double: NDArray[np.bool_]
    luck_gained: NDArray[np.int8]
    turn_over: NDArray[np.bool_]

    @classmethod
    def empty(cls, queue: int, batch: int) -> "BoardEvents":
        def z(dtype=np.int8):
            return np.zeros((queue, batch), dtype=dtype)
        return cls(z(), z(), z(), z(), z(), z(np.int16), z(), np.full((queue, batch), -1, np.int8),
                   z(bool), z(bool), z(), np.zeros(batch, dtype=bool))


# --------------------------------------------------------------------------- creation


def empty_state(config: BoardConfig, seeds: NDArray[np.uint64]) -> BoardState:
    """A batch with every array allocated and zeroed (no tile anywhere)."""
    B, P = len(seeds), config.players
    R, F = config.board.kind.shape

    def i8(*shape):
        return np.zeros(shape + (B,), dtype=np.int8)

    return BoardState(
        config=config, seed=np.array(seeds, dtype=np.uint64), turn=np.zeros(B, np.int16),
        phase=i8(), picks=np.ones(B, np.int8), hands=i8(P, HAND_SIZE), picked=i8(2, P),
        tiles=i8(R, F), length=i8(R), supply=i8(N_TILES), drawn=i8(),
        gone=np.zeros((N_TILES + 1, B), dtype=bool), score=np.zeros((P, B), np.int32),
        luck=i8(2, P), luck_new=i8(2, P), stack=i8(2), pointer=i8(), refilled=np.zeros(B, bool),
        queue=i8(2 * P), queue_seat=i8(2 * P), at=i8(), stage=i8(), row=i8(), field=i8(), gain=i8(),
        after_gain=i8(), ask=i8(), asker=np.full(B, NO_SEAT, np.int8), answer=i8(),
        answered=np.zeros(B, dtype=bool),
    )


def shuffled_tiles(seeds: NDArray[np.uint64]) -> NDArray[np.int8]:
    """(N, B) the tiles 1..100 of each game in dealing order, a function of its seed alone."""
    keys = rng.round_keys(np.asarray(seeds, dtype=np.uint64), TAG_BOARD_DEAL, np.zeros(len(seeds)))
    return (rng.permutations(keys, N_TILES).T + 1).astype(np.int8)


def new_games(config: BoardConfig, seeds: ArrayLike) -> BoardState:
    """Start one game per seed: the tiles are shuffled from the seed and dealt.

    The deal: seat p draws tiles P*12 .. of the shuffle in turn (seat 0 first), then the
    four start tiles of rows 1-4, then the supply in order.
    """
    seeds = np.atleast_1d(np.asarray(seeds)).astype(np.uint64)
    deck = shuffled_tiles(seeds)
    P = config.players
    dealt = P * HAND_SIZE
    hands = deck[:dealt].reshape(P, HAND_SIZE, -1).transpose(2, 0, 1)
    return from_deal(config, hands, deck[dealt:dealt + START_ROWS].T, deck[dealt + START_ROWS:].T, seeds=seeds)


def from_deal(config: BoardConfig, hands: ArrayLike, start: ArrayLike, supply: ArrayLike, *,
              seeds: ArrayLike | None = None) -> BoardState:
    """A batch at the start of the game from given tiles (replays; tests).

    Args:
        hands: (B, P, 12) each seat's tiles.
        start: (B, 4) the start tiles of rows 1-4.
        supply: (B, n) the tiles left, in the order they are drawn (0-padded).
        seeds: (B,) the games' seeds (kept for the record; default 0).
    """
    hands = np.asarray(hands, dtype=np.int8)
    start = np.asarray(start, dtype=np.int8)
    supply = np.asarray(supply, dtype=np.int8)
    P = config.players
    if hands.ndim != 3 or hands.shape[1:] != (P, HAND_SIZE):
        raise ConfigError(f"hands must have shape (B, {P}, {HAND_SIZE}), got {hands.shape}")
    B = hands.shape[0]
    if start.shape != (B, START_ROWS) or supply.ndim != 2 or supply.shape[0] != B:
        raise ConfigError(f"start must have shape ({B}, {START_ROWS}) and supply ({B}, n)")
    seeds = np.zeros(B, np.uint64) if seeds is None else np.broadcast_to(np.asarray(seeds).astype(np.uint64), (B,))
    st = empty_state(config, seeds)
    st.hands[:] = hands.transpose(1, 2, 0)
    st.tiles[:START_ROWS, 0] = start.T
    st.length[:START_ROWS] = 1
    st.supply[:supply.shape[1]] = supply.T
    st.stack[PLUS5], st.stack[DOUBLE] = config.plus5_cards, config.double_cards
    st.pointer[:] = START_ROWS - 1  # row 4 is the most recently opened
    _start_turn(st, np.arange(B))
    return st


def from_position(config: BoardConfig, rows: list[list[int]], hands: list[list[int]], *,
                  scores=None, luck=None, stacks=None, pointer: int = START_ROWS - 1,
                  supply=(), refilled: bool | None = None, turn: int = 0) -> BoardState:
    """One game at the start of a turn, from plain data (scripted rule cases, tests).

    Args:
        rows: per row the tiles on fields 1..k ([] for a free row).
        hands: per seat its tiles (every seat as many, at most 12).
        scores: (P,) points so far (default 0).
        luck: (P, 2) luck cards held by kind, all gained before this turn (default none).
        stacks: (2,) luck cards left on the stacks (default: the rules' counts).
        pointer: the most recently opened row (next_row="rotate").
        supply: the tiles still to be drawn, in order.
        refilled: whether the 2-3 player refill is behind us (default: not yet, when it applies).
    """
    P = config.players
    if len(hands) != P or len({len(h) for h in hands}) != 1 or len(hands[0]) > HAND_SIZE:
        raise ConfigError(f"hands: give {P} hands of one size, at most {HAND_SIZE} tiles")
    st = empty_state(config, np.zeros(1, np.uint64))
    for r, row in enumerate(rows):
        st.tiles[r, :len(row), 0] = row
        st.length[r, 0] = len(row)
    for p, hand in enumerate(hands):
        st.hands[p, :len(hand), 0] = hand
    st.supply[:len(supply), 0] = list(supply)
    st.score[:, 0] = 0 if scores is None else scores
    if luck is not None:
        st.luck[:, :, 0] = np.asarray(luck, dtype=np.int8).T
    st.stack[:, 0] = (config.plus5_cards, config.double_cards) if stacks is None else stacks
    st.pointer[0] = pointer
    st.refilled[0] = not config.refill if refilled is None else refilled
    st.turn[0] = turn
    _start_turn(st, np.arange(1))
    return st


# --------------------------------------------------------------------------- stepping


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
    actions = np.asarray(actions)
    if not np.issubdtype(actions.dtype, np.integer):
        raise IllegalActionError(f"actions must be integers, got dtype {actions.dtype}")
    if actions.shape != (st.players, st.batch_size):
        raise IllegalActionError(f"actions must have shape (players, batch) = {(st.players, st.batch_size)}, "
                                 f"got {actions.shape}")
    ev = BoardEvents.empty(2 * st.players, st.batch_size) if report else None
    live = st.phase != PHASE_OVER if games is None else (st.phase != PHASE_OVER) & np.asarray(games, bool)
    asked = np.flatnonzero(live & (st.phase == PHASE_ASK))
    picking = np.flatnonzero(live & ((st.phase == PHASE_PICK) | (st.phase == PHASE_PICK_SECOND)))
    run = np.zeros(st.batch_size, dtype=bool)
    if len(asked):
        _answer(st, asked, actions[st.asker[asked].astype(np.intp), asked], validate)
        run[asked] = True
    if len(picking):
        everyone = len(picking) == st.batch_size
        revealed = _pick(st, picking, actions if everyone else actions[:, picking], validate, everyone)
        _place_revealed(st, revealed, run, ev)
    _run(st, run, ev)
    return st, ev


def play_slots(st: BoardState, slots: NDArray) -> None:
    """Fast path: every seat of every picking game puts out the tile in hand slot
    slots[p, b] (games asked a question, or over, are left as they are).

    0 <= slots < tiles in hand; nothing is checked. Questions are asked as in `step`
    (games stop in PHASE_ASK). Mutates `st`. The board benchmark times this, as the card
    benchmark times the card engine's play_slots.
    """
    picking = (st.phase == PHASE_PICK) | (st.phase == PHASE_PICK_SECOND)
    everyone = bool(picking.all())
    games = np.arange(st.batch_size) if everyone else np.flatnonzero(picking)
    slots = np.asarray(slots, dtype=np.intp)
    revealed = _put_out(st, games, slots if everyone else slots[:, games], everyone)
    run = np.zeros(st.batch_size, dtype=bool)
    _place_revealed(st, revealed, run, None)
    _run(st, run, None)


def _place_revealed(st: BoardState, revealed: NDArray, run: NDArray, ev: BoardEvents | None) -> None:
    """Place the revealed tiles: the lockstep places whole turns; the games it stops at
    a question join `run` for the stage machine; the others' turns end."""
    if len(revealed) == 0:
        return
    stopped = place_turn(st, revealed, ev)
    run[stopped] = True
    ended = np.setdiff1d(revealed, stopped, assume_unique=True) if len(stopped) else revealed
    if ev is not None:
        ev.turn_over[ended] = True
    _end_turn(st, ended)


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
        if not held.all():
            p, j = np.argwhere(~held)[0]
            b = games[j]
            raise IllegalActionError(
                f"game {b}, seat {p}, turn {int(st.turn[b])}: action {int(actions[p, j])} does not put out a "
                f"tile of the hand; tiles in hand: {sorted(int(t) for t in st.hands[p, :, b] if t)}")
    return _put_out(st, games, slot, everyone)


def _put_out(st: BoardState, games: NDArray, slot: NDArray, everyone: bool) -> NDArray:
    """Every seat of `games` (g,) puts out the tile in its hand slot `slot` (P, g); returns
    the games whose tiles are all out, their queue sorted (revealed)."""
    contiguous(st, "hands")
    P, H, B = st.hands.shape
    hands_flat = st.hands.reshape(-1)
    count = (st.hands[0][:, _columns(st, games)] > 0).sum(axis=0)
    base = np.arange(P)[:, None] * (H * B) + games[None, :]  # (P, g): slot 0 of each seat's hand
    at_slot = base + slot * B
    at_last = base + np.maximum(count - 1, 0)[None, :] * B
    chosen = hands_flat[at_slot]
    hands_flat[at_slot] = hands_flat[at_last]  # swap-remove keeps the tiles in front
    hands_flat[at_last] = 0
    cols = _columns(st, games)
    second = st.phase[cols] == PHASE_PICK_SECOND
    if not second.any():
        st.picked[0][:, cols] = chosen
    elif second.all():
        st.picked[1][:, cols] = chosen
    else:  # flat: picked is (2, P, B)
        contiguous(st, "picked")
        st.picked.reshape(-1)[(second * P + np.arange(P)[:, None]) * B + games[None, :]] = chosen
    more = ~second & (st.picks[cols] == 2)
    if more.any():
        st.phase[games[more]] = PHASE_PICK_SECOND
        games = games[~more]
    _reveal(st, games)
    return games


def _columns(st: BoardState, games: NDArray) -> NDArray | slice:
    """`games` (sorted, distinct) as an index: a slice when it is every game of the batch,
    which NumPy reads and writes without gathering."""
    return slice(None) if len(games) == st.batch_size else games


def _reveal(st: BoardState, games: NDArray) -> None:
    """Sort the tiles put out in `games` into the placing queue, lowest first."""
    cols = _columns(st, games)
    two = st.picks[cols] == 2
    if two.all() or not two.any():
        _queue(st, cols, 2 if two.any() else 1)
    else:  # sorting 2P tiles costs twice P: only the games that put out two sort them all
        _queue(st, games[two], 2)
        _queue(st, games[~two], 1)
    st.at[cols] = 0
    st.stage[cols] = STAGE_PLACE
    st.phase[cols] = PHASE_PICK  # placing: not waiting for anyone (PHASE_ASK when a question stops it)


def _queue(st: BoardState, cols: NDArray | slice, picks: int) -> None:
    """The placing queue of games `cols` whose seats put out `picks` tiles each."""
    P = st.players
    picked = st.picked[:picks, :, cols].reshape(picks * P, -1).astype(np.int16)  # (n, g), first picks first
    seat = np.tile(np.arange(P, dtype=np.int16), picks)[:, None]
    keys = np.where(picked > 0, (picked << _SEAT_BITS) | seat, np.int16(_NO_TILE_KEY))
    sort_columns(keys)
    n = picks * P
    st.queue[:n, cols] = np.where(keys < _NO_TILE_KEY, keys >> _SEAT_BITS, 0)
    st.queue_seat[:n, cols] = keys & ((1 << _SEAT_BITS) - 1)
    st.queue[n:, cols] = 0
    st.queue_seat[n:, cols] = 0


def _answer(st: BoardState, games: NDArray, actions: NDArray, validate: bool) -> None:
    """The askers of `games` answer their questions; the placing goes on from there."""
    ask = st.ask[games]
    yes_no = (actions == ANSWER_NO) | (actions == ANSWER_NO + 1)
    kind = np.clip(actions - LUCK_ACTION[PLUS5], 0, 1)
    luck = ((actions == LUCK_ACTION[PLUS5]) | (actions == LUCK_ACTION[DOUBLE])) & (st.stack[kind, games] > 0)
    ok = np.where(ask == ASK_LUCK_CARD, luck, yes_no)
    if validate and not ok.all():
        j = int(np.flatnonzero(~ok)[0])
        b = games[j]
        raise IllegalActionError(
            f"game {b}, seat {int(st.asker[b])}, turn {int(st.turn[b])}: action {int(actions[j])} does not "
            f"answer the question {_ASK_WORDS[int(ask[j])]}")
    st.answer[games] = decode(actions).astype(np.int8)
    st.phase[games] = PHASE_PICK
    st.ask[games] = ASK_NONE
    st.asker[games] = NO_SEAT
    st.answered[games] = True


_ASK_WORDS = {ASK_LUCK_CARD: "which luck card (+5 or 2x, from a stack that holds one)", ASK_PLUS5: "use +5 (yes or no)",
              ASK_DOUBLE: "use 2x (yes or no)"}


def _park(st: BoardState, games: NDArray, ask: int, run: NDArray) -> None:
    """Stop `games` until the current tile's owner answers `ask`."""
    st.phase[games] = PHASE_ASK
    st.ask[games] = ask
    st.asker[games] = st.queue_seat[st.at[games].astype(np.intp), games]
    run[games] = False


def _run(st: BoardState, run: NDArray[np.bool_], ev: BoardEvents | None) -> None:
    """Advance the placing of every game in `run` until it is asked something or its turn ends."""
    handlers = ((STAGE_PLACE, _place), (STAGE_TAKE, _take), (STAGE_LAND, _land), (STAGE_GAIN, _gain),
                (STAGE_MOVE, _move), (STAGE_MOVED, _moved), (STAGE_NEXT, _next))
    while run.any():
        for stage, handler in handlers:
            games = np.flatnonzero(run & (st.stage == stage))
            if len(games):
                handler(st, games, run, ev)


def _current(st: BoardState, games: NDArray) -> tuple[NDArray, NDArray, NDArray]:
    """(k, tile, seat) of the tile being placed in each of `games`."""
    k = st.at[games].astype(np.intp)
    return k, st.queue[k, games].astype(np.intp), st.queue_seat[k, games].astype(np.intp)


def _usable(st: BoardState, kind: int, seats: NDArray, games: NDArray) -> NDArray[np.bool_]:
    """Whether each seat holds a luck card of `kind` gained before this turn."""
    if not st.config.luck:
        return np.zeros(len(games), dtype=bool)
    return st.luck[kind, seats, games] > st.luck_new[kind, seats, games]


def _place(st: BoardState, games: NDArray, run: NDArray, ev) -> None:
    """Rules 1-2 (and the too-low exception): the row and field of each current tile."""
    layout = st.config.board
    _, tile, seat = _current(st, games)
    row = target_rows(packed_rows(st.tiles[:, :, games], st.length[:, games]), tile, st.length.shape[0])
    field = st.length[row, games].astype(np.intp)
    st.row[games], st.field[games] = row, field
    take = layout.kind[row, field] == TAKE
    ask_double = take & _usable(st, DOUBLE, seat, games)
    ask_plus5 = ~take & _usable(st, PLUS5, seat, games)
    st.stage[games] = np.where(take, STAGE_TAKE, STAGE_LAND)
    st.answer[games] = 0
    st.answered[games] = False
    if ask_double.any():
        _park(st, games[ask_double], ASK_DOUBLE, run)
    if ask_plus5.any():
        _park(st, games[ask_plus5], ASK_PLUS5, run)


def _take(st: BoardState, games: NDArray, run: NDArray, ev) -> None:
    """The tile reached a take field: its owner scores the tiles left of it, which leave
    the game ("2×": the two best count plus); the tile moves on (STAGE_MOVE)."""
    bulls = st.config.board.tile_bulls
    k, tile, seat = _current(st, games)
    row = st.row[games].astype(np.intp)
    taken = st.tiles[row, :, games].T  # (F, g): the row's tiles (all left of the take field)
    lost = taken_points(bulls, taken.T)
    double = st.answer[games] == 1
    best_two = -np.sort(-bulls[taken].astype(np.int32), axis=0)[:2].sum(axis=0)  # a one-tile row: that tile
    points = np.where(double, 2 * best_two - lost, -lost)
    _use_luck(st, DOUBLE, seat, games, double)
    st.gone[taken.astype(np.intp), games[None, :]] = True
    st.gone[0, games] = False
    st.tiles[row, :, games] = 0
    st.length[row, games] = 0
    if ev is not None:
        ev.taken[k, games] = (taken > 0).sum(axis=0)
        ev.double[k, games] = double
        _record(st, ev, games, k, tile, seat, row, st.field[games], points)
    _score(st, games, seat, points, STAGE_MOVE)


def _land(st: BoardState, games: NDArray, run: NDArray, ev) -> None:
    """The tile lands on a field that takes nothing: the field's effect, or "+5"."""
    layout = st.config.board
    k, tile, seat = _current(st, games)
    row, field = st.row[games].astype(np.intp), st.field[games].astype(np.intp)
    st.tiles[row, field, games] = tile
    st.length[row, games] = field + 1
    effect = landing_points(field_tables(layout), row * layout.kind.shape[1] + field,
                            layout.tile_bulls[tile].astype(np.int32))
    plus5 = st.answer[games] == 1
    points = np.where(plus5, PLUS5_POINTS, effect).astype(np.int32)
    _use_luck(st, PLUS5, seat, games, plus5)
    if ev is not None:
        ev.plus5[k, games] = plus5
        _record(st, ev, games, k, tile, seat, row, field, points)
    _score(st, games, seat, points, STAGE_NEXT)


def _record(st, ev: BoardEvents, games, k, tile, seat, row, field, points) -> None:
    ev.tile[k, games], ev.seat[k, games] = tile, seat
    ev.row[k, games], ev.field[k, games] = row, field
    ev.kind[k, games] = st.config.board.kind[row, field]
    ev.points[k, games] += points.astype(np.int16)


def _use_luck(st: BoardState, kind: int, seat: NDArray, games: NDArray, used: NDArray) -> None:
    """Luck cards played go back on their stack at once."""
    if used.any():
        g, s = games[used], seat[used]
        st.luck[kind, s, g] -= 1
        st.stack[kind, g] += 1


def _score(st: BoardState, games: NDArray, seat: NDArray, points: NDArray, then: int) -> None:
    """Add one effect's points; a net loss that passes clovers gains luck cards (STAGE_GAIN),
    else the tile goes on to `then`."""
    st.answered[games] = False  # the question before this effect is answered and used
    old = st.score[seat, games]
    new = old + points
    st.score[seat, games] = new
    gain = np.zeros(len(games), dtype=np.int64)
    if st.config.luck:
        clovers = np.asarray(st.config.board.clovers)
        # clovers c with new <= c < old, only when the score went down
        gain = (np.searchsorted(clovers, old, "left") - np.searchsorted(clovers, new, "left")) * (points < 0)
    st.gain[games] = gain
    st.after_gain[games] = then
    st.stage[games] = np.where(gain > 0, STAGE_GAIN, then)


def _gain(st: BoardState, games: NDArray, run: NDArray, ev) -> None:
    """One luck card per clover passed, of the owner's choice (a question for every card
    gained, as records write it: "one entry per clover"; with one stack empty the other
    is the only answer; with both empty nothing is gained and nothing asked)."""
    k, _, seat = _current(st, games)
    some = (st.stack[:, games] > 0).any(axis=0)
    ask = some & ~st.answered[games]
    if ask.any():
        _park(st, games[ask], ASK_LUCK_CARD, run)
    go = ~ask
    g, s, kk, some = games[go], seat[go], k[go], some[go]
    kind = st.answer[g].astype(np.intp)
    gg, ss, kind = g[some], s[some], kind[some]
    st.luck[kind, ss, gg] += 1
    st.luck_new[kind, ss, gg] += 1
    st.stack[kind, gg] -= 1
    if ev is not None:
        ev.luck_gained[kk[some], gg] += 1
    st.answered[g] = False
    st.gain[g] = np.where(some, st.gain[g] - 1, 0)
    finished = g[st.gain[g] == 0]
    st.stage[finished] = st.after_gain[finished]


def _move(st: BoardState, games: NDArray, run: NDArray, ev) -> None:
    """After a take the tile moves to field 1 of the next free row (next_row option)."""
    k, tile, seat = _current(st, games)
    taken = st.row[games].astype(np.intp)
    origin = taken if st.config.next_row == "scan" else st.pointer[games]
    row = next_free_rows(st.length, origin, taken, games)
    st.tiles[row, 0, games] = tile
    st.length[row, games] = 1
    st.pointer[games] = row
    st.row[games], st.field[games] = row, 0
    if ev is not None:
        ev.moved_to[k, games] = row
    # field 1 is plain on the basic side: only a "+5" could act on it
    ask = _usable(st, PLUS5, seat, games)
    st.answer[games] = 0
    st.answered[games] = False
    st.stage[games] = STAGE_MOVED
    if ask.any():
        _park(st, games[ask], ASK_PLUS5, run)


def _moved(st: BoardState, games: NDArray, run: NDArray, ev) -> None:
    """The moved tile on field 1: "+5" if its owner played one."""
    k, _, seat = _current(st, games)
    plus5 = st.answer[games] == 1
    if plus5.any():
        g, s = games[plus5], seat[plus5]
        _use_luck(st, PLUS5, s, g, np.ones(len(g), dtype=bool))
        st.score[s, g] += PLUS5_POINTS
        if ev is not None:
            ev.plus5[k[plus5], g] = True
            ev.points[k[plus5], g] += PLUS5_POINTS
    st.answered[games] = False
    st.stage[games] = STAGE_NEXT


def _next(st: BoardState, games: NDArray, run: NDArray, ev) -> None:
    """The next tile of the queue, or the end of the turn."""
    at = st.at[games].astype(np.intp) + 1
    more = (at < st.queue.shape[0])
    more[more] = st.queue[at[more], games[more]] > 0
    st.at[games[more]] = at[more]
    st.stage[games[more]] = STAGE_PLACE
    ended = games[~more]
    if len(ended):
        run[ended] = False
        if ev is not None:
            ev.turn_over[ended] = True
        _end_turn(st, ended)


def _end_turn(st: BoardState, games: NDArray) -> None:
    """Turn over: luck cards become usable; refill once (2-3 players) or end the game when
    every hand is empty; else the next turn starts."""
    cols = _columns(st, games)
    st.turn[cols] += 1
    if st.config.luck:
        st.luck_new[:, :, cols] = 0
    st.picked[:, :, cols] = 0
    st.queue[:, cols] = 0
    st.at[cols] = 0
    st.stage[cols] = STAGE_PLACE
    empty = st.hands[0, 0, cols] == 0
    if empty.any():
        out = games[empty]
        refill = out[~st.refilled[out]] if st.config.refill else out[:0]
        if len(refill):
            _refill(st, refill)
        over = np.setdiff1d(out, refill)
        st.phase[over] = PHASE_OVER
        games = np.setdiff1d(games, over)
    _start_turn(st, games)


def _refill(st: BoardState, games: NDArray) -> None:
    """Every seat draws 12 tiles from the supply, seat 0 first."""
    P = st.players
    first = st.drawn[games].astype(np.intp)
    idx = first[None, :] + np.arange(P * HAND_SIZE)[:, None]  # (P*H, g)
    st.hands[:, :, games] = st.supply[idx, games[None, :]].reshape(P, HAND_SIZE, -1)
    st.drawn[games] += P * HAND_SIZE
    st.refilled[games] = True


def _start_turn(st: BoardState, games: NDArray) -> None:
    """A new turn: one tile each, or two while an active row has an uncovered play-two field."""
    if len(games) == 0:
        return
    tables = field_tables(st.config.board)
    cols = _columns(st, games)
    rows = tables.rows_with_two  # only rows with a play-two field can have one uncovered
    at_length = (rows * (tables.fields + 1))[:, None] + st.length[rows][:, cols]  # (r, g)
    play_two = tables.two_ahead[at_length].any(axis=0)
    two = play_two & (st.hands[0, 1, cols] > 0)  # two tiles in hand (held tiles fill the first slots)
    st.picks[cols] = np.where(two, 2, 1)
    st.phase[cols] = PHASE_PICK
