"""Rule options and variant data.

Everything that varies between games of the 6 nimmt! family lives here as data: the card
ids, the order value of each card (its place on the ladder), the bullheads of each card, the
deck for a given number of players, and the table (4 rows of at most 5 cards). The engine
reads these tables and never tests a variant by name, so a new variant is new data.

Card ids are small positive integers (0 is the "no card" sentinel everywhere). In the
classic game a card's id is its number and its order value is the same number.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from ..core.checks import check_int, is_int
from ..core.errors import ConfigError, InvalidRecordError
from .packing import BULLS_SHIFT, COUNT_SHIFT, LAST_SHIFT  # the engine's representation, cached per variant

N_ROWS = 4  # rows on the table (both card games)
ROW_CAPACITY = 5  # a sixth card takes the row (Rule 3)
HAND_SIZE = 10  # cards dealt to each seat per round = turns per round
MIN_PLAYERS, MAX_PLAYERS = 2, 10
DEFAULT_END_SCORE = 66
ROW_CHOICES = ("player", "cheapest")
DECKS = ("full", "exact")

CLASSIC_CARDS = 104
# Bullheads by the rules' precedence: 55 is both a double and a five (7); doubles 5;
# multiples of ten 3; ending in five 2; every other card 1.
_DOUBLE_BULLS, _TEN_BULLS, _FIVE_BULLS, _PLAIN_BULLS, _55_BULLS = 5, 3, 2, 1, 7


def classic_bullheads(card: int) -> int:
    """Bullheads printed on classic card `card` (1..104)."""
    if card == 55:
        return _55_BULLS
    if card % 11 == 0:
        return _DOUBLE_BULLS
    if card % 10 == 0:
        return _TEN_BULLS
    if card % 5 == 0:
        return _FIVE_BULLS
    return _PLAIN_BULLS


@dataclass(frozen=True)
class Variant:
    """Card data of one game of the family.

    Attributes:
        name: the variant's name as used in records and on the command line.
        n_ids: card ids run 1..n_ids.
        order: (n_ids + 1,) int16, the card's place on the ladder; order[0] = 0.
            Two ids with the same order value are twins (equal cards from two decks).
        bullheads: (n_ids + 1,) int16, penalty points of each id; bullheads[0] = 0.
        has_twins: whether two ids can share an order value in some deck.
        row_code: (n_ids + 1,) int32, derived: packed_row(), cached.
        order_is_id: derived: a card's ladder value is its id (the engine skips a lookup).
    """

    name: str
    n_ids: int
    order: NDArray[np.int16] = field(repr=False)
    bullheads: NDArray[np.int16] = field(repr=False)
    has_twins: bool = False
    row_code: NDArray[np.int32] = field(init=False, repr=False, compare=False)
    order_is_id: bool = field(init=False, repr=False, compare=False)
    penalty_unit: ClassVar[str] = "bullheads"  # what the penalty points are called on screen

    def __post_init__(self) -> None:
        # Cached once: the engine looks it up every turn (frozen: set through object).
        object.__setattr__(self, "row_code", self.packed_row())
        object.__setattr__(self, "order_is_id", bool((self.order == np.arange(self.n_ids + 1)).all()))

    def packed_row(self) -> NDArray[np.int32]:
        """(n_ids + 1,) int32, the packed row each card starts (row index 0; add the index)."""
        return ((self.order.astype(np.int32) << LAST_SHIFT)
                | (self.bullheads.astype(np.int32) << BULLS_SHIFT) | (1 << COUNT_SHIFT))

    def deck(self, players: int, deck: str) -> NDArray[np.int16]:
        """Card ids used in a round for `players` seats: all of them, or the known deck."""
        if deck == "exact":
            return np.arange(1, HAND_SIZE * players + N_ROWS + 1, dtype=np.int16)
        return np.arange(1, self.n_ids + 1, dtype=np.int16)

    def same_face(self, card: int) -> tuple[int, ...]:
        """Every id printed like `card` (its twins included), lowest first."""
        return (int(card),)

    def card_name(self, card: int) -> str:
        """How a card is written on screen (and typed in the terminal game)."""
        return str(int(card))

    def card_face(self, card: int) -> str:
        """How a card is drawn on the web page (Die Sechste: with a suit symbol)."""
        return self.card_name(card)

    def card_value(self, card: int):
        """How a card is written in a game record (classic: the number itself)."""
        return int(card)

    def parse_card(self, value, where: str = "") -> int:
        """The id of a card as written in a record; InvalidRecordError if it is none."""
        if not is_int(value) or not 1 <= value <= self.n_ids:
            prefix = f"{where}: " if where else ""
            raise InvalidRecordError(f"{prefix}{value!r} is not a {self.name} card "
                                     f"(an integer 1..{self.n_ids})")
        return int(value)


SECHSTE_CARDS = 52  # one French deck; ids 53..104 are the second deck's copies
SECHSTE_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SECHSTE_SUITS = ("C", "D", "H", "S")  # clubs < diamonds < hearts < spades
SECHSTE_SYMBOLS = ("♣", "♦", "♥", "♠")
SECHSTE_ONE_DECK_MAX_PLAYERS = 4  # 2-4 players: one deck; 5-10: two decks


def sechste_penalty(face: int) -> int:
    """Penalty points of Die Sechste face 1..52 (A-clubs = 1 ... K-spades = 52).

    Number cards 1, fives and face cards 2, tens 3, the queen of spades 5; the rules do
    not name the Ace, and as the lowest number card it counts 1.
    """
    rank, suit = divmod(face - 1, 4)
    name = SECHSTE_RANKS[rank]
    if name == "Q" and SECHSTE_SUITS[suit] == "S":
        return 5
    if name == "10":
        return 3
    if name in ("5", "J", "Q", "K"):
        return 2
    return 1


class SechsteVariant(Variant):
    """Die Sechste: 52 playing cards on one ladder; with 5+ players two decks (twins).

    Card ids 1..52 are the first deck's cards by ladder place (A-clubs = 1 ... K-spades =
    52), ids 53..104 the second deck's copies: id c and c + 52 are twins, with the same
    ladder value and penalty. Distinct ids keep every hand and deal a set, so the engine
    and the records need no multisets; names print and parse faces ("10H", "QS").
    """

    penalty_unit: ClassVar[str] = "points"

    def deck(self, players: int, deck: str) -> NDArray[np.int16]:
        if deck == "exact":
            if players > SECHSTE_ONE_DECK_MAX_PLAYERS:
                raise ConfigError(f"invalid rule option: the exact card count of die-sechste is "
                                  f"for 2..{SECHSTE_ONE_DECK_MAX_PLAYERS} players (one deck), "
                                  f"got {players}")
            # From the Ace upward, as in the classic known deck: 2 players A-6,
            # 3 players A-8 + 9C 9D, 4 players A-J.
            return super().deck(players, deck)
        decks = 1 if players <= SECHSTE_ONE_DECK_MAX_PLAYERS else 2
        return np.arange(1, SECHSTE_CARDS * decks + 1, dtype=np.int16)

    def same_face(self, card: int) -> tuple[int, ...]:
        face = (int(card) - 1) % SECHSTE_CARDS + 1
        return (face, face + SECHSTE_CARDS)

    def card_name(self, card: int) -> str:
        rank, suit = divmod((int(card) - 1) % SECHSTE_CARDS, 4)
        return SECHSTE_RANKS[rank] + SECHSTE_SUITS[suit]

    def card_face(self, card: int) -> str:
        rank, suit = divmod((int(card) - 1) % SECHSTE_CARDS, 4)
        return SECHSTE_RANKS[rank] + SECHSTE_SYMBOLS[suit]

    def card_value(self, card: int):
        return self.card_name(card)

    def parse_card(self, value, where: str = "") -> int:
        """The first deck's id of a card name such as "10H" or "qs" (any case)."""
        face = _SECHSTE_FACES.get(value.strip().upper()) if isinstance(value, str) else None
        if face is None:
            prefix = f"{where}: " if where else ""
            raise InvalidRecordError(
                f"{prefix}{value!r} is not a die-sechste card (rank A 2..10 J Q K, then suit "
                f"C D H S, e.g. \"10H\", \"QS\")")
        return face


