"""Slow, scalar reference implementation of 6 nimmt! classic rules (for testing the fast engine).

Written independently from the engine, straight from the rules (docs/rules/classic.md).
Rule numbers in comments refer to that page ("A round" step 4: Rules 1-4).
Vocabulary follows the record format (docs/spec/game-record.md): seats 0..P-1, rows 0..3 (a row keeps
its index when taken and restarted), seat s+1 sits to the left of seat s.
"""

from __future__ import annotations

from dataclasses import dataclass

NUM_ROWS = 4
ROW_LIMIT = 5  # Rule 3: a row holds at most 5 cards
HAND_SIZE = 10
TURNS_PER_ROUND = 10


def _bullheads_of(card: int) -> int:
    """Bullheads printed on one card, from the 'Material' section of the rules."""
    if card == 55:
        return 7  # both a double and a five
    if card % 11 == 0:
        return 5  # doubles: 11, 22, ..., 99
    if card % 10 == 0:
        return 3  # 10, 20, ..., 100
    if card % 10 == 5:
        return 2  # 5, 15, ..., 95 (55 handled above)
    return 1


BULLHEADS: dict[int, int] = {card: _bullheads_of(card) for card in range(1, 105)}


def bullheads(card: int) -> int:
    """Return the bullheads (penalty points) of one card 1..104."""
    return BULLHEADS[card]


def deck_cards(players: int, deck: str) -> list[int]:
    """Cards used in a round: "full" -> 1..104, "exact" (known-deck variant) -> 1..10*players+4."""
    if not 2 <= players <= 10:
        raise ValueError(f"players must be 2..10, got {players}")
    if deck == "full":
        return list(range(1, 105))
    if deck == "exact":
        return list(range(1, HAND_SIZE * players + NUM_ROWS + 1))
    raise ValueError(f"unknown deck {deck!r}")


def _row_bullheads(row: list[int]) -> int:
    """Sum of the bullheads of the cards in one row."""
    total = 0
    for card in row:
        total += bullheads(card)
    return total


@dataclass
class TurnResult:
    """Outcome of one turn: table after it, penalties, Rule-4 chooser and every placement."""

    rows: list[list[int]]
    penalties: list[int]
    chooser: int | None
    placements: list[tuple[int, int, int, list[int]]]


def cheapest_row(rows: list[list[int]]) -> int:
    """Automatic Rule-4 row: fewest bullheads, then fewest cards, then lowest row index."""
    best = 0
    for index in range(1, len(rows)):
        key = (_row_bullheads(rows[index]), len(rows[index]), index)
        best_key = (_row_bullheads(rows[best]), len(rows[best]), best)
        if key < best_key:
            best = index
    return best


def play_turn(
    rows: list[list[int]], cards: list[int], row_choice: str = "player", choice: int | None = None
) -> TurnResult:
    """Reveal cards[s] for each seat s and place them lowest first (Rules 1-4); input is not mutated."""
    if row_choice not in ("player", "cheapest"):
        raise ValueError(f"unknown row_choice {row_choice!r}")
    if len(rows) != NUM_ROWS or any(len(row) == 0 for row in rows):
        raise ValueError("need exactly 4 non-empty rows")
    if len(set(cards)) != len(cards):
        raise ValueError("the cards of a turn must be distinct")

    table = [list(row) for row in rows]  # our own copy: never touch the caller's rows
    penalties = [0] * len(cards)
    chooser: int | None = None
    placements: list[tuple[int, int, int, list[int]]] = []

    # Step 3: place the revealed cards one by one, lowest card first.
    order = sorted(range(len(cards)), key=lambda seat: cards[seat])
    for seat in order:
        card = cards[seat]

        # Rule 1 (ascending): candidate rows are those whose last card is lower than the card.
        candidates = [index for index in range(NUM_ROWS) if table[index][-1] < card]

        if candidates:
            # Rule 2 (smallest difference): the row whose last card is closest below the card.
            target = candidates[0]
            for index in candidates:
                if card - table[index][-1] < card - table[target][-1]:
                    target = index
            if len(table[target]) >= ROW_LIMIT:
                # Rule 3 (full row): the sixth card takes the 5 cards and starts the row.
                taken = table[target]
                table[target] = [card]
            else:
                taken = []
                table[target].append(card)
        else:
            # Rule 4 (card too low): the owner picks any row, takes all of it, the card starts it.
            chooser = seat
            if row_choice == "player":
                if choice is None or choice not in range(NUM_ROWS):
                    raise ValueError(f"seat {seat} played too-low card {card}: need a row choice 0..3, got {choice!r}")
                target = choice
            else:
                if choice is not None:
                    raise ValueError("row_choice 'cheapest' takes no explicit choice")
                target = cheapest_row(table)
            taken = table[target]
            table[target] = [card]

        # Step 5: taken cards go to the taker's penalty pile; their bullheads count against them.
        penalties[seat] += _row_bullheads(taken)
        placements.append((seat, card, target, list(taken)))

    if chooser is None and choice is not None:
        raise ValueError(f"no row choice was needed this turn, got {choice!r}")
    return TurnResult(rows=table, penalties=penalties, chooser=chooser, placements=placements)


