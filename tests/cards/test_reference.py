"""Unit tests of the scalar reference rules in tests/support/reference.py."""

import pytest

from tests.support.reference import (
    BULLHEADS,
    bullheads,
    cheapest_row,
    deck_cards,
    game_over,
    next_dealer,
    play_round,
    play_turn,
    winners,
)


def test_bullhead_table():
    assert sum(BULLHEADS.values()) == 171
    assert sorted(BULLHEADS) == list(range(1, 105))
    assert [bullheads(c) for c in (55, 11, 99, 10, 100, 5, 95, 1, 104)] == [7, 5, 5, 3, 3, 2, 2, 1, 1]
    counts = {v: sum(1 for b in BULLHEADS.values() if b == v) for v in (1, 2, 3, 5, 7)}
    assert counts == {7: 1, 5: 8, 3: 10, 2: 9, 1: 76}


def test_deck_cards():
    assert deck_cards(4, "full") == list(range(1, 105))
    assert deck_cards(4, "exact") == list(range(1, 45))
    assert deck_cards(10, "exact") == list(range(1, 105))
    assert deck_cards(2, "exact")[-1] == 24
    with pytest.raises(ValueError):
        deck_cards(4, "short")


def test_ascending_smallest_difference():
    rows = [[10], [20], [30], [40]]
    result = play_turn(rows, [25, 45])
    # 25 follows 20 (closest below), not 10; 45 follows 40.
    assert result.rows == [[10], [20, 25], [30], [40, 45]]
    assert result.penalties == [0, 0]
    assert result.chooser is None
    assert result.placements == [(0, 25, 1, []), (1, 45, 3, [])]
    assert rows == [[10], [20], [30], [40]]  # input untouched


def test_lowest_card_first_within_turn():
    rows = [[10], [20], [30], [40]]
    # Seat 0 plays 23, seat 1 plays 21: 21 goes first onto row 1, then 23 follows 21.
    result = play_turn(rows, [23, 21])
    assert result.rows[1] == [20, 21, 23]
    assert [p[0] for p in result.placements] == [1, 0]
    # The lower card of the same turn fills the row to 5, so the higher one is the sixth.
    result = play_turn([[10, 11, 12, 13], [50], [60], [70]], [15, 14])
    assert result.rows == [[15], [50], [60], [70]]
    assert result.penalties == [3 + 5 + 1 + 1 + 1, 0]
    assert result.placements == [(1, 14, 0, []), (0, 15, 0, [10, 11, 12, 13, 14])]


def test_sixth_card_takes_row():
    rows = [[1, 2, 3, 4, 5], [50], [60], [70]]
    result = play_turn(rows, [6, 61])
    assert result.rows == [[6], [50], [60, 61], [70]]
    assert result.penalties == [1 + 1 + 1 + 1 + 2, 0]
    assert result.placements[0] == (0, 6, 0, [1, 2, 3, 4, 5])
    assert result.chooser is None


def test_too_low_player_choice():
    rows = [[10, 11], [20], [30], [40]]
    result = play_turn(rows, [5, 41, 12], choice=0)
    # 5 is below every row: seat 0 takes row 0 (10+11 = 3+5 bullheads); 12 then follows 5.
    assert result.chooser == 0
    assert result.rows == [[5, 12], [20], [30], [40, 41]]
    assert result.penalties == [8, 0, 0]
    assert result.placements[0] == (0, 5, 0, [10, 11])
    with pytest.raises(ValueError):
        play_turn(rows, [5, 41, 12])  # choice needed, none given
    with pytest.raises(ValueError):
        play_turn(rows, [5, 41, 12], choice=4)  # not a row
    with pytest.raises(ValueError):
        play_turn(rows, [15, 41, 12], choice=0)  # no choice needed


