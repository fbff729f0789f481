"""Tests of the board-game scalar reference (tests/reference_board.py) itself.

Three parts: the board as data and the set-up; every rule of docs/rules/board-game.md
(variants 1-2, basic side) as a table of scripted cases with ids; invariants over many
random games at 2-6 players. The engine is later checked against this reference.

Notation in the cases: boards are {row: tiles} for the active rows (rows 0..9, the rules'
R1..R10); fields are 1-based. The default basic board (field 1 first):
    R1 . . + - T         R6  . 2 + - . T
    R2 . + . - . T       R7  . - 2 T
    R3 . - + T           R8  . + . 2 - . T
    R4 . . + . -3 . T    R9  . 2 - +2 T
    R5 . + - . T         R10 . + 2 - . T
Default bullheads used below: 10, 20, 30, 40, 50, 60, 80 -> 3; 11, 22, 44 -> 5; 15 -> 2;
every other tile named -> 1.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tests import reference_board as ref

# =========================================================================== helpers


def board_of(active: dict[int, list[int]], rows: int = 10) -> list[list[int]]:
    """The reference's board (one tile list per row) from {row: tiles}."""
    return [list(active.get(r, [])) for r in range(rows)]


def active_of(board: list[list[int]]) -> dict[int, list[int]]:
    """{row: tiles} of the active rows of a board."""
    return {r: tiles for r, tiles in enumerate(board) if tiles}


def bullheads_with(changes: dict[int, int]) -> dict[int, int]:
    """The default bullhead table with some tiles changed."""
    table = dict(ref.DEFAULT_BULLHEADS)
    table.update(changes)
    return table


def run_case(case: dict) -> tuple[ref.State, list[ref.TurnResult]]:
    """Play a case's turns from its position with its scripted answers; every answer must be asked."""
    rules = ref.Rules(**case.get("rules", {}))
    state = ref.position(
        rules,
        board_of(case["board"], len(rules.rows)),
        case["hands"],
        scores=case.get("scores"),
        luck=case.get("luck"),
        stacks=case.get("stacks"),
        pointer=case.get("pointer", 3),
        supply=case.get("supply", ()),
        refill_due=case.get("refill_due", False),
    )
    script = ref.Script(case.get("answers", []))
    results = []
    for tiles in case["turns"]:
        result = ref.play_turn(state, tiles, script)
        results.append(result)
        state = result.state
    script.finish()
    return state, results


B0 = {0: [10], 1: [20], 2: [30], 3: [40]}  # four start tiles, every row at field 1
ENDS_3_64_75_90 = {0: [3], 1: [64], 2: [75], 3: [90]}
RED_NEXT = {0: [10, 12, 14], 1: [30], 2: [40], 3: [50]}  # row 0's next field (4) is red
TAKE_NEXT = {0: [10, 11, 12, 13], 1: [20], 2: [30], 3: [40]}  # row 0's next field (5) is its take field; 3+5+1+1 = 10
LUCK = {"variant": "luck"}

# =========================================================================== the board as data and the set-up


def test_default_basic_board_is_the_rules_table():
    rows = ref.DEFAULT_BASIC_ROWS
    assert [len(r) for r in rows] == [5, 6, 4, 7, 5, 6, 4, 7, 5, 6]
    assert len(rows[0]) - 1 == 4  # "Row 1 has 4 fields to place on; the next placement takes it"
    assert any(r[3] == "T" for r in rows)  # the review's take example: a take field at field 4
    assert all(r[0] == "." and r[-1] == "T" and "T" not in r[:-1] for r in rows)
    assert [r for r in range(10) if "2" in rows[r]] == [5, 6, 7, 8, 9]  # play two only in rows 6-10
    assert [code for r in rows for code in r if ref.field_kind(code) == "fixed"] == ["-3", "+2"]
    ref.check_rules(ref.Rules())


def test_default_bullheads_and_clovers():
    table = ref.DEFAULT_BULLHEADS
    assert sorted(table) == list(range(1, 101))
    assert sum(table.values()) == 165
    assert [table[t] for t in (11, 55, 99, 10, 100, 5, 95, 1, 57)] == [5, 5, 5, 3, 3, 2, 2, 1, 1]
    assert Counter(table.values()) == {5: 9, 3: 10, 2: 9, 1: 72}
    assert 0 not in ref.DEFAULT_CLOVERS
    assert all(c % 10 == 0 for c in ref.DEFAULT_CLOVERS)
    assert {-60, -10, 10, 60, -1000, 1000} <= set(ref.DEFAULT_CLOVERS)
    assert ref.DEFAULT_LUCK_STACKS == {"+5": 6, "2x": 6}


def test_bullheads_as_a_list():
    values = [((t % 5) or 5) for t in range(1, 101)]
    assert ref.Rules(bullheads=values).bullheads[7] == 2


