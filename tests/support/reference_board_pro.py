"""Slow, scalar reference of the 6 nimmt! board game (2019), professional side, variants 3-4.

Written straight from the rules (docs/rules/board-game.md and the team's
shared/rules/board-game.md, "the rules" below: "Variant 3", "Default board, pro side",
"Professional side: readings where the sources are silent [default]", "Variant 4"; the
source is the German review they cite) and the decision order of the record format
(docs/spec/board-record.md, "the record" below). It shares nothing with the engine; from
the basic reference (tests/support/reference_board.py, itself independent of the engine) it reuses
only what the two sides have in common by the rules: the default tile bullheads, the
clovers, the luck stacks, the scoring of a taken row with or without "2x", the winners and
the scripted-answer helper. Why a file of its own rather than more of reference_board.py:
on the pro side a row can have gaps (Skip) and a new first tile (Front), stop signs close
rows for a turn, an action deck is drawn, the free row is a decision and the end is a
different rule, so nearly every function of the basic reference would need a pro branch;
the basic reference stays exactly as the engine was checked against it.

Variants: "pro" (variant 3) and "pro-luck" (variant 4, pro with luck cards).

Vocabulary (as in the record): seats 0..P-1; rows 0..9 (the rules number them 1..10 on
screen); fields 1..len(row), field 1 first. `board[r]` lists what lies on fields 1..k of
row r: a tile number, or None for a field a Skip left empty; it never ends with None, so
`board[r][-1]` is the row's last tile and the next free field is number len(board[r]) + 1.
A row without tiles is free ([]), the others active.

Decisions go through a callback `decide(seat, ask, options) -> answer` that must answer
one of `options` (else ValueError naming the legal set); the asks are named as in the
record and asked in its order:
  - "action":     None (decline) first, then the legal card plays, kinds in ACTION_KINDS
                  order, arguments ascending: {"card": "stop"|"front"|"ascending", "row": r},
                  {"card": "swap"|"one_more", "tile": t}, {"card": "skip"};
  - "free_row":   every free row, ascending;
  - "luck_card":  the kinds whose stack still holds a card, from ("+5", "2x") (pro-luck);
  - "use_plus5", "use_double": [True, False] (pro-luck).

Readings. Where even the rules' [default] readings are silent this file picks the reading
a player would expect and marks it **[reading]** in the docstring concerned. All of them:
 1. Stop: a row holds at most one sign (a second sign on it would change nothing), and a
    stopped row takes no tile by any way at all: Front and Ascending may not choose it
    either ("no tile may be added to it").
 2. Skip acts in the row the tile would go to without the card: Rules 1-2 among the open
    rows, or the too-low exception's row.
 3. Swap: the tile put back and any other tile the seat put out this turn (a waiting
    play-two tile, a One more tile) are not in the hand, so they cannot be swapped in;
    every tile in the hand can, a tile drawn or taken into the hand this turn included.
 4. Swap after One more: the new tile takes the swapped tile's turn ("placed at once"),
    so it is placed next even if it is higher than the other One more tile. One more:
    when the extra tile is lower, the cards the seat plays next act on the extra tile
    (it is placed first), and the tile it was playing on is offered again before it is
    placed; a One more may follow a One more.
 5. The action ask lists the legal plays of the kinds the seat holds; a held kind with no
    legal play simply has no entry, so a seat whose cards are all unplayable is asked
    with the single option None ("playable or not").
 6. A card played goes to the discard pile at once, so a reshuffle later in the same turn
    (an A field, the deck empty) includes it.
 7. The order of the action deck after a reshuffle is outside the rules: it comes from
    the record's `action_draws` list (the cards in the order drawn); where the list is
    exhausted a random source draws uniformly from the cards in the deck (which is what a
    shuffled deck gives).
 8. The refill's "equal share if the supply is short": every seat draws
    len(supply) // players tiles (at most 12), seat 0 first; the rest stays in the supply.
    If after the refill some hand is still empty (a supply shorter than the players), the
    game ends at the end of that same turn.
 9. The free-row question is asked after every take even when only one row is free.
10. A stop sign is offered on any open active row, also one no tile can reach this turn.
11. Final scoring adds the action cards and the tiles in hand as two effects per seat
    ("end_cards", "end_tiles"); it never gains luck cards (the rules), and an empty hand
    costs nothing.

A position's stop signs (`stops`) stand for signs played earlier in the current turn (a
shortcut for scripted cases; the rules remove every sign at the end of a turn, so a game
between turns has none).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from tests.support import reference_board as basic

# --------------------------------------------------------------------------- the board as data

TILES = basic.TILES  # "100 number tiles 1..100, each number once"
HAND_SIZE = 12  # "Each player draws 12 tiles"
ACTIVE_ROWS = 4  # "there are always four active rows"
MIN_PLAYERS, MAX_PLAYERS = 2, 6
REFILL_PLAYERS = (2, 3)  # "with 2-3 players the refill comes first, once"
VARIANTS = ("pro", "pro-luck")
LUCK_KINDS = basic.LUCK_KINDS  # ("+5", "2x")
PLUS5_POINTS = basic.PLUS5_POINTS

# "Action cards [src: the publisher's own list of the six kinds]"
ACTION_KINDS = ("stop", "swap", "skip", "front", "ascending", "one_more")
# "deck of 24: 4 of each kind [default counts]"
DEFAULT_ACTION_DECK: dict[str, int] = {kind: 4 for kind in ACTION_KINDS}
START_ACTION_CARDS = 2  # "Each player starts with 2 action cards"
STOP_SIGNS = 2  # "2 stop-sign tiles"
# "Skip, Front and Ascending *place* the tile -- at most one of them per tile, played last"
PLACING_CARDS = ("skip", "front", "ascending")
TAKE_CODES = ("T", "H")

# "Default board, pro side (red bullhead) -- an APPROXIMATION"; field 1 first.
DEFAULT_PRO_ROWS: list[list[str]] = [
    ["-", "A", "-", "+", "H"],  # R1
    ["-", "D", "+", "-", "A", "T"],  # R2
    ["+", "-", "D", "T"],  # R3
    ["-", "A", "-", "+2", "-", "D", "H"],  # R4
    ["-", "+", "A", "-", "T"],  # R5
    ["D", "2", "-", "+", "-", "T"],  # R6
    ["-", "A", "2", "T"],  # R7
    ["+", "-", "D", "2", "-", "A", "T"],  # R8
    ["-", "2", "A", "-3", "T"],  # R9
    ["A", "-", "2", "+", "D", "T"],  # R10
]

DEFAULT_BULLHEADS = basic.DEFAULT_BULLHEADS  # 'Tile bullheads [default]', the same on both sides
DEFAULT_CLOVERS = basic.DEFAULT_CLOVERS  # 'Score track [default]'
DEFAULT_LUCK_STACKS = basic.DEFAULT_LUCK_STACKS  # 'Variant 2': 6 "+5" and 6 "2x"

_KINDS = {
    ".": "plain",
    "+": "green",
    "-": "red",
    "2": "play_two",
    "D": "draw_tile",  # "draw a tile (from the supply, into the hand, if any left)"
    "A": "draw_action",  # "draw an action card (top of the deck ...)"
    "T": "take",
    "H": "take_hand",  # "The take fields of rows 1 and 4 give the row's tiles into the player's hand"
}


def field_kind(code: str) -> str:
    """A pro-side field code's kind: plain, green, red, fixed, play_two, draw_tile, draw_action, take, take_hand."""
    if code in _KINDS:
        return _KINDS[code]
    digits = code[1:]
    if code[:1] in ("+", "-") and digits.isascii() and digits.isdigit() and int(digits) > 0:
        return "fixed"  # "+N"/"-N": plus or minus the printed value
    raise ValueError(f"unknown pro-side field code {code!r} (use . + - +N -N 2 D A T H)")


