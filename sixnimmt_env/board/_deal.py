"""Starting board games: the shuffle, the deal, positions from data."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..core import rng
from ..core.errors import ConfigError
from . import _storage as storage
from ._kernel.threads import run_blocks
from ._turns import start_turn
from .rules import (
    ACTION_KINDS,
    DOUBLE,
    HAND_SIZE,
    N_TILES,
    ONE_MORE,
    PLUS5,
    START_ACTION_CARDS,
    START_ROWS,
    STOP_SIGNS,
    BoardConfig,
)
from .state import NO_CARD, NO_SEAT, BoardState

TAG_BOARD_DEAL = np.uint64(0xA4093822299F31D0)  # the shuffle of the 100 tiles
TAG_ACTION_DECK = np.uint64(0x5BE0CD19137E2179)  # the action deck's shuffles (counter: reshuffles)


def empty_state(config: BoardConfig, seeds: NDArray[np.uint64]) -> BoardState:
    """A batch with every array allocated and zeroed (no tile anywhere)."""
    B, P = len(seeds), config.players
    R, F = config.board.kind.shape
    K, D = len(ACTION_KINDS), sum(config.action_cards) if config.pro else 0
    extra = config.action_cards[ONE_MORE] if config.pro else 0  # One more adds a tile to the queue
    L = START_ACTION_CARDS * P + N_TILES if config.pro else 0  # the deal, then one card per tile at most

    def i8(*shape):  # (the arrays of two or more axes stored game-major for the kernels: _kernel/storage.py)
        return storage.full(shape + (B,), 0, np.int8)

    return BoardState(
        config=config, seed=np.array(seeds, dtype=np.uint64), turn=np.zeros(B, np.int16),
        phase=i8(), picks=np.ones(B, np.int8), hands=i8(P, config.hand_slots), picked=i8(2, P),
        tiles=i8(R, F), length=i8(R), supply=i8(N_TILES), drawn=i8(),
        gone=storage.full((N_TILES + 1, B), False, bool), score=storage.full((P, B), 0, np.int32),
        luck=i8(2, P), luck_new=i8(2, P), stack=i8(2), pointer=i8(), refilled=np.zeros(B, bool),
        queue=i8(2 * P + extra), queue_seat=i8(2 * P + extra), at=i8(), stage=i8(), row=i8(), field=i8(),
        gain=i8(), after_gain=i8(), ask=i8(), asker=np.full(B, NO_SEAT, np.int8), answer=i8(),
        answered=np.zeros(B, dtype=bool),
        action=i8(K, P), deck=i8(D), deck_at=i8(), deck_end=np.full(B, D, np.int8), discard=i8(K),
        action_drawn=np.zeros(B, np.int16), stops=storage.full((R, B), False, bool),
        stops_left=np.full(B, STOP_SIGNS if config.pro else 0, np.int8), card=np.full(B, NO_CARD, np.int8),
        card_row=i8(), answer_arg=i8(), action_log=i8(L), queue_extra=storage.full((2 * P + extra, B), False, bool),
        action_script=storage.full((L, B), NO_CARD, np.int8),
    )


def action_deck(config: BoardConfig, seeds: NDArray[np.uint64], shuffle: int = 0) -> NDArray[np.int8]:
    """(D, B) the action deck's kinds in draw order: shuffle number `shuffle` (0: the
    deal) of each game's full deck, a function of its seed alone."""
    return action_decks(config, seeds, shuffle).T


def action_decks(config: BoardConfig, seeds: NDArray[np.uint64], shuffle: int = 0) -> NDArray[np.int8]:
    """`action_deck` game first: (B, D), a game's deck one run of bytes (`_storage.py`)."""
    kinds = np.repeat(np.arange(len(ACTION_KINDS)), config.action_cards).astype(np.int8)
    keys = rng.round_keys(np.asarray(seeds, dtype=np.uint64), TAG_ACTION_DECK, np.full(len(seeds), shuffle))
    return kinds[rng.permutations(keys, len(kinds))]