BAD_RULES = [
    ("unknown variant", {"variant": "pro"}, "variant"),
    ("unknown next_row", {"next_row": "choose"}, "next_row"),
    ("four rows only", {"rows": [[".", "T"]] * 4}, "at least 5 rows"),
    ("a one-field row", {"rows": [["T"]] + [[".", "T"]] * 4}, "at least 2 fields"),
    ("no take field last", {"rows": [[".", "+"]] + [[".", "T"]] * 4}, "last field"),
    ("a take field inside", {"rows": [[".", "T", "T"]] + [[".", "T"]] * 4}, "only last"),
    ("field 1 not plain", {"rows": [["+", "T"]] + [[".", "T"]] * 4}, "field 1 is plain"),
    ("pro code on the basic side", {"rows": [[".", "D", "T"]] + [[".", "T"]] * 4}, "unknown"),
    ("fixed value 0", {"rows": [[".", "+0", "T"]] + [[".", "T"]] * 4}, "unknown"),
    ("99 bullhead values", {"bullheads": [1] * 99}, "100"),
    ("six bullheads", {"bullheads": bullheads_with({7: 6})}, "1-5"),
    ("a missing tile", {"bullheads": {t: 1 for t in range(1, 100)}}, "1..100"),
    ("a clover not an int", {"clovers": [10, 2.5]}, "clovers"),
    ("a negative stack", {"luck_stacks": {"+5": -1, "2x": 6}}, "luck_stacks"),
]


@pytest.mark.parametrize("name,kwargs,message", BAD_RULES, ids=[c[0] for c in BAD_RULES])
def test_bad_rules_are_refused(name, kwargs, message):
    with pytest.raises(ValueError, match=message):
        ref.Rules(**kwargs)


@pytest.mark.parametrize("players", range(2, 7))
def test_setup(players):
    hands, start, draws = ref.deal(players, random.Random(players))
    assert sorted([t for h in hands for t in h] + start + draws) == list(range(1, 101))
    state = ref.new_game(ref.Rules(), hands, start, draws)
    # "four start tiles go on field 1 of the top four rows"; the other six rows are free.
    assert state.board == [[t] for t in start] + [[]] * 6
    assert [len(h) for h in state.hands] == [12] * players  # "Each player draws 12 tiles"
    assert state.supply == draws  # in draw order
    assert len(state.supply) == 100 - 4 - 12 * players
    assert state.scores == [0] * players  # "everyone starts at 0"
    assert state.stacks == {"+5": 6, "2x": 6}
    assert state.luck == [{"+5": 0, "2x": 0}] * players
    assert state.pointer == 3  # "rotate": row 4 after set-up
    assert state.refill_due == (players <= 3)  # the 2-3-player refill
    assert ref.tiles_per_seat(state) == 1  # rows 1-4 hold no play-two field
    assert not ref.game_over(state)


BAD_SETUPS = [
    ("one player", lambda h, s, d: (h[:1], s, d), "players"),
    ("seven players", lambda h, s, d: (h + [[0]] * 5, s, d), "players"),
    ("a hand of 11", lambda h, s, d: ([h[0][:11]] + h[1:], s, d), "12 tiles"),
    ("three start tiles", lambda h, s, d: (h, s[:3], d), "4 start tiles"),
    ("a tile dealt twice", lambda h, s, d: (h, [h[0][0]] + s[1:], d), "twice"),
    ("tile 101", lambda h, s, d: (h, s, d + [101]), "1..100"),
]


@pytest.mark.parametrize("name,change,message", BAD_SETUPS, ids=[c[0] for c in BAD_SETUPS])
def test_bad_setups_are_refused(name, change, message):
    hands, start, draws = ref.deal(2, random.Random(0))
    with pytest.raises(ValueError, match=message):
        ref.new_game(ref.Rules(), *change(hands, start, draws))


# =========================================================================== the rules as scripted cases
#
# Keys: board/hands/turns (tiles per turn per seat), optional rules (Rules kwargs), scores,
# luck, stacks, pointer, supply, refill_due; answers: the decisions in the order they must
# be asked, (seat, ask, answer). Expectations (each optional): board (after the last turn),
# effects [(seat, tile, cause, points)] over all turns, placements [(seat, tile, row, field,
# too_low, moved)], scores, counts (tiles per seat per turn), removed, luck, stacks, options
# (of every ask, in order), hands, supply, over, winners.