def field_points(code: str, bullheads: int) -> int:
    """Points a tile with `bullheads` scores on a scoring field: green +, red -, fixed the value, else 0."""
    kind = field_kind(code)
    if kind == "green":
        return bullheads
    if kind == "red":
        return -bullheads
    if kind == "fixed":
        return int(code)
    return 0  # plain, play two, draw a tile, draw an action card: no points


@dataclass
class Rules:
    """The board as data (rows, bullheads, clovers), the variant and the material's counts."""

    rows: list[list[str]] = field(default_factory=lambda: [list(r) for r in DEFAULT_PRO_ROWS])
    bullheads: dict[int, int] | list[int] = field(default_factory=lambda: dict(DEFAULT_BULLHEADS))
    clovers: list[int] = field(default_factory=lambda: list(DEFAULT_CLOVERS))
    variant: str = "pro"  # "pro" (variant 3) or "pro-luck" (variant 4)
    luck_stacks: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_LUCK_STACKS))
    action_deck: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_ACTION_DECK))
    stop_signs: int = STOP_SIGNS

    def __post_init__(self) -> None:
        """Bullheads given as a list of 100 become a dict; then the whole board is checked."""
        if isinstance(self.bullheads, (list, tuple)):
            if len(self.bullheads) != len(TILES):
                raise ValueError(f"bullheads: need 100 values for tiles 1..100, got {len(self.bullheads)}")
            self.bullheads = {tile: self.bullheads[tile - 1] for tile in TILES}
        check_rules(self)

    @property
    def luck(self) -> bool:
        """Variant 4: luck cards are in play."""
        return self.variant == "pro-luck"


def check_rules(rules: Rules) -> None:
    """'Layouts' for the pro side ("any field code may stand anywhere but the last field,
    which is T or H (and only there)"), the counts and the variant; a one-line ValueError if not."""
    if rules.variant not in VARIANTS:
        raise ValueError(f"variant must be one of {VARIANTS}, got {rules.variant!r}")
    if len(rules.rows) < ACTIVE_ROWS + 1:
        raise ValueError(f"layout: need at least 5 rows (4 active + 1 free), got {len(rules.rows)}")
    for r, codes in enumerate(rules.rows):
        where = f"layout row {r + 1}"
        if len(codes) < 2:
            raise ValueError(f"{where}: every row has at least 2 fields, got {len(codes)}")
        for code in codes:
            field_kind(code)  # unknown codes are refused
        if codes[-1] not in TAKE_CODES:
            raise ValueError(f"{where}: the last field must be T or H, got {codes[-1]!r}")
        if any(code in TAKE_CODES for code in codes[:-1]):
            raise ValueError(f"{where}: T and H may stand only last")
    if sorted(rules.bullheads) != list(TILES):
        raise ValueError("bullheads: need a value for each tile 1..100")
    for tile, value in rules.bullheads.items():
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 5:
            raise ValueError(f"bullheads: tile {tile} shows 1-5 bullheads, got {value!r}")
    if any(not isinstance(c, int) or isinstance(c, bool) for c in rules.clovers):
        raise ValueError("clovers: need a list of integer score-track values")
    if sorted(rules.luck_stacks) != sorted(LUCK_KINDS) or any(n < 0 for n in rules.luck_stacks.values()):
        raise ValueError(f"luck_stacks: need a count >= 0 for each of {LUCK_KINDS}")
    if sorted(rules.action_deck) != sorted(ACTION_KINDS) or any(n < 0 for n in rules.action_deck.values()):
        raise ValueError(f"action_deck: need a count >= 0 for each of {ACTION_KINDS}")
    # With at most 3 signs and 4 active rows a row always stays open for Rules 1-2.
    if not 0 <= rules.stop_signs < ACTIVE_ROWS:
        raise ValueError(f"stop_signs: need 0..{ACTIVE_ROWS - 1}, got {rules.stop_signs}")