_SECHSTE_FACES = {r + s: 4 * i + j + 1 for i, r in enumerate(SECHSTE_RANKS)
                  for j, s in enumerate(SECHSTE_SUITS)}


def _die_sechste() -> Variant:
    faces = (np.arange(2 * SECHSTE_CARDS) % SECHSTE_CARDS) + 1
    order = np.concatenate([[0], faces])
    penalty = np.array([0] + [sechste_penalty(int(f)) for f in faces])
    return SechsteVariant("die-sechste", 2 * SECHSTE_CARDS, order.astype(np.int16),
                          penalty.astype(np.int16), has_twins=True)


def _classic() -> Variant:
    ids = np.arange(CLASSIC_CARDS + 1)
    bulls = np.array([0] + [classic_bullheads(c) for c in range(1, CLASSIC_CARDS + 1)])
    return Variant("classic", CLASSIC_CARDS, ids.astype(np.int16), bulls.astype(np.int16))


VARIANTS: dict[str, Variant] = {"classic": _classic(), "die-sechste": _die_sechste()}


@dataclass(frozen=True)
class RuleConfig:
    """The rule options of a game, validated on construction.

    Attributes:
        players: seats at the table, 2..10.
        row_choice: "player" (the rules: the owner of a too-low card chooses the row to
            take) or "cheapest" (automatic: fewest bullheads, then fewest cards, then the
            lowest row index — what most published AI results use).
        end_score: the game ends after the round in which someone reaches it (None: unused).
        max_rounds: the game ends after this many rounds (None: unused). At least one of
            end_score and max_rounds must be set; with both, whichever comes first.
        deck: "full" (every card) or "exact" (the known-deck variant: ids 1..10*players+4).
        variant: a key of VARIANTS.
    """

    game: ClassVar[str] = "cards"  # the game kind these rules are for (core.game.GAMES)

    players: int = 4
    row_choice: str = "player"
    end_score: int | None = DEFAULT_END_SCORE
    max_rounds: int | None = None
    deck: str = "full"
    variant: str = "classic"

    def __post_init__(self) -> None:
        def bad(what: str) -> ConfigError:
            return ConfigError(f"invalid rule option: {what}")

        check_int("players", self.players, MIN_PLAYERS, MAX_PLAYERS, error=bad)
        if not isinstance(self.row_choice, str) or self.row_choice not in ROW_CHOICES:
            raise bad(f"row_choice must be one of {', '.join(ROW_CHOICES)}, got {self.row_choice!r}")
        if not isinstance(self.deck, str) or self.deck not in DECKS:
            raise bad(f"deck must be one of {', '.join(DECKS)}, got {self.deck!r}")
        if not isinstance(self.variant, str) or self.variant not in VARIANTS:
            raise bad(f"variant must be one of {', '.join(VARIANTS)}, got {self.variant!r}")
        for name in ("end_score", "max_rounds"):
            check_int(name, getattr(self, name), 1, optional=True, error=bad)
        if self.end_score is None and self.max_rounds is None:
            raise bad("set end_score or max_rounds (or both), else the game never ends")
        if len(self.variant_data.deck(self.players, self.deck)) < HAND_SIZE * self.players + N_ROWS:
            raise bad(f"the {self.variant} deck is too small for {self.players} players")

    @property
    def variant_data(self) -> Variant:
        """The card tables of this game's variant."""
        return VARIANTS[self.variant]

    def to_dict(self) -> dict:
        """The options as they appear under "rules" in a game record (the variant is
        the record's own key)."""
        return {name: (int(getattr(self, name)) if name == "players" else getattr(self, name))
                for name in RULE_KEYS}


# The rule options under "rules" in a record: every field but the variant, in field order.
RULE_KEYS = tuple(f.name for f in fields(RuleConfig) if f.name != "variant")
