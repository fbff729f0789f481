"""One game in plain Python, with its observations kept up to date: the ParallelEnv's fast path.

Stepping one game through the batched engine pays about a microsecond of NumPy call
overhead on each of ~150 array operations per step, whatever the batch size. `SingleGame`
plays one game with Python ints and lists instead, and updates the flat observations and
action masks of every seat as cards move (a placed card is a handful of element writes),
so handing out a step's observations is three NumPy copies.

It is a second implementation of the rules (`engine.py`) and of the encoder
(`encoding.py` and `SeatView.action_mask`), so it takes only the games it has been
shown equal on: `SingleGame.supports(config)` — the variants listed in `_VARIANTS` (by
name: a new variant, even one without twins, plays its own rules on the engine until this
file is shown equal on it), the row-choice modes in `_ROW_CHOICES`, no rule option beyond
`_RULE_OPTIONS`, and the basic observation.
`tests/cards/test_single_game.py` plays random games through both and compares the state,
observations, masks, rewards and infos after every step. Any other game goes through the
batched engine.

The state mirrors `engine.State` for one game, down to the hand-slot order (swap-remove)
and the stale row slots past a row's count, so `to_state()` is exactly the engine's State
(renderers, records and error messages read that).
"""

from __future__ import annotations

import dataclasses
from array import array

import numpy as np

from ..core.layout import ObsLayout
from .actions import action_size, pass_action
from .encoding import ROW_BULLS_SCALE, SCORE_SCALE
from .engine import deal_ids, empty_state, first_dealer
from .packing import BULLS_MASK, BULLS_SHIFT, COUNT_MASK, COUNT_SHIFT, LAST_SHIFT
from .rules import HAND_SIZE, N_ROWS, ROW_CAPACITY, RuleConfig
from .single_observations import SingleGameObservations
from .state import NO_SEAT, PHASE_CARDS, PHASE_NAMES, PHASE_OVER, PHASE_ROW, State

_VARIANTS = ("classic",)  # the variants this file implements: one copy of every card
_ROW_CHOICES = ("player", "cheapest")  # the row-choice modes this file implements
# The rule options this file implements. A rule option added later (to RuleConfig) turns
# the fast path off until this file implements it and its tests cover it.
_RULE_OPTIONS = {"players", "row_choice", "end_score", "max_rounds", "deck", "variant"}
# The per-seat fields: the observation's tail from "choice_rows" on (asserted contiguous).
_TAIL = ("choice_rows", "scores", "round_penalty", "phase", "players", "turn", "dealer")


def _zeros(typecode: str, n: int) -> array:
    return array(typecode, bytes(array(typecode).itemsize * n))