# --------------------------------------------------------------------------- state and results


def no_cards() -> dict[str, int]:
    """A pile of action cards with none of any kind."""
    return {kind: 0 for kind in ACTION_KINDS}


def sort_cards(cards: list[str]) -> list[str]:
    """Action cards in ACTION_KINDS order (a hand of cards has no order; this one is canonical)."""
    return sorted(cards, key=ACTION_KINDS.index)


@dataclass
class State:
    """Everything between two turns: board, hands, supply, scores, action and luck cards."""

    rules: Rules
    board: list[list[int | None]]  # per row what lies on fields 1..k (None: a skipped field)
    hands: list[list[int]]  # per seat the tiles behind the screen, ascending
    supply: list[int]  # tiles still to be drawn, in draw order (the record's `draws`)
    scores: list[int]
    actions: list[list[str]]  # per seat the action cards held (sort_cards order)
    deck: dict[str, int]  # action cards in the deck, by kind
    discards: dict[str, int]  # the discard pile, by kind
    action_draws: list[str]  # the deck's cards in the order they will be drawn (the record's list)
    luck: list[dict[str, int]]  # pro-luck: per seat the luck cards held
    stacks: dict[str, int]  # pro-luck: the two open stacks
    refill_due: bool = False  # 2-3 players: the refill has not happened yet
    stops: list[int] = field(default_factory=list)  # rows under a stop sign (see the module docstring)
    removed: list[int] = field(default_factory=list)  # tiles scored in a T take; they left the game
    drawn_actions: list[str] = field(default_factory=list)  # every action card drawn so far (`action_draws`)
    over: bool = False
    turn: int = 0

    @property
    def players(self) -> int:
        """Number of seats."""
        return len(self.hands)

    def copy(self) -> State:
        """An independent copy (the rules are shared: they never change)."""
        return State(
            rules=self.rules,
            board=[list(row) for row in self.board],
            hands=[list(hand) for hand in self.hands],
            supply=list(self.supply),
            scores=list(self.scores),
            actions=[list(cards) for cards in self.actions],
            deck=dict(self.deck),
            discards=dict(self.discards),
            action_draws=list(self.action_draws),
            luck=[dict(cards) for cards in self.luck],
            stacks=dict(self.stacks),
            refill_due=self.refill_due,
            stops=list(self.stops),
            removed=list(self.removed),
            drawn_actions=list(self.drawn_actions),
            over=self.over,
            turn=self.turn,
        )


@dataclass
class Placement:
    """One tile put on a field: seat, tile, row, field (1-based) and how it got there.

    how: "rules" (Rules 1-2), "too_low" (the exception), "moved" (to field 1 of a free row
    after a take), "skip", "front" or "ascending" (placed by that card).
    """

    seat: int
    tile: int
    row: int
    field: int
    how: str


@dataclass
class Effect:
    """One thing a field (or the final scoring) did: seat, tile, where, cause, points, what was got.

    cause: plain, green, red, fixed, play_two, draw_tile, draw_action, take, take_2x,
    take_hand, plus5, end_cards, end_tiles. got: the tile drawn (draw_tile), the card drawn
    (draw_action), the tiles taken into the hand (take_hand); None when nothing was there.
    """

    seat: int
    tile: int | None
    row: int | None
    field: int | None
    cause: str
    points: int
    got: object = None
    gained: list[str] = field(default_factory=list)  # pro-luck: luck cards this effect gained


@dataclass
class Ask:
    """One decision: the seat asked, the ask's name (as in the record), the options, the answer."""

    seat: int
    ask: str
    options: list
    answer: object


@dataclass
class TurnResult:
    """Outcome of one turn: the state after it and everything that happened, in order."""

    state: State  # after the turn: signs removed, refill and final scoring included
    count: int  # tiles per seat this turn (1 or 2; a seat with one tile left puts out one)
    tiles: list[list[int]]  # the tiles each seat put out, in seat order
    placements: list[Placement]
    effects: list[Effect]
    deltas: list[int]  # per seat the sum of this turn's effects (final scoring included)
    asked: list[Ask]
    removed: list[int]  # tiles that left the game this turn
    stops: list[int]  # the rows under a sign when the placing phase ended (then removed)
    refilled: bool
    over: bool

    @property
    def board(self) -> list[list[int | None]]:
        """The board after the turn."""
        return self.state.board


