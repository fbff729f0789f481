"""The board game's rules as scripted cases (docs/rules/board-game.md, variants 1-2, basic
side), as data shared by the reference's tests and the engine's: each case is a position,
the tiles each seat puts out per turn, the answers to the questions in the order they must
be asked, and what must come of it.

Notation: boards are {row: tiles} for the active rows (rows 0..9, the rules' R1..R10);
fields are 1-based. The default basic board (field 1 first):
    R1 . . + - T         R6  . 2 + - . T
    R2 . + . - . T       R7  . - 2 T
    R3 . - + T           R8  . + . 2 - . T
    R4 . . + . -3 . T    R9  . 2 - +2 T
    R5 . + - . T         R10 . + 2 - . T
Default bullheads used below: 10, 20, 30, 40, 50, 60, 80 -> 3; 11, 22, 44 -> 5; 15 -> 2;
every other tile named -> 1.
"""

from __future__ import annotations

from tests.support import reference_board as ref


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


B0 = {0: [10], 1: [20], 2: [30], 3: [40]}  # four start tiles, every row at field 1
ENDS_3_64_75_90 = {0: [3], 1: [64], 2: [75], 3: [90]}
RED_NEXT = {0: [10, 12, 14], 1: [30], 2: [40], 3: [50]}  # row 0's next field (4) is red
TAKE_NEXT = {0: [10, 11, 12, 13], 1: [20], 2: [30], 3: [40]}  # row 0's next field (5) is its take field; 3+5+1+1 = 10
LUCK = {"variant": "luck"}

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