def test_too_low_cheapest_and_tie_breaks():
    # Fewest bullheads wins: row 2 (1 bullhead) over row 0 (3) and row 1 (5).
    assert cheapest_row([[10], [22], [31], [55]]) == 2
    # Tie on bullheads (2 each): fewer cards wins -> row 1 ([15]) over row 0 ([31, 32]).
    assert cheapest_row([[31, 32], [15], [40], [50]]) == 1
    # Full tie on bullheads and cards: lowest index.
    assert cheapest_row([[20], [31], [41], [51]]) == 1
    rows = [[31, 32], [15], [40], [50]]
    result = play_turn(rows, [3, 60], row_choice="cheapest")
    assert result.chooser == 0
    assert result.rows == [[31, 32], [3], [40], [50, 60]]
    assert result.penalties == [2, 0]
    with pytest.raises(ValueError):
        play_turn(rows, [3, 60], row_choice="cheapest", choice=0)


def test_play_round():
    # Seat 0 plays 11..20 (always onto row 0), seat 1 plays 71..80 (always onto row 2).
    hands = [list(range(11, 21)), list(range(71, 81))]
    rows = [10, 40, 70, 100]
    turns = [[11 + t, 71 + t] for t in range(10)]
    final, pen = play_round(hands, rows, turns)
    # Seat 0: 15 takes [10..14] (3+5+1+1+1), 20 takes [15..19] (2+1+1+1+1) -> 17.
    # Seat 1: 75 takes [70..74] (3+1+1+1+1), 80 takes [75..79] (2+1+5+1+1) -> 17.
    assert final == [[20], [40], [80], [100]]
    assert pen == [17, 17]
    bad = [list(t) for t in turns]
    bad[3][0] = 99
    with pytest.raises(ValueError):
        play_round(hands, rows, bad)  # 99 is not in seat 0's hand
    twice = [list(t) for t in turns]
    twice[3][0] = 11
    with pytest.raises(ValueError):
        play_round(hands, rows, twice)  # 11 was already played in turn 0


def test_play_round_with_choice():
    # Turn 0: seat 0's 1 is too low and takes the chosen row; afterwards seat 0 plays 91..99
    # onto row 3 and seat 1 plays 21..30 onto row 1.
    hands = [[1] + list(range(91, 100)), list(range(21, 31))]
    rows = [10, 20, 45, 90]
    turns = [[1, 21]] + [[90 + t, 21 + t] for t in range(1, 10)]
    choices = [0] + [None] * 9
    final, pen = play_round(hands, rows, turns, choices=choices)
    # Seat 0: [10] (3) on turn 0, 95 takes [90..94] (3+1+1+1+1) -> 10.
    # Seat 1: 25 takes [20..24] (3+1+5+1+1), 30 takes [25..29] (2+1+1+1+1) -> 17.
    assert final == [[1], [30], [45], [95, 96, 97, 98, 99]]
    assert pen == [10, 17]
    # Choosing row 2 instead: seat 0 takes [45] (2) and row 2 restarts with 1.
    final2, pen2 = play_round(hands, rows, turns, choices=[2] + [None] * 9)
    assert final2[0] == [10] and final2[2] == [1]
    assert pen2[0] == 2 + 7
    # "cheapest": rows 0, 1, 3 hold 3 bullheads, row 2 ([45]) only 2 -> row 2.
    assert play_round(hands, rows, turns, row_choice="cheapest") == (final2, pen2)
    with pytest.raises(ValueError):
        play_round(hands, rows, turns)  # the needed choice is missing


def test_game_over_winners_dealer():
    assert game_over([66, 10], 1, 66, None)
    assert not game_over([65, 10], 1, 66, None)
    assert game_over([5, 10], 3, 66, 3)
    assert not game_over([5, 10], 2, None, 3)
    assert not game_over([100, 10], 2, None, None)
    assert winners([10, 3, 3, 20]) == [1, 2]
    assert winners([7]) == [0]
    assert next_dealer(0, 4) == 1
    assert next_dealer(3, 4) == 0