@dataclass
class GameResult:
    """A whole game: every turn's result, final scores and winners, and the final state."""

    turns: list[TurnResult]
    scores: list[int]
    winners: list[int]
    state: State


Decide = Callable[[int, str, list], object]
Pick = Callable[[State, int, int], list[int]]

# --------------------------------------------------------------------------- set-up


def deal(players: int, rng: random.Random) -> tuple[list[list[int]], list[int], list[int]]:
    """Shuffle tiles 1..100: four start tiles, 12 per seat, the rest the supply (the basic reference's deal)."""
    return basic.deal(players, rng)


def shuffled_deck(rules: Rules, rng: random.Random) -> list[str]:
    """'Mischt alle Aktionskarten': the whole action deck in a random draw order."""
    cards = [kind for kind in ACTION_KINDS for _ in range(rules.action_deck[kind])]
    rng.shuffle(cards)
    return cards


def new_game(
    rules: Rules,
    hands: list[list[int]],
    start: list[int],
    draws: Sequence[int],
    action_draws: Sequence[str],
) -> State:
    """Set-up: start tiles on field 1 of rows 1-4 (they trigger nothing), 12 tiles and 2 action cards a seat.

    "Mischt alle Aktionskarten und gebt jedem Spieler zwei davon verdeckt auf die Hand":
    the first 2 x players cards of `action_draws` are dealt, seat 0's two first (the
    record). `draws` is the supply: on the pro side "the supply of tiles is every tile not
    dealt" (a D field draws from it), so it must hold every tile not dealt.
    """
    players = len(hands)
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be {MIN_PLAYERS}-{MAX_PLAYERS}, got {players}")
    for seat, hand in enumerate(hands):
        if len(hand) != HAND_SIZE:
            raise ValueError(f"seat {seat} must hold {HAND_SIZE} tiles, holds {len(hand)}")
    if len(start) != ACTIVE_ROWS:
        raise ValueError(f"need {ACTIVE_ROWS} start tiles, got {len(start)}")
    if sorted([t for h in hands for t in h] + list(start) + list(draws)) != list(TILES):
        raise ValueError("draws: the supply must be every tile not dealt, each once")
    dealt = list(action_draws[: START_ACTION_CARDS * players])
    if len(dealt) < START_ACTION_CARDS * players:
        raise ValueError(f"action_draws: need {START_ACTION_CARDS * players} cards to deal, got {len(dealt)}")
    deck = dict(rules.action_deck)
    for kind in dealt:
        if deck.get(kind, 0) <= 0:
            raise ValueError(f"action_draws: a {kind!r} card is dealt but no longer in the deck")
        deck[kind] -= 1
    actions = [dealt[START_ACTION_CARDS * s : START_ACTION_CARDS * (s + 1)] for s in range(players)]
    board = [[tile] for tile in start] + [[] for _ in range(len(rules.rows) - ACTIVE_ROWS)]
    state = position(
        rules,
        board,
        hands,
        actions=actions,
        deck=deck,
        action_draws=action_draws[START_ACTION_CARDS * players :],
        supply=draws,
        refill_due=players in REFILL_PLAYERS,
    )
    state.drawn_actions = dealt
    return state


def check_position(state: State) -> None:
    """A position the rules can reach: four active rows, nothing on a take field, every tile and card once."""
    rules = state.rules
    if len(state.board) != len(rules.rows):
        raise ValueError(f"board: need {len(rules.rows)} rows, got {len(state.board)}")
    active = [r for r, row in enumerate(state.board) if row]
    if len(active) != ACTIVE_ROWS:
        raise ValueError(f"board: need {ACTIVE_ROWS} active rows, got {len(active)}")
    for r in active:
        row = state.board[r]
        if len(row) >= len(rules.rows[r]):
            raise ValueError(f"board row {r + 1}: {len(row)} fields used, but field {len(rules.rows[r])} takes")
        if row[0] is None or row[-1] is None:
            raise ValueError(f"board row {r + 1}: field 1 and the last used field must hold tiles")
    on_board = [t for row in state.board for t in row if t is not None]
    seen = on_board + [t for h in state.hands for t in h] + state.supply + state.removed
    if len(set(seen)) != len(seen) or any(t not in TILES for t in seen):
        raise ValueError("position: a tile is not one of 1..100 or appears twice")
    if not (len(state.scores) == len(state.actions) == len(state.luck) == state.players):
        raise ValueError("position: need one score, one hand of action cards and of luck cards per seat")
    for kind in ACTION_KINDS:
        held = sum(cards.count(kind) for cards in state.actions)
        if state.deck[kind] < 0 or state.discards[kind] < 0:
            raise ValueError(f"position: a negative count of {kind!r} cards")
        if held + state.deck[kind] + state.discards[kind] != rules.action_deck[kind]:
            raise ValueError(f"position: {kind!r} cards in hands, deck and discards must add up to the deck's count")
    if any(kind not in ACTION_KINDS for cards in state.actions for kind in cards):
        raise ValueError("position: unknown action card")
    if len(set(state.stops)) != len(state.stops) or len(state.stops) > rules.stop_signs:
        raise ValueError(f"position: at most {rules.stop_signs} stop signs, one a row")
    if any(r not in active for r in state.stops):
        raise ValueError("position: a stop sign stands on an active row only")