CASES = [
    # ---- A turn: Rules 1-2, lowest first, the too-low exception
    dict(
        id="rule-1-only-rows-ending-lower",
        board=ENDS_3_64_75_90, hands=[[63], [91]], turns=[[[63], [91]]],
        board_after={0: [3, 63], 1: [64], 2: [75], 3: [90, 91]},  # 63 is nearer 64, but 64 is higher
        effects=[(0, 63, "plain", 0), (1, 91, "plain", 0)],
    ),
    dict(
        id="rule-2-smallest-difference-review-76",  # "76-75=1 while 76-64=12"
        board=ENDS_3_64_75_90, hands=[[76], [95]], turns=[[[76], [95]]],
        board_after={0: [3], 1: [64], 2: [75, 76], 3: [90, 95]},
        effects=[(0, 76, "red", -1), (1, 95, "plain", 0)],
    ),
    dict(
        id="lowest-tile-placed-first",  # 76 (seat 1) goes first; 78 then follows 76
        board=ENDS_3_64_75_90, hands=[[78], [76]], turns=[[[78], [76]]],
        board_after={0: [3], 1: [64], 2: [75, 76, 78], 3: [90]},
        placements=[(1, 76, 2, 2, False, False), (0, 78, 2, 3, False, False)],
        effects=[(1, 76, "red", -1), (0, 78, "green", 1)],
    ),
    dict(
        id="too-low-goes-after-the-highest-row-end",  # and 7 then follows 5 by Rules 1-2
        board=B0, hands=[[5], [7]], turns=[[[5], [7]]],
        board_after={0: [10], 1: [20], 2: [30], 3: [40, 5, 7]},
        placements=[(0, 5, 3, 2, True, False), (1, 7, 3, 3, False, False)],
        effects=[(0, 5, "plain", 0), (1, 7, "green", 1)],
    ),
    dict(
        id="too-low-takes-only-onto-the-take-field",  # 80's row is next to its take field (field 4)
        board={0: [10], 1: [20], 2: [50, 60, 80], 3: [30]}, hands=[[5], [31]], turns=[[[5], [31]]],
        board_after={0: [10], 1: [20], 3: [30, 31], 4: [5]},
        placements=[(0, 5, 2, 4, True, False), (0, 5, 4, 1, False, True), (1, 31, 3, 2, False, False)],
        effects=[(0, 5, "take", -9), (0, 5, "plain", 0), (1, 31, "plain", 0)],
        removed=[50, 60, 80],
    ),
    # ---- field effects
    dict(
        id="field-plain-nothing",
        board=B0, hands=[[11], [41]], turns=[[[11], [41]]],
        effects=[(0, 11, "plain", 0), (1, 41, "plain", 0)], scores_after=[0, 0],
    ),
    dict(
        id="field-green-plus-bullheads",
        board={0: [10, 12], 1: [30], 2: [40], 3: [50]}, hands=[[15], [51]], turns=[[[15], [51]]],
        effects=[(0, 15, "green", 2), (1, 51, "plain", 0)], scores_after=[2, 0],
    ),
    dict(
        id="field-red-minus-bullheads",
        board=RED_NEXT, hands=[[22], [51]], turns=[[[22], [51]]],
        effects=[(0, 22, "red", -5), (1, 51, "plain", 0)], scores_after=[-5, 0],
    ),
    dict(
        id="field-fixed-minus-3-ignores-bullheads",  # R4 field 5 is -3; 44 shows 5 bullheads
        board={0: [10], 1: [20], 2: [30], 3: [40, 41, 42, 43]}, hands=[[44], [11]], turns=[[[44], [11]]],
        effects=[(1, 11, "plain", 0), (0, 44, "fixed", -3)], scores_after=[-3, 0],
    ),
    dict(
        id="field-fixed-plus-2",  # R9 field 4 is +2
        board={0: [10], 1: [20], 2: [30], 8: [60, 61, 62]}, hands=[[63], [11]], turns=[[[63], [11]]],
        effects=[(1, 11, "plain", 0), (0, 63, "fixed", 2)], scores_after=[2, 0], counts=[1],
    ),
    dict(
        id="play-two-two-tiles-each-field-covered-scores-nothing",
        board={0: [10], 1: [20], 2: [30], 5: [60]}, hands=[[61, 11, 12], [21, 31, 32]],
        turns=[[[61, 11], [21, 31]], [[12], [32]]],
        counts=[2, 1],  # R6's play-two field is covered after the first turn
        effects=[(0, 11, "plain", 0), (1, 21, "green", 1), (1, 31, "red", -1), (0, 61, "play_two", 0),
                 (0, 12, "green", 1), (1, 32, "green", 1)],
        board_after={0: [10, 11, 12], 1: [20, 21], 2: [30, 31, 32], 5: [60, 61]},
    ),
    dict(
        id="play-two-checked-at-the-start-of-the-turn",  # opened mid-turn: two tiles from the next turn
        board={0: [10], 1: [20], 2: [30], 4: [50, 51, 52, 53]}, hands=[[54, 12, 13], [11, 14, 15]],
        turns=[[[54], [11]], [[12, 13], [14, 15]]],
        counts=[1, 2],
        effects=[(1, 11, "plain", 0), (0, 54, "take", -6), (0, 54, "plain", 0),
                 (0, 12, "green", 1), (0, 13, "red", -1), (1, 14, "take", -10), (1, 14, "plain", 0),
                 (1, 15, "plain", 0)],
        board_after={1: [20], 2: [30], 3: [14, 15], 5: [54]},
        removed=[50, 51, 52, 53, 10, 11, 12, 13],
    ),
    dict(
        id="play-two-a-seat-with-one-tile-plays-one",
        board={0: [10], 1: [20], 2: [30], 5: [60]}, hands=[[11], [21]], turns=[[[11], [21]]],
        counts=[2], effects=[(0, 11, "plain", 0), (1, 21, "green", 1)],
    ),
    # ---- take the row, the next free row
    dict(
        id="take-minus-tiles-left-they-leave-tile-opens-next-free-row",
        board=TAKE_NEXT, hands=[[14], [41]], turns=[[[14], [41]]],
        board_after={1: [20], 2: [30], 3: [40, 41], 4: [14]},
        placements=[(0, 14, 0, 5, False, False), (0, 14, 4, 1, False, True), (1, 41, 3, 2, False, False)],
        effects=[(0, 14, "take", -10), (0, 14, "plain", 0), (1, 41, "plain", 0)],
        removed=[10, 11, 12, 13],
    ),
    dict(
        id="take-review-example-57-61-64-score-minus-7",  # "Im Beispielbild sind das 7 Hornochsen"
        rules={"bullheads": bullheads_with({57: 2, 61: 2, 64: 3})},
        board={0: [10], 1: [20], 2: [57, 61, 64], 3: [30]}, hands=[[66], [11]], turns=[[[66], [11]]],
        board_after={0: [10, 11], 1: [20], 3: [30], 4: [66]},
        effects=[(1, 11, "plain", 0), (0, 66, "take", -7), (0, 66, "plain", 0)],
        removed=[57, 61, 64],
    ),
    dict(
        id="next-row-scan-wraps-from-row-10-to-row-1",
        board={1: [20], 2: [30], 3: [40], 9: [60, 61, 62, 63, 64]}, hands=[[65], [41]], turns=[[[65], [41]]],
        board_after={0: [65], 1: [20], 2: [30], 3: [40, 41]},
        effects=[(1, 41, "plain", 0), (0, 65, "take", -7), (0, 65, "plain", 0)],
    ),
    dict(
        id="next-row-scan-first-free-row-below-the-taken-one",  # second take of row 1 -> row 3, free again
        board={0: [10, 11, 12, 13], 1: [20], 2: [30, 31, 32], 3: [40]}, hands=[[33, 14], [41, 42]],
        turns=[[[33], [41]], [[14], [42]]],
        board_after={1: [20], 2: [14], 3: [40, 41, 42], 4: [33]},
        effects=[(0, 33, "take", -5), (0, 33, "plain", 0), (1, 41, "plain", 0),
                 (0, 14, "take", -10), (0, 14, "plain", 0), (1, 42, "green", 1)],
    ),
    dict(
        id="next-row-rotate-first-free-row-after-the-pointer",  # same turns: row 5 after the pointer at row 5
        rules={"next_row": "rotate"},
        board={0: [10, 11, 12, 13], 1: [20], 2: [30, 31, 32], 3: [40]}, hands=[[33, 14], [41, 42]],
        turns=[[[33], [41]], [[14], [42]]],
        board_after={1: [20], 3: [40, 41, 42], 4: [33], 5: [14]},
        pointer_after=5,
    ),
    dict(
        id="next-row-rotate-never-back-into-the-taken-row",  # pointer at row 5 wraps to row 1, just taken
        rules={"rows": [list(r) for r in ref.DEFAULT_BASIC_ROWS[:5]], "next_row": "rotate"},
        board={0: [10, 11, 12, 13], 1: [20], 2: [30], 4: [50]}, pointer=4, hands=[[14], [21]],
        turns=[[[14], [21]]],
        board_after={1: [20, 21], 2: [30], 3: [14], 4: [50]},
        pointer_after=3,
    ),
    # ---- refill and the end
    dict(
        id="refill-2-3-players-12-each-seat-0-first-at-the-end-of-the-turn",
        board=B0, hands=[[11], [21]], turns=[[[11], [21]]], refill_due=True, supply=list(range(50, 76)),
        hands_after=[list(range(50, 62)), list(range(62, 74))], supply_after=[74, 75], over=False,
        effects=[(0, 11, "plain", 0), (1, 21, "green", 1)],
    ),
    dict(
        id="refill-only-once-the-second-empty-hand-ends-the-game",
        board=B0, hands=[[11], [21]], turns=[[[11], [21]]], refill_due=False, supply=list(range(50, 76)),
        hands_after=[[], []], supply_after=list(range(50, 76)), over=True, winners=[1],
    ),
    dict(
        id="end-4-6-players-no-refill-most-points-wins",
        board=B0, hands=[[11], [21], [31], [41]], turns=[[[11], [21], [31], [41]]], supply=[50, 51],
        scores_after=[0, 1, -1, 0], hands_after=[[], [], [], []], over=True, winners=[1],
    ),
    dict(
        id="end-ties-all-tied-players-win",
        board=B0, hands=[[11], [12], [41]], turns=[[[11], [12], [41]]], scores=[1, 0, 0],
        scores_after=[1, 1, 0], over=True, winners=[0, 1],
    ),
    # ---- luck cards: gaining
    dict(
        id="luck-gain-one-card-per-clover-passed-seats-choice",
        rules={**LUCK, "clovers": [-4, -2, 3]}, board=RED_NEXT, hands=[[22], [51]], turns=[[[22], [51]]],
        answers=[(0, "luck_card", "+5"), (0, "luck_card", "2x")],
        options=[["+5", "2x"], ["+5", "2x"]],
        luck_after=[{"+5": 1, "2x": 1}, {"+5": 0, "2x": 0}], stacks_after={"+5": 5, "2x": 5},
        effects=[(0, 22, "red", -5), (1, 51, "plain", 0)],
    ),
    dict(
        id="luck-gain-moving-onto-a-clover",  # new <= c
        rules={**LUCK, "clovers": [-1]}, board=RED_NEXT, hands=[[16], [51]], turns=[[[16], [51]]],
        answers=[(0, "luck_card", "2x")], luck_after=[{"+5": 0, "2x": 1}, {"+5": 0, "2x": 0}],
    ),
    dict(
        id="luck-no-gain-leaving-a-clover",  # c < old
        rules={**LUCK, "clovers": [-1]}, scores=[-1, 0], board=RED_NEXT, hands=[[16], [51]], turns=[[[16], [51]]],
        scores_after=[-2, 0], luck_after=[{"+5": 0, "2x": 0}, {"+5": 0, "2x": 0}],
    ),
    dict(
        id="luck-no-gain-when-the-score-goes-up-past-a-clover",
        rules={**LUCK, "clovers": [-2]}, scores=[-3, 0],
        board={0: [10, 12], 1: [30], 2: [40], 3: [50]}, hands=[[15], [51]], turns=[[[15], [51]]],
        scores_after=[-1, 0], luck_after=[{"+5": 0, "2x": 0}, {"+5": 0, "2x": 0}],
    ),
    dict(
        id="luck-chosen-stack-empty-only-the-other-offered",
        rules={**LUCK, "clovers": [-2]}, stacks={"+5": 0, "2x": 6}, board=RED_NEXT, hands=[[22], [51]],
        turns=[[[22], [51]]], answers=[(0, "luck_card", "2x")], options=[["2x"]],
        stacks_after={"+5": 0, "2x": 5},
    ),
    dict(
        id="luck-both-stacks-empty-none-nothing-asked",
        rules={**LUCK, "clovers": [-2]}, stacks={"+5": 0, "2x": 0}, board=RED_NEXT, hands=[[22], [51]],
        turns=[[[22], [51]]], luck_after=[{"+5": 0, "2x": 0}, {"+5": 0, "2x": 0}],
    ),
    dict(
        id="luck-basic-variant-never-gains-or-asks",
        rules={"clovers": [-2]}, luck=[{"+5": 1, "2x": 1}, {}], board=RED_NEXT, hands=[[22], [51]],
        turns=[[[22], [51]]], scores_after=[-5, 0], luck_after=[{"+5": 1, "2x": 1}, {"+5": 0, "2x": 0}],
    ),
    dict(
        id="luck-card-usable-from-the-next-turn-on",  # gained by 22, not offered for 31, offered for 32
        rules={**LUCK, "clovers": [-2]}, board={0: [10, 12, 14], 1: [30], 2: [40], 5: [60]},
        hands=[[22, 31, 32], [61, 41, 42]], turns=[[[22, 31], [61, 41]], [[32], [42]]],
        answers=[(0, "luck_card", "+5"), (0, "use_plus5", True)],
        asks_per_turn=[["luck_card"], ["use_plus5"]],
        effects=[(0, 22, "red", -5), (0, 31, "green", 1), (1, 41, "red", -1), (1, 61, "play_two", 0),
                 (0, 32, "plus5", 5), (1, 42, "green", 1)],
        stacks_after={"+5": 6, "2x": 6},
    ),
    dict(
        id="luck-card-from-a-take-not-offered-for-field-1-of-the-moved-tile",
        rules={**LUCK, "clovers": [-5]}, board=TAKE_NEXT, hands=[[14], [41]], turns=[[[14], [41]]],
        answers=[(0, "luck_card", "+5")],
        effects=[(0, 14, "take", -10), (0, 14, "plain", 0), (1, 41, "plain", 0)],
    ),
    # ---- luck cards: "+5"
    dict(
        id="plus5-replaces-a-red-field-card-back-on-its-stack",
        rules=LUCK, luck=[{"+5": 1}, {}], stacks={"+5": 5, "2x": 6}, board=RED_NEXT, hands=[[22], [51]],
        turns=[[[22], [51]]], answers=[(0, "use_plus5", True)], options=[[True, False]],
        effects=[(0, 22, "plus5", 5), (1, 51, "plain", 0)],
        luck_after=[{"+5": 0, "2x": 0}, {"+5": 0, "2x": 0}], stacks_after={"+5": 6, "2x": 6},
    ),
    dict(
        id="plus5-declined-the-field-effect-applies",
        rules=LUCK, luck=[{"+5": 1}, {}], stacks={"+5": 5, "2x": 6}, board=RED_NEXT, hands=[[22], [51]],
        turns=[[[22], [51]]], answers=[(0, "use_plus5", False)],
        effects=[(0, 22, "red", -5), (1, 51, "plain", 0)], luck_after=[{"+5": 1, "2x": 0}, {"+5": 0, "2x": 0}],
    ),
    dict(
        id="plus5-on-a-plain-field",
        rules=LUCK, luck=[{"+5": 1}, {}], board=B0, hands=[[11], [41]], turns=[[[11], [41]]],
        answers=[(0, "use_plus5", True)], effects=[(0, 11, "plus5", 5), (1, 41, "plain", 0)],
    ),
    dict(
        id="plus5-on-a-fixed-field",
        rules=LUCK, luck=[{"+5": 1}, {}], board={0: [10], 1: [20], 2: [30], 3: [40, 41, 42, 43]},
        hands=[[44], [11]], turns=[[[44], [11]]], answers=[(0, "use_plus5", True)],
        effects=[(1, 11, "plain", 0), (0, 44, "plus5", 5)],
    ),
    dict(
        id="plus5-on-a-play-two-field-which-is-still-covered",
        rules=LUCK, luck=[{"+5": 1}, {}], board={0: [10], 1: [20], 2: [30], 5: [60]},
        hands=[[61, 11, 12], [21, 31, 32]], turns=[[[61, 11], [21, 31]], [[12], [32]]],
        answers=[(0, "use_plus5", False), (0, "use_plus5", True)], counts=[2, 1],
        effects=[(0, 11, "plain", 0), (1, 21, "green", 1), (1, 31, "red", -1), (0, 61, "plus5", 5),
                 (0, 12, "green", 1), (1, 32, "green", 1)],
    ),
    dict(
        id="plus5-never-on-a-take-field-but-on-field-1-of-the-moved-tile",
        rules={**LUCK, "clovers": []}, luck=[{"+5": 1}, {}], board=TAKE_NEXT, hands=[[14], [41]],
        turns=[[[14], [41]]], answers=[(0, "use_plus5", True)],
        effects=[(0, 14, "take", -10), (0, 14, "plus5", 5), (1, 41, "plain", 0)],
    ),
    dict(
        id="plus5-and-2x-not-asked-without-a-card",
        rules={**LUCK, "clovers": []}, board=TAKE_NEXT, hands=[[14], [41]], turns=[[[14], [41]]],
        effects=[(0, 14, "take", -10), (0, 14, "plain", 0), (1, 41, "plain", 0)],
    ),
    # ---- luck cards: "2x"
    dict(
        id="double-the-best-two-tiles-count-plus",  # 11 (5) and 10 (3) plus, 12 and 13 minus: +6
        rules=LUCK, luck=[{"2x": 1}, {}], stacks={"+5": 6, "2x": 5}, board=TAKE_NEXT, hands=[[14], [41]],
        turns=[[[14], [41]]], answers=[(0, "use_double", True)], options=[[True, False]],
        effects=[(0, 14, "take_2x", 6), (0, 14, "plain", 0), (1, 41, "plain", 0)],
        luck_after=[{"+5": 0, "2x": 0}, {"+5": 0, "2x": 0}], stacks_after={"+5": 6, "2x": 6},
        removed=[10, 11, 12, 13],
    ),
    dict(
        id="double-declined",
        rules={**LUCK, "clovers": []}, luck=[{"2x": 1}, {}], board=TAKE_NEXT, hands=[[14], [41]],
        turns=[[[14], [41]]], answers=[(0, "use_double", False)],
        effects=[(0, 14, "take", -10), (0, 14, "plain", 0), (1, 41, "plain", 0)],
        luck_after=[{"+5": 0, "2x": 1}, {"+5": 0, "2x": 0}],
    ),
    dict(
        id="double-on-a-one-tile-row-that-tile-counts-plus",
        rules={**LUCK, "rows": [[".", "T"]] + [list(r) for r in ref.DEFAULT_BASIC_ROWS[1:]]},
        luck=[{"2x": 1}, {}], board=B0, hands=[[11], [41]], turns=[[[11], [41]]],
        answers=[(0, "use_double", True)],
        effects=[(0, 11, "take_2x", 3), (0, 11, "plain", 0), (1, 41, "plain", 0)],
        board_after={1: [20], 2: [30], 3: [40, 41], 4: [11]},
    ),
    dict(
        id="double-take-is-one-effect-for-the-clovers",  # net -2 passes -1 only, not -3 (-6 then +2 would)
        rules={**LUCK, "clovers": [-3, -1]}, luck=[{"2x": 1}, {}], stacks={"+5": 6, "2x": 5},
        board={0: [10], 1: [20], 2: [30], 3: [41, 42, 43, 46, 47, 48]}, hands=[[49], [11]],
        turns=[[[49], [11]]], answers=[(0, "use_double", True), (0, "luck_card", "+5")],
        effects=[(1, 11, "plain", 0), (0, 49, "take_2x", -2), (0, 49, "plain", 0)],
        luck_after=[{"+5": 1, "2x": 0}, {"+5": 0, "2x": 0}], stacks_after={"+5": 5, "2x": 6},
    ),
    dict(
        id="order-on-a-take-double-then-luck-cards-then-field-1-plus5",
        rules={**LUCK, "clovers": [-5]}, luck=[{"+5": 1, "2x": 1}, {}], stacks={"+5": 5, "2x": 5},
        board=TAKE_NEXT, hands=[[14], [41]], turns=[[[14], [41]]],
        answers=[(0, "use_double", False), (0, "luck_card", "+5"), (0, "use_plus5", True)],
        options=[[True, False], ["+5", "2x"], [True, False]],
        effects=[(0, 14, "take", -10), (0, 14, "plus5", 5), (1, 41, "plain", 0)],
        luck_after=[{"+5": 1, "2x": 1}, {"+5": 0, "2x": 0}], stacks_after={"+5": 5, "2x": 5},
    ),
    dict(
        id="luck-used-card-back-on-its-stack-can-be-gained-in-the-same-turn",
        rules={**LUCK, "clovers": [-2]}, luck=[{"+5": 1}, {}], stacks={"+5": 0, "2x": 0},
        board=RED_NEXT, hands=[[15], [44]], turns=[[[15], [44]]],
        answers=[(0, "use_plus5", True), (1, "luck_card", "+5")], options=[[True, False], ["+5"]],
        effects=[(0, 15, "plus5", 5), (1, 44, "red", -5)],
        luck_after=[{"+5": 0, "2x": 0}, {"+5": 1, "2x": 0}], stacks_after={"+5": 0, "2x": 0},
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_rule_case(case):
    state, results = run_case(case)
    asked = [a for r in results for a in r.asked]
    assert [(a.seat, a.ask, a.answer) for a in asked] == case.get("answers", [])
    if "options" in case:
        assert [a.options for a in asked] == case["options"]
    if "asks_per_turn" in case:
        assert [[a.ask for a in r.asked] for r in results] == case["asks_per_turn"]
    if "board_after" in case:
        assert active_of(state.board) == case["board_after"]
    if "effects" in case:
        assert [(e.seat, e.tile, e.cause, e.points) for r in results for e in r.effects] == case["effects"]
    if "placements" in case:
        got = [(p.seat, p.tile, p.row, p.field, p.too_low, p.moved) for r in results for p in r.placements]
        assert got == case["placements"]
    if "counts" in case:
        assert [r.count for r in results] == case["counts"]
    if "removed" in case:
        assert state.removed == case["removed"]
    for key in ("scores", "luck", "stacks", "hands", "supply", "pointer"):
        if key + "_after" in case:
            assert getattr(state, key) == case[key + "_after"], key
    if "over" in case:
        assert ref.game_over(state) == case["over"]
    if "winners" in case:
        assert ref.winners(state.scores) == case["winners"]
    # every case: the scores moved by exactly the effects, and four rows stay active
    start = case.get("scores") or [0] * len(case["hands"])
    assert state.scores == [start[s] + sum(r.deltas[s] for r in results) for s in range(len(start))]
    assert len(active_of(state.board)) == 4


def test_every_field_kind_and_cause_has_a_case():
    causes = {effect[2] for case in CASES for effect in case.get("effects", [])}
    assert causes == {"plain", "green", "red", "fixed", "play_two", "take", "plus5", "take_2x"}


def test_decisions_in_the_record_form():
    case = next(c for c in CASES if c["id"] == "order-on-a-take-double-then-luck-cards-then-field-1-plus5")
    _, results = run_case(case)
    assert ref.record_decisions(results[0].asked) == [
        {"seat": 0, "ask": "use_double", "answer": False},
        {"seat": 0, "ask": "luck_card", "answer": "+5"},
        {"seat": 0, "ask": "use_plus5", "answer": True},
    ]


# =========================================================================== bad input during play


def small_position(**kwargs) -> ref.State:
    """Two seats on B0 with the given hands (default 11 and 41)."""
    return ref.position(ref.Rules(**kwargs), board_of(B0), [[11], [41]])


def test_play_turn_refuses_bad_tiles():
    state = small_position()
    with pytest.raises(ValueError, match="does not hold tile 12"):
        ref.play_turn(state, [[12], [41]])
    with pytest.raises(ValueError, match="must put out 1 tile"):
        ref.play_turn(state, [[], [41]])
    with pytest.raises(ValueError, match="need the tiles of 2 seats"):
        ref.play_turn(state, [[11]])
    over = ref.play_turn(state, [[11], [41]]).state
    with pytest.raises(ValueError, match="the game is over"):
        ref.play_turn(over, [[], []])
    assert state.hands == [[11], [41]]  # the input state is never mutated


def test_a_decision_must_be_one_of_the_options():
    state = ref.position(ref.Rules(variant="luck"), board_of(B0), [[11], [41]], luck=[{"+5": 1}, {}])
    with pytest.raises(ValueError, match="not one of"):
        ref.play_turn(state, [[11], [41]], lambda seat, ask, options: 1)  # 1 == True, but not a bool
    with pytest.raises(ValueError, match="no decide callback"):
        ref.play_turn(state, [[11], [41]])


def test_bad_positions_are_refused():
    with pytest.raises(ValueError, match="4 active rows"):
        ref.position(ref.Rules(), board_of({0: [10], 1: [20], 2: [30]}), [[11], [41]])
    with pytest.raises(ValueError, match="takes"):
        ref.position(ref.Rules(), board_of({0: [1, 2, 3, 4, 5], 1: [20], 2: [30], 3: [40]}), [[11], [41]])
    with pytest.raises(ValueError, match="twice"):
        ref.position(ref.Rules(), board_of(B0), [[10], [41]])


def test_refill_needs_enough_draws():
    state = ref.position(ref.Rules(), board_of(B0), [[11], [41]], supply=[50, 51], refill_due=True)
    with pytest.raises(ValueError, match="refill needs 24"):
        ref.play_turn(state, [[11], [41]])


# =========================================================================== invariants over random games


def random_pick(rng: random.Random) -> ref.Pick:
    """Uniformly random tiles from the hand."""
    return lambda state, seat, count: rng.sample(state.hands[seat], count)


class RandomDecide:
    """Uniformly random answers; remembers every (seat, ask, options, answer) it gave."""

    def __init__(self, rng: random.Random) -> None:
        """Start with no answers given."""
        self.rng = rng
        self.given: list[tuple[int, str, list, object]] = []

    def __call__(self, seat: int, ask: str, options: list):
        """Pick any option."""
        answer = self.rng.choice(options)
        self.given.append((seat, ask, list(options), answer))
        return answer


def crossed(clovers: list[int], old: int, new: int) -> int:
    """Clovers a loss from old to new passes or lands on."""
    return len({c for c in clovers if new <= c < old})


def check_game(rules: ref.Rules, players: int, seed: int) -> ref.GameResult:
    """Play one random game and check every invariant after every turn."""
    rng = random.Random(seed)
    hands, start, draws = ref.deal(players, rng)
    decide = RandomDecide(rng)
    game = ref.play_game(rules, hands, start, draws, random_pick(rng), decide)
    kinds = ref.LUCK_KINDS
    total_cards = rules.luck_stacks

    state = ref.new_game(rules, hands, start, draws)
    scores = [0] * players
    played: list[int] = []
    for t, result in enumerate(game.turns):
        after = result.state
        # four active rows at all times (between turns; a take refills its row's count at once)
        assert len(active_of(after.board)) == 4
        # every tile exactly once: on the board, removed, in a hand or still in the supply
        on_board = [x for row in after.board for x in row]
        where = on_board + after.removed + [x for h in after.hands for x in h] + after.supply
        assert sorted(where) == list(range(1, 101)), f"turn {t}"
        # the tiles of the turn: from the hands, as many as the rule says
        for seat, chosen in enumerate(result.tiles):
            assert len(chosen) == min(result.count, len(state.hands[seat]))
            assert set(chosen) <= set(state.hands[seat])
        turn_tiles = sorted(x for chosen in result.tiles for x in chosen)
        played += turn_tiles
        placed = [p for p in result.placements if not p.moved]
        assert [p.tile for p in placed] == turn_tiles  # each once, lowest first
        # scores = the sum of the effects, and each effect is what its field says
        for e in result.effects:
            scores[e.seat] += e.points
            code = rules.rows[e.row][e.field - 1]
            bulls = rules.bullheads[e.tile]
            if e.cause == "plus5":
                assert e.points == 5 and code != "T"
            elif e.cause in ("take", "take_2x"):
                assert code == "T"
            else:
                assert e.points == ref.field_points(code, bulls) and e.cause == ref.field_kind(code)
            if e.gained:
                assert rules.variant == "luck" and e.points < 0
                assert len(e.gained) <= crossed(rules.clovers, scores[e.seat] - e.points, scores[e.seat])
        assert after.scores == scores
        takes = [e for e in result.effects if e.cause.startswith("take")]
        assert len(takes) == sum(p.moved for p in result.placements)  # each take moves its tile once
        assert not set(result.removed) & set(on_board)
        # decisions: only from the legal options, only with a usable card, none in the basic variant
        held = [dict(c) for c in state.luck]
        stacks = dict(state.stacks)
        for a in result.asked:
            assert rules.variant == "luck"
            if a.ask == "luck_card":
                assert a.options == [k for k in kinds if stacks[k] > 0] and a.answer in a.options
                stacks[a.answer] -= 1
            else:
                assert a.options == [True, False] and isinstance(a.answer, bool)
                assert a.ask in ("use_plus5", "use_double")
                kind = "+5" if a.ask == "use_plus5" else "2x"
                assert held[a.seat][kind] > 0, "offered a card the seat did not hold at the start of the turn"
                if a.answer:
                    held[a.seat][kind] -= 1
                    stacks[kind] += 1
        assert stacks == after.stacks
        # luck cards are conserved: on the stacks or in the hands
        for k in kinds:
            assert after.stacks[k] + sum(c[k] for c in after.luck) == total_cards[k]
        state = after

    assert ref.game_over(state)
    refill = draws[: 12 * players] if players <= 3 else []
    assert sorted(played) == sorted([x for h in hands for x in h] + refill)  # every dealt tile, each once
    assert game.scores == scores and game.winners == ref.winners(scores)
    assert [a[:2] + (a[3],) for a in decide.given] == [(a.seat, a.ask, a.answer) for r in game.turns for a in r.asked]
    return game


GAME_CONFIGS = [
    (players, variant, next_row)
    for players in range(2, 7)
    for variant in ("basic", "luck")
    for next_row in ("scan", "rotate")
]


@pytest.mark.parametrize("players,variant,next_row", GAME_CONFIGS, ids=[f"{p}p-{v}-{n}" for p, v, n in GAME_CONFIGS])
def test_random_games_keep_the_invariants(players, variant, next_row):
    rules = ref.Rules(variant=variant, next_row=next_row)
    for seed in range(12):
        check_game(rules, players, 1000 * players + seed)


@pytest.mark.parametrize("players", range(2, 7))
def test_random_games_with_dense_clovers_and_small_stacks(players):
    """Clovers on every multiple of 3 and stacks of 2: gains, empty stacks and returns happen often."""
    rules = ref.Rules(variant="luck", clovers=list(range(-300, 301, 3)), luck_stacks={"+5": 2, "2x": 2})
    seen = Counter()
    for seed in range(15):
        game = check_game(rules, players, 77 * players + seed)
        for r in game.turns:
            seen.update(a.ask for a in r.asked)
            seen.update("one-option" for a in r.asked if a.ask == "luck_card" and len(a.options) == 1)
    assert {"luck_card", "use_plus5", "use_double", "one-option"} <= set(seen)


def test_random_games_gain_one_card_per_clover_while_stacks_last():
    """With stacks too big to run out, every loss gains exactly one card per clover it passes."""
    rules = ref.Rules(variant="luck", clovers=list(range(-300, 301, 4)), luck_stacks={"+5": 500, "2x": 500})
    for seed in range(10):
        game = check_game(rules, 2 + seed % 5, seed)
        scores = [0] * len(game.scores)
        for r in game.turns:
            for e in r.effects:
                old = scores[e.seat]
                scores[e.seat] += e.points
                expected = crossed(rules.clovers, old, scores[e.seat]) if e.points < 0 else 0
                assert len(e.gained) == expected


@pytest.mark.parametrize("players,tiles_each", [(2, 24), (3, 24), (4, 12), (5, 12), (6, 12)])
def test_tiles_played_per_seat(players, tiles_each):
    """'With 2-3 players each player refills once, playing 24 tiles in all; with 4-6 players, 12.'"""
    game = check_game(ref.Rules(), players, players)
    for seat in range(players):
        assert sum(len(r.tiles[seat]) for r in game.turns) == tiles_each
    refills = [t for t, r in enumerate(game.turns) if r.refilled]
    assert len(refills) == (1 if players <= 3 else 0)
    if refills:  # at the end of the turn in which every hand became empty: its tiles were the last ones
        t = refills[0]
        before = game.turns[t - 1].state
        assert [len(chosen) for chosen in game.turns[t].tiles] == [len(h) for h in before.hands]
        assert [len(h) for h in game.turns[t].state.hands] == [12] * players


def test_play_two_turns_happen_and_follow_the_rule():
    """In random games, every turn's count is 2 exactly when an active row had an uncovered play-two field."""
    rules = ref.Rules()
    seen = set()
    for seed in range(20):
        rng = random.Random(seed)
        hands, start, draws = ref.deal(4, rng)
        game = ref.play_game(rules, hands, start, draws, random_pick(rng))
        before = ref.new_game(rules, hands, start, draws)
        for r in game.turns:
            open_rows = [r for r, tiles in enumerate(before.board) if tiles and "2" in rules.rows[r][len(tiles) :]]
            assert r.count == (2 if open_rows else 1)
            seen.add(r.count)
            before = r.state
    assert seen == {1, 2}
