"""Slow, scalar reference implementation of the 6 nimmt! board game (2019), basic side, variants 1-2.

Written independently from the engine, straight from the rules (docs/rules/board-game.md,
"the rules" below; the source is the German review docs/rules cites) and the decision order
of the record format (docs/spec/board-record.md, "the record" below). It imports nothing
from the project: the board is plain data, and the default basic board of the rules is
defined here again, as data.

Variants: "basic" (variant 1) and "luck" (variant 2, luck cards); the pro side is not here.

Vocabulary (as in the record): seats 0..P-1; rows 0..9 (the rules number them 1..10 on
screen); fields are numbered 1..len(row) as in the rules, field 1 first. On the basic side a
row's tiles always lie on fields 1..k with no gap, so `board[r]` is simply the list of its
tiles, the next field is number len(board[r]) + 1, and a row without tiles is *free*, the
others *active*.

Decisions go through a callback `decide(seat, ask, options) -> answer`; the asks are named as
in the record and asked in its order:
  - "luck_card":  options are the kinds whose stack still holds a card, from ("+5", "2x");
  - "use_plus5":  options [True, False];
  - "use_double": options [True, False].

Where even the rules' [default] readings are silent this file picks the reading a player
would expect and marks it **[reading]** in the docstring concerned.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

# --------------------------------------------------------------------------- the board as data

TILES = range(1, 101)  # "100 number tiles 1..100, each number once"
HAND_SIZE = 12  # "Each player draws 12 tiles"
ACTIVE_ROWS = 4  # "there are always four active rows"
MIN_PLAYERS, MAX_PLAYERS = 2, 6
REFILL_PLAYERS = (2, 3)  # "With 2-3 players each player refills once"
VARIANTS = ("basic", "luck")
NEXT_ROW_OPTIONS = ("scan", "rotate")
LUCK_KINDS = ("+5", "2x")
PLUS5_POINTS = 5

# "Default board, basic side (blue bullhead) -- an APPROXIMATION"; field 1 first.
DEFAULT_BASIC_ROWS: list[list[str]] = [
    [".", ".", "+", "-", "T"],  # R1
    [".", "+", ".", "-", ".", "T"],  # R2
    [".", "-", "+", "T"],  # R3
    [".", ".", "+", ".", "-3", ".", "T"],  # R4
    [".", "+", "-", ".", "T"],  # R5
    [".", "2", "+", "-", ".", "T"],  # R6
    [".", "-", "2", "T"],  # R7
    [".", "+", ".", "2", "-", ".", "T"],  # R8
    [".", "2", "-", "+2", "T"],  # R9
    [".", "+", "2", "-", ".", "T"],  # R10
]


def default_bullheads_of(tile: int) -> int:
    """'Tile bullheads [default]': multiples of 11 -> 5 (55 too), of 10 -> 3, of 5 -> 2, else 1."""
    if tile % 11 == 0:
        return 5
    if tile % 10 == 0:
        return 3
    if tile % 5 == 0:
        return 2
    return 1


DEFAULT_BULLHEADS: dict[int, int] = {tile: default_bullheads_of(tile) for tile in TILES}  # 165 in all

# 'Score track [default]': clovers on every non-zero multiple of 10. The track is unbounded;
# this finite list reaches beyond any score the default board allows (a placement gains at
# most 15: a 2x take and a "+5" on field 1; it loses at most 5 outside takes, and the takes
# of a game score at most the 165 bullheads once each), so it is "every" multiple in practice.
DEFAULT_CLOVERS: list[int] = [c for c in range(-2000, 2001, 10) if c != 0]

# 'Variant 2': "Two open stacks, 6 "+5" and 6 "2x" [default counts]".
DEFAULT_LUCK_STACKS: dict[str, int] = {"+5": 6, "2x": 6}


def field_kind(code: str) -> str:
    """The kind of a basic-side field code: plain, green, red, fixed, play_two or take."""
    kinds = {".": "plain", "+": "green", "-": "red", "2": "play_two", "T": "take"}
    if code in kinds:
        return kinds[code]
    digits = code[1:]
    if code[:1] in ("+", "-") and digits.isascii() and digits.isdigit() and int(digits) > 0:
        return "fixed"  # "+N"/"-N": plus or minus the printed value
    raise ValueError(f"unknown basic-side field code {code!r} (use . + - +N -N 2 T)")


def field_points(code: str, bullheads: int) -> int:
    """Points a tile with `bullheads` scores on a non-take field (the list of field effects)."""
    kind = field_kind(code)
    if kind == "green":
        return bullheads  # green bullhead: plus the tile's bullheads
    if kind == "red":
        return -bullheads  # red bullhead: minus the tile's bullheads
    if kind == "fixed":
        return int(code)  # fixed value: plus or minus the printed value
    if kind in ("plain", "play_two"):
        return 0  # plain: nothing; play two: nothing at once (it changes the tile count)
    raise ValueError("a take field has no landing points; see take()")


@dataclass
class Rules:
    """The board as data (rows of field codes, tile bullheads, clovers) and the rule options."""

    rows: list[list[str]] = field(default_factory=lambda: [list(r) for r in DEFAULT_BASIC_ROWS])
    bullheads: dict[int, int] | list[int] = field(default_factory=lambda: dict(DEFAULT_BULLHEADS))
    clovers: list[int] = field(default_factory=lambda: list(DEFAULT_CLOVERS))
    variant: str = "basic"  # "basic" (variant 1) or "luck" (variant 2)
    next_row: str = "scan"  # "scan" (default) or "rotate"
    luck_stacks: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_LUCK_STACKS))

    def __post_init__(self) -> None:
        """Bullheads given as a list of 100 become a dict; then the whole board is checked."""
        if isinstance(self.bullheads, (list, tuple)):
            if len(self.bullheads) != len(TILES):
                raise ValueError(f"bullheads: need 100 values for tiles 1..100, got {len(self.bullheads)}")
            self.bullheads = {tile: self.bullheads[tile - 1] for tile in TILES}
        check_rules(self)


def check_rules(rules: Rules) -> None:
    """'Layouts [default checks]' for the basic side, and the options; a one-line ValueError if not."""
    if rules.variant not in VARIANTS:
        raise ValueError(f"variant must be one of {VARIANTS}, got {rules.variant!r}")
    if rules.next_row not in NEXT_ROW_OPTIONS:
        raise ValueError(f"next_row must be one of {NEXT_ROW_OPTIONS}, got {rules.next_row!r}")
    if len(rules.rows) < ACTIVE_ROWS + 1:
        raise ValueError(f"layout: need at least 5 rows (4 active + 1 free), got {len(rules.rows)}")
    for r, codes in enumerate(rules.rows):
        where = f"layout row {r + 1}"
        if len(codes) < 2:
            raise ValueError(f"{where}: every row has at least 2 fields, got {len(codes)}")
        kinds = [field_kind(code) for code in codes]  # unknown codes (D, A, H ...) are refused here
        if kinds[-1] != "take":
            raise ValueError(f"{where}: the last field must be the take field T, got {codes[-1]!r}")
        if "take" in kinds[:-1]:
            raise ValueError(f"{where}: a take field T may stand only last")
        if codes[0] != ".":
            raise ValueError(f"{where}: on the basic side field 1 is plain, got {codes[0]!r}")
    if sorted(rules.bullheads) != list(TILES):
        raise ValueError("bullheads: need a value for each tile 1..100")
    for tile, value in rules.bullheads.items():
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 5:
            raise ValueError(f"bullheads: tile {tile} shows 1-5 bullheads, got {value!r}")
    if any(not isinstance(c, int) or isinstance(c, bool) for c in rules.clovers):
        raise ValueError("clovers: need a list of integer score-track values")
    if sorted(rules.luck_stacks) != sorted(LUCK_KINDS) or any(n < 0 for n in rules.luck_stacks.values()):
        raise ValueError(f"luck_stacks: need a count >= 0 for each of {LUCK_KINDS}")


# --------------------------------------------------------------------------- state and results


@dataclass
class State:
    """Everything between two turns: board, hands, supply, scores, luck cards, next-row pointer."""

    rules: Rules
    board: list[list[int]]  # per row the tiles on fields 1..k; [] = a free row
    hands: list[list[int]]  # per seat the tiles still hidden behind the screen
    supply: list[int]  # tiles still to be drawn, in draw order (the record's `draws`)
    scores: list[int]  # "everyone starts at 0"
    luck: list[dict[str, int]]  # per seat the luck cards held, by kind (public)
    stacks: dict[str, int]  # luck cards left on each open stack
    pointer: int = ACTIVE_ROWS - 1  # "rotate": the most recently opened row (row 4 after set-up)
    refill_due: bool = False  # 2-3 players: the refill has not happened yet
    removed: list[int] = field(default_factory=list)  # tiles scored in a take; they left the game
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
            luck=[dict(cards) for cards in self.luck],
            stacks=dict(self.stacks),
            pointer=self.pointer,
            refill_due=self.refill_due,
            removed=list(self.removed),
            turn=self.turn,
        )


@dataclass
class Placement:
    """One tile put on a field: the seat, tile, row, field (1-based), and how it got there."""

    seat: int
    tile: int
    row: int
    field: int
    too_low: bool = False  # placed by the too-low exception
    moved: bool = False  # the tile moved to field 1 of a free row after its take


@dataclass
class Effect:
    """One score change: seat, tile, where, cause, points, and the luck cards it gained."""

    seat: int
    tile: int
    row: int
    field: int
    cause: str  # plain, green, red, fixed, play_two, plus5, take, take_2x
    points: int
    gained: list[str] = field(default_factory=list)


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

    state: State  # after the turn, the 2-3-player refill included
    count: int  # tiles each seat put out (1 or 2; a seat with one tile left puts out one)
    tiles: list[list[int]]  # the tiles each seat put out, in seat order
    placements: list[Placement]
    effects: list[Effect]
    deltas: list[int]  # per seat the sum of this turn's effects
    asked: list[Ask]
    removed: list[int]  # tiles that left the game this turn
    refilled: bool  # the 2-3-player refill happened at the end of this turn

    @property
    def board(self) -> list[list[int]]:
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
    """Shuffle tiles 1..100: four start tiles, then 12 per seat, the rest is the supply in draw order."""
    tiles = list(TILES)
    rng.shuffle(tiles)
    start = tiles[:ACTIVE_ROWS]
    hands = [tiles[ACTIVE_ROWS + HAND_SIZE * s : ACTIVE_ROWS + HAND_SIZE * (s + 1)] for s in range(players)]
    draws = tiles[ACTIVE_ROWS + HAND_SIZE * players :]
    return hands, start, draws


def new_game(rules: Rules, hands: list[list[int]], start: list[int], draws: Sequence[int] = ()) -> State:
    """Set-up: the four start tiles on field 1 of rows 1-4, 12 tiles per hand, the supply, scores 0."""
    players = len(hands)
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be {MIN_PLAYERS}-{MAX_PLAYERS}, got {players}")
    for seat, hand in enumerate(hands):
        if len(hand) != HAND_SIZE:
            raise ValueError(f"seat {seat} must hold {HAND_SIZE} tiles, holds {len(hand)}")
    if len(start) != ACTIVE_ROWS:
        raise ValueError(f"need {ACTIVE_ROWS} start tiles, got {len(start)}")
    # Start tiles cover field 1 of the top four rows and trigger nothing.
    board = [[tile] for tile in start] + [[] for _ in range(len(rules.rows) - ACTIVE_ROWS)]
    return position(rules, board, hands, supply=draws, refill_due=players in REFILL_PLAYERS)


def check_position(state: State) -> None:
    """A position the rules can reach: four active rows, no tile on a take field, no tile twice."""
    rules = state.rules
    if len(state.board) != len(rules.rows):
        raise ValueError(f"board: need {len(rules.rows)} rows, got {len(state.board)}")
    active = [r for r, tiles in enumerate(state.board) if tiles]
    if len(active) != ACTIVE_ROWS:
        raise ValueError(f"board: need {ACTIVE_ROWS} active rows, got {len(active)}")
    for r in active:
        if len(state.board[r]) >= len(rules.rows[r]):
            raise ValueError(f"board row {r + 1}: {len(state.board[r])} tiles, but field {len(rules.rows[r])} takes")
    seen = [t for row in state.board for t in row] + [t for h in state.hands for t in h] + state.supply + state.removed
    if len(set(seen)) != len(seen) or any(t not in TILES for t in seen):
        raise ValueError("position: a tile is not one of 1..100 or appears twice")
    if len(state.scores) != state.players or len(state.luck) != state.players:
        raise ValueError("position: need one score and one luck hand per seat")
    if not 0 <= state.pointer < len(rules.rows):
        raise ValueError(f"position: pointer must be a row 0..{len(rules.rows) - 1}")


def position(
    rules: Rules,
    board: list[list[int]],
    hands: list[list[int]],
    scores: list[int] | None = None,
    luck: list[dict[str, int]] | None = None,
    stacks: dict[str, int] | None = None,
    pointer: int = ACTIVE_ROWS - 1,
    supply: Sequence[int] = (),
    refill_due: bool = False,
    turn: int = 0,
) -> State:
    """A mid-game State from plain data (for scripted cases), checked by check_position."""
    players = len(hands)
    state = State(
        rules=rules,
        board=[list(row) for row in board],
        hands=[list(hand) for hand in hands],
        supply=list(supply),
        scores=list(scores) if scores is not None else [0] * players,
        luck=[{kind: held.get(kind, 0) for kind in LUCK_KINDS} for held in luck]
        if luck is not None
        else [{kind: 0 for kind in LUCK_KINDS} for _ in range(players)],
        stacks=dict(stacks) if stacks is not None else dict(rules.luck_stacks),
        pointer=pointer,
        refill_due=refill_due,
        turn=turn,
    )
    check_position(state)
    return state


# --------------------------------------------------------------------------- placing rules


def play_two_open(rules: Rules, board: list[list[int]]) -> bool:
    """True while an active row has an uncovered play-two field ('Play two [default]')."""
    for r, tiles in enumerate(board):
        uncovered = rules.rows[r][len(tiles) :]
        if tiles and "2" in uncovered:
            return True
    return False


def tiles_per_seat(state: State) -> int:
    """Tiles every seat puts out this turn: 2 while play two is open at the start of the turn, else 1."""
    return 2 if play_two_open(state.rules, state.board) else 1


def target_row(board: list[list[int]], tile: int) -> tuple[int, bool]:
    """(row, too_low) for a tile: Rule 1 (higher than the end), Rule 2 (smallest difference), the exception."""
    ends = {r: tiles[-1] for r, tiles in enumerate(board) if tiles}
    higher = [r for r in ends if ends[r] < tile]  # Rule 1: only rows whose end is lower
    if higher:
        return min(higher, key=lambda r: tile - ends[r]), False  # Rule 2: the smallest difference
    # Exception: a tile lower than every row end goes to the right of the highest row end.
    return max(ends, key=lambda r: ends[r]), True


def next_free_row(board: list[list[int]], taken: int, pointer: int, option: str) -> int:
    """'Next free row [default]': the first empty row after `taken` ("scan") or after the pointer ("rotate")."""
    after = taken if option == "scan" else pointer
    count = len(board)
    for step in range(1, count + 1):
        r = (after + step) % count  # downward, wrapping from the last row to row 1
        if r != taken and not board[r]:  # never back into the row just taken
            return r
    raise ValueError("no free row left for the tile after a take")


def take_points(values: list[int], double: bool) -> int:
    """Points for scoring a taken row: minus every bullhead; with "2x" the best two count as plus."""
    if not double:
        return -sum(values)
    best = sorted(values, reverse=True)[:2]  # the player's best two (a one-tile row: that tile)
    return sum(best) - (sum(values) - sum(best))


class _Turn:
    """The placing phase of one turn, on a private copy of the state."""

    def __init__(self, state: State, decide: Decide | None) -> None:
        """Start the phase: nothing placed, scored or asked yet, no luck card gained this turn."""
        self.state = state
        self.rules = state.rules
        self.decide = decide
        self.placements: list[Placement] = []
        self.effects: list[Effect] = []
        self.asked: list[Ask] = []
        self.removed: list[int] = []
        self.fresh = [{kind: 0 for kind in LUCK_KINDS} for _ in range(state.players)]

    def ask(self, seat: int, ask: str, options: list):
        """Ask the seat's decision through the callback; the answer must be one of the options."""
        where = f"turn {self.state.turn}: seat {seat}"
        if self.decide is None:
            raise ValueError(f"{where} must decide {ask} but no decide callback was given")
        answer = self.decide(seat, ask, list(options))
        if not any(answer == o and type(answer) is type(o) for o in options):
            raise ValueError(f"{where}: {ask} answer {answer!r} is not one of {options}")
        self.asked.append(Ask(seat, ask, list(options), answer))
        return answer

    def usable(self, seat: int, kind: str) -> bool:
        """Luck variant: the seat holds a card of this kind gained before this turn ('When usable')."""
        if self.rules.variant != "luck":
            return False
        return self.state.luck[seat][kind] - self.fresh[seat][kind] > 0

    def use(self, seat: int, kind: str) -> None:
        """Play a luck card: it goes back on its stack at once ('used cards go back to their stack')."""
        self.state.luck[seat][kind] -= 1
        self.state.stacks[kind] += 1

    def score(self, seat: int, tile: int, row: int, field_no: int, cause: str, points: int) -> None:
        """Apply one effect to the seat's score; a loss may gain luck cards ('Gaining')."""
        old = self.state.scores[seat]
        new = old + points
        self.state.scores[seat] = new
        effect = Effect(seat, tile, row, field_no, cause, points)
        self.effects.append(effect)
        if self.rules.variant == "luck" and new < old:
            effect.gained = self.gain_luck(seat, old, new)

    def gain_luck(self, seat: int, old: int, new: int) -> list[str]:
        """One luck card per clover c with new <= c < old, of the seat's choice among non-empty stacks.

        [reading] The choice is asked once per clover whenever at least one stack holds a
        card, with only the kinds still on a stack as options (one option when the other
        stack is empty: "if it is empty, the other"); both empty: no card, nothing asked.
        Clovers are passed from the highest down.
        """
        gained = []
        for clover in sorted({c for c in self.rules.clovers if new <= c < old}, reverse=True):
            options = [kind for kind in LUCK_KINDS if self.state.stacks[kind] > 0]
            if not options:
                continue  # both stacks empty: none
            kind = self.ask(seat, "luck_card", options)
            self.state.stacks[kind] -= 1
            self.state.luck[seat][kind] += 1
            self.fresh[seat][kind] += 1  # not offered again in this turn ('When usable')
            gained.append(kind)
        return gained

    def place(self, seat: int, tile: int) -> None:
        """Put one revealed tile at the end of its row (Rules 1-2, the exception) and apply the field."""
        board = self.state.board
        row, too_low = target_row(board, tile)
        field_no = len(board[row]) + 1
        board[row].append(tile)
        self.placements.append(Placement(seat, tile, row, field_no, too_low=too_low))
        if field_kind(self.rules.rows[row][field_no - 1]) == "take":
            self.take(seat, tile, row, field_no)  # lowness alone never takes: only the take field does
        else:
            self.land(seat, tile, row, field_no)

    def land(self, seat: int, tile: int, row: int, field_no: int) -> None:
        """A tile lands on a non-take field: "+5" instead of the effect if the seat plays one, else the effect.

        The tile moved after a take lands here too, on field 1: on the basic side field 1 is
        plain (check_rules), so it triggers nothing, but a "+5" may be played on it.
        """
        code = self.rules.rows[row][field_no - 1]
        if self.usable(seat, "+5") and self.ask(seat, "use_plus5", [True, False]):
            self.use(seat, "+5")
            self.score(seat, tile, row, field_no, "plus5", PLUS5_POINTS)  # a play-two field is still covered
            return
        self.score(seat, tile, row, field_no, field_kind(code), field_points(code, self.rules.bullheads[tile]))

    def take(self, seat: int, tile: int, row: int, field_no: int) -> None:
        """The take field: score the tiles left of the placed tile, they leave, the tile opens the next free row.

        Order (the record): "use_double", the luck cards the take gains, then field 1's
        "use_plus5". A take with "2x" is one effect for the clovers: only its net counts.
        """
        board = self.state.board
        left = board[row][:-1]  # the tiles left of the placed tile (not the placed tile)
        values = [self.rules.bullheads[t] for t in left]
        double = self.usable(seat, "2x") and self.ask(seat, "use_double", [True, False])
        if double:
            self.use(seat, "2x")  # "at most one 2x card per scoring"
        self.score(seat, tile, row, field_no, "take_2x" if double else "take", take_points(values, double))
        self.removed.extend(left)  # "Those tiles leave the game"
        board[row] = []
        new_row = next_free_row(board, row, self.state.pointer, self.rules.next_row)
        self.state.pointer = new_row  # the most recently opened row (used by "rotate")
        board[new_row] = [tile]
        self.placements.append(Placement(seat, tile, new_row, 1, moved=True))
        self.land(seat, tile, new_row, 1)