def position(
    rules: Rules,
    board: list[list[int | None]],
    hands: list[list[int]],
    scores: list[int] | None = None,
    actions: list[list[str]] | None = None,
    deck: dict[str, int] | None = None,
    discards: dict[str, int] | None = None,
    action_draws: Sequence[str] = (),
    luck: list[dict[str, int]] | None = None,
    stacks: dict[str, int] | None = None,
    supply: Sequence[int] = (),
    refill_due: bool = False,
    stops: Sequence[int] = (),
    turn: int = 0,
) -> State:
    """A mid-game State from plain data (for scripted cases), checked by check_position.

    The deck defaults to every card of the rules' deck not held and not discarded.
    """
    players = len(hands)
    actions = [sort_cards(list(cards)) for cards in actions] if actions is not None else [[] for _ in range(players)]
    discards = {kind: (discards or {}).get(kind, 0) for kind in ACTION_KINDS}
    if deck is None:
        deck = {
            kind: rules.action_deck[kind] - discards[kind] - sum(c.count(kind) for c in actions)
            for kind in ACTION_KINDS
        }
    else:
        deck = {kind: deck.get(kind, 0) for kind in ACTION_KINDS}
    state = State(
        rules=rules,
        board=[list(row) for row in board],
        hands=[sorted(hand) for hand in hands],
        supply=list(supply),
        scores=list(scores) if scores is not None else [0] * players,
        actions=actions,
        deck=deck,
        discards=discards,
        action_draws=list(action_draws),
        luck=[{kind: held.get(kind, 0) for kind in LUCK_KINDS} for held in luck]
        if luck is not None
        else [{kind: 0 for kind in LUCK_KINDS} for _ in range(players)],
        stacks=dict(stacks) if stacks is not None else dict(rules.luck_stacks),
        refill_due=refill_due,
        stops=list(stops),
        turn=turn,
    )
    check_position(state)
    return state


# --------------------------------------------------------------------------- placing rules


def uncovered(rules: Rules, board: list[list[int | None]], r: int) -> list[str]:
    """Codes of row r's fields without a tile: the skipped ones and those after the last tile."""
    codes = rules.rows[r]
    return [codes[i] for i in range(len(codes)) if i >= len(board[r]) or board[r][i] is None]


def play_two_open(rules: Rules, board: list[list[int | None]]) -> bool:
    """True while an active row has an uncovered play-two field.

    "A skipped play-two field stays uncovered, so its row keeps play two going until the
    row is cleared."
    """
    return any(board[r] and "2" in uncovered(rules, board, r) for r in range(len(board)))


def tiles_per_seat(state: State) -> int:
    """'Play two [default]': checked at the start of each turn; always 2, never 3."""
    return 2 if play_two_open(state.rules, state.board) else 1


def open_rows(board: list[list[int | None]], stops: Sequence[int]) -> list[int]:
    """Active rows without a stop sign: "for Rules 1-2 and the too-low exception a stopped row counts as absent"."""
    return [r for r, row in enumerate(board) if row and r not in stops]


def target_row(board: list[list[int | None]], stops: Sequence[int], tile: int) -> tuple[int, bool]:
    """(row, too_low): Rule 1 (end lower), Rule 2 (smallest difference), the exception (after the highest end)."""
    ends = {r: board[r][-1] for r in open_rows(board, stops)}
    higher = [r for r in ends if ends[r] < tile]
    if higher:
        return min(higher, key=lambda r: tile - ends[r]), False
    return max(ends, key=lambda r: ends[r]), True


def free_rows(board: list[list[int | None]]) -> list[int]:
    """'Free row': "any empty row, the one just taken included"."""
    return [r for r, row in enumerate(board) if not row]


