"""The batched rules engine: B games stepped at once with array operations.

A turn goes: every seat picks a card (PHASE_CARDS); the cards are revealed and sorted
lowest first; each is placed by Rules 1–3. A card lower than every row end (Rule 4) can
only be the lowest card of the turn; under row_choice="player" its game waits in PHASE_ROW
until its owner picks the row to take, then the turn's other cards are placed. With twins
(Die Sechste, two decks) a card behind two equally long rows ending in twins also waits
for its owner, mid-turn: the cards not yet placed stay in `revealed`. After ten turns the
round is scored; the game ends, or the next seat to the left deals a new round.

Loops run only over the few seats and rows, never over games. The private functions
mutate the State they are given; `step` copies first unless told `inplace=True`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..core import rng
from ..core.errors import ConfigError, IllegalActionError
from .packing import BULLS_MASK, BULLS_SHIFT, COUNT_MASK, COUNT_SHIFT, INDEX_MASK, LAST_SHIFT, ROW_LOW_MASK
from .rules import HAND_SIZE, N_ROWS, ROW_CAPACITY, RuleConfig
from .state import NO_SEAT, PHASE_CARDS, PHASE_OVER, PHASE_ROW, State

_ROW_INDEX = np.arange(N_ROWS, dtype=np.int32)[:, None]  # (R, 1)
_ALL_BUT_INDEX = ROW_LOW_MASK & ~INDEX_MASK
assert N_ROWS <= INDEX_MASK + 1 and ROW_CAPACITY <= COUNT_MASK, "rows do not fit their packed bits"
# Turn sort key = ladder value << _SEAT_BITS | seat (or, with twins, the seat's position
# counted from the dealer's left, so twins are placed in that order).
_SEAT_BITS = 4  # up to 16 seats
_SEAT_MASK = (1 << _SEAT_BITS) - 1
_SEAT_COLUMN = np.arange(1 << _SEAT_BITS, dtype=np.int32)[:, None]
# Deal key = 25 random bits over the deck index in the low _DECK_BITS bits: sorting the
# keys shuffles the deck. (Equal random bits, ~1e-4 per deal, keep deck order.)
_DECK_BITS = 7  # decks of up to 128 ids
_DECK_MASK = (1 << _DECK_BITS) - 1
_DEAL_CHUNK = 1024  # games dealt at once; keeps the key arrays in cache (measured)


def sorting_network(n: int) -> list[tuple[int, int]]:
    """Compare-exchange pairs (i, j), i < j, that sort n values (Batcher's odd-even merge).

    Pairs reaching past n are dropped, which is valid: padding with +inf never moves.
    """
    pairs = []
    p = 1
    while p < n:
        k = p
        while k >= 1:
            for j in range(k % p, n - k, 2 * k):
                for i in range(min(k, n - j - k)):
                    if (i + j) // (2 * p) == (i + j + k) // (2 * p):
                        pairs.append((i + j, i + j + k))
            k //= 2
        p *= 2
    return pairs


_NETWORKS = {n: sorting_network(n) for n in range(1, 17)}


@dataclass
class StepEvents:
    """What one step did, for records and renderers (built only when asked for).

    Placements are indexed by k, the placing order within the turn (lowest card first).

    Attributes:
        card: (P, B) int16, id placed k-th in this step; 0 where nothing was placed.
        seat: (P, B) int16, who played it.
        row: (P, B) int16, the row it went to.
        taken: (P, C, B) int16, ids that seat took with that placement (0-padded).
        taken_bulls: (P, B) int16, bullheads of those cards.
        chooser: (B,) int16, the seat asked to pick a row after this step, else NO_SEAT.
        round_over: (B,) bool, a round ended in this step.
        round_penalty: (P, B) int16, the penalties of that round (0 elsewhere).
    """

    card: NDArray[np.int16]
    seat: NDArray[np.int16]
    row: NDArray[np.int16]
    taken: NDArray[np.int16]
    taken_bulls: NDArray[np.int16]
    chooser: NDArray[np.int16]
    round_over: NDArray[np.bool_]
    round_penalty: NDArray[np.int16]

    @classmethod
    def empty(cls, players: int, batch: int) -> "StepEvents":
        """Events of a step in which nothing has happened yet."""
        def z(*shape):
            return np.zeros(shape + (batch,), dtype=np.int16)
        return cls(z(players), z(players), z(players), z(players, ROW_CAPACITY), z(players),
                   np.full(batch, NO_SEAT, np.int16), np.zeros(batch, dtype=bool), z(players))


# --------------------------------------------------------------------------- creation


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
    _deal(st, slice(None))
    return st


def _lay_rows(st: State, cols, row_cards: NDArray[np.int16]) -> None:
    """Lay rows (R, C, b) of ids, 0-padded, in placing order on the table of games `cols`."""
    v = st.config.variant_data
    count = (row_cards > 0).sum(axis=1)
    last = np.take_along_axis(row_cards, np.maximum(count - 1, 0)[:, None, :], axis=1)[:, 0]
    bulls = v.bullheads[row_cards].sum(axis=1, dtype=np.int32)
    st.rows[:, cols] = ((v.order[last].astype(np.int32) << LAST_SHIFT)
                        | (bulls << BULLS_SHIFT) | (count << COUNT_SHIFT) | _ROW_INDEX)
    st.row_cards[:, :, cols] = row_cards.transpose(1, 0, 2)


def _deal(st: State, cols) -> None:
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
    sort_keys = rng.draws(keys, (deck_size + 1) // 2).view(np.uint32)[:, :deck_size]
    sort_keys &= np.uint32(~_DECK_MASK & 0xFFFFFFFF)
    sort_keys |= np.arange(deck_size, dtype=np.uint32)[None, :]
    sort_keys.sort(axis=1)
    return (sort_keys[:, :dealt] & np.uint32(_DECK_MASK)).astype(np.int16).T + 1


def deal_ids(config: RuleConfig, seed: int, round: int) -> list[int]:
    """The cards of round `round` of the game seeded `seed`, as `new_games` deals them:
    P*H hand cards (seat-major, in hand-slot order), then the R row starters.

    For one game at a time (the ParallelEnv's single-game path); batches use `_deal`.
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
    """
    hands = np.asarray(hands, dtype=np.int16)
    rows = np.asarray(rows, dtype=np.int16)
    if hands.ndim != 3 or hands.shape[1] != config.players or hands.shape[2] > HAND_SIZE:
        raise ConfigError(f"hands must have shape (B, {config.players}, n<=10), got {hands.shape}")
    B, P, n = hands.shape
    if rows.ndim == 2:
        rows = np.concatenate([rows[:, :, None],
                               np.zeros((B, N_ROWS, ROW_CAPACITY - 1), np.int16)], axis=2)
    if rows.shape != (B, N_ROWS, ROW_CAPACITY) or (rows[:, :, 0] <= 0).any():
        raise ConfigError("rows must have shape (B, 4) or (B, 4, 5) with a card starting "
                          f"every row, got {rows.shape}")
    seeds = np.zeros(B, np.uint64) if seeds is None else np.asarray(seeds).astype(np.uint64)
    st = empty_state(config, np.broadcast_to(seeds, (B,)))
    st.hands[:, :n, :] = hands.transpose(1, 2, 0)
    _lay_rows(st, slice(None), rows.transpose(1, 2, 0))
    st.starters[:] = rows[:, :, 0].T
    st.turn[:] = HAND_SIZE - n - (pending is not None)
    st.dealer[:] = np.broadcast_to(np.asarray(dealer, dtype=np.int16), (B,))
    st.round[:] = np.broadcast_to(np.asarray(round, dtype=np.int32), (B,))
    if score is not None:
        st.score[:] = np.asarray(score, dtype=np.int32).T
    if penalty is not None:
        st.penalty[:] = np.asarray(penalty, dtype=np.int16).T
    if pending is not None:
        cards, seats = (np.asarray(a, dtype=np.int16).T for a in pending)
        if cards.shape != (P, B) or seats.shape != (P, B):
            raise ConfigError(f"pending must hold (B, {P}) cards and seats")
        best = _target(st.rows, config.variant_data.row_code[cards[0]])
        low = best == 0
        same, _, equal, _ = _twin_tie(st.rows, best)
        if not (low | equal).all():
            raise ConfigError("pending: the first card must be lower than every row, or "
                              "belong behind two equally long rows ending in twins")
        st.revealed[:], st.revealed_seat[:] = cards, seats
        games = np.broadcast_to(np.arange(B)[None, :], (P, B))
        held = cards > 0  # a resumed turn lists only the cards still to be placed
        st.played[st.turn.astype(np.intp)[None, :].repeat(P, 0)[held], seats[held], games[held]] = cards[held]
        _park(st, np.arange(B), np.where(low[None, :], True, same), seats[0])
    return st


# --------------------------------------------------------------------------- stepping


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
    _deal(st, games)


def step(
    state: State,
    actions: ArrayLike,
    *,
    inplace: bool = False,
    report: bool = False,
    validate: bool = True,
    games: ArrayLike | None = None,
) -> tuple[State, StepEvents | None]:
    """Advance every game by one decision.

    Args:
        state: the batch.
        actions: (P, B) ints. In PHASE_CARDS, the card id each seat plays. In PHASE_ROW,
            actions[chooser] is the row (0..3) to take; other seats' entries are ignored,
            as are all entries of games that are over.
        inplace: mutate `state` instead of working on a copy (the fast path).
        report: also return StepEvents describing every placement.
        validate: raise IllegalActionError on an illegal action (else the result is
            undefined).
        games: (B,) bool, only these games advance (default: all); the others' actions
            are ignored.

    Returns:
        (new state, events or None).
    """
    st = state if inplace else state.copy()
    actions = np.asarray(actions)
    if not np.issubdtype(actions.dtype, np.integer):
        raise IllegalActionError(f"actions must be integers (card ids or rows), got dtype {actions.dtype}")
    if actions.shape != (st.players, st.batch_size):
        raise IllegalActionError(f"actions must have shape (players, batch) = "
                                 f"{(st.players, st.batch_size)}, got {actions.shape}")
    ev = StepEvents.empty(st.players, st.batch_size) if report else None
    card_games = st.phase == PHASE_CARDS
    row_games = st.phase == PHASE_ROW
    if games is not None:
        card_games &= games
        row_games &= games
    row_games = np.flatnonzero(row_games)
    if len(row_games):
        _choose_rows(st, row_games, actions[st.chooser[row_games], row_games], validate, ev)
    if card_games.all():
        _play_cards(st, None, actions, validate, ev)
    elif card_games.any():
        _play_cards(st, np.flatnonzero(card_games), actions, validate, ev)
    if ev is not None:
        ev.chooser[:] = st.chooser
    return st, ev


def play_slots(st: State, slots: NDArray) -> None:
    """Fast path: every seat of every game plays the card in hand slot slots[p, b].

    All games must be in PHASE_CARDS with row_choice="cheapest", and
    0 <= slots < cards in hand; nothing is checked. Mutates `st`. The engine benchmark
    times this.
    """
    _resolve(st, None, None, None, _reveal(st, None, slots))


def _play_cards(st: State, cols, cards: NDArray, validate: bool, ev) -> None:
    """Games `cols` (None: all) play card ids `cards` (P, B) (entries outside cols ignored)."""
    n_ids = st.config.variant_data.n_ids
    wanted = (cards * ((cards > 0) & (cards <= n_ids))).astype(np.int16)  # no int16 wrap-around
    # Find each card's hand slot with one pass per slot over whole (P, B) planes: cheaper
    # than a (P, H, B) comparison reduced along its middle axis.
    slots = np.zeros(wanted.shape, dtype=np.intp)
    held = np.zeros(wanted.shape, dtype=bool)
    for h in range(HAND_SIZE):
        match = st.hands[:, h] == wanted
        slots += match * h
        held |= match
    held &= wanted > 0
    if cols is not None:
        slots, held = slots[:, cols], held[:, cols]
    if validate and not held.all():
        p, j = np.argwhere(~held)[0]
        b = j if cols is None else cols[j]
        legal = sorted(int(c) for c in st.hands[p, :, b] if c)
        raise IllegalActionError(
            f"game {b}, seat {p}, round {int(st.round[b])}, turn {int(st.turn[b])}: "
            f"card {int(cards[p, b])} is not in the hand; legal cards: {legal}")
    _resolve(st, cols, None, ev, _reveal(st, cols, slots))


def _reveal(st: State, cols, slots: NDArray) -> NDArray[np.int32]:
    """Take the cards in hand `slots` (P, b) out of the hands and sort them into
    `revealed` / `revealed_seat`, lowest first; returns their row codes in that order."""
    B, P = st.batch_size, st.players
    v = st.config.variant_data
    gi = np.arange(B) if cols is None else cols
    # Swap-remove: the hand's last card moves into the played slot.
    flat = st.hands.reshape(-1)
    # (P, b) flat offsets of each seat's hand in game b (slot 0); computed, not gathered
    seat_base = _seat_base(P, B, HAND_SIZE * B) if cols is None else \
        (np.arange(P) * (HAND_SIZE * B))[:, None] + cols
    turn = st.turn if cols is None else st.turn[cols]
    in_step = cols is None and turn[0] == turn[-1] and (turn == turn[0]).all()
    last = seat_base + (HAND_SIZE - 1 - int(turn[0])) * B if in_step else \
        seat_base + (HAND_SIZE - 1 - turn.astype(np.intp)) * B
    slot_idx = seat_base + slots * B
    cards = flat[slot_idx]
    flat[slot_idx] = flat[last]
    flat[last] = 0
    if in_step:  # all games at the same turn: the common case, one plain write
        st.played[int(turn[0])] = cards
    else:
        st.played.reshape(-1)[(np.arange(P) * B)[:, None] + (gi + turn.astype(np.intp) * (P * B))] = cards
    # Sort the cards' packed row codes (ladder value in the high bits) with the seat in
    # the low bits, by a sorting network: a few element-wise min/max. Sorting the codes
    # rather than the ids hands the placement loop its codes without another lookup.
    if v.has_twins:  # equal values are placed in seat order from the dealer's left
        dealer = st.dealer[gi]
        tiebreak = (np.arange(P)[:, None] - dealer - 1) % P
    else:
        tiebreak = _SEAT_COLUMN[:P]
    keys = v.row_code[cards] << _SEAT_BITS
    keys |= tiebreak
    for i, j in _NETWORKS[P]:
        lo = np.minimum(keys[i], keys[j])
        np.maximum(keys[i], keys[j], out=keys[j])
        keys[i] = lo
    seats = keys & _SEAT_MASK
    if v.has_twins:
        seats += dealer + 1
        seats %= P
    revealed = (keys >> (_SEAT_BITS + LAST_SHIFT)) if v.order_is_id else cards[seats, np.arange(len(gi))]
    if cols is None:
        st.revealed[:] = revealed
        st.revealed_seat[:] = seats
    else:
        st.revealed[:, cols] = revealed
        st.revealed_seat[:, cols] = seats
    return keys >> _SEAT_BITS


_SEAT_BASES: dict[tuple[int, int, int], NDArray[np.intp]] = {}


def _seat_base(P: int, B: int, stride: int) -> NDArray[np.intp]:
    """(P, B) flat offsets p * stride + b, cached (read-only): reused on every turn."""
    key = (P, B, stride)
    if key not in _SEAT_BASES:
        if len(_SEAT_BASES) > 64:
            _SEAT_BASES.clear()
        base = (np.arange(P) * stride)[:, None] + np.arange(B)[None, :]
        base.flags.writeable = False
        _SEAT_BASES[key] = base
    return _SEAT_BASES[key]


def _choose_rows(st: State, cols: NDArray, rows: NDArray, validate: bool, ev) -> None:
    """Games `cols` in PHASE_ROW: the chooser takes row `rows` (b,); the turn goes on."""
    rows = rows.astype(np.intp)
    if validate:
        ok = (rows >= 0) & (rows < N_ROWS)
        ok[ok] = st.row_options[rows[ok], cols[ok]]
        if not ok.all():
            j = int(np.flatnonzero(~ok)[0])
            b = cols[j]
            legal = np.flatnonzero(st.row_options[:, b]).tolist()
            raise IllegalActionError(
                f"game {b}, seat {int(st.chooser[b])}, round {int(st.round[b])}, "
                f"turn {int(st.turn[b])}: row {int(rows[j])} cannot be chosen; legal rows: {legal}")
    st.phase[cols] = PHASE_CARDS
    st.chooser[cols] = NO_SEAT
    st.row_options[:, cols] = False
    _resolve(st, cols, rows, ev)


def _resolve(st: State, cols, chosen: NDArray | None, ev, codes: NDArray | None = None) -> None:
    """Place this turn's revealed cards of games `cols` (None: all), then end the turn.

    `chosen` (b,) gives the rows picked in a PHASE_ROW step by the owner of the first
    card still to be placed: a too-low card takes that row (Rule 4); with twins, a card
    behind two equally long rows ending in twins is placed on the picked one. Otherwise
    a too-low first card takes the cheapest row, or, under row_choice="player", parks its
    game in PHASE_ROW before anything is placed. Only the turn's lowest card (k = 0) can
    be too low: once placed it ends a row below every later card, so Rule 4 is looked at
    for k = 0 alone. `codes` (P, b): the row codes of the revealed cards, when the caller
    has them.
    """
    B = st.batch_size
    v = st.config.variant_data
    if codes is None:
        codes = v.row_code[_columns(st.revealed, cols)]
    rows = _columns(st.rows, cols)  # (R, b), st.rows itself on the fast path
    local = np.arange(rows.shape[1])
    if chosen is not None:  # the owner's choice
        best = rows.reshape(-1)[chosen * rows.shape[1] + local]
        # Without twins every choice is Rule 4's; with twins it may be the twin-row one,
        # whose card is placed like any other (and takes the row only as a sixth card).
        takes = _target(rows, codes[0]) == 0 if v.has_twins else np.ones(len(local), dtype=bool)
    else:
        best = _target(rows, codes[0])
        takes = best == 0  # Rule 4: too low for every row
        if takes.any():
            if st.config.row_choice == "cheapest":
                cheapest = (rows & ROW_LOW_MASK).min(axis=0) & INDEX_MASK
                best = np.where(takes, rows.reshape(-1)[cheapest * rows.shape[1] + local], best)
            else:
                gi = np.arange(B) if cols is None else cols
                _park(st, gi[takes])
                if takes.all():
                    return
                keep = ~takes
                cols, rows, best, codes = gi[keep], _columns(rows, keep), best[keep], codes[:, keep]
                takes = None
        else:
            takes = None
    gi = np.arange(B) if cols is None else cols
    parked = _place(st, cols, gi, rows, codes, best, takes, ev, first_chosen=chosen is not None)
    if cols is not None:
        st.rows[:, cols] = rows
    if parked is not None and parked.any():  # they wait for a twin-row choice
        cols = gi[~parked]
    _end_turn(st, cols, ev)


def _columns(a: NDArray, cols) -> NDArray:
    """Games `cols` of a batch array as a C-contiguous copy (`a` itself for None).

    Contiguity matters: the placement code writes through flat views, and NumPy's
    advanced indexing on the last axis may return a non-contiguous array, whose
    reshape(-1) would silently be a copy.
    """
    return a if cols is None else np.ascontiguousarray(a[..., cols])


def _target(rows: NDArray[np.int32], code: NDArray[np.int32]) -> NDArray[np.int32]:
    """Rules 1–2: the packed row a card (given as its packed code) follows, 0 if too low.

    Packed rows order by their last card first, so the row whose last card is the highest
    one not above the card is simply the max over the eligible rows. "Not above" rather
    than "below" lets a twin follow its counterpart; distinct cards never compare equal.
    """
    return (rows * (rows <= (code | ROW_LOW_MASK))).max(axis=0)


def _park(st: State, games: NDArray, options: NDArray | None = None, chooser: NDArray | None = None) -> None:
    """Stop `games` until an owner picks a row: by default Rule 4 under
    row_choice="player" (the first revealed card's owner, any row); with twins also the
    choice between two equally long rows ending in twins (`options` (R, g), `chooser`)."""
    st.phase[games] = PHASE_ROW
    st.chooser[games] = st.revealed_seat[0, games] if chooser is None else chooser
    st.row_options[:, games] = True if options is None else options


def _twin_tie(rows: NDArray[np.int32], best: NDArray[np.int32]):
    """Die Sechste's two rows ending in twins, for cards whose target row is `best` (b,).

    Returns (same, pair, equal, shorter): same (R, b) marks the rows ending with the
    target's ladder value; pair (b,) says there are two of them; equal (b,) that they are
    equally long (the owner chooses); shorter (b,) the packed row the card goes to when
    nobody chooses: the shorter row, then (row_choice="cheapest" on equal length) fewer
    bullheads, then the lower index.
    """
    same = ((rows >> LAST_SHIFT) == (best >> LAST_SHIFT)[None, :]) & (best > 0)[None, :]
    pair = same.sum(axis=0) == 2
    count = (rows >> COUNT_SHIFT) & COUNT_MASK
    key = np.where(same, (count << LAST_SHIFT) | (rows & ROW_LOW_MASK), np.iinfo(np.int32).max)
    pick = key.argmin(axis=0)
    shorter = rows[pick, np.arange(rows.shape[1])]
    equal = pair & (np.where(same, count, 0).max(axis=0) == np.where(same, count, 99).min(axis=0))
    return same, pair, equal, shorter


def _place(st: State, cols, gi: NDArray, rows: NDArray[np.int32], codes: NDArray[np.int32],
           first_best, first_takes, ev, first_chosen: bool = False) -> NDArray[np.bool_] | None:
    """Place revealed cards k = 0..P-1 of games gi on `rows` (R, b), updated in place.

    codes: (P, b) the packed row each revealed card would start (Variant.row_code).
    first_best: (b,) the packed row card 0 goes to (from _target, or a chosen row).
    first_takes: (b,) bool, card 0 takes that row whatever its length (Rule 4); or None.
    first_chosen: card 0's row was picked by its owner (no twin-row question for it).

    With twins, a card may stop its game for a twin-row choice: its game is parked in
    PHASE_ROW with the cards not yet placed moved to the front of `revealed`; returns
    (b,) bool marking the parked games (None without twins).
    """
    B, P = st.batch_size, st.players
    b = len(gi)
    local = np.arange(b)
    rows_flat = rows.reshape(-1)
    assert np.may_share_memory(rows_flat, rows), "rows must be C-contiguous"
    cards = st.revealed if cols is None else st.revealed[:, cols]
    seats = st.revealed_seat if cols is None else st.revealed_seat[:, cols]
    # Cards are written straight into the state's (C, R, B) row cards, also for a subset
    # of games: gathering the subset's row cards and scattering them back cost more
    # than the placements themselves.
    cards_flat = st.row_cards.reshape(-1)
    assert np.may_share_memory(cards_flat, st.row_cards), "row_cards must be C-contiguous"
    pens = np.empty((P, b), dtype=np.int32)
    twins = st.config.variant_data.has_twins
    if twins:
        active = np.ones(b, dtype=bool)  # not parked for a twin-row choice
        park_at = np.full(b, -1, dtype=np.intp)
        player_rows = st.config.row_choice == "player"
    for k in range(P):
        code = codes[k]
        best = first_best if k == 0 else _target(rows, code)
        if twins:
            # A resumed turn has fewer cards than seats: the tail of `revealed` is 0.
            live = active & (cards[k] > 0)
            if not (k == 0 and first_chosen):
                same, pair, equal, shorter = _twin_tie(rows, best)
                if k == 0 and first_takes is not None:  # a too-low card takes its row
                    pair &= ~first_takes
                    equal &= ~first_takes
                if player_rows:
                    stop = live & equal
                    if stop.any():
                        park_at[stop] = k
                        _park(st, gi[stop], same[:, stop], seats[k, stop])
                        active &= ~stop
                        live &= ~stop
                best = np.where(pair, shorter, best)
        row = best & INDEX_MASK
        count = (best >> COUNT_SHIFT) & COUNT_MASK
        take = count == ROW_CAPACITY  # Rule 3: the sixth card takes the row
        if k == 0 and first_takes is not None:
            take |= first_takes
        if twins:
            take &= live
        pen = ((best >> BULLS_SHIFT) & BULLS_MASK) * take
        idx = row * b + local
        at = idx if cols is None else row * B + gi  # the row's column in (R, B)
        if ev is not None:
            before = cards_flat[(np.arange(ROW_CAPACITY) * (N_ROWS * B))[:, None] + at]  # (C, b)
            card = cards[k] * live if twins else cards[k]
            _record(ev, k, gi, card, seats[k], row, before, count, take, pen)
        # The card's code holds count 1 and its bullheads: plus the row's low bits it
        # extends the row; a taken row restarts with the card alone.
        low_bits = best & ROW_LOW_MASK
        new_row = code + low_bits - take * (low_bits & _ALL_BUT_INDEX)
        slot = count * ~take  # arithmetic: np.where with a scalar is slower here
        if twins:
            slot *= live  # a full row that a parked card does not take: stay in bounds
        pos = slot * (N_ROWS * B) + at  # (C, R, B): slot-major
        if twins:  # games parked or out of cards leave their rows alone
            new_row = np.where(live, new_row, rows_flat[idx])
            cards_flat[pos] = np.where(live, cards[k], cards_flat[pos])
        else:
            cards_flat[pos] = cards[k]
        rows_flat[idx] = new_row
        pens[k] = pen
    flat_seat = seats.astype(np.intp) * B + gi
    if not twins:
        st.penalty.reshape(-1)[flat_seat] += pens.astype(np.int16)
        return None
    # A resumed turn's 0-padded tail repeats seat 0: accumulate, not assign.
    np.add.at(st.penalty.reshape(-1), flat_seat, pens.astype(np.int16))
    parked = park_at >= 0
    if parked.any():  # the cards still to be placed move to the front of `revealed`
        g, k0 = gi[parked], park_at[parked]
        src = k0[None, :] + np.arange(P)[:, None]  # (P, g)
        inside = src < P
        src = np.minimum(src, P - 1)
        st.revealed[:, g] = st.revealed[src, g[None, :]] * inside
        st.revealed_seat[:, g] = st.revealed_seat[src, g[None, :]] * inside
    return parked


def _record(ev: StepEvents, k, gi, card, seat, row, row_cards, count, take, pen) -> None:
    """Fill the events of placement k (row_cards: (C, b), the row before the card)."""
    held = np.arange(ROW_CAPACITY)[:, None] < count[None, :]
    ev.card[k, gi], ev.seat[k, gi], ev.row[k, gi] = card, seat, row
    ev.taken[k][:, gi] = row_cards * held * take
    ev.taken_bulls[k, gi] = pen


def _end_turn(st: State, cols, ev) -> None:
    """Games `cols` (None: all) finished a turn; a tenth turn ends the round."""
    if cols is None:
        st.turn += 1
        st.revealed[:] = 0
        ended = st.turn == HAND_SIZE
        if not ended.any():
            return
        ended = slice(None) if ended.all() else np.flatnonzero(ended)
    else:
        st.turn[cols] += 1
        st.revealed[:, cols] = 0
        ended = cols[st.turn[cols] == HAND_SIZE]
    if isinstance(ended, slice) or len(ended):
        _end_round(st, ended, ev)


def _end_round(st: State, cols, ev) -> None:
    """Score the round of games `cols` (indices or a slice); end each game or deal anew."""
    cfg = st.config
    penalty = st.penalty[:, cols]
    if ev is not None:
        ev.round_over[cols] = True
        ev.round_penalty[:, cols] = penalty
    st.score[:, cols] += penalty
    st.penalty[:, cols] = 0
    over = np.zeros(st.score[0, cols].shape, dtype=bool)
    if cfg.end_score is not None:
        over |= st.score[:, cols].max(axis=0) >= cfg.end_score
    if cfg.max_rounds is not None:
        over |= st.round[cols] + 1 >= cfg.max_rounds
    if not over.any():
        going_on = cols
    else:
        cols = np.arange(st.batch_size)[cols]
        st.phase[cols[over]] = PHASE_OVER
        going_on = cols[~over]
        if len(going_on) == 0:
            return
    st.round[going_on] += 1
    st.dealer[going_on] = (st.dealer[going_on] + 1) % cfg.players
    _deal(st, going_on)
