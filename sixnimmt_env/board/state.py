"""The batched board-game state: B independent games as a struct of fixed-shape arrays.

The game index is the last axis of every array, as in the card engine; an array of two
or more axes is a view of storage laid out game first, so one game's entries are one run
of bytes for the compiled kernels (`_storage.py`; NumPy code sees only the shapes below,
and a field set to a plain array is stored so again when a kernel next runs). `P` seats, `H` =
12 hand slots, `R` rows and `F` fields of the longest row (from the layout), `Q` = 2P
tiles placed per turn at most, `N` = 100 tiles. Tile id 0 means "no tile" everywhere.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, fields

import numpy as np
from numpy.typing import NDArray

from ..core.batch import GameBatch
from . import _storage as storage
from .rules import BoardConfig

# Phases of a game, per game in `BoardState.phase`.
PHASE_PICK = 0  # every seat with tiles puts out a tile (the first of two under play-two)
PHASE_PICK_SECOND = 1  # play-two: every seat puts out its second tile
PHASE_ASK = 2  # one seat (`asker`) answers a question (`ask`) during the placing
PHASE_OVER = 3  # the game has ended; actions are ignored
PHASE_NAMES = ("pick", "pick_second", "ask", "over")

# Questions of the placing phase (`BoardState.ask`), named as records write them.
ASK_NONE, ASK_LUCK_CARD, ASK_PLUS5, ASK_DOUBLE, ASK_ACTION, ASK_FREE_ROW = 0, 1, 2, 3, 4, 5
ASK_NAMES = ("", "luck_card", "use_plus5", "use_double", "action", "free_row")

# Where the placing of the current tile stands (`BoardState.stage`).
STAGE_PLACE = 0  # find the tile's row and field; maybe ask use_double / use_plus5
STAGE_TAKE = 1  # score the taken row (answer: use_double)
STAGE_LAND = 2  # the tile lands on a field that is not a take field (answer: use_plus5)
STAGE_GAIN = 3  # luck cards gained for clovers passed, one by one (answer: the kind)
STAGE_MOVE = 4  # after a take: the tile moves to field 1 of the next free row
STAGE_MOVED = 5  # the moved tile on field 1 (answer: use_plus5)
STAGE_NEXT = 6  # the tile is done: the next one, or the end of the turn
STAGE_OFFER = 7  # pro: its owner may play action cards on it (answer: action)
STAGE_FREE = 8  # pro: after a take, its owner picks the free row it moves to (answer: free_row)
NO_SEAT = -1
NO_CARD = -1  # BoardState.card: no placing card on the current tile


@dataclass
class BoardState(GameBatch):
    """B board games of one rule configuration.

    Attributes (shape, dtype, sentinel):
        config: the rule options shared by every game of the batch (not an array).
        seed: (B,) uint64, the game's own seed; the deal is a function of it.
        turn: (B,) int16, turns completed.
        phase: (B,) int8, PHASE_PICK, PHASE_PICK_SECOND, PHASE_ASK or PHASE_OVER.
        picks: (B,) int8, tiles each seat puts out this turn: 1, or 2 under play-two.
        hands: (P, H, B) int8, tile ids; the held tiles fill the first slots, 0 after.
        picked: (2, P, B) int8, the tiles each seat put out this turn (first, second); 0 none.
        tiles: (R, F, B) int8, tiles[r, f] is the tile on field f of row r; 0 empty.
        length: (R, B) int8, tiles in row r (they cover fields 0..length-1); 0: not active.
        supply: (N, B) int8, the tiles not dealt, in the order they are drawn; 0-padded.
        drawn: (B,) int8, tiles drawn from the supply so far.
        gone: (N + 1, B) bool, tiles out of the game (taken with a row).
        score: (P, B) int32, points so far (plus and minus).
        luck: (2, P, B) int8, luck cards held by kind (rules.PLUS5, rules.DOUBLE).
        luck_new: (2, P, B) int8, of those, the ones gained this turn (not usable yet).
        stack: (2, B) int8, luck cards left in each open stack.
        pointer: (B,) int8, the most recently opened row (next_row="rotate").
        refilled: (B,) bool, the 2-3 player refill has happened.
        queue: (Q, B) int8, this turn's tiles in placing order (lowest first), 0-padded.
        queue_seat: (Q, B) int8, the seat that put out queue[k].
        at: (B,) int8, index into `queue` of the tile being placed.
        stage: (B,) int8, where its placing stands (STAGE_*).
        row: (B,) int8, the row the current tile goes to (from STAGE_PLACE on).
        field: (B,) int8, its field in that row (0-based).
        gain: (B,) int8, luck cards still to be gained by the current tile's owner.
        after_gain: (B,) int8, the stage that follows the gains (STAGE_MOVE or STAGE_NEXT).
        ask: (B,) int8, the question asked in PHASE_ASK (ASK_*), ASK_NONE otherwise.
        asker: (B,) int8, the seat that must answer, NO_SEAT otherwise.
        answer: (B,) int8, the last answer given (0/1 for yes-no, the kind for luck_card).
        answered: (B,) bool, `answer` holds an answer the current stage has not used yet.

    The pro variants only (zero-sized or all zero otherwise; K = 6 action-card kinds,
    D = cards in the action deck):
        action: (K, P, B) int8, action cards held by kind (rules.ACTION_KINDS).
        deck: (D, B) int8, the action deck's kinds in draw order; deck[deck_at:deck_end]
            are still in it.
        deck_at, deck_end: (B,) int8, the next card to draw, one past the last.
        discard: (K, B) int8, the discard pile by kind (reshuffled into the deck when an
            action card must be drawn and the deck is empty).
        action_drawn: (B,) int16, action cards drawn so far (the two dealt to each seat
            included): a record's `action_draws` in order, and the reshuffles' counter.
        stops: (R, B) bool, rows holding a stop sign (removed at the end of the turn).
        stops_left: (B,) int8, stop signs not on the board.
        card: (B,) int8, the placing card played on the current tile (SKIP, FRONT,
            ASCENDING) or NO_CARD; card_row: (B,) int8, its row (FRONT, ASCENDING).
        answer_arg: (B,) int8, the argument of the last action-card answer (a row or a
            tile), 0 otherwise.
        action_log: (L, B) int8, the kinds of the action cards drawn, in order (a record's
            `action_draws`): action_log[:action_drawn].
        queue_extra: (Q, B) bool, queue entries placed "now" with the tile before them (a One
            more's extra tile, or the tile a lower extra tile went ahead of).
        action_script: (L, B) int8, kinds the draws must follow (a record being replayed:
            draw i takes kind action_script[i] out of the deck), -1 past the script.
    """

    config: BoardConfig
    seed: NDArray[np.uint64]
    turn: NDArray[np.int16]
    phase: NDArray[np.int8]
    picks: NDArray[np.int8]
    hands: NDArray[np.int8]
    picked: NDArray[np.int8]
    tiles: NDArray[np.int8]
    length: NDArray[np.int8]
    supply: NDArray[np.int8]
    drawn: NDArray[np.int8]
    gone: NDArray[np.bool_]
    score: NDArray[np.int32]
    luck: NDArray[np.int8]
    luck_new: NDArray[np.int8]
    stack: NDArray[np.int8]
    pointer: NDArray[np.int8]
    refilled: NDArray[np.bool_]
    queue: NDArray[np.int8]
    queue_seat: NDArray[np.int8]
    at: NDArray[np.int8]
    stage: NDArray[np.int8]
    row: NDArray[np.int8]
    field: NDArray[np.int8]
    gain: NDArray[np.int8]
    after_gain: NDArray[np.int8]
    ask: NDArray[np.int8]
    asker: NDArray[np.int8]
    answer: NDArray[np.int8]
    answered: NDArray[np.bool_]
    action: NDArray[np.int8]
    deck: NDArray[np.int8]
    deck_at: NDArray[np.int8]
    deck_end: NDArray[np.int8]
    discard: NDArray[np.int8]
    action_drawn: NDArray[np.int16]
    stops: NDArray[np.bool_]
    stops_left: NDArray[np.int8]
    card: NDArray[np.int8]
    card_row: NDArray[np.int8]
    answer_arg: NDArray[np.int8]
    action_log: NDArray[np.int8]
    queue_extra: NDArray[np.bool_]
    action_script: NDArray[np.int8]

    def _map(self, fn):
        """GameBatch's other maps, the arrays stored as the kernels read them (`_storage.py`)."""
        return super()._map(lambda a: storage.stored(fn(a)))

    def _map_games(self, fn):
        """A new state with `fn` applied along the game axis of each array's game-major
        storage (axis 0; a one-axis array is its own), the result stored so as well."""
        # (GameBatch._map, with the field names listed once and the axis orders built once:
        # a search takes states a few times a decision)
        out = {}
        for name, a in zip(_ARRAY_FIELDS, _GET_ARRAYS(self)):
            n = a.ndim
            if n < 2:
                out[name] = fn(a)
                continue
            major = a.transpose(_GAMES_FIRST[n])  # (storage.games_first)
            if major.flags.c_contiguous:  # stored game-major (storage.game_major)
                out[name] = fn(major).transpose(_GAMES_LAST[n])  # (storage.game_last)
            else:  # a field set to a game-last array: fn on its game-first view
                out[name] = storage.stored(storage.game_last(fn(major)))
        return type(self)(config=self.config, **out)

    def copy(self):
        """A deep copy (no array is shared), copied straight into the kernels' storage."""
        return self._map_games(np.copy)

    def take(self, games):
        """The games at index, indices or boolean mask `games`, as a new batch (rows of
        the game-major storage)."""
        idx = np.atleast_1d(np.arange(self.batch_size)[games])
        return self._map_games(lambda a: a.take(idx, axis=0))  # (up to twice a[idx]'s speed on these rows)

    def repeat(self, n: int):
        """Each game repeated n times in a row (GameBatch.repeat), in the game-major storage."""
        return self._map_games(lambda a: np.repeat(a, n, axis=0))

    def hand_size(self) -> NDArray[np.int64]:
        """(B,) tiles in each hand (every seat holds as many as the others)."""
        return (self.hands[0] > 0).sum(axis=0)

    def game_over(self) -> NDArray[np.bool_]:
        """(B,) whether each game has ended."""
        return self.phase == PHASE_OVER

    def winners(self) -> NDArray[np.bool_]:
        """(P, B) every seat with the most points (ties: all win); all False while a game runs."""
        return (self.score == self.score.max(axis=0)) & self.game_over()[None, :]

    def row_lists(self, game: int) -> list[list[int]]:
        """The rows of one game as lists of tile ids, field 1 first."""
        return [self.tiles[r, :self.length[r, game], game].tolist() for r in range(self.tiles.shape[0])]

    def hand_lists(self, game: int) -> list[list[int]]:
        """Each seat's hand in one game, sorted."""
        return [sorted(int(t) for t in self.hands[p, :, game] if t) for p in range(self.players)]

    def __repr__(self) -> str:
        phases = np.bincount(self.phase, minlength=len(PHASE_NAMES))
        counts = ", ".join(f"{n}={c}" for n, c in zip(PHASE_NAMES, phases))
        return f"BoardState(B={self.batch_size}, players={self.players}, {counts})"


_ARRAY_FIELDS = tuple(f.name for f in fields(BoardState) if f.name != "config")  # every field but config
_GET_ARRAYS = operator.attrgetter(*_ARRAY_FIELDS)
# axis orders of an array of n axes: game last -> game first, and back
_GAMES_FIRST = {n: (n - 1,) + tuple(range(n - 1)) for n in range(2, 8)}
_GAMES_LAST = {n: tuple(range(1, n)) + (0,) for n in range(2, 8)}
