"""Card-game records (`sixnimmt-record/1`, docs/spec/game-record.md) and their replay.

`Recorder` writes records while games are played through the engine; `replay` reads one
back, checks every move against the rules (through the same engine, so there is no
second rules implementation), recomputes penalties, totals and winners, and reports any
difference with the outputs the record gives. Malformed records raise
InvalidRecordError naming the round, turn and seat where they went wrong.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.errors import ConfigError
from ..core.records import FORMAT, ReplayResultBase, check_envelope, fail, is_int, seat_words
from .actions import engine_actions
from .engine import StepEvents, from_deal, step
from .rules import HAND_SIZE, N_ROWS, RULE_KEYS, VARIANTS, RuleConfig
from .state import PHASE_CARDS, PHASE_OVER, PHASE_ROW, State

# --------------------------------------------------------------------------- writing


class Recorder:
    """Builds one record per game of a batch while it is stepped.

    Call `observe(before, actions, after, events)` after every step (made with
    report=True; `actions` (P, B) as the step took them: encoded actions by default, or
    the engine's card ids and rows with `engine_actions=True`); `records()` returns the
    records so far.
    """

    def __init__(self, state: State, seats: list[str] | None = None, seeds: list[int] | None = None,
                 engine_actions: bool = False):
        self.config = state.config
        self._decode = not engine_actions
        self.variant = state.config.variant_data
        self._games: list[dict[str, Any]] = []
        for b in range(state.batch_size):
            rec: dict[str, Any] = {"format": FORMAT, "variant": self.config.variant,
                                   "rules": self.config.to_dict()}
            if seats is not None:
                rec["seats"] = list(seats)
            if seeds is not None:
                rec["seed"] = int(seeds[b])
            rec["rounds"] = [self._round_start(state, b)]
            self._games.append(rec)

    def _card(self, card) -> Any:
        """A card id as the record writes it."""
        return self.variant.card_value(int(card))

    def _round_start(self, st: State, b: int) -> dict[str, Any]:
        """The opening of the current round of game b."""
        return {
            "dealer": int(st.dealer[b]),
            "hands": [[self._card(c) for c in hand] for hand in st.hand_lists(b)],
            "rows": [[self._card(c)] for c in st.starters[:, b]],
            "turns": [],
        }

    def observe(self, before: State, actions: np.ndarray, after: State, events: StepEvents) -> None:
        """Add what one step did (events must come from step(..., report=True))."""
        if events is None:
            raise ValueError("Recorder needs the step's events: call step(..., report=True)")
        if self._decode:
            actions = engine_actions(self.config, before.phase[None, :], actions)
        for b in range(before.batch_size):
            phase = before.phase[b]
            if phase == PHASE_OVER:
                continue
            rnd = self._games[b]["rounds"][-1]
            if phase == PHASE_CARDS:
                rnd["turns"].append({"cards": [self._card(c) for c in actions[:, b]], "choices": {}})
            elif phase == PHASE_ROW:
                seat = int(before.chooser[b])
                rnd["turns"][-1]["choices"][str(seat)] = int(actions[seat, b])
            if events.round_over[b]:
                rnd["penalties"] = events.round_penalty[:, b].astype(int).tolist()
                if after.phase[b] != PHASE_OVER:
                    self._games[b]["rounds"].append(self._round_start(after, b))

    def records(self, state: State) -> list[dict[str, Any]]:
        """The records of every game, with totals and winners as of `state`."""
        out = []
        for b, rec in enumerate(self._games):
            rec = dict(rec)
            rec["totals"] = state.total()[:, b].astype(int).tolist()
            rec["winners"] = np.flatnonzero(state.winners()[:, b]).tolist()
            out.append(rec)
        return out


# --------------------------------------------------------------------------- replay


@dataclass
class ReplayResult(ReplayResultBase):
    """What replaying a record computed, and how it differs from the record's outputs."""

    record: dict[str, Any]
    penalties: list[list[int]]
    totals: list[int]
    winners: list[int]
    over: bool
    differences: list[str] = field(default_factory=list)

    def _part_differences(self) -> list[str]:
        return [f"round {i}: penalties are {rnd['penalties']}, replay gives {pen}"
                for i, (rnd, pen) in enumerate(zip(self.record["rounds"], self.penalties))
                if "penalties" in rnd and rnd["penalties"] != pen]

    def _complete_parts(self, record: dict[str, Any]) -> None:
        for rnd, pen in zip(record["rounds"], self.penalties):
            rnd["penalties"] = pen

    def summary_lines(self) -> list[str]:
        """What the replay computed, for the command line."""
        lines = [f"round {i + 1}: penalties {pen}" for i, pen in enumerate(self.penalties)]  # people count from 1
        lines.append(f"totals: {self.totals}")
        lines.append(f"winners: {seat_words(self.winners)}" if self.over else "winners: none (game not over)")
        return lines


def _config(record: Any) -> RuleConfig:
    """The rule options of a record, validated."""
    check_envelope(record)
    variant = record.get("variant", "classic")
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise fail("", f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})")
    rules = record.get("rules", {})
    if not isinstance(rules, dict):
        raise fail("", "rules must be an object")
    unknown = set(rules) - set(RULE_KEYS)
    if unknown:
        raise fail("", f"unknown rule option(s): {', '.join(sorted(unknown))}")
    try:
        return RuleConfig(variant=variant, **rules)
    except ConfigError as e:
        raise fail("", str(e)) from None


