"""Slow, scalar reference implementation of Die Sechste (for testing the fast engine).

Written independently from the engine, straight from the rules (docs/rules/die-sechste.md).
A physical card is a tuple (rank, suit, copy): rank 0..12 (A, 2..10, J, Q, K), suit 0..3
(clubs, diamonds, hearts, spades), copy 0 or 1 (which deck). Twins are the two copies of
one (rank, suit). Seats 0..P-1, seat s+1 sits to the left of seat s; rows 0..3 keep their
index when taken and restarted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")
NUM_ROWS = 4
ROW_LIMIT = 5

Card = tuple[int, int, int]


def ladder(card: Card) -> int:
    """Place on the ladder: rank first, then suit; A-clubs = 1 ... K-spades = 52."""
    rank, suit, _copy = card
    return rank * 4 + suit + 1


def penalty(card: Card) -> int:
    """'Penalty points': numbers 1 (the Ace too), fives and faces 2, tens 3, Q-spades 5."""
    rank, suit, _copy = card
    name = RANKS[rank]
    if name == "Q" and SUITS[suit] == "S":
        return 5
    if name == "10":
        return 3
    if name in ("5", "J", "Q", "K"):
        return 2
    return 1


def name(card: Card) -> str:
    return RANKS[card[0]] + SUITS[card[1]]


def deck(players: int, exact: bool = False) -> list[Card]:
    """'Material': one deck for 2-4 players, two for 5-10; the exact count from the Ace up."""
    one = [(r, s, 0) for r in range(13) for s in range(4)]
    if exact:
        assert players <= 4
        return one[: 10 * players + 4]
    if players <= 4:
        return one
    return one + [(r, s, 1) for r in range(13) for s in range(4)]


def row_points(row: list[Card]) -> int:
    return sum(penalty(c) for c in row)


# choose(seat, options) -> row: asked whenever the rules let a player decide
Chooser = Callable[[int, list[int]], int]


@dataclass
class TurnResult:
    rows: list[list[Card]]
    penalties: list[int]
    asked: list[tuple[int, list[int]]]  # (seat, options) of every decision, in order
    # (seat, rules that decided the card's row or made it take one) of every placement, in
    # placing order; rules: "too_low", "sixth", "on_twin", "twin_shorter" (the shorter row,
    # or the cheaper on equal length under "cheapest"), "twin_choice" (the owner chose)
    placed: list[tuple[int, set[str]]]


def cheapest(rows: list[list[Card]], options: list[int]) -> int:
    """Automatic choice: fewest points, then fewest cards, then the lowest row index."""
    return min(options, key=lambda r: (row_points(rows[r]), len(rows[r]), r))


def play_turn(rows: list[list[Card]], cards: list[Card], dealer: int, row_choice: str,
              choose: Chooser | None = None) -> TurnResult:
    """'A turn' steps 2-3 for the revealed cards[s] of each seat s; input not mutated."""
    players = len(cards)
    table = [list(r) for r in rows]
    penalties = [0] * players
    asked: list[tuple[int, list[int]]] = []
    placed: list[tuple[int, set[str]]] = []

    def decide(seat: int, options: list[int]) -> int:
        if row_choice == "cheapest":
            return cheapest(table, options)
        asked.append((seat, list(options)))
        row = choose(seat, options)
        assert row in options
        return row

    # Lowest first; twins: the seat closer to the dealer's left (clockwise) places first.
    def position(seat: int) -> int:
        return (seat - dealer - 1) % players

    for seat in sorted(range(players), key=lambda s: (ladder(cards[s]), position(s))):
        card = cards[seat]
        # A twin counts as just higher than its counterpart and may be placed on it.
        below = [r for r in range(NUM_ROWS) if ladder(table[r][-1]) <= ladder(card)]
        rules: set[str] = set()
        placed.append((seat, rules))
        if not below:  # too low: the player picks any row and takes it
            row = decide(seat, list(range(NUM_ROWS)))
            penalties[seat] += row_points(table[row])
            table[row] = [card]
            rules.add("too_low")
            continue
        top = max(ladder(table[r][-1]) for r in below)
        ends = [r for r in below if ladder(table[r][-1]) == top]
        if len(ends) == 2:  # two rows ending in twins: the shorter; equal: the owner
            a, b = ends
            if len(table[a]) != len(table[b]):
                row = a if len(table[a]) < len(table[b]) else b
                rules.add("twin_shorter")
            elif row_choice == "cheapest":
                row = min(ends, key=lambda r: (row_points(table[r]), r))
                rules.add("twin_shorter")
            else:
                row = decide(seat, ends)
                rules.add("twin_choice")
        else:
            (row,) = ends
        if top == ladder(card):  # its twin ends the row
            rules.add("on_twin")
        if len(table[row]) == ROW_LIMIT:  # the sixth card takes the five
            penalties[seat] += row_points(table[row])
            table[row] = [card]
            rules.add("sixth")
        else:
            table[row].append(card)
    return TurnResult(table, penalties, asked, placed)