# --------------------------------------------------------------------------- turns and the game


def game_over(state: State) -> bool:
    """'The game ends when all tiles are placed': every hand empty and no refill still due."""
    return all(not hand for hand in state.hands) and not state.refill_due


def play_turn(state: State, tiles: list[list[int]], decide: Decide | None = None) -> TurnResult:
    """One turn: tiles[s] are seat s's revealed tiles, placed lowest first with effects and decisions.

    The input state is not mutated. With 2-3 players the refill (12 tiles per seat from the
    front of the supply, seat 0 first) happens at the end of the turn in which every hand
    became empty for the first time ('Refill timing [default]').
    """
    if game_over(state):
        raise ValueError(f"turn {state.turn}: the game is over")
    if len(tiles) != state.players:
        raise ValueError(f"turn {state.turn}: need the tiles of {state.players} seats, got {len(tiles)}")
    count = tiles_per_seat(state)  # checked at the start of the turn
    new = state.copy()
    for seat, chosen in enumerate(tiles):
        need = min(count, len(new.hands[seat]))  # a player with one tile left plays one
        if len(chosen) != need:
            raise ValueError(f"turn {state.turn}: seat {seat} must put out {need} tile(s), got {len(chosen)}")
        for tile in chosen:
            if tile not in new.hands[seat]:
                raise ValueError(f"turn {state.turn}: seat {seat} does not hold tile {tile}")
            new.hands[seat].remove(tile)

    phase = _Turn(new, decide)
    revealed = sorted((tile, seat) for seat, chosen in enumerate(tiles) for tile in chosen)
    for tile, seat in revealed:  # "tiles are placed lowest first"
        phase.place(seat, tile)
    new.removed.extend(phase.removed)

    refilled = False
    if new.refill_due and all(not hand for hand in new.hands):
        need = HAND_SIZE * new.players
        if len(new.supply) < need:
            raise ValueError(f"turn {state.turn}: the refill needs {need} tiles in draws, {len(new.supply)} left")
        for seat in range(new.players):
            new.hands[seat] = new.supply[:HAND_SIZE]
            new.supply = new.supply[HAND_SIZE:]
        new.refill_due = False
        refilled = True
    new.turn += 1

    deltas = [0] * new.players
    for effect in phase.effects:
        deltas[effect.seat] += effect.points
    return TurnResult(
        state=new,
        count=count,
        tiles=[list(chosen) for chosen in tiles],
        placements=phase.placements,
        effects=phase.effects,
        deltas=deltas,
        asked=phase.asked,
        removed=phase.removed,
        refilled=refilled,
    )