class SingleGame(SingleGameObservations):
    """One game of a supported rule configuration, with every seat's observation.

    Args:
        config: the rules (`supports(config)` must hold).
        layout: the basic observation layout (`encoding.card_layout(config)`).
    """

    @staticmethod
    def supports(config: RuleConfig) -> bool:
        """Whether this path is proven equal to the engine for `config`."""
        known = {f.name for f in dataclasses.fields(config)} <= _RULE_OPTIONS
        return known and config.variant in _VARIANTS and config.row_choice in _ROW_CHOICES

    def __init__(self, config: RuleConfig, layout: ObsLayout):
        if not self.supports(config):
            raise ValueError(f"SingleGame does not implement {config}: use the batched engine")
        v = config.variant_data
        self.config, self.layout = config, layout
        self.players = P = config.players
        self.n_ids = N = v.n_ids
        self.n_actions = A = action_size(config)
        self.pass_action = pass_action(config)
        self.cheapest = config.row_choice == "cheapest"
        self.order, self.bulls = v.order.tolist(), v.bullheads.tolist()
        self._order_is_id = v.order_is_id
        # Encoder values, computed by the batched encoder's own expressions and dtypes so
        # that every float32 is bit-identical (see SeatView.encode).
        self._card_value = (v.order * np.float32(1.0 / N)).tolist()  # row_cards, by id
        self._last_value = (np.arange(int(v.order.max()) + 1, dtype=np.int32) * (1.0 / N)) \
            .astype(np.float32).tolist()  # row_last, by ladder value
        self._count_value = (np.arange(COUNT_MASK + 1, dtype=np.int32) * (1.0 / ROW_CAPACITY)) \
            .astype(np.float32).tolist()
        self._bulls_value = (np.arange(BULLS_MASK + 1, dtype=np.int32) * (1.0 / ROW_BULLS_SCALE)) \
            .astype(np.float32).tolist()
        off = layout.offsets
        self._o_table, self._o_seen, self._o_revealed = off["table"], off["seen"], off["revealed"]
        self._o_cards, self._o_count = off["row_cards"], off["row_count"]
        self._o_bulls, self._o_last = off["row_bulls"], off["row_last"]
        # Per-seat fields are the hand (first) and the tail (last); between them lies what
        # every seat sees alike. Asserted, since the buffers below rely on it.
        names = [f.name for f in layout.fields]
        assert names[0] == "hand" and names[-len(_TAIL):] == list(_TAIL), "per-seat fields moved"
        self.D = D = layout.size
        self._t = {name: off[name] for name in _TAIL}
        self._common = slice(off["hand"] + N + 1, off[_TAIL[0]])
        # Buffers written element by element (array.array: cheaper per write than NumPy),
        # read through NumPy views when the observations are copied out.
        self._seats = _zeros("f", P * D)  # (P, D) the observations, common part refreshed on copy
        self._shared = _zeros("f", D)  # (D,) the common part, written once per change
        self._cards_mask = _zeros("b", P * A)  # (P, A) masks in the cards phase
        self._bind_views()
        # The other phases' masks are fixed: pass only, except the chooser's rows.
        self._over_mask = np.zeros((P, A), dtype=np.int8)
        self._over_mask[:, self.pass_action] = 1
        self._row_masks = np.repeat(self._over_mask[None], P, axis=0)
        for c in range(P):
            self._row_masks[c, c, self.pass_action] = 0
            self._row_masks[c, c, N:N + N_ROWS] = 1
        self._rel = [[(p + i) % P for i in range(P)] for p in range(P)]  # relative seats
        # _seat_at[s]: where seat s sits in each observer's tail, as relative seat (s - p) % P
        self._seat_at = [[p * D + (s - p) % P for p in range(P)] for s in range(P)]
        self.seed: int | None = None  # no game yet
        self.phase = PHASE_OVER

    def _bind_views(self) -> None:
        """The NumPy views of the element-wise buffers (the same memory, no copy)."""
        P, D, A = self.players, self.D, self.n_actions
        self._seats_np = np.frombuffer(self._seats, dtype=np.float32).reshape(P, D)
        self._shared_np = np.frombuffer(self._shared, dtype=np.float32)
        self._cards_mask_np = np.frombuffer(self._cards_mask, dtype=np.int8).reshape(P, A)

    # A copy (pickle, cloudpickle, copy.deepcopy) would turn the views into arrays of their
    # own, detached from the copied buffers: the copy's observations would stay as they
    # were when copied. So the views are left out of the state and bound anew.
    _VIEWS = ("_seats_np", "_shared_np", "_cards_mask_np")

    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k not in self._VIEWS}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._bind_views()

    # ------------------------------------------------------------------ positions

    def new_game(self, seed: int) -> None:
        """Start the game seeded `seed` (a game seed, as `new_games` takes it)."""
        P = self.players
        self.seed, self.round, self.dealer = seed, 0, first_dealer(self.config, seed)
        self.score = [0] * P
        self.row_slots = [[0] * ROW_CAPACITY for _ in range(N_ROWS)]
        self.revealed, self.revealed_seat = [0] * P, [0] * P
        self.chooser, self.options = NO_SEAT, [False] * N_ROWS
        self._deal()

    def load(self, st: State, game: int = 0) -> None:
        """Take over game `game` of an engine state (e.g. built by `from_deal`)."""
        if st.config != self.config:
            raise ValueError("the state's rules differ from this game's")
        b = game
        self.seed, self.round, self.turn = int(st.seed[b]), int(st.round[b]), int(st.turn[b])
        self.phase, self.dealer, self.chooser = int(st.phase[b]), int(st.dealer[b]), int(st.chooser[b])
        self.hands = [[c for c in hand if c] for hand in st.hands[:, :, b].tolist()]
        self.row_slots = st.row_cards[:, :, b].T.tolist()
        self.row_count = st.row_count[:, b].tolist()
        self.row_bulls = st.row_bulls[:, b].tolist()
        self.row_last = st.row_last[:, b].tolist()
        self.starters = st.starters[:, b].tolist()
        self.played = st.played[:, :, b].tolist()
        self.penalty, self.score = st.penalty[:, b].tolist(), st.score[:, b].tolist()
        self.revealed, self.revealed_seat = st.revealed[:, b].tolist(), st.revealed_seat[:, b].tolist()
        self.options = st.row_options[:, b].tolist()
        self._encode_all()

    def to_state(self) -> State:
        """This game as an engine State of one game (equal field by field)."""
        st = empty_state(self.config, np.array([self.seed], dtype=np.uint64))
        st.round[0], st.turn[0], st.phase[0] = self.round, self.turn, self.phase
        st.dealer[0], st.chooser[0] = self.dealer, self.chooser
        for p, hand in enumerate(self.hands):
            st.hands[p, :len(hand), 0] = hand
        st.rows[:, 0] = self.row_packed()
        st.row_cards[:, :, 0] = np.array(self.row_slots).T
        st.starters[:, 0] = self.starters
        st.played[:, :, 0] = self.played
        st.penalty[:, 0], st.score[:, 0] = self.penalty, self.score
        st.revealed[:, 0], st.revealed_seat[:, 0] = self.revealed, self.revealed_seat
        st.row_options[:, 0] = self.options
        return st

    def row_packed(self) -> list[int]:
        """The rows packed as the engine keeps them (packing.py)."""
        return [(self.row_last[r] << LAST_SHIFT) | (self.row_bulls[r] << BULLS_SHIFT)
                | (self.row_count[r] << COUNT_SHIFT) | r for r in range(N_ROWS)]

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.phase == PHASE_OVER

    def progress(self) -> dict:
        """As `CardGame.progress` of this game."""
        return {"phase": PHASE_NAMES[self.phase], "round": self.round, "turn": self.turn}

    def totals(self) -> list[int]:
        """Bullheads so far per seat, the current round included."""
        return [s + q for s, q in zip(self.score, self.penalty)]

    # ------------------------------------------------------------------ actions

    def illegal_seat(self, actions: list[int]) -> int:
        """The first seat whose encoded action is illegal now, or -1."""
        N = self.n_ids
        if self.phase == PHASE_CARDS:
            for p, a in enumerate(actions):
                if not (0 <= a < N and a + 1 in self.hands[p]):
                    return p
        elif self.phase == PHASE_ROW:
            for p, a in enumerate(actions):
                if p == self.chooser:
                    if not (N <= a < N + N_ROWS and self.options[a - N]):
                        return p
                elif a != self.pass_action:
                    return p
        else:
            return 0
        return -1

    def step(self, actions: list[int]) -> None:
        """Play one step of legal encoded actions (one per seat; see `illegal_seat`)."""
        if self.phase == PHASE_CARDS:
            self._play([a + 1 for a in actions])
        elif self.phase == PHASE_ROW:
            self._choose(actions[self.chooser] - self.n_ids)
        else:
            raise ValueError("the game is over")

    # ------------------------------------------------------------------ rules

    def _deal(self) -> None:
        """Deal the current round from the seed, exactly as the engine does."""
        P, H = self.players, HAND_SIZE
        ids = deal_ids(self.config, self.seed, self.round)
        self.hands = [ids[p * H:(p + 1) * H] for p in range(P)]
        self.starters = ids[P * H:]
        for r, c in enumerate(self.starters):
            self.row_slots[r][0] = c  # later slots keep stale ids, as in the engine
        self.row_count = [1] * N_ROWS
        self.row_bulls = [self.bulls[c] for c in self.starters]
        self.row_last = [self.order[c] for c in self.starters]
        self.played = [[0] * P for _ in range(H)]
        self.turn, self.penalty, self.phase = 0, [0] * P, PHASE_CARDS
        self._encode_all()

    def _play(self, cards: list[int]) -> None:
        """The cards phase: every seat plays cards[p]; reveal, sort, place."""
        D, A = self.D, self.n_actions
        hand_obs, mask, shared, seen = self._seats, self._cards_mask, self._shared, self._o_seen
        for hand, c in zip(self.hands, cards):
            last = hand.pop()  # swap-remove: the hand's last card takes the played slot,
            if last != c:      # the engine's hand-slot order
                hand[hand.index(c)] = last
        for p, c in enumerate(cards):
            hand_obs[p * D + c] = 0.0
            mask[p * A + c - 1] = 0
            shared[seen + c] = 1.0
        self.played[self.turn] = cards
        # Lowest first; ladder values are distinct without twins, so no tie-break is needed.
        order = self.order
        seats = sorted(range(self.players), key=cards.__getitem__ if self._order_is_id
                       else lambda p: order[cards[p]])
        self.revealed_seat = seats
        self.revealed = [cards[s] for s in seats]
        self._resolve(None)

    def _choose(self, row: int) -> None:
        """The row phase: the chooser takes `row`, then the turn's cards are placed."""
        self._encode_row_phase(self.chooser, 0.0)
        self.phase, self.chooser, self.options = PHASE_CARDS, NO_SEAT, [False] * N_ROWS
        self._resolve(row)

    def _target(self, value: int) -> int:
        """Rules 1–2: the row whose last card is the highest not above `value`, or -1."""
        best, best_last = -1, -1
        for r, last in enumerate(self.row_last):
            if best_last < last <= value:
                best, best_last = r, last
        return best

    def _resolve(self, chosen: int | None) -> None:
        """Place the revealed cards (Rules 1–4); `chosen`: the row the chooser took.

        The hot loop of the fast path, hence written out with local names: per card, the
        target row (Rules 1–2), then either a take (Rule 3, or Rule 4 for card 0) or an
        append, each with its observation writes.
        """
        cards, seats = self.revealed, self.revealed_seat
        order, bulls = self.order, self.bulls
        row_last, row_count, row_bulls, row_slots = self.row_last, self.row_count, self.row_bulls, self.row_slots
        if chosen is None:
            row = self._target(order[cards[0]])
            take_first = row < 0  # Rule 4: lower than every row
            if take_first:
                if not self.cheapest:
                    self._park()
                    return
                # fewest bullheads, then fewest cards, then the lowest index
                row = min(range(N_ROWS), key=lambda r: (row_bulls[r], row_count[r], r))
        else:
            row, take_first = chosen, True
        shared, o_table, o_cards = self._shared, self._o_table, self._o_cards
        o_count, o_bulls, o_last = self._o_count, self._o_bulls, self._o_last
        card_value, last_value = self._card_value, self._last_value
        count_value, bulls_value = self._count_value, self._bulls_value
        for k, card in enumerate(cards):
            value = order[card]
            if k:  # inline _target: the row whose last card is the highest below this one
                row, best_last = -1, -1
                for r, last in enumerate(row_last):
                    if best_last < last <= value:
                        row, best_last = r, last
            slots, at = row_slots[row], o_cards + row * ROW_CAPACITY
            i = row_count[row]
            if (k == 0 and take_first) or i == ROW_CAPACITY:  # the seat takes the row
                for j in range(i):
                    shared[o_table + slots[j]] = 0.0
                    shared[at + j] = 0.0
                self._add_penalty(seats[k], row_bulls[row])
                i, row_bulls[row] = 0, bulls[card]  # the card starts the row anew
            else:
                row_bulls[row] += bulls[card]
            slots[i] = card  # a taken row's later slots keep stale ids, as in the engine
            row_count[row] = i + 1
            row_last[row] = value
            shared[o_table + card] = 1.0
            shared[at + i] = card_value[card]
            shared[o_count + row] = count_value[i + 1]
            shared[o_bulls + row] = bulls_value[row_bulls[row]]
            shared[o_last + row] = last_value[value]
        self._end_turn()

    def _add_penalty(self, seat: int, bullheads: int) -> None:
        """`seat` takes `bullheads`: its round penalty and total, as every seat sees them."""
        self.penalty[seat] += bullheads
        scale = 1.0 / SCORE_SCALE  # as SeatView.encode computes it: times the reciprocal
        total, penalty = (self.score[seat] + self.penalty[seat]) * scale, self.penalty[seat] * scale
        tail, so, po = self._seats, self._t["scores"], self._t["round_penalty"]
        for at in self._seat_at[seat]:
            tail[at + so] = total
            tail[at + po] = penalty

    def _park(self) -> None:
        """Rule 4 with row_choice="player": wait for the owner of the lowest card."""
        self.phase, self.chooser = PHASE_ROW, self.revealed_seat[0]
        self.options = [True] * N_ROWS
        self._encode_row_phase(self.chooser, 1.0)

    def _end_turn(self) -> None:
        self.turn += 1
        self.revealed = [0] * self.players
        if self.turn == HAND_SIZE:
            self._end_round()
        else:
            self._encode_turn()

    def _end_round(self) -> None:
        """Score the round; end the game or deal the next round."""
        cfg = self.config
        self.score = self.totals()
        self.penalty = [0] * self.players
        over = (cfg.end_score is not None and max(self.score) >= cfg.end_score) or \
            (cfg.max_rounds is not None and self.round + 1 >= cfg.max_rounds)
        if over:
            self.phase = PHASE_OVER
            self._encode_all()
        else:
            self.round += 1
            self.dealer = (self.dealer + 1) % self.players
            self._deal()