class _Turn:
    """The placing phase of one turn, on a private copy of the state."""

    def __init__(self, state: State, decide: Decide | None, rng: random.Random | None) -> None:
        """Start the phase: nothing placed, scored or asked yet, no luck card gained this turn."""
        self.state = state
        self.rules = state.rules
        self.decide = decide
        self.rng = rng
        self.placements: list[Placement] = []
        self.effects: list[Effect] = []
        self.asked: list[Ask] = []
        self.removed: list[int] = []
        self.fresh = [{kind: 0 for kind in LUCK_KINDS} for _ in range(state.players)]

    # ----------------------------------------------------------------- decisions

    def ask(self, seat: int, ask: str, options: list):
        """Ask the seat's decision; the answer must be one of the options (same value and type)."""
        where = f"turn {self.state.turn}: seat {seat}"
        if self.decide is None:
            raise ValueError(f"{where} must decide {ask} but no decide callback was given")
        answer = self.decide(seat, ask, list(options))
        if not any(answer == o and type(answer) is type(o) for o in options):
            raise ValueError(f"{where}: {ask} answer {answer!r} is not one of {options}")
        self.asked.append(Ask(seat, ask, list(options), answer))
        return answer

    # ----------------------------------------------------------------- luck cards (variant 4)

    def usable(self, seat: int, kind: str) -> bool:
        """Pro-luck: the seat holds a luck card of this kind gained before this turn ('When usable')."""
        if not self.rules.luck:
            return False
        return self.state.luck[seat][kind] - self.fresh[seat][kind] > 0

    def use(self, seat: int, kind: str) -> None:
        """Play a luck card: "used cards go back to their stack"."""
        self.state.luck[seat][kind] -= 1
        self.state.stacks[kind] += 1

    def score(self, seat: int, tile: int, row: int, field_no: int, cause: str, points: int, got=None) -> Effect:
        """Apply one effect; in pro-luck a loss over or onto clovers gains luck cards ('Gaining')."""
        old = self.state.scores[seat]
        new = old + points
        self.state.scores[seat] = new
        effect = Effect(seat, tile, row, field_no, cause, points, got)
        self.effects.append(effect)
        if self.rules.luck and new < old:
            effect.gained = self.gain_luck(seat, old, new)
        return effect

    def gain_luck(self, seat: int, old: int, new: int) -> list[str]:
        """One luck card per clover c with new <= c < old, of the seat's choice among the non-empty stacks.

        As the basic reference (its [reading]): asked once per clover while a stack holds a
        card, offering only those kinds; both empty: nothing gained, nothing asked.
        """
        gained = []
        for _ in sorted({c for c in self.rules.clovers if new <= c < old}, reverse=True):
            options = [kind for kind in LUCK_KINDS if self.state.stacks[kind] > 0]
            if not options:
                continue
            kind = self.ask(seat, "luck_card", options)
            self.state.stacks[kind] -= 1
            self.state.luck[seat][kind] += 1
            self.fresh[seat][kind] += 1  # usable from the next turn on
            gained.append(kind)
        return gained

    # ----------------------------------------------------------------- drawing

    def draw_tile(self, seat: int) -> int | None:
        """A D field: "draw a tile (from the supply, into the hand, if any left)"; in the hand at once."""
        if not self.state.supply:
            return None  # "an empty supply makes a D field do nothing"
        tile = self.state.supply.pop(0)
        self.state.hands[seat] = sorted(self.state.hands[seat] + [tile])
        return tile

    def draw_action(self, seat: int) -> str | None:
        """An A field: "top of the deck; the discards are reshuffled when it is empty"; none if both are empty."""
        st = self.state
        if sum(st.deck.values()) == 0:
            st.deck, st.discards = st.discards, no_cards()  # the discard pile, shuffled, is the deck
        if sum(st.deck.values()) == 0:
            return None  # "if that is empty too, no card is drawn"
        kind = self.top_card()
        st.deck[kind] -= 1
        st.actions[seat] = sort_cards(st.actions[seat] + [kind])
        st.drawn_actions.append(kind)
        return kind

    def top_card(self) -> str:
        """The deck's top card: the next of `action_draws`, or uniformly from the deck ([reading] 7)."""
        st = self.state
        if st.action_draws:
            kind = st.action_draws.pop(0)
            if st.deck.get(kind, 0) <= 0:
                raise ValueError(f"turn {st.turn}: action_draws lists {kind!r}, but the deck holds none")
            return kind
        if self.rng is None:
            raise ValueError(f"turn {st.turn}: an action card must be drawn, but action_draws is exhausted")
        cards = [kind for kind in ACTION_KINDS for _ in range(st.deck[kind])]
        return self.rng.choice(cards)

    # ----------------------------------------------------------------- action cards

    def skip_field(self, tile: int) -> tuple[int, int] | None:
        """Skip: (row, field) "on the field after the next free field", or None when not allowed.

        "Skip acts in the row Rules 1-2 give; it cannot land on or pass the take field"
        ("Skip needs two free fields before the take field"). [reading] 2: the too-low
        exception's row counts as the row the tile would go to.
        """
        row, _ = target_row(self.state.board, self.state.stops, tile)
        land = len(self.state.board[row]) + 2  # the next free field is len + 1; it is skipped
        return (row, land) if land < len(self.rules.rows[row]) else None

    def front_rows(self, tile: int) -> list[int]:
        """Front: "any active row whose first tile is higher"; the shift "may not push a tile onto the take field".

        [reading] 1: not a stopped row.
        """
        board = self.state.board
        return [
            r
            for r in open_rows(board, self.state.stops)
            if board[r][0] > tile and len(board[r]) + 1 < len(self.rules.rows[r])
        ]

    def ascending_rows(self, tile: int) -> list[int]:
        """Ascending: "put your tile at the end of any active row it is higher than (Rule 2 waived)".

        It "may land on the take field". [reading] 1: not a stopped row.
        """
        board = self.state.board
        return [r for r in open_rows(board, self.state.stops) if board[r][-1] < tile]

    def card_options(self, seat: int, tile: int) -> list:
        """The legal answers to "action" for this tile: None, then each legal play of the kinds held.

        [reading] 5: kinds held with no legal play are left out; None is always legal.
        """
        st = self.state
        held = set(st.actions[seat])
        hand = sorted(st.hands[seat])
        options: list = [None]
        if "stop" in held and len(st.stops) < self.rules.stop_signs:
            # "Stop: on any active row, the owner's own target row included"; [reading] 1, 10.
            options += [{"card": "stop", "row": r} for r in open_rows(st.board, st.stops)]
        if "swap" in held:
            options += [{"card": "swap", "tile": t} for t in hand]  # [reading] 3
        if "skip" in held and self.skip_field(tile) is not None:
            options.append({"card": "skip"})
        if "front" in held:
            options += [{"card": "front", "row": r} for r in self.front_rows(tile)]
        if "ascending" in held:
            options += [{"card": "ascending", "row": r} for r in self.ascending_rows(tile)]
        if "one_more" in held:
            options += [{"card": "one_more", "tile": t} for t in hand]
        return options

    def discard(self, seat: int, kind: str) -> None:
        """Play an action card: "used cards go to the discard pile" ([reading] 6: at once)."""
        self.state.actions[seat].remove(kind)
        self.state.discards[kind] += 1

    def play_put_out(self, seat: int, tile: int) -> None:
        """Place one tile the seat put out, and every tile its One more cards add, "now, lower first"."""
        now = [tile]
        while now:
            tile = min(now)
            now.remove(tile)
            self.play_tile(seat, tile, now)

    def play_tile(self, seat: int, tile: int, now: list[int]) -> None:
        """Offer the seat its action cards for this tile, then place the tile (unless a card placed it).

        "When cards are offered: before every tile a seat places (not the tile moved after a
        take) while it holds at least one action card, playable or not; again after each
        card, until the seat declines, a card has placed the tile, or it holds no card."
        `now` holds the seat's other tiles to be placed at once (One more).
        """
        st = self.state
        while st.actions[seat]:
            answer = self.ask(seat, "action", self.card_options(seat, tile))
            if answer is None:
                break  # declined
            kind = answer["card"]
            self.discard(seat, kind)
            if kind == "stop":
                # "put a stop sign on the end of an active row; no tile may be added to it"
                st.stops.append(answer["row"])
            elif kind == "swap":
                # "take back your revealed tile into your hand and place another from your hand
                # at once"; "the new tile becomes the tile the owner's cards apply to".
                new = answer["tile"]
                st.hands[seat].remove(new)
                st.hands[seat] = sorted(st.hands[seat] + [tile])
                tile = new
            elif kind == "one_more":
                # "play another tile from your hand at once; your tiles are placed lowest
                # first, now" ([reading] 4: the lower one is the tile the next cards act on).
                extra = answer["tile"]
                st.hands[seat].remove(extra)
                if extra < tile:
                    tile, extra = extra, tile
                now.append(extra)
            elif kind == "skip":
                row, land = self.skip_field(tile)
                self.put(seat, tile, row, land, "skip")  # the skipped field stays empty
                return
            elif kind == "front":
                self.put(seat, tile, answer["row"], 1, "front")
                return
            elif kind == "ascending":
                row = answer["row"]
                self.put(seat, tile, row, len(st.board[row]) + 1, "ascending")
                return
        row, too_low = target_row(st.board, st.stops, tile)
        self.put(seat, tile, row, len(st.board[row]) + 1, "too_low" if too_low else "rules")

    # ----------------------------------------------------------------- fields

    def put(self, seat: int, tile: int, row: int, field_no: int, how: str) -> None:
        """Put the tile on field `field_no` of `row` and apply that field.

        Front: "every tile and empty field of the row moves one field right ... shifted tiles
        trigger nothing, the front tile triggers field 1". Skip: the fields passed stay empty.
        """
        cells = self.state.board[row]
        if how == "front":
            cells.insert(0, tile)
        else:
            while len(cells) < field_no - 1:
                cells.append(None)  # "the skipped field stays empty until the row is cleared"
            cells.append(tile)
        self.placements.append(Placement(seat, tile, row, field_no, how))
        if self.rules.rows[row][field_no - 1] in TAKE_CODES:
            self.take(seat, tile, row, field_no)
        else:
            self.land(seat, tile, row, field_no)

    def land(self, seat: int, tile: int, row: int, field_no: int) -> None:
        """A tile lands on a non-take field: "+5" instead of the field if played, else the field's effect.

        Pro-luck: "a "+5" replaces a D or A field's draw" as it replaces any other effect.
        """
        code = self.rules.rows[row][field_no - 1]
        kind = field_kind(code)
        if self.usable(seat, "+5") and self.ask(seat, "use_plus5", [True, False]):
            self.use(seat, "+5")
            self.score(seat, tile, row, field_no, "plus5", PLUS5_POINTS)
            return
        if kind == "draw_tile":
            self.score(seat, tile, row, field_no, kind, 0, got=self.draw_tile(seat))
        elif kind == "draw_action":
            self.score(seat, tile, row, field_no, kind, 0, got=self.draw_action(seat))
        else:
            self.score(seat, tile, row, field_no, kind, field_points(code, self.rules.bullheads[tile]))

    def take(self, seat: int, tile: int, row: int, field_no: int) -> None:
        """A T or H field: the tiles left of the placed tile are scored (T) or go into the hand (H);
        the placed tile goes to a free row of the player's choice and triggers its field 1.

        T: minus their bullheads ("2x" may turn the best two to plus: "2x applies only where a
        row is scored (T)"); "those tiles leave the game". H: "the tiles left of the placed
        tile go into the player's hand unscored". Then "the player puts the tile into any
        free row of their choice (a decision)", "the one just taken included"; "the moved
        tile does trigger field 1's effect". Order: "2x", luck cards gained, free row, then
        field 1's "+5" and its effect.
        """
        st = self.state
        left = [t for t in st.board[row][:-1] if t is not None]  # skipped fields hold nothing
        if self.rules.rows[row][field_no - 1] == "T":
            values = [self.rules.bullheads[t] for t in left]
            double = self.usable(seat, "2x") and self.ask(seat, "use_double", [True, False])
            if double:
                self.use(seat, "2x")
            self.score(seat, tile, row, field_no, "take_2x" if double else "take", basic.take_points(values, double))
            self.removed.extend(left)
        else:
            st.hands[seat] = sorted(st.hands[seat] + left)
            self.score(seat, tile, row, field_no, "take_hand", 0, got=list(left))
        st.board[row] = []
        new_row = self.ask(seat, "free_row", free_rows(st.board))  # [reading] 9: always asked
        st.board[new_row] = [tile]
        self.placements.append(Placement(seat, tile, new_row, 1, "moved"))
        self.land(seat, tile, new_row, 1)  # no action cards for the moved tile