def check_deal(cfg: RuleConfig, rnd: Any, where: str, parse) -> tuple[list[list[int]], list[int]]:
    """The hands and row starters of a round, checked; as card ids."""
    P = cfg.players
    if not isinstance(rnd, dict):
        raise fail(where, "a round must be an object")
    hands, rows = rnd.get("hands"), rnd.get("rows")
    if not isinstance(hands, list) or len(hands) != P:
        raise fail(where, f"hands must list {P} hands, one per seat")
    if not isinstance(rows, list) or len(rows) != N_ROWS:
        raise fail(where, f"rows must list {N_ROWS} rows")
    v = cfg.variant_data
    deck = set(v.deck(cfg.players, cfg.deck).tolist())
    dealt: set[int] = set()

    def deal(value, place):
        # A name stands for every copy of the card (twins with two decks): the first
        # copy in the deck not dealt yet is the one dealt here.
        copies = [c for c in v.same_face(parse(value, place)) if c in deck]
        if not copies:
            raise fail(place, f"card {value!r} is not in the deck of this game")
        free = [c for c in copies if c not in dealt]
        if not free:
            raise fail(place, f"card {value!r} is dealt {'twice' if len(copies) == 1 else 'too often'}")
        dealt.add(free[0])
        return free[0]

    hand_ids = []
    for s, hand in enumerate(hands):
        if not isinstance(hand, list) or len(hand) != HAND_SIZE:
            raise fail(f"{where}, seat {s}", f"a hand must hold {HAND_SIZE} cards")
        hand_ids.append([deal(c, f"{where}, seat {s}") for c in hand])
    row_ids = []
    for r, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != 1:
            raise fail(f"{where}, row {r}", "a starting row must hold exactly one card")
        row_ids.append(deal(row[0], f"{where}, row {r}"))
    return hand_ids, row_ids


def replay(record: Any) -> ReplayResult:
    """Check a record against the rules and recompute its outputs.

    Raises:
        InvalidRecordError: the record is malformed or breaks the rules.
    """
    cfg = _config(record)
    P, v = cfg.players, cfg.variant_data
    parse = v.parse_card
    rounds = record.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise fail("", "rounds must be a non-empty list")
    score = np.zeros(P, dtype=np.int64)
    penalties: list[list[int]] = []
    dealer = None
    over = False
    for i, rnd in enumerate(rounds):
        where = f"round {i}"
        if over:
            raise fail(where, "the game was already over after the previous round")
        hands, starters = check_deal(cfg, rnd, where, parse)
        d = rnd.get("dealer")
        if not is_int(d) or not 0 <= d < P:
            raise fail(where, f"dealer must be a seat 0..{P - 1}, got {d!r}")
        if dealer is not None and d != (dealer + 1) % P:
            raise fail(where, f"dealer must be seat {(dealer + 1) % P} (one to the left of "
                               f"seat {dealer}), got {d}")
        dealer = d
        st = from_deal(cfg, [hands], [starters], dealer=d, score=[score], round=i)
        turns = rnd.get("turns")
        if not isinstance(turns, list) or len(turns) > HAND_SIZE:
            raise fail(where, f"turns must be a list of at most {HAND_SIZE} turns")
        if len(turns) < HAND_SIZE and i < len(rounds) - 1:
            raise fail(where, f"only the last round may be unfinished; this one has {len(turns)} turns")
        for t, turn in enumerate(turns):
            st = _replay_turn(st, turn, f"{where}, turn {t}", parse)
        complete = len(turns) == HAND_SIZE
        round_pen = (st.score[:, 0] - score) if complete else st.penalty[:, 0].astype(np.int64)
        penalties.append(round_pen.astype(int).tolist())
        score = score + round_pen
        over = complete and bool(st.phase[0] == PHASE_OVER)
    totals = score.astype(int).tolist()
    winners = [s for s in range(P) if totals[s] == min(totals)] if over else []
    result = ReplayResult(record, penalties, totals, winners, over)
    result.differences = result.find_differences()
    return result


def _replay_turn(st: State, turn: Any, where: str, parse) -> State:
    """Play one recorded turn (its cards, then any choice) on a one-game batch."""
    P = st.players
    if not isinstance(turn, dict) or not isinstance(turn.get("cards"), list):
        raise fail(where, "a turn must be an object with a list of cards")
    cards = turn["cards"]
    if len(cards) != P:
        raise fail(where, f"a turn must list {P} cards, one per seat, got {len(cards)}")
    choices = turn.get("choices") or {}
    if not isinstance(choices, dict):
        raise fail(where, "choices must be an object (seat -> row)")
    same_face = st.config.variant_data.same_face
    ids = []
    for s, value in enumerate(cards):
        held = [c for c in same_face(parse(value, f"{where}, seat {s}")) if c in st.hands[s, :, 0]]
        if not held:
            raise fail(f"{where}, seat {s}", f"card {value!r} is not in the seat's hand "
                                              "(never dealt to it, or played already)")
        ids.append(held[0])  # twins in one hand are the same card to play
    st, _ = step(st, np.array(ids)[:, None], inplace=True)
    asked: set[str] = set()
    # Die Sechste may ask twice in one turn (a too-low card, then a twin-row choice).
    while st.phase[0] == PHASE_ROW:
        seat = int(st.chooser[0])
        if str(seat) not in choices:
            raise fail(f"{where}, seat {seat}", "the rules ask this seat to choose a row, "
                                                 "but the turn has no choice for it")
        asked.add(str(seat))
        row = choices[str(seat)]
        legal = np.flatnonzero(st.row_options[:, 0]).tolist()
        if not is_int(row) or row not in legal:
            raise fail(f"{where}, seat {seat}", f"illegal choice {row!r}; legal rows: {legal}")
        actions = np.zeros((P, 1), dtype=np.int64)
        actions[seat, 0] = row
        st, _ = step(st, actions, inplace=True)
    extra = sorted(set(choices) - asked)
    if extra:
        raise fail(f"{where}, seat {extra[0]}", "a choice is given but the rules ask this seat for none")
    return st
