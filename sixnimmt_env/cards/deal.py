"""Making games for the batched engine: seeded deals, restarts, and positions from given cards.

Every deal is a function of (game seed, round) (core.rng), so a game is the same alone or
in a batch. `from_deal` builds games from given cards instead: replays, and search agents
dealing the cards they cannot see. Re-exported by engine.py, the engine's API.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..core import rng
from ..core.errors import ConfigError
from .packing import BULLS_SHIFT, COUNT_SHIFT, LAST_SHIFT
from .rows import park, target
from .rules import HAND_SIZE, N_ROWS, ROW_CAPACITY, RuleConfig
from .state import NO_SEAT, PHASE_CARDS, State
from .twins import twin_tie

_ROW_INDEX = np.arange(N_ROWS, dtype=np.int32)[:, None]  # (R, 1)
_DEAL_CHUNK = 1024  # games dealt at once; keeps the key arrays in cache (measured)


def empty_state(config: RuleConfig, seeds: NDArray[np.uint64]) -> State:
    """A batch with every array allocated and zeroed."""
    B, P = len(seeds), config.players

    def i16(*shape):
        return np.zeros(shape + (B,), dtype=np.int16)

    return State(
        config=config,
        seed=np.array(seeds, dtype=np.uint64),
        round=np.zeros(B, dtype=np.int32),
        turn=i16(),
        phase=np.zeros(B, dtype=np.int8),
        dealer=i16(),
        hands=i16(P, HAND_SIZE),
        rows=np.zeros((N_ROWS, B), dtype=np.int32),
        row_cards=i16(ROW_CAPACITY, N_ROWS),
        starters=i16(N_ROWS),
        played=i16(HAND_SIZE, P),
        penalty=i16(P),
        score=np.zeros((P, B), dtype=np.int32),
        revealed=i16(P),
        revealed_seat=i16(P),
        chooser=np.full(B, NO_SEAT, dtype=np.int16),
        row_options=np.zeros((N_ROWS, B), dtype=bool),
    )


def new_games(config: RuleConfig, seeds: ArrayLike) -> State:
    """Start one game per seed: the first dealer is drawn from the seed, round 0 is dealt.

    Args:
        config: the rule options.
        seeds: (B,) integer seeds; game b depends only on seeds[b] (see rng.game_seeds).
    """
    seeds = np.atleast_1d(np.asarray(seeds)).astype(np.uint64)
    st = empty_state(config, seeds)
    draw = rng.round_keys(st.seed, rng.TAG_DEALER, st.round)
    st.dealer[:] = (draw % np.uint64(config.players)).astype(np.int16)
    deal_round(st, slice(None))
    return st


def restart(st: State, games: ArrayLike, seeds: ArrayLike) -> None:
    """Start new games in place of games `games` (indices) with new `seeds` (auto-reset).

    Mutates `st`; the other games are untouched.
    """
    games = np.atleast_1d(np.asarray(games, dtype=np.intp))
    if len(games) == 0:
        return
    st.seed[games] = np.asarray(seeds).astype(np.uint64)
    st.round[games] = 0
    st.score[:, games] = 0
    st.chooser[games] = NO_SEAT
    st.row_options[:, games] = False
    st.revealed[:, games] = 0
    st.revealed_seat[:, games] = 0
    draw = rng.round_keys(st.seed[games], rng.TAG_DEALER, st.round[games])
    st.dealer[games] = (draw % np.uint64(st.players)).astype(np.int16)
    deal_round(st, games)


def deal_round(st: State, cols) -> None:
    """Shuffle and deal the current round of games `cols` (a slice or indices) from their seeds."""
    games = np.arange(st.batch_size)[cols]
    keys = rng.round_keys(st.seed[games], rng.TAG_DEAL, st.round[games])
    # In chunks: the per-card random keys of a whole batch are megabytes, and megabyte
    # temporaries fall out of cache (and may cost page faults) for no gain.
    for start in range(0, len(games), _DEAL_CHUNK):
        part = slice(start, start + _DEAL_CHUNK)
        _deal_chunk(st, games[part], keys[part])
    st.played[:, :, cols] = 0
    st.turn[cols] = 0
    st.penalty[:, cols] = 0
    st.phase[cols] = PHASE_CARDS


def _shuffled_ids(config: RuleConfig, keys: NDArray[np.uint64]) -> NDArray[np.int16]:
    """(P*H + R, b) the cards dealt from round keys `keys` (b,): seat p's hand in rows
    p*H .. p*H+H-1, then the R row starters."""
    deck_size = len(config.variant_data.deck(config.players, config.deck))  # ids 1..deck_size
    dealt = HAND_SIZE * config.players + N_ROWS
    return rng.permutations(keys, deck_size)[:, :dealt].astype(np.int16).T + 1


def deal_ids(config: RuleConfig, seed: int, round: int) -> list[int]:
    """The cards of round `round` of the game seeded `seed`, as `new_games` deals them:
    P*H hand cards (seat-major, in hand-slot order), then the R row starters.

    For one game at a time (the ParallelEnv's single-game path); batches use `deal_round`.
    """
    keys = np.array([rng.round_key_int(seed, rng.TAG_DEAL, round)], dtype=np.uint64)
    return _shuffled_ids(config, keys)[:, 0].tolist()


def first_dealer(config: RuleConfig, seed: int) -> int:
    """The seat that deals the first round of the game seeded `seed` (as `new_games` draws it)."""
    return rng.round_key_int(seed, rng.TAG_DEALER, 0) % config.players


def _deal_chunk(st: State, games: NDArray, keys: NDArray[np.uint64]) -> None:
    """Deal hands, starters and rows to `games`, whose round keys are `keys`."""
    cfg, v = st.config, st.config.variant_data
    P, in_hands = cfg.players, HAND_SIZE * cfg.players
    if games[-1] - games[0] == len(games) - 1:
        games = slice(games[0], games[-1] + 1)  # contiguous: plain slicing is cheaper
    ids = _shuffled_ids(cfg, keys)
    st.hands.reshape(P * HAND_SIZE, -1)[:, games] = ids[:in_hands]
    starters = ids[in_hands:]
    st.starters[:, games] = starters
    st.rows[:, games] = v.row_code[starters] + _ROW_INDEX
    st.row_cards[0][:, games] = starters


# --------------------------------------------------------------------------- given cards


def from_deal(
    config: RuleConfig,
    hands: ArrayLike,
    rows: ArrayLike,
    *,
    dealer: ArrayLike = 0,
    score: ArrayLike | None = None,
    penalty: ArrayLike | None = None,
    round: ArrayLike = 0,
    seeds: ArrayLike | None = None,
    pending: tuple[ArrayLike, ArrayLike] | None = None,
    seen: ArrayLike | None = None,
    played: ArrayLike | None = None,
    starters: ArrayLike | None = None,
) -> State:
    """A batch built from given cards: replays, or search agents dealing unseen cards.

    Positions may be mid-round: every seat holds the same number n <= 10 of cards and the
    game is at turn 10 - n, in PHASE_CARDS (the cards played earlier are not known here,
    so `State.played` holds only what is played from now on).

    Args:
        hands: (B, P, n) card ids, game-major, any order within a hand.
        rows: (B, R) starting cards, or (B, R, C) row contents, 0-padded, in placing order.
        dealer: (B,) or scalar, seat of this round's dealer.
        score: (B, P) totals of completed rounds (default 0).
        penalty: (B, P) bullheads taken so far this round (default 0).
        round: (B,) or scalar, index of this round (later rounds are dealt from the seed).
        seeds: (B,) seeds for the rounds dealt after this one (default 0).
        pending: optional ((B, P) card ids, (B, P) seats): a turn's cards revealed but not
            yet placed, lowest card first (0-padded at the end), whose first card asks
            its owner for a row: it is too low for every row, or (with twins) belongs
            behind two equally long rows ending in twins. The games start in PHASE_ROW
            with that card's owner to choose (the hands no longer hold these cards:
            n = cards left after this turn).
        seen: optional (B, N+1) bool, the cards face up this round as a seat saw them
            (`SeatView.seen`): those neither on the table nor starting a row (played
            earlier, now in someone's pile) are laid into the played slots of the earlier
            turns, in no particular seat order, so that views of the new games count them
            as seen (a search's simulated seats then know what the real seat knows).
        played: optional (B, P, T) card ids, instead of `seen`: who played what in each of
            the T turns before this one (T = 10 - n, or 10 - n - 1 with `pending`), e.g.
            `SeatView.played`. The new games' views then show the same history (the
            `card-history` observation); with `starters` as well, the same seen cards.
        starters: optional (B, R) the round's starting cards (public), where rows taken
            since no longer begin with them (default: each row's first card).
    """
    hands, rows = _check_deal_arrays(config, hands, rows)
    B, _, n = hands.shape
    seeds = np.zeros(B, np.uint64) if seeds is None else np.asarray(seeds).astype(np.uint64)
    st = empty_state(config, np.broadcast_to(seeds, (B,)))
    st.hands[:, :n, :] = hands.transpose(1, 2, 0)
    _lay_rows(st, rows.transpose(1, 2, 0))
    st.starters[:] = rows[:, :, 0].T if starters is None else _checked_ids(st, starters, (B, N_ROWS), "starters").T
    st.turn[:] = HAND_SIZE - n - (pending is not None)
    _set_round(st, dealer, round, score, penalty)
    _lay_history(st, seen, played, pending)
    return st


def _set_round(st: State, dealer: ArrayLike, round: ArrayLike, score: ArrayLike | None,
               penalty: ArrayLike | None) -> None:
    """`from_deal`'s dealer, round, totals and this round's penalties (None: 0)."""
    B = st.batch_size
    st.dealer[:] = np.broadcast_to(np.asarray(dealer, dtype=np.int16), (B,))
    st.round[:] = np.broadcast_to(np.asarray(round, dtype=np.int32), (B,))
    if score is not None:
        st.score[:] = np.asarray(score, dtype=np.int32).T
    if penalty is not None:
        st.penalty[:] = np.asarray(penalty, dtype=np.int16).T


def _lay_history(st: State, seen: ArrayLike | None, played: ArrayLike | None,
                 pending: tuple[ArrayLike, ArrayLike] | None) -> None:
    """`from_deal`'s history of the round: the cards seen or who played what, and a turn's
    cards waiting to be placed."""
    if seen is not None and played is not None:
        raise ConfigError("give seen or played, not both (played says which cards were seen)")
    if seen is not None:
        _lay_seen(st, np.asarray(seen, dtype=bool))
    if played is not None:
        _lay_played(st, _checked_ids(st, played, (st.batch_size, st.players, int(st.turn[0])), "played"))
    if pending is not None:
        _resume_pending(st, *pending)


def _lay_seen(st: State, seen: NDArray[np.bool_]) -> None:
    """from_deal's `seen`: the seen cards gone from the table into the played slots of the
    turns before this one (there are exactly as many slots as cards played so far)."""
    B, P = st.batch_size, st.players
    T = int(st.turn[0])
    if seen.shape != (B, st.config.variant_data.n_ids + 1):
        raise ConfigError(f"seen must have shape (B, ids + 1), got {seen.shape}")
    gone = seen.copy()
    gone[:, 0] = False
    games = np.arange(B)[None, :]
    gone[games, st.row_cards.reshape(-1, B)] = False
    gone[games, st.starters] = False
    if T == 0:
        return
    if (gone.sum(axis=1) > T * P).any():
        raise ConfigError(f"seen lists more cards than the {T * P} played before turn {T}")
    ids = np.argsort(~gone, axis=1, kind="stable")[:, :T * P]
    ids = np.where(np.take_along_axis(gone, ids, axis=1), ids, 0).astype(np.int16)
    st.played[:T] = ids.reshape(B, T, P).transpose(1, 2, 0)


def _checked_ids(st: State, ids: ArrayLike, shape: tuple[int, ...], name: str) -> NDArray[np.int16]:
    """`ids` as int16 card ids of `shape` (0: none); a one-line ConfigError otherwise."""
    ids = np.asarray(ids)
    if ids.shape != shape:
        raise ConfigError(f"{name} must have shape {shape}, got {ids.shape}")
    if ids.min(initial=0) < 0 or ids.max(initial=0) > st.config.variant_data.n_ids:
        raise ConfigError(f"{name} holds a card id out of range")
    return ids.astype(np.int16)


def _lay_played(st: State, played: NDArray[np.int16]) -> None:
    """from_deal's `played` (B, P, T): the earlier turns' cards into their seats' played slots."""
    st.played[:played.shape[2]] = played.transpose(2, 1, 0)


def _check_deal_arrays(config: RuleConfig, hands: ArrayLike,
                       rows: ArrayLike) -> tuple[NDArray[np.int16], NDArray[np.int16]]:
    """from_deal's hands as (B, P, n) and rows as (B, R, C) int16, 0-padded; ConfigError
    if a shape is wrong or a row has no first card."""
    hands = np.asarray(hands, dtype=np.int16)
    rows = np.asarray(rows, dtype=np.int16)
    if hands.ndim != 3 or hands.shape[1] != config.players or hands.shape[2] > HAND_SIZE:
        raise ConfigError(f"hands must have shape (B, {config.players}, n<=10), got {hands.shape}")
    B = hands.shape[0]
    if rows.ndim == 2:  # starters only: the rest of each row is empty
        rows = np.concatenate([rows[:, :, None],
                               np.zeros((B, N_ROWS, ROW_CAPACITY - 1), np.int16)], axis=2)
    if rows.shape != (B, N_ROWS, ROW_CAPACITY) or (rows[:, :, 0] <= 0).any():
        raise ConfigError("rows must have shape (B, 4) or (B, 4, 5) with a card starting "
                          f"every row, got {rows.shape}")
    return hands, rows


def _lay_rows(st: State, row_cards: NDArray[np.int16]) -> None:
    """Lay rows (R, C, B) of ids, 0-padded, in placing order on the table of every game."""
    v = st.config.variant_data
    count = (row_cards > 0).sum(axis=1)
    last = np.take_along_axis(row_cards, np.maximum(count - 1, 0)[:, None, :], axis=1)[:, 0]
    bulls = v.bullheads[row_cards].sum(axis=1, dtype=np.int32)
    st.rows[:] = ((v.order[last].astype(np.int32) << LAST_SHIFT)
                  | (bulls << BULLS_SHIFT) | (count << COUNT_SHIFT) | _ROW_INDEX)
    st.row_cards[:] = row_cards.transpose(1, 0, 2)


def _resume_pending(st: State, cards: ArrayLike, seats: ArrayLike) -> None:
    """Put every game in PHASE_ROW with the revealed, not yet placed `cards` (B, P) of
    `seats` (B, P) (see from_deal's `pending`); the first card's owner chooses."""
    B, P = st.batch_size, st.players
    cards, seats = (np.asarray(a, dtype=np.int16).T for a in (cards, seats))
    if cards.shape != (P, B) or seats.shape != (P, B):
        raise ConfigError(f"pending must hold (B, {P}) cards and seats")
    best = target(st.rows, st.config.variant_data.row_code[cards[0]])
    low = best == 0
    same, _, equal, _ = twin_tie(st.rows, best)
    if not (low | equal).all():
        raise ConfigError("pending: the first card must be lower than every row, or "
                          "belong behind two equally long rows ending in twins")
    st.revealed[:], st.revealed_seat[:] = cards, seats
    games = np.broadcast_to(np.arange(B)[None, :], (P, B))
    held = cards > 0  # a resumed turn lists only the cards still to be placed
    turn = st.turn.astype(np.intp)[None, :].repeat(P, 0)
    st.played[turn[held], seats[held], games[held]] = cards[held]
    park(st, np.arange(B), np.where(low[None, :], True, same), seats[0])