def play_round(
    hands: list[list[int]],
    rows: list[int],
    turns: list[list[int]],
    row_choice: str = "player",
    choices: list[int | None] | None = None,
) -> tuple[list[list[int]], list[int]]:
    """Play the 10 turns of one round; return (final rows, per-seat round penalty)."""
    players = len(hands)
    if not 2 <= players <= 10:
        raise ValueError(f"players must be 2..10, got {players}")
    # Step 1: 10 cards to each player, 4 row starters, no card dealt twice.
    for seat in range(players):
        if len(hands[seat]) != HAND_SIZE:
            raise ValueError(f"seat {seat} must hold {HAND_SIZE} cards, holds {len(hands[seat])}")
    if len(rows) != NUM_ROWS:
        raise ValueError(f"need {NUM_ROWS} row starters, got {len(rows)}")
    dealt = [card for hand in hands for card in hand] + list(rows)
    if len(set(dealt)) != len(dealt):
        raise ValueError("a card was dealt twice")
    if any(card not in BULLHEADS for card in dealt):
        raise ValueError("a dealt card is outside 1..104")
    # Step 2: ten turns.
    if len(turns) != TURNS_PER_ROUND:
        raise ValueError(f"a round has {TURNS_PER_ROUND} turns, got {len(turns)}")
    if choices is None:
        choices = [None] * len(turns)
    if len(choices) != len(turns):
        raise ValueError("choices must have one entry per turn")

    remaining = [list(hand) for hand in hands]
    table = [[card] for card in rows]
    round_penalties = [0] * players
    for t in range(len(turns)):
        cards = turns[t]
        if len(cards) != players:
            raise ValueError(f"turn {t}: need one card per seat, got {len(cards)}")
        # Step 2: each player plays one card from their own hand.
        for seat in range(players):
            if cards[seat] not in remaining[seat]:
                raise ValueError(f"turn {t}: seat {seat} does not hold card {cards[seat]}")
            remaining[seat].remove(cards[seat])
        result = play_turn(table, cards, row_choice, choices[t])
        table = result.rows
        # Step 6: each player's round score is the bullheads on their penalty pile.
        for seat in range(players):
            round_penalties[seat] += result.penalties[seat]
    return table, round_penalties


def game_over(totals: list[int], rounds_played: int, end_score: int | None, max_rounds: int | None) -> bool:
    """True after the round in which someone reaches end_score, or after max_rounds rounds (None = unused)."""
    if end_score is not None and max(totals) >= end_score:
        return True
    if max_rounds is not None and rounds_played >= max_rounds:
        return True
    return False


def winners(totals: list[int]) -> list[int]:
    """Every seat with the lowest total (ties: all tied seats win)."""
    lowest = min(totals)
    return [seat for seat in range(len(totals)) if totals[seat] == lowest]


def next_dealer(dealer: int, players: int) -> int:
    """Dealer of the next round: one seat to the left (seat s+1 sits left of seat s), wrapping."""
    return (dealer + 1) % players