def deal_action_cards(st: BoardState, deck: NDArray[np.int8]) -> None:
    """Lay the deck `deck` (D, B) and deal START_ACTION_CARDS to each seat, seat 0's first,
    as a record's `action_draws` lists them."""
    P, B = st.players, st.batch_size
    st.deck[:] = deck
    dealt = START_ACTION_CARDS * P
    games = np.arange(B)
    for i in range(dealt):  # one card a game each time: no index repeats, a plain += adds them all
        st.action[deck[i].astype(np.intp), i // START_ACTION_CARDS, games] += 1
    st.deck_at[:] = dealt
    st.action_drawn[:] = dealt
    st.action_log[:dealt] = deck[:dealt]


def shuffled_tiles(seeds: NDArray[np.uint64]) -> NDArray[np.int8]:
    """(N, B) the tiles 1..100 of each game in dealing order, a function of its seed alone."""
    return dealing_orders(seeds).T


def dealing_orders(seeds: NDArray[np.uint64]) -> NDArray[np.int8]:
    """`shuffled_tiles` game first: (B, N), as the deal copies it into the state's
    game-major storage (`_storage.py`)."""
    keys = rng.round_keys(np.asarray(seeds, dtype=np.uint64), TAG_BOARD_DEAL, np.zeros(len(seeds)))
    return (rng.permutations(keys, N_TILES) + 1).astype(np.int8)


def new_games(config: BoardConfig, seeds: ArrayLike) -> BoardState:
    """Start one game per seed: the tiles are shuffled from the seed and dealt.

    The deal: seat p draws tiles P*12 .. of the shuffle in turn (seat 0 first), then the
    four start tiles of rows 1-4, then the supply in order.
    """
    seeds = np.atleast_1d(np.asarray(seeds)).astype(np.uint64)
    deck = on_all_cores(dealing_orders, seeds)  # (B, N)
    P = config.players
    dealt = P * HAND_SIZE
    hands = deck[:, :dealt].reshape(-1, P, HAND_SIZE)
    return from_deal(config, hands, deck[:, dealt:dealt + START_ROWS], deck[:, dealt + START_ROWS:], seeds=seeds,
                     actions=on_all_cores(lambda part: action_decks(config, part), seeds) if config.pro else None)


def on_all_cores(shuffle, seeds: NDArray[np.uint64]) -> NDArray:
    """shuffle(seeds) for a batch, its games split over the cores (`_kernel/threads.py`; the game
    index first, as `dealing_orders` and `action_decks` give it): a game's shuffle is a
    function of its seed alone, so the blocks give the same arrays, and NumPy's sorts and
    ufuncs let go of the GIL, so they run at once (the figures: docs/speed.md)."""
    first = shuffle(seeds[:1])
    out = np.empty((len(seeds),) + first.shape[1:], dtype=first.dtype)

    def block(lo: int, hi: int) -> None:
        out[lo:hi] = shuffle(seeds[lo:hi])

    run_blocks(block, len(seeds), None)
    return out


def from_deal(config: BoardConfig, hands: ArrayLike, start: ArrayLike, supply: ArrayLike, *,
              seeds: ArrayLike | None = None, actions: ArrayLike | None = None) -> BoardState:
    """A batch at the start of the game from given tiles (replays; tests).

    Args:
        hands: (B, P, 12) each seat's tiles.
        start: (B, 4) the start tiles of rows 1-4.
        supply: (B, n) the tiles left, in the order they are drawn (0-padded).
        seeds: (B,) the games' seeds (kept for the record; default 0).
        actions: pro: (B, D) the action deck's kinds in draw order, the dealt cards first
            (default: shuffled from the seeds).
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
    st.hands[:, :HAND_SIZE] = hands.transpose(1, 2, 0)
    st.tiles[:START_ROWS, 0] = start.T
    st.length[:START_ROWS] = 1
    st.supply[:supply.shape[1]] = supply.T
    st.stack[PLUS5], st.stack[DOUBLE] = config.plus5_cards, config.double_cards
    st.pointer[:] = START_ROWS - 1  # row 4 is the most recently opened
    if config.pro:
        deck = action_deck(config, seeds) if actions is None else np.asarray(actions, dtype=np.int8).T
        if deck.shape != st.deck.shape or deck.min(initial=0) < 0 or deck.max(initial=0) >= len(ACTION_KINDS):
            raise ConfigError(f"actions must be ({B}, {st.deck.shape[0]}) action-card kinds 0..{len(ACTION_KINDS) - 1}")
        deal_action_cards(st, deck)
    start_turn(st, np.arange(B))
    return st


def from_position(config: BoardConfig, rows: list[list[int]], hands: list[list[int]], *,
                  scores=None, luck=None, stacks=None, pointer: int = START_ROWS - 1,
                  supply=(), refilled: bool | None = None, turn: int = 0, actions=None, deck=(),
                  discards=None, stops=()) -> BoardState:
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
        actions: pro: per seat the action cards it holds (kind indices).
        deck: pro: the action deck's kinds in draw order.
        discards: pro: (K,) the discard pile by kind.
        stops: pro: rows under a stop sign placed earlier in this turn.
    Rows may hold 0 for a field a Skip left empty (pro); every seat holds as many tiles on
    the basic side, any number on the pro side.
    """
    P = config.players
    same = len({len(h) for h in hands}) == 1 or config.pro
    if len(hands) != P or not same or max(len(h) for h in hands) > config.hand_slots:
        raise ConfigError(f"hands: give {P} hands of one size, at most {HAND_SIZE} tiles")
    st = empty_state(config, np.zeros(1, np.uint64))
    for r, row in enumerate(rows):
        st.tiles[r, :len(row), 0] = [t or 0 for t in row]
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
    if config.pro:
        for p, held in enumerate(actions or []):
            for kind in held:
                st.action[kind, p, 0] += 1
        st.deck[:, 0] = 0
        st.deck[:len(deck), 0] = list(deck)
        st.deck_at[0], st.deck_end[0] = 0, len(deck)
        st.discard[:, 0] = 0 if discards is None else discards
        for r in stops:
            st.stops[r, 0] = True
        st.stops_left[0] = STOP_SIGNS - len(stops)
    start_turn(st, np.arange(1))
    return st