def winners(scores: list[int]) -> list[int]:
    """'Most points wins'; 'Ties [default]': all tied players win."""
    best = max(scores)
    return [seat for seat, score in enumerate(scores) if score == best]


def play_game(
    rules: Rules,
    hands: list[list[int]],
    start: list[int],
    draws: Sequence[int],
    pick: Pick,
    decide: Decide | None = None,
) -> GameResult:
    """A whole game: pick(state, seat, count) chooses each seat's tiles, decide answers the asks."""
    state = new_game(rules, hands, start, draws)
    turns = []
    while not game_over(state):
        count = tiles_per_seat(state)
        tiles = [pick(state, seat, min(count, len(state.hands[seat]))) for seat in range(state.players)]
        result = play_turn(state, tiles, decide)
        turns.append(result)
        state = result.state
    return GameResult(turns=turns, scores=list(state.scores), winners=winners(state.scores), state=state)


# --------------------------------------------------------------------------- scripting helpers


class Script:
    """A decide callback that plays back (seat, ask, answer) triples and fails on any other ask."""

    def __init__(self, answers: Sequence[tuple[int, str, object]]) -> None:
        """Keep the answers in the order they must be asked."""
        self.answers = list(answers)
        self.next = 0

    def __call__(self, seat: int, ask: str, options: list):
        """Return the scripted answer if this is the scripted (seat, ask); else raise AssertionError."""
        if self.next >= len(self.answers):
            raise AssertionError(f"unscripted ask: seat {seat} {ask} {options}")
        want_seat, want_ask, answer = self.answers[self.next]
        if (seat, ask) != (want_seat, want_ask):
            raise AssertionError(f"ask #{self.next}: expected seat {want_seat} {want_ask}, got seat {seat} {ask}")
        self.next += 1
        return answer

    def finish(self) -> None:
        """Every scripted answer was asked for."""
        if self.next != len(self.answers):
            left = self.answers[self.next :]
            raise AssertionError(f"{len(left)} scripted answer(s) never asked: {left}")


def record_decisions(asked: list[Ask]) -> list[dict]:
    """A turn's asks as the record's `decisions` entries ({"seat", "ask", "answer"})."""
    return [{"seat": a.seat, "ask": a.ask, "answer": a.answer} for a in asked]
