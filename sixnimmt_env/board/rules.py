"""Rule options of the 2019 board game (6 nimmt! Das Brettspiel), validated on construction.

Variants 1 (basic) and 2 (luck cards) are played on the basic side of the board, 3 (pro,
action cards) and 4 (pro-luck: both) on the professional side. Every value the sources do
not give is an option or data with the documented default (docs/rules/board-game.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import ClassVar

from ..core.checks import check_int, is_int
from ..core.errors import ConfigError
from ._layout_files import DEFAULT_LAYOUT, load_layout
from .layout import N_TILES, BoardLayout  # noqa: F401  (N_TILES: rules.N_TILES too)

MIN_PLAYERS, MAX_PLAYERS = 2, 6
HAND_SIZE = 12  # tiles drawn at the start (and once more with 2-3 players)
REFILL_MAX_PLAYERS = 3  # 2-3 players refill their hands once
START_ROWS = 4  # start tiles on field 1 of rows 1-4; always four active rows
VARIANTS = ("basic", "luck", "pro", "pro-luck")
NEXT_ROWS = ("scan", "rotate")
SIDE = {"basic": "basic", "luck": "basic", "pro": "pro", "pro-luck": "pro"}  # the side each variant is played on
# Action cards (pro): the six kinds of the publisher's list, as records name them, and the
# deck's count of each [default: 4 each, 24 in all]; each seat is dealt START_ACTION_CARDS.
ACTION_KINDS = ("stop", "swap", "skip", "front", "ascending", "one_more")
STOP, SWAP, SKIP, FRONT, ASCENDING, ONE_MORE = range(len(ACTION_KINDS))
DEFAULT_ACTION_CARDS = (4, 4, 4, 4, 4, 4)
START_ACTION_CARDS = 2
STOP_SIGNS = 2
MAX_ACTION_ROWS = 16  # rows the pro actions can name (actions.py)
LUCK_KINDS = ("+5", "2x")  # as records write them; index 0 and 1 everywhere
PLUS5, DOUBLE = 0, 1
PLUS5_POINTS = 5


@dataclass(frozen=True)
class BoardConfig:
    """The rule options of a board game.

    Attributes:
        players: seats, 2..6.
        variant: "basic", "luck" (basic side), "pro" or "pro-luck" (pro side).
        next_row: where a tile goes after it took a row: "scan" (default: the first empty
            row below the taken one, wrapping) or "rotate" (the first empty row after the
            most recently opened one).
        layout: the board: a shipped layout's name ("basic-default", "pro-default"), a
            TOML/JSON file, or a BoardLayout (as a record carries it); None (default): the
            variant's side's shipped default.
        plus5_cards, double_cards: luck cards in the two open stacks (default 6 each).
        action_cards: pro: the action deck, cards of each kind in ACTION_KINDS order
            (default 4 each).
        board: derived: the validated BoardLayout, loaded once.
    """

    game: ClassVar[str] = "board"  # the game kind these rules are for (core.game.GAMES)

    players: int = 4
    variant: str = "basic"
    next_row: str = "scan"
    layout: str | BoardLayout | None = None
    plus5_cards: int = 6
    double_cards: int = 6
    action_cards: tuple[int, ...] = DEFAULT_ACTION_CARDS
    board: BoardLayout = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        def bad(what: str) -> ConfigError:
            return ConfigError(f"invalid rule option: {what}")

        check_int("players", self.players, MIN_PLAYERS, MAX_PLAYERS, context=" for the board game", error=bad)
        if not isinstance(self.variant, str) or self.variant not in VARIANTS:
            raise bad(f"variant must be one of {', '.join(VARIANTS)} for the board game, got {self.variant!r}")
        if not isinstance(self.next_row, str) or self.next_row not in NEXT_ROWS:
            raise bad(f"next_row must be one of {', '.join(NEXT_ROWS)}, got {self.next_row!r}")
        for name in ("players", "plus5_cards", "double_cards"):  # (a NumPy integer is written as an int)
            object.__setattr__(self, name, check_int(name, getattr(self, name), 0, error=bad))
        side = SIDE[self.variant]
        if isinstance(self.layout, BoardLayout):
            board = self.layout
        elif self.layout is None:
            board = load_layout(DEFAULT_LAYOUT[side])
        elif isinstance(self.layout, str) and self.layout:
            board = load_layout(self.layout)  # ConfigError naming the file
        else:
            raise bad(f"layout must be a layout name, a file path or a BoardLayout, got {self.layout!r}")
        if board.side != side:
            raise bad(f"the {self.variant!r} variant is played on the {side} side; layout "
                      f"{board.name!r} is the {board.side} side")
        if side == "pro" and board.n_rows > MAX_ACTION_ROWS:
            raise bad(f"a pro layout may have at most {MAX_ACTION_ROWS} rows (the action encoding), "
                      f"{board.name!r} has {board.n_rows}")
        counts = self.action_cards
        if (not isinstance(counts, tuple) or len(counts) != len(ACTION_KINDS)
                or any(not is_int(c) or not 0 <= c <= 24 for c in counts)):
            raise bad(f"action_cards must be {len(ACTION_KINDS)} counts 0..24 ({', '.join(ACTION_KINDS)}), "
                      f"got {counts!r}")
        if self.plus5_cards > 127 or self.double_cards > 127:
            raise bad("at most 127 luck cards of a kind")
        object.__setattr__(self, "board", board)  # frozen: derived once, here

    @property
    def luck(self) -> bool:
        """Whether luck cards are in play."""
        return self.variant in ("luck", "pro-luck")

    @property
    def pro(self) -> bool:
        """Whether the professional rules are in play (action cards, pro fields)."""
        return SIDE[self.variant] == "pro"

    @property
    def hand_slots(self) -> int:
        """H, the hand slots of the state: 12 tiles on the basic side; on the pro side
        draw fields and take-to-hand fields can bring any number of tiles in."""
        return N_TILES if self.pro else HAND_SIZE

    @property
    def refill(self) -> bool:
        """Whether hands are refilled once (2-3 players)."""
        return self.players <= REFILL_MAX_PLAYERS

    def to_dict(self) -> dict:
        """The options under "rules" in a record (variant and layout are keys of their own)."""
        return {name: getattr(self, name) for name in RULE_KEYS if name != "action_cards" or self.pro}


RULE_KEYS = tuple(f.name for f in fields(BoardConfig) if f.name not in ("variant", "layout", "board"))