# --------------------------------------------------------------------------- turns and the game


def refill(state: State) -> None:
    """2-3 players, the first time a hand is empty at the end of a turn: "every player draws 12 tiles
    (an equal share if the supply is short)"; seat 0 first from the front ([reading] 8)."""
    share = min(HAND_SIZE, len(state.supply) // state.players)
    for seat in range(state.players):
        state.hands[seat] = sorted(state.hands[seat] + state.supply[:share])
        state.supply = state.supply[share:]
    state.refill_due = False


def final_scoring(state: State) -> list[Effect]:
    """The end: "everyone gains 1 point per action card in hand and loses the bullheads of every tile still in hand".

    "Final scoring asks nothing: no luck card is gained from it; luck cards score nothing."
    """
    effects = []
    for seat in range(state.players):
        cards = len(state.actions[seat])
        tiles = -sum(state.rules.bullheads[t] for t in state.hands[seat])
        effects.append(Effect(seat, None, None, None, "end_cards", cards))
        effects.append(Effect(seat, None, None, None, "end_tiles", tiles))
        state.scores[seat] += cards + tiles
    return effects


def play_turn(
    state: State, tiles: list[list[int]], decide: Decide | None = None, rng: random.Random | None = None
) -> TurnResult:
    """One turn: tiles[s] are seat s's revealed tiles, placed lowest first with cards, effects and decisions.

    The input state is not mutated. At the end of the turn the stop signs are removed; then
    "as soon as, at the end of a turn, some player has no tiles in hand" the game ends (with
    2-3 players the first time is the refill instead), and the final scoring follows.
    `rng` orders the action deck where `action_draws` runs out ([reading] 7).
    """
    if state.over:
        raise ValueError(f"turn {state.turn}: the game is over")
    if len(tiles) != state.players:
        raise ValueError(f"turn {state.turn}: need the tiles of {state.players} seats, got {len(tiles)}")
    count = tiles_per_seat(state)
    new = state.copy()
    for seat, chosen in enumerate(tiles):
        need = min(count, len(new.hands[seat]))  # "A player with one tile left plays one"
        if len(chosen) != need:
            raise ValueError(f"turn {state.turn}: seat {seat} must put out {need} tile(s), got {len(chosen)}")
        for tile in chosen:
            if tile not in new.hands[seat]:
                raise ValueError(f"turn {state.turn}: seat {seat} does not hold tile {tile}")
            new.hands[seat].remove(tile)

    phase = _Turn(new, decide, rng)
    for tile, seat in sorted((tile, seat) for seat, chosen in enumerate(tiles) for tile in chosen):
        phase.play_put_out(seat, tile)  # "tiles are placed lowest first"
    new.removed.extend(phase.removed)
    stops = list(new.stops)
    new.stops = []  # "Stop signs are removed at the end of the turn"

    refilled = False
    if any(not hand for hand in new.hands):
        if new.refill_due:
            refill(new)
            refilled = True
        if any(not hand for hand in new.hands):  # [reading] 8: a refill too short to help ends the game
            new.over = True
    effects = list(phase.effects)
    if new.over:
        effects += final_scoring(new)
    new.turn += 1

    deltas = [0] * new.players
    for effect in effects:
        deltas[effect.seat] += effect.points
    return TurnResult(
        state=new,
        count=count,
        tiles=[list(chosen) for chosen in tiles],
        placements=phase.placements,
        effects=effects,
        deltas=deltas,
        asked=phase.asked,
        removed=phase.removed,
        stops=stops,
        refilled=refilled,
        over=new.over,
    )


def game_over(state: State) -> bool:
    """The pro end has been reached (and the final scoring applied)."""
    return state.over


winners = basic.winners  # "Most points wins"; 'ties: all tied players win'
Script = basic.Script  # plays back (seat, ask, answer) triples, fails on any other ask


def play_game(
    rules: Rules,
    hands: list[list[int]],
    start: list[int],
    draws: Sequence[int],
    action_draws: Sequence[str],
    pick: Pick,
    decide: Decide | None = None,
    rng: random.Random | None = None,
    max_turns: int = 1000,
) -> GameResult:
    """A whole game: pick(state, seat, count) chooses each seat's tiles, decide answers the asks.

    The game record's `action_draws` is `result.state.drawn_actions` (the dealt cards first).
    """
    state = new_game(rules, hands, start, draws, action_draws)
    turns = []
    while not state.over:
        if len(turns) >= max_turns:
            raise RuntimeError(f"no end after {max_turns} turns")
        count = tiles_per_seat(state)
        tiles = [pick(state, seat, min(count, len(state.hands[seat]))) for seat in range(state.players)]
        result = play_turn(state, tiles, decide, rng)
        turns.append(result)
        state = result.state
    return GameResult(turns=turns, scores=list(state.scores), winners=winners(state.scores), state=state)


def record_decisions(asked: list[Ask]) -> list[dict]:
    """A turn's asks as the record's `decisions` entries ({"seat", "ask", "answer"}; null written out)."""
    return [{"seat": a.seat, "ask": a.ask, "answer": a.answer} for a in asked]
