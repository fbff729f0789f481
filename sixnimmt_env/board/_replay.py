"""Board-game records read back (`sixnimmt-record/1` with "game": "board",
docs/spec/board-record.md): `replay` checks the deal, every tile put out and every
decision against the rules by playing them through the engine (there is no second rules
implementation here), recomputes the scores and winners, and reports where they differ
from the outputs the record gives. Malformed records raise InvalidRecordError with one
line naming the turn and seat (or the part of the deal) where they first go wrong.
Records are written by `_records.py`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.errors import ConfigError, IllegalActionError
from ..core.records import ReplayResultBase, check_envelope, fail, is_int, seat_words, short
from . import engine
from ._answers import answer_action, answer_value, well_formed
from ._layout_files import layout_from_dict
from ._records import DEFAULT_VARIANT, GAME
from .actions import (
    PASS_ACTION,
)
from .rules import (
    ACTION_KINDS,
    HAND_SIZE,
    LUCK_KINDS,
    N_TILES,
    RULE_KEYS,
    SIDE,
    START_ACTION_CARDS,
    START_ROWS,
    VARIANTS,
    BoardConfig,
)
from .state import (
    ASK_ACTION,
    ASK_FREE_ROW,
    ASK_LUCK_CARD,
    ASK_NAMES,
    PHASE_ASK,
    PHASE_OVER,
    BoardState,
)


@dataclass
class ReplayResult(ReplayResultBase):
    """What replaying a board-game record computed, and how it differs from the record."""

    TOTALS_KEY = "scores"

    record: dict[str, Any]
    scores: list[int]
    winners: list[int]
    over: bool
    turns: int
    luck: list[dict[str, int]] = field(default_factory=list)  # luck cards held at the end, per seat
    differences: list[str] = field(default_factory=list)

    @property
    def totals(self) -> list[int]:
        """The scores (the game interface calls every game's points `totals`)."""
        return self.scores

    def summary_lines(self) -> list[str]:
        """What the replay computed, for the command line."""
        lines = [f"turns: {self.turns}"]
        if any(sum(held.values()) for held in self.luck):
            lines.append("luck cards held: " + "; ".join(
                f"seat {s + 1}: " + (", ".join(k for k, n in held.items() for _ in range(n)) or "none")
                for s, held in enumerate(self.luck)))
        lines.append(f"scores: {self.scores}")
        lines.append(f"winners: {seat_words(self.winners)}" if self.over else "winners: none (game not over)")
        return lines


def _at(where: str, place: str) -> str:
    return f"{where}, {place}" if where else place


def _ask_name(ask: Any) -> str:
    """An ask as a message names it: a known ask bare, anything else as JSON."""
    return ask if ask in ASK_NAMES[1:] and isinstance(ask, str) else short(ask)


def _got(value: Any) -> str:
    """What a record gives where a list was expected: its length, or the value."""
    if value is None:
        return "nothing"
    return str(len(value)) if isinstance(value, list) else short(value)


def _config(record: Any) -> BoardConfig:
    """The rule options and the board of a record, validated."""
    game = check_envelope(record)
    if game != GAME:
        raise fail("", f"game must be {GAME!r} for the board game's replay, got {game!r}")
    variant = record.get("variant", DEFAULT_VARIANT)
    if variant not in VARIANTS:
        raise fail("", f"unknown variant {short(variant)} (known: {', '.join(VARIANTS)})")
    rules = record.get("rules", {})
    if not isinstance(rules, dict):
        raise fail("", "rules must be an object")
    if isinstance(rules.get("action_cards"), list):  # JSON has no tuples
        rules = {**rules, "action_cards": tuple(rules["action_cards"])}
    unknown = sorted(str(k) for k in set(rules) - set(RULE_KEYS))
    if unknown:
        raise fail("", f"unknown rule option(s): {', '.join(unknown)} (known: {', '.join(RULE_KEYS)})")
    if "layout" not in record:
        raise fail("", 'the record has no "layout": a board-game record carries its board '
                        '("layout" and "bullheads")')
    try:
        board = layout_from_dict(record, SIDE[variant])
        return BoardConfig(variant=variant, layout=board, **rules)
    except ConfigError as e:  # one line naming the row and field, or the option
        raise fail("", str(e)) from None


def check_deal(config: BoardConfig, deal: Any, where: str) -> tuple[list[list[int]], list[int], list[int]]:
    """The tiles of a deal ({"hands", "start", "draws"}, as a record has them), checked.

    Returns (hands: P lists of 12 tiles, start: the 4 start tiles of rows 0-3, supply: the
    tiles not dealt in the order they are drawn). The supply is `draws` followed by every
    other tile that is not dealt, in ascending order, so the engine always holds a full
    supply; `replay` separately requires that the game draws only tiles `draws` lists.

    Raises:
        InvalidRecordError: one line naming the seat, start row or draw: a hand of the wrong
            size, a value that is not a tile 1..100, a tile dealt twice.
    """
    P = config.players
    if not isinstance(deal, dict):
        raise fail(where, "a deal must be an object with hands, start and draws")
    hands, start, draws = deal.get("hands"), deal.get("start"), deal.get("draws")
    if not isinstance(hands, list) or len(hands) != P:
        raise fail(where, f"hands must list {P} hands, one per seat, got {_got(hands)}")
    if not isinstance(start, list) or len(start) != START_ROWS:
        raise fail(where, f"start must list the {START_ROWS} start tiles of rows 0-{START_ROWS - 1}, "
                           f"got {_got(start)}")
    if draws is None:
        draws = []
    if not isinstance(draws, list):
        raise fail(where, f"draws must be a list of tiles, got {short(draws)}")
    owner: dict[int, str] = {}

    def deal_tile(value: Any, place: str, what: str) -> int:
        if not is_int(value) or not 1 <= value <= N_TILES:
            raise fail(_at(where, place), f"{short(value)} is not a tile (an integer 1..{N_TILES})")
        if value in owner:
            raise fail(_at(where, place), f"tile {value} is dealt twice (also {owner[value]})")
        owner[value] = what
        return value

    hand_tiles = []
    for s, hand in enumerate(hands):
        if not isinstance(hand, list) or len(hand) != HAND_SIZE:
            raise fail(_at(where, f"seat {s}"), f"a hand must hold {HAND_SIZE} tiles, got {_got(hand)}")
        hand_tiles.append([deal_tile(t, f"seat {s}", f"in seat {s}'s hand") for t in hand])
    start_tiles = [deal_tile(t, f"start, row {r}", f"the start tile of row {r}") for r, t in enumerate(start)]
    drawn = [deal_tile(t, f"draws, draw {i}", f"draw {i}") for i, t in enumerate(draws)]
    supply = drawn + [t for t in range(1, N_TILES + 1) if t not in owner]
    return hand_tiles, start_tiles, supply


def replay(record: Any) -> ReplayResult:
    """Check a board-game record against the rules and recompute its outputs.

    Raises:
        InvalidRecordError: the record is malformed or breaks the rules.
    """
    cfg = _config(record)
    hands, start, supply = check_deal(cfg, record, "")
    listed = len(record.get("draws") or [])
    deck, script = _action_draws(cfg, record) if cfg.pro else (None, None)
    st = engine.from_deal(cfg, [hands], [start], [supply], actions=None if deck is None else [deck])
    if script is not None:
        st.action_script[:len(script), 0] = script
    turns = record.get("turns")
    if not isinstance(turns, list):
        raise fail("", f"turns must be a list of turns, got {_got(turns)}")
    for t, turn in enumerate(turns):
        if st.phase[0] == PHASE_OVER:
            raise fail(f"turn {t}", f"the game was already over after turn {t - 1}")
        _replay_turn(st, turn, t)
        drawn = int(st.drawn[0])
        if drawn > listed:
            how = "draw fields and the refill draw" if cfg.pro else "the refill draws"
            raise fail(f"turn {t}", f"{how} {drawn} tiles from the supply ({HAND_SIZE} per seat, "
                                     f"seat 0 first), but draws lists only {listed}")
    over = bool(st.phase[0] == PHASE_OVER)
    scores = st.score[:, 0].astype(int).tolist()
    winners = np.flatnonzero(st.winners()[:, 0]).tolist()
    luck = [{kind: int(st.luck[k, p, 0]) for k, kind in enumerate(LUCK_KINDS)} for p in range(cfg.players)]
    result = ReplayResult(record, scores, winners, over, len(turns), luck)
    result.differences = result.find_differences()
    return result


def _action_draws(cfg: BoardConfig, record: dict) -> tuple[list[int], list[int]]:
    """Pro: the record's `action_draws` checked: (the first deck in draw order: the dealt
    cards, then the rest of the deck; the whole list as the draws to follow)."""
    draws = record.get("action_draws")
    dealt = START_ACTION_CARDS * cfg.players
    if not isinstance(draws, list) or len(draws) < dealt:
        raise fail("", f"action_draws must list the action cards in the order drawn, at least the {dealt} "
                        f"dealt ({START_ACTION_CARDS} a seat, seat 0's first), got {_got(draws)}")
    for i, kind in enumerate(draws):
        if not isinstance(kind, str) or kind not in ACTION_KINDS:
            raise fail(f"action_draws, card {i}", f"{short(kind)} is not an action card "
                                                   f"(known: {', '.join(ACTION_KINDS)})")
    kinds = [ACTION_KINDS.index(k) for k in draws]
    left = list(cfg.action_cards)
    for i, k in enumerate(kinds[:dealt]):
        if left[k] == 0:
            raise fail(f"action_draws, card {i}", f"the deck holds only {cfg.action_cards[k]} "
                                                   f"{ACTION_KINDS[k]!r} card(s)")
        left[k] -= 1
    rest = [k for k in range(len(ACTION_KINDS)) for _ in range(left[k])]
    return kinds[:dealt] + rest, kinds


def _step(st: BoardState, actions: np.ndarray, where: str) -> None:
    try:
        engine.step(st, actions, inplace=True)
    except IllegalActionError as e:  # checked before: this would be a gap in the checks
        raise fail(where, str(e)) from None


def _tile_count_reason(st: BoardState, n: int) -> str:
    if n == 2:
        return "play two: an active row has an uncovered play-two field"
    if st.hand_size()[0] == 1:
        return "one tile left in hand"
    return "no active row has an uncovered play-two field"


def _check_tiles(st: BoardState, tiles: list, n: int, where: str) -> None:
    """Every seat's recorded tiles are as many as the rules ask for (`n`, fewer from a
    shorter hand) and tiles the seat holds, each once."""
    held = st.hand_lists(0)
    for s, put in enumerate(tiles):
        here = f"{where}, seat {s}"
        if not isinstance(put, list):
            raise fail(here, f"a seat's tiles must be a list, got {short(put)}")
        want = min(n, len(held[s]))  # a pro hand may hold fewer tiles than the turn asks for
        if len(put) != want:
            raise fail(here, f"the rules ask for {want} tile{'s' if want != 1 else ''} this turn "
                              f"({_tile_count_reason(st, want)}), got {len(put)}")
        for tile in put:
            if not is_int(tile) or not 1 <= tile <= N_TILES:
                raise fail(here, f"{short(tile)} is not a tile (an integer 1..{N_TILES})")
            if tile not in held[s]:
                again = put.count(tile) > 1
                raise fail(here, f"tile {tile} is put out twice" if again else
                            f"tile {tile} is not in the seat's hand (never dealt to it, or put out already)")
            held[s].remove(tile)


def _check_answer(st: BoardState, seat: int, ask: str, answer: Any, here: str, asked: str) -> None:
    """A recorded answer is a legal one to the question the rules ask now."""
    if ask in (ASK_NAMES[ASK_ACTION], ASK_NAMES[ASK_FREE_ROW]):
        from .seat_view import BoardSeatView  # the legal set, as the seat sees it
        legal = BoardSeatView(st, [seat]).action_mask()[0]
        if not well_formed(ask, answer) or not legal[answer_action(ask, answer)]:
            options = [answer_value(int(st.ask[0]), int(a)) for a in np.flatnonzero(legal)]
            raise fail(here, f"illegal answer {short(answer)} to {asked}; legal: "
                              f"{short(options, 300)}")
    elif ask == ASK_NAMES[ASK_LUCK_CARD]:
        legal = [kind for k, kind in enumerate(LUCK_KINDS) if st.stack[k, 0] > 0]
        if answer not in legal or not isinstance(answer, str):
            empty = " (that stack is empty)" if answer in LUCK_KINDS and isinstance(answer, str) else ""
            raise fail(here, f"illegal answer {short(answer)} to {ask}{empty}; legal: "
                              f"{', '.join(short(k) for k in legal)}")
    elif not isinstance(answer, bool):
        raise fail(here, f"illegal answer {short(answer)} to {ask}; legal: true, false")


def _replay_turn(st: BoardState, turn: Any, t: int) -> None:
    """Play one recorded turn (its tiles, then every question the placing asks) in place."""
    P = st.players
    where = f"turn {t}"
    if not isinstance(turn, dict):
        raise fail(where, "a turn must be an object with tiles and decisions")
    tiles = turn.get("tiles")
    if not isinstance(tiles, list) or len(tiles) != P:
        raise fail(where, f"tiles must list {P} seats' tiles, one list per seat, got {_got(tiles)}")
    decisions = turn.get("decisions")
    if decisions is None:
        decisions = []
    if not isinstance(decisions, list):
        raise fail(where, f"decisions must be a list, got {short(decisions)}")
    n = int(st.picks[0])
    _check_tiles(st, tiles, n, where)
    for k in range(n):
        _step(st, np.array([[put[k] - 1 if len(put) > k else PASS_ACTION] for put in tiles]), where)
    i = 0
    while st.phase[0] == PHASE_ASK:
        seat, ask = int(st.asker[0]), ASK_NAMES[int(st.ask[0])]
        tile = int(st.queue[int(st.at[0]), 0])
        here = f"{where}, seat {seat}"
        asked = f"{ask} (for tile {tile})"
        if i >= len(decisions):
            raise fail(here, f"decision {i} is missing: the rules ask {asked}, and the turn lists "
                              f"{len(decisions)} decision{'s' if len(decisions) != 1 else ''}")
        d = decisions[i]
        if not isinstance(d, dict) or not {"seat", "ask", "answer"} <= set(d):
            raise fail(here, f"decision {i} must be an object with seat, ask and answer, got {short(d)}")
        if not (is_int(d["seat"]) and d["seat"] == seat and d["ask"] == ask):
            raise fail(here, f"decision {i} is missing or out of place: the rules ask {asked}, the "
                              f"record has seat {short(d['seat'])} {_ask_name(d['ask'])}")
        answer = d["answer"]
        _check_answer(st, seat, ask, answer, here, asked)
        actions = np.full((P, 1), PASS_ACTION, dtype=np.int64)
        actions[seat, 0] = answer_action(ask, answer)
        _step(st, actions, here)
        i += 1
    if i < len(decisions):
        d = decisions[i]
        seat = d.get("seat") if isinstance(d, dict) else None
        here = f"{where}, seat {seat}" if is_int(seat) else where
        what = f"{_ask_name(d.get('ask'))} " if isinstance(d, dict) else ""
        raise fail(here, f"decision {i} ({what}{short(d.get('answer') if isinstance(d, dict) else d)}) is "
                          f"not needed: the rules ask {i} decision{'s' if i != 1 else ''} in this turn")
