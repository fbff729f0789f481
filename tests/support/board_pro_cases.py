"""The board game's professional side (variants 3 "pro" and 4 "pro-luck") as scripted cases,
as data for the scalar reference's tests (tests/board/test_reference_board_pro.py) and, later,
the engine's: each case is a position, the tiles each seat puts out per turn, the answers
to the questions in the order they must be asked, and what must come of it. Nothing here
depends on how an engine stores a game.

Notation: boards are {row: fields} for the active rows (rows 0..9, the rules' R1..R10),
one entry per field from field 1 on: a tile, or None for a field a Skip left empty.
Fields are 1-based. The default pro board (an APPROXIMATION; field 1 first):
    R1 - A - + H             R6  D 2 - + - T
    R2 - D + - A T           R7  - A 2 T
    R3 + - D T               R8  + - D 2 - A T
    R4 - A - +2 - D H        R9  - 2 A -3 T
    R5 - + A - T             R10 A - 2 + D T
Default bullheads used below: 10, 20, 30, 40, 50, 60 -> 3; 22, 33, 44, 55 -> 5;
5, 15, 25, 45 -> 2; every other tile named -> 1.

Keys of a case. Position: board, hands (tiles behind each screen), actions (action cards
held per seat), deck and discards ({kind: count}; the deck defaults to every card of the
deck not held nor discarded), action_draws (the deck's cards in the order drawn), supply
(tiles in draw order), scores, luck, stacks (pro-luck), stops (rows under a sign standing
from earlier in this turn), refill_due (2-3 players: the refill is still to come), rules
(keywords of the reference's Rules: variant, rows, bullheads, clovers, action_deck ...).
Play: turns (per turn the tiles each seat puts out), answers [(seat, ask, answer)] in the
order they must be asked; action answers are None or {"card": kind, "row"/"tile": ...}.
Expectations (each optional): board_after; effects [(seat, tile, cause, points)] over all
turns, the final scoring included (tile None); placements [(seat, tile, row, field, how)];
options (of every ask, in order); asks_per_turn; stops_per_turn (the signs standing when
a turn's placing ended); counts (tiles per seat per turn); scores_after, hands_after,
actions_after, deck_after, discards_after, action_draws_after, supply_after, luck_after,
stacks_after; removed (tiles out of the game); over, winners; error (a substring of the
error the last answer must raise: an answer outside the legal options is refused, and the
message names the legal set).
"""

from __future__ import annotations

from tests.support import reference_board_pro as ref


def board_of(active: dict[int, list], rows: int = 10) -> list[list]:
    """The reference's board (one field list per row) from {row: fields}."""
    return [list(active.get(r, [])) for r in range(rows)]


def active_of(board: list[list]) -> dict[int, list]:
    """{row: fields} of the active rows of a board."""
    return {r: fields for r, fields in enumerate(board) if fields}


def cards(**counts: int) -> dict[str, int]:
    """A pile of action cards by kind (every kind not named: 0)."""
    return {kind: counts.get(kind, 0) for kind in ref.ACTION_KINDS}


def deck_less(*taken: str) -> dict[str, int]:
    """The default deck (4 of each kind) less the cards named."""
    pile = dict(ref.DEFAULT_ACTION_DECK)
    for kind in taken:
        pile[kind] -= 1
    return pile


# The answers to an "action" question.
def stop(row: int) -> dict:
    return {"card": "stop", "row": row}


def swap(tile: int) -> dict:
    return {"card": "swap", "tile": tile}


SKIP = {"card": "skip"}


def front(row: int) -> dict:
    return {"card": "front", "row": row}


def asc(row: int) -> dict:
    return {"card": "ascending", "row": row}


def more(tile: int) -> dict:
    return {"card": "one_more", "tile": tile}


STOPS_0123 = [stop(0), stop(1), stop(2), stop(3)]
FREE_AFTER_TAKE = {0: [0, 4, 5, 6, 7, 8, 9], 2: [2, 4, 5, 6, 7, 8, 9], 3: [3, 4, 5, 6, 7, 8, 9]}

# Row ends 12, 23, 30, 42; next fields: R1 field 3 "-", R2 field 4 "-", R3 field 2 "-",
# R4 field 4 "+2"; every row has two free fields before its take field (Skip, Front legal).
BASE = {0: [10, 12], 1: [20, 21, 23], 2: [30], 3: [40, 41, 42]}
H_NEXT = {0: [10, 12, 13, 14], 1: [20, 21, 23], 2: [30], 3: [40, 41, 42]}  # R1's next field is H
T_NEXT = {0: [10, 12], 1: [20, 21, 23], 2: [30, 32, 33], 3: [40, 41, 42]}  # R3's next field is T: 3+1+5 = 9
# Play two open (R6 field 2 uncovered); R2 next field D, R1 "-", R4 "+2".
TWO = {0: [10, 12], 1: [20], 3: [40, 41, 42], 5: [60]}
LUCK = {"variant": "pro-luck", "clovers": []}

CASES = [
    # ---- the pro fields
    dict(
        id="field-red-and-fixed-plus-2",
        board=BASE, hands=[[13, 98], [45, 99]], turns=[[[13], [45]]],
        effects=[(0, 13, "red", -1), (1, 45, "fixed", 2)], scores_after=[-1, 2],
        board_after={0: [10, 12, 13], 1: [20, 21, 23], 2: [30], 3: [40, 41, 42, 45]}, over=False,
    ),
    dict(
        id="field-green-plus-bullheads",
        board={0: [10, 12, 13], 1: [20, 21, 23], 2: [30], 3: [40, 41, 42]}, hands=[[15, 98], [31, 99]],
        turns=[[[15], [31]]], effects=[(0, 15, "green", 2), (1, 31, "red", -1)], scores_after=[2, -1],
    ),
    dict(
        id="field-fixed-minus-3-ignores-bullheads",  # R9 field 4
        board={0: [10], 1: [20], 2: [30], 8: [60, 61, 62]}, hands=[[63, 98], [31, 99]], turns=[[[63], [31]]],
        effects=[(1, 31, "red", -1), (0, 63, "fixed", -3)], scores_after=[-3, -1],
    ),
    dict(
        id="field-D-draws-the-next-supply-tile-into-the-hand",
        board={0: [10, 12], 1: [20], 2: [30], 3: [40, 41, 42]}, supply=[50, 51],
        hands=[[21, 98], [31, 99]], turns=[[[21], [31]]],
        effects=[(0, 21, "draw_tile", 0), (1, 31, "red", -1)],
        hands_after=[[50, 98], [99]], supply_after=[51],
    ),
    dict(
        id="field-D-empty-supply-does-nothing",
        board={0: [10, 12], 1: [20], 2: [30], 3: [40, 41, 42]}, supply=[],
        hands=[[21, 98], [31, 99]], turns=[[[21], [31]]],
        effects=[(0, 21, "draw_tile", 0), (1, 31, "red", -1)], hands_after=[[98], [99]], supply_after=[],
    ),
    dict(
        id="field-A-draws-the-top-of-the-deck",
        board={0: [10, 12], 1: [20, 21, 23], 2: [30], 3: [40]}, action_draws=["front", "stop"],
        hands=[[41, 98], [31, 99]], turns=[[[41], [31]]],
        effects=[(1, 31, "red", -1), (0, 41, "draw_action", 0)],
        actions_after=[["front"], []], deck_after=deck_less("front"), action_draws_after=["stop"],
    ),
    dict(
        id="field-A-empty-deck-the-discards-are-reshuffled",
        board={0: [10, 12], 1: [20, 21, 23], 2: [30], 3: [40]}, deck=cards(), discards=dict(ref.DEFAULT_ACTION_DECK),
        action_draws=["swap"], hands=[[41, 98], [31, 99]], turns=[[[41], [31]]],
        actions_after=[["swap"], []], deck_after=deck_less("swap"), discards_after=cards(),
    ),
    dict(
        id="field-A-deck-and-discards-empty-nothing-drawn",
        rules={"action_deck": cards()}, board={0: [10, 12], 1: [20, 21, 23], 2: [30], 3: [40]},
        hands=[[41, 98], [31, 99]], turns=[[[41], [31]]],
        effects=[(1, 31, "red", -1), (0, 41, "draw_action", 0)], actions_after=[[], []], deck_after=cards(),
    ),
    dict(
        id="field-H-row-into-the-hand-unscored-then-a-free-row",
        board=H_NEXT, hands=[[15, 98], [31, 99]], turns=[[[15], [31]]],
        answers=[(0, "free_row", 4)], options=[FREE_AFTER_TAKE[0]],
        placements=[(0, 15, 0, 5, "rules"), (0, 15, 4, 1, "moved"), (1, 31, 2, 2, "rules")],
        effects=[(0, 15, "take_hand", 0), (0, 15, "red", -2), (1, 31, "red", -1)],
        hands_after=[[10, 12, 13, 14, 98], [99]], scores_after=[-2, -1], removed=[],
        board_after={1: [20, 21, 23], 2: [30, 31], 3: [40, 41, 42], 4: [15]},
    ),
    dict(
        id="field-T-take-scores-then-the-tile-to-a-free-row-of-choice",
        board=T_NEXT, hands=[[34, 98], [43, 99]], turns=[[[34], [43]]],
        answers=[(0, "free_row", 7)], options=[FREE_AFTER_TAKE[2]],
        effects=[(0, 34, "take", -9), (0, 34, "green", 1), (1, 43, "fixed", 2)],
        scores_after=[-8, 2], removed=[30, 32, 33],
        board_after={0: [10, 12], 1: [20, 21, 23], 3: [40, 41, 42, 43], 7: [34]},
    ),
    dict(
        id="free-row-the-row-just-taken",
        board=T_NEXT, hands=[[34, 98], [43, 99]], turns=[[[34], [43]]], answers=[(0, "free_row", 2)],
        effects=[(0, 34, "take", -9), (0, 34, "green", 1), (1, 43, "fixed", 2)],
        board_after={0: [10, 12], 1: [20, 21, 23], 2: [34], 3: [40, 41, 42, 43]},
    ),
    dict(
        id="free-row-the-moved-tile-triggers-field-1-a-draw",  # R6 field 1 is D
        board=T_NEXT, supply=[70], hands=[[34, 98], [43, 99]], turns=[[[34], [43]]], answers=[(0, "free_row", 5)],
        effects=[(0, 34, "take", -9), (0, 34, "draw_tile", 0), (1, 43, "fixed", 2)],
        hands_after=[[70, 98], [99]], supply_after=[],
    ),
    dict(
        id="free-row-an-active-row-is-refused",
        board=T_NEXT, hands=[[34, 98], [43, 99]], turns=[[[34], [43]]], answers=[(0, "free_row", 1)],
        error="not one of [2, 4, 5, 6, 7, 8, 9]",
    ),
    dict(
        id="too-low-onto-an-H-field-takes-the-row-into-the-hand",
        board={0: [10], 1: [20], 2: [30], 3: [40, 41, 42, 43, 44, 45]}, hands=[[5, 98], [31, 99]],
        turns=[[[5], [31]]], answers=[(0, "free_row", 3)], options=[FREE_AFTER_TAKE[3]],
        placements=[(0, 5, 3, 7, "too_low"), (0, 5, 3, 1, "moved"), (1, 31, 2, 2, "rules")],
        effects=[(0, 5, "take_hand", 0), (0, 5, "red", -2), (1, 31, "red", -1)],
        hands_after=[[40, 41, 42, 43, 44, 45, 98], [99]],
    ),
    # ---- Stop
    dict(
        id="stop-binds-another-seats-tile-rules-1-2-skip-the-row",  # 24 would follow 23
        board=BASE, actions=[["stop"], []], hands=[[13, 98], [24, 99]], turns=[[[13], [24]]],
        answers=[(0, "action", stop(1))], options=[[None] + STOPS_0123],
        placements=[(0, 13, 0, 3, "rules"), (1, 24, 0, 4, "rules")],
        effects=[(0, 13, "red", -1), (1, 24, "green", 1)], stops_per_turn=[[1]],
        actions_after=[[], []], discards_after=cards(stop=1),
    ),
    dict(
        id="stop-on-the-own-target-row-then-too-low-for-the-open-rows",  # 12 stopped: 13 is lower than 23, 30, 42
        board=BASE, actions=[["stop"], []], hands=[[13, 98], [24, 99]], turns=[[[13], [24]]],
        answers=[(0, "action", stop(0))],
        placements=[(0, 13, 3, 4, "too_low"), (1, 24, 1, 4, "rules")],
        effects=[(0, 13, "fixed", 2), (1, 24, "red", -1)],
    ),
    dict(
        id="stop-too-low-goes-after-the-highest-open-row-end",  # 42 stopped: 5 follows 30
        board=BASE, actions=[["stop"], []], hands=[[5, 98], [43, 99]], turns=[[[5], [43]]],
        answers=[(0, "action", stop(3))],
        placements=[(0, 5, 2, 2, "too_low"), (1, 43, 1, 4, "rules")],
        effects=[(0, 5, "red", -2), (1, 43, "red", -1)],
    ),
    dict(
        id="stop-expires-at-the-end-of-the-turn",  # turn 1: 45 kept off row 4; turn 2: 43 and 44 follow 42
        board=BASE, actions=[["stop"], []], hands=[[13, 43, 98], [44, 45, 99]],
        turns=[[[13], [45]], [[43], [44]]], answers=[(0, "action", stop(3))], stops_per_turn=[[3], []],
        effects=[(0, 13, "red", -1), (1, 45, "red", -2), (0, 43, "fixed", 2), (1, 44, "red", -5)],
        board_after={0: [10, 12, 13], 1: [20, 21, 23], 2: [30, 45], 3: [40, 41, 42, 43, 44]},
        scores_after=[1, -7],
    ),
    dict(
        id="stop-two-signs-at-most-one-a-row-offered-again-after-each-card",
        board=BASE, actions=[["stop", "stop", "stop"], []], hands=[[13, 98], [31, 99]], turns=[[[13], [31]]],
        answers=[(0, "action", stop(3)), (0, "action", stop(2)), (0, "action", None)],
        options=[[None] + STOPS_0123, [None, stop(0), stop(1), stop(2)], [None]],
        placements=[(0, 13, 0, 3, "rules"), (1, 31, 1, 4, "rules")],
        effects=[(0, 13, "red", -1), (1, 31, "red", -1)], stops_per_turn=[[3, 2]],
        actions_after=[["stop"], []], discards_after=cards(stop=2),
    ),
    dict(
        id="stop-signs-standing-from-earlier-in-the-turn",  # position with R2 and R3 stopped
        board=BASE, stops=[1, 2], actions=[["stop"], []], hands=[[24, 98], [31, 99]], turns=[[[24], [31]]],
        answers=[(0, "action", None)], options=[[None]],
        placements=[(0, 24, 0, 3, "rules"), (1, 31, 0, 4, "rules")],
        effects=[(0, 24, "red", -1), (1, 31, "green", 1)], stops_per_turn=[[1, 2]], actions_after=[["stop"], []],
    ),
    # ---- Swap
    dict(
        id="swap-takes-the-tile-back-and-places-another-at-once",
        board=BASE, actions=[["swap"], []], hands=[[13, 43, 98], [24, 99]], turns=[[[13], [24]]],
        answers=[(0, "action", swap(43))], options=[[None, swap(43), swap(98)]],
        placements=[(0, 43, 3, 4, "rules"), (1, 24, 1, 4, "rules")],
        effects=[(0, 43, "fixed", 2), (1, 24, "red", -1)], hands_after=[[13, 98], [99]],
    ),
    dict(
        id="swap-then-front-on-the-new-tile",
        board=BASE, actions=[["swap", "front"], []], hands=[[43, 5, 98], [44, 99]], turns=[[[43], [44]]],
        answers=[(0, "action", swap(5)), (0, "action", front(2))],
        options=[[None, swap(5), swap(98)], [None, front(0), front(1), front(2), front(3)]],
        placements=[(0, 5, 2, 1, "front"), (1, 44, 3, 4, "rules")],
        effects=[(0, 5, "green", 2), (1, 44, "fixed", 2)], hands_after=[[43, 98], [99]],
        board_after={0: [10, 12], 1: [20, 21, 23], 2: [5, 30], 3: [40, 41, 42, 44]},
        discards_after=cards(swap=1, front=1),
    ),
    dict(
        id="swap-twice",
        board=BASE, actions=[["swap", "swap"], []], hands=[[13, 43, 50, 98], [24, 99]], turns=[[[13], [24]]],
        answers=[(0, "action", swap(43)), (0, "action", swap(50))],
        options=[[None, swap(43), swap(50), swap(98)], [None, swap(13), swap(50), swap(98)]],
        placements=[(0, 50, 3, 4, "rules"), (1, 24, 1, 4, "rules")], hands_after=[[13, 43, 98], [99]],
    ),
    dict(
        id="swap-not-a-tile-outside-the-hand",
        board=BASE, actions=[["swap"], []], hands=[[13, 43, 98], [24, 99]], turns=[[[13], [24]]],
        answers=[(0, "action", swap(24))], error="not one of",
    ),
    dict(
        id="swap-and-one-more-unplayable-with-an-empty-hand-then-the-game-ends",
        board=BASE, actions=[["swap", "one_more"], []], hands=[[13], [24, 31]], turns=[[[13], [24]]],
        answers=[(0, "action", None)], options=[[None]],
        effects=[(0, 13, "red", -1), (1, 24, "red", -1), (0, None, "end_cards", 2), (0, None, "end_tiles", 0),
                 (1, None, "end_cards", 0), (1, None, "end_tiles", -1)],
        scores_after=[1, -2], over=True, winners=[0],
    ),
    # ---- Skip
    dict(
        id="skip-lands-after-the-next-free-field-which-stays-empty",  # and an H take ignores the gap
        board=BASE, actions=[["skip"], []], hands=[[13, 50, 98], [14, 24, 99]],
        turns=[[[13], [24]], [[50], [14]]], answers=[(0, "action", SKIP), (1, "free_row", 0)],
        options=[[None, SKIP], FREE_AFTER_TAKE[0]],
        placements=[(0, 13, 0, 4, "skip"), (1, 24, 1, 4, "rules"),
                    (1, 14, 0, 5, "rules"), (1, 14, 0, 1, "moved"), (0, 50, 3, 4, "rules")],
        effects=[(0, 13, "green", 1), (1, 24, "red", -1),
                 (1, 14, "take_hand", 0), (1, 14, "red", -1), (0, 50, "fixed", 2)],
        hands_after=[[98], [10, 12, 13, 99]],
        board_after={0: [14], 1: [20, 21, 23, 24], 2: [30], 3: [40, 41, 42, 50]},
    ),
    dict(
        id="skip-the-board-between-turns-keeps-the-empty-field",
        board=BASE, actions=[["skip"], []], hands=[[13, 98], [24, 99]], turns=[[[13], [24]]],
        answers=[(0, "action", SKIP)],
        board_after={0: [10, 12, None, 13], 1: [20, 21, 23, 24], 2: [30], 3: [40, 41, 42]},
    ),
    dict(
        id="skip-refused-without-two-free-fields-before-the-take-field",  # R3 [30, 32]: field 4 is T
        board={0: [10, 12], 1: [20, 21, 23], 2: [30, 32], 3: [40, 41, 42]}, supply=[70],
        actions=[["skip"], []], hands=[[33, 98], [43, 99]], turns=[[[33], [43]]],
        answers=[(0, "action", None)], options=[[None]],
        effects=[(0, 33, "draw_tile", 0), (1, 43, "fixed", 2)], hands_after=[[70, 98], [99]],
    ),
    dict(
        id="skip-refused-answer-names-the-legal-set",
        board={0: [10, 12, 13], 1: [20, 21, 23], 2: [30], 3: [40, 41, 42]},  # R1: field 4 then H
        actions=[["skip"], []], hands=[[14, 98], [43, 99]], turns=[[[14], [43]]],
        answers=[(0, "action", SKIP)], error="not one of [None]",
    ),
    dict(
        id="skip-works-in-the-too-low-row",  # [reading] 2: 5 goes after 42, then skips R4 field 4
        board=BASE, actions=[["skip"], []], hands=[[5, 98], [31, 99]], turns=[[[5], [31]]],
        answers=[(0, "action", SKIP)],
        placements=[(0, 5, 3, 5, "skip"), (1, 31, 2, 2, "rules")],
        effects=[(0, 5, "red", -2), (1, 31, "red", -1)],
        board_after={0: [10, 12], 1: [20, 21, 23], 2: [30, 31], 3: [40, 41, 42, None, 5]},
    ),
    dict(
        id="skip-acts-in-the-row-rules-1-2-give-among-the-open-rows",  # R2 stopped: 24 goes to R1, skips field 3
        board=BASE, actions=[["stop", "skip"], []], hands=[[24, 98], [31, 99]], turns=[[[24], [31]]],
        answers=[(0, "action", stop(1)), (0, "action", SKIP)], options=[[None] + STOPS_0123 + [SKIP], [None, SKIP]],
        placements=[(0, 24, 0, 4, "skip"), (1, 31, 2, 2, "rules")],
        effects=[(0, 24, "green", 1), (1, 31, "red", -1)],
        board_after={0: [10, 12, None, 24], 1: [20, 21, 23], 2: [30, 31], 3: [40, 41, 42]},
    ),
    dict(
        id="skip-a-play-two-field-keeps-play-two-going",  # R6 field 2 skipped: turn 2 is a play-two turn
        board=TWO, supply=[70, 71], actions=[["skip"], []], hands=[[13, 61, 14, 62, 97], [21, 43, 22, 44, 99]],
        turns=[[[13, 61], [21, 43]], [[14, 62], [22, 44]]], counts=[2, 2],
        answers=[(0, "action", None), (0, "action", SKIP)], options=[[None, SKIP], [None, SKIP]],
        effects=[(0, 13, "red", -1), (1, 21, "draw_tile", 0), (1, 43, "fixed", 2), (0, 61, "red", -1),
                 (0, 14, "green", 1), (1, 22, "green", 5), (1, 44, "red", -5), (0, 62, "green", 1)],
        board_after={0: [10, 12, 13, 14], 1: [20, 21, 22], 3: [40, 41, 42, 43, 44], 5: [60, None, 61, 62]},
        scores_after=[0, 2], hands_after=[[97], [70, 99]], supply_after=[71],
    ),
    dict(
        id="skip-a-placing-card-ends-the-offering",  # still holding a Stop, not asked again
        board=BASE, actions=[["skip", "stop"], []], hands=[[13, 98], [24, 99]], turns=[[[13], [24]]],
        answers=[(0, "action", SKIP)], options=[[None] + STOPS_0123 + [SKIP]],
        actions_after=[["stop"], []],
    ),
    # ---- Front
    dict(
        id="front-shifts-the-row-shifted-tiles-trigger-nothing-the-front-tile-field-1",
        board=BASE, supply=[70], actions=[["front"], []], hands=[[5, 98], [31, 99]], turns=[[[5], [31]]],
        answers=[(0, "action", front(1))], options=[[None, front(0), front(1), front(2), front(3)]],
        placements=[(0, 5, 1, 1, "front"), (1, 31, 2, 2, "rules")],
        effects=[(0, 5, "red", -2), (1, 31, "red", -1)],  # 20 now on R2's D field draws nothing
        board_after={0: [10, 12], 1: [5, 20, 21, 23], 2: [30, 31], 3: [40, 41, 42]}, supply_after=[70],
    ),
    dict(
        id="front-only-rows-whose-first-tile-is-higher-and-with-room-before-the-take-field",
        board={0: [10, 12, 13], 1: [20, 21, 23, 24, 25], 2: [30], 3: [3, 41, 42]},
        actions=[["front"], []], hands=[[8, 98], [43, 99]], turns=[[[8], [43]]],
        answers=[(0, "action", front(2))], options=[[None, front(0), front(2)]],
        placements=[(0, 8, 2, 1, "front"), (1, 43, 3, 4, "rules")],
        effects=[(0, 8, "green", 1), (1, 43, "fixed", 2)],
        board_after={0: [10, 12, 13], 1: [20, 21, 23, 24, 25], 2: [8, 30], 3: [3, 41, 42, 43]},
    ),
    dict(
        id="front-a-shift-onto-the-take-field-is-refused",
        board={0: [10, 12, 13], 1: [20, 21, 23, 24, 25], 2: [30], 3: [3, 41, 42]},
        actions=[["front"], []], hands=[[8, 98], [43, 99]], turns=[[[8], [43]]],
        answers=[(0, "action", front(1))], error="not one of [None, {'card': 'front', 'row': 0}",
    ),
    dict(
        id="front-not-on-a-stopped-row",  # [reading] 1
        board=BASE, actions=[["stop", "front"], []], hands=[[5, 98], [31, 99]], turns=[[[5], [31]]],
        answers=[(0, "action", stop(0)), (0, "action", front(1))],
        options=[[None] + STOPS_0123 + [front(0), front(1), front(2), front(3)], [None, front(1), front(2), front(3)]],
        effects=[(0, 5, "red", -2), (1, 31, "red", -1)],
    ),
    # ---- Ascending
    dict(
        id="ascending-any-row-the-tile-is-higher-than-rule-2-waived",
        board=BASE, actions=[["ascending"], []], hands=[[25, 98], [26, 99]], turns=[[[25], [26]]],
        answers=[(0, "action", asc(0))], options=[[None, asc(0), asc(1)]],
        placements=[(0, 25, 0, 3, "ascending"), (1, 26, 0, 4, "rules")],
        effects=[(0, 25, "red", -2), (1, 26, "green", 1)],
    ),
    dict(
        id="ascending-onto-the-take-field-takes-the-row",
        board=T_NEXT, actions=[["ascending"], []], hands=[[43, 98], [13, 99]], turns=[[[43], [13]]],
        answers=[(0, "action", asc(2)), (0, "free_row", 6)],
        options=[[None, asc(0), asc(1), asc(2), asc(3)], FREE_AFTER_TAKE[2]],
        placements=[(1, 13, 0, 3, "rules"), (0, 43, 2, 4, "ascending"), (0, 43, 6, 1, "moved")],
        effects=[(1, 13, "red", -1), (0, 43, "take", -9), (0, 43, "red", -1)], removed=[30, 32, 33],
    ),
    dict(
        id="ascending-not-on-a-stopped-row",  # [reading] 1
        board=BASE, actions=[["stop", "ascending"], []], hands=[[43, 98], [44, 99]], turns=[[[43], [44]]],
        answers=[(0, "action", stop(3)), (0, "action", asc(0))],
        options=[[None] + STOPS_0123 + [asc(0), asc(1), asc(2), asc(3)], [None, asc(0), asc(1), asc(2)]],
        placements=[(0, 43, 0, 3, "ascending"), (1, 44, 0, 4, "rules")],
        effects=[(0, 43, "red", -1), (1, 44, "green", 5)],
    ),
    dict(
        id="ascending-refused-on-a-row-ending-higher",
        board=BASE, actions=[["ascending"], []], hands=[[25, 98], [26, 99]], turns=[[[25], [26]]],
        answers=[(0, "action", asc(2))], error="not one of",
    ),
    # ---- One more
    dict(
        id="one-more-extra-tile-lower-placed-first-before-a-waiting-tile",
        board=BASE, actions=[["one_more"], []], hands=[[43, 13, 98], [50, 99]], turns=[[[43], [50]]],
        answers=[(0, "action", more(13))], options=[[None, more(13), more(98)]],
        placements=[(0, 13, 0, 3, "rules"), (0, 43, 3, 4, "rules"), (1, 50, 3, 5, "rules")],
        effects=[(0, 13, "red", -1), (0, 43, "fixed", 2), (1, 50, "red", -3)], hands_after=[[98], [99]],
    ),
    dict(
        id="one-more-cards-offered-on-each-tile",  # 43 is higher: 13 first; a Stop then acts on 43
        board=BASE, supply=[70], actions=[["one_more", "stop"], []], hands=[[13, 43, 98], [44, 99]],
        turns=[[[13], [44]]],
        answers=[(0, "action", more(43)), (0, "action", None), (0, "action", stop(3))],
        options=[[None] + STOPS_0123 + [more(43), more(98)], [None] + STOPS_0123, [None] + STOPS_0123],
        placements=[(0, 13, 0, 3, "rules"), (0, 43, 2, 2, "rules"), (1, 44, 2, 3, "rules")],
        effects=[(0, 13, "red", -1), (0, 43, "red", -1), (1, 44, "draw_tile", 0)],
        hands_after=[[98], [70, 99]],
    ),
    dict(
        id="one-more-the-owners-second-play-two-tile-keeps-its-place",
        board=TWO, supply=[70], actions=[["one_more"], []], hands=[[13, 50, 44, 97], [21, 43, 99]],
        turns=[[[13, 50], [21, 43]]], counts=[2], answers=[(0, "action", more(44))],
        placements=[(0, 13, 0, 3, "rules"), (0, 44, 3, 4, "rules"), (1, 21, 1, 2, "rules"),
                    (1, 43, 1, 3, "rules"), (0, 50, 3, 5, "rules")],
        effects=[(0, 13, "red", -1), (0, 44, "fixed", 2), (1, 21, "draw_tile", 0), (1, 43, "green", 1),
                 (0, 50, "red", -3)],
        hands_after=[[97], [70, 99]],
    ),
    dict(
        id="one-more-after-a-swap-the-tiles-placed-now-lower-first",  # 45 ahead of 50, swapped for 80, then 60
        board=BASE, actions=[["one_more", "swap", "one_more"], []], hands=[[50, 45, 80, 60, 98], [99, 97]],
        turns=[[[50], [99]]], answers=[(0, "action", more(45)), (0, "action", swap(80)), (0, "action", more(60))],
        placements=[(0, 60, 3, 4, "rules"), (0, 50, 2, 2, "rules"), (0, 80, 3, 5, "rules"),
                    (1, 99, 3, 6, "rules")],
        scores_after=[-4, 0], hands_after=[[45, 98], [97]],
    ),
    # ---- when cards are offered
    dict(
        id="offer-only-to-seats-holding-a-card-playable-or-not",
        board=BASE, actions=[[], ["front"]], hands=[[13, 98], [45, 99]], turns=[[[13], [45]]],
        answers=[(1, "action", None)], options=[[None]], actions_after=[[], ["front"]],
    ),
    dict(
        id="offer-not-for-the-tile-moved-after-a-take",
        board=T_NEXT, actions=[["stop"], []], hands=[[34, 98], [43, 99]], turns=[[[34], [43]]],
        answers=[(0, "action", None), (0, "free_row", 2)], asks_per_turn=[["action", "free_row"]],
    ),
    dict(
        id="offer-a-card-drawn-this-turn-is-playable-on-the-next-tile",
        board={0: [10, 12], 1: [20, 21, 23], 3: [40], 5: [60]}, action_draws=["ascending"],
        hands=[[41, 61, 98], [13, 14, 99]], turns=[[[41, 61], [13, 14]]],
        answers=[(0, "action", asc(1))], options=[[None, asc(0), asc(1), asc(3), asc(5)]],
        placements=[(1, 13, 0, 3, "rules"), (1, 14, 0, 4, "rules"), (0, 41, 3, 2, "rules"),
                    (0, 61, 1, 4, "ascending")],
        effects=[(1, 13, "red", -1), (1, 14, "green", 1), (0, 41, "draw_action", 0), (0, 61, "red", -1)],
        discards_after=cards(ascending=1), deck_after=deck_less("ascending"),
    ),
    dict(
        id="offer-a-tile-drawn-this-turn-can-be-swapped-in",
        board=TWO, supply=[70], actions=[["swap"], []], hands=[[21, 43, 97], [13, 14, 99]],
        turns=[[[21, 43], [13, 14]]], answers=[(0, "action", None), (0, "action", swap(70))],
        options=[[None, swap(97)], [None, swap(70), swap(97)]],
        effects=[(1, 13, "red", -1), (1, 14, "green", 1), (0, 21, "draw_tile", 0), (0, 70, "play_two", 0)],
        hands_after=[[43, 97], [99]],
    ),
    dict(
        id="offer-tiles-taken-into-the-hand-this-turn-can-be-played-by-one-more",
        board={0: [10, 12, 13, 14], 1: [20, 21, 23], 3: [40, 41, 42], 5: [60]}, actions=[["one_more"], []],
        hands=[[15, 61, 98], [24, 43, 99]], turns=[[[15, 61], [24, 43]]], counts=[2],
        answers=[(0, "action", None), (0, "free_row", 4), (0, "action", more(12))],
        options=[[None, more(98)], [0, 2, 4, 6, 7, 8, 9], [None, more(10), more(12), more(13), more(14), more(98)]],
        placements=[(0, 15, 0, 5, "rules"), (0, 15, 4, 1, "moved"), (1, 24, 1, 4, "rules"), (1, 43, 3, 4, "rules"),
                    (0, 12, 5, 2, "too_low"), (0, 61, 3, 5, "rules")],
        effects=[(0, 15, "take_hand", 0), (0, 15, "red", -2), (1, 24, "red", -1), (1, 43, "fixed", 2),
                 (0, 12, "play_two", 0), (0, 61, "red", -1)],
        hands_after=[[10, 13, 14, 98], [99]],
    ),
    # ---- the pro end
    dict(
        id="end-as-soon-as-a-hand-is-empty-final-scoring-ties-all-win",
        board=BASE, actions=[[], [], ["stop"], []], hands=[[13], [24, 25], [31, 32], [43, 44]],
        turns=[[[13], [24], [31], [43]]], answers=[(2, "action", None)],
        effects=[(0, 13, "red", -1), (1, 24, "red", -1), (2, 31, "red", -1), (3, 43, "fixed", 2),
                 (0, None, "end_cards", 0), (0, None, "end_tiles", 0), (1, None, "end_cards", 0),
                 (1, None, "end_tiles", -2), (2, None, "end_cards", 1), (2, None, "end_tiles", -1),
                 (3, None, "end_cards", 0), (3, None, "end_tiles", -5)],
        scores_after=[-1, -3, -1, -3], over=True, winners=[0, 2],
    ),
    dict(
        id="end-a-hand-emptied-during-the-turn-does-not-stop-it",  # One more empties seat 0's hand
        board=BASE, actions=[["one_more"], [], []], hands=[[13, 14], [24, 25], [31, 32]],
        turns=[[[13], [24], [31]]], answers=[(0, "action", more(14))],
        placements=[(0, 13, 0, 3, "rules"), (0, 14, 0, 4, "rules"), (1, 24, 1, 4, "rules"), (2, 31, 2, 2, "rules")],
        scores_after=[0, -3, -2], over=True, winners=[0],
    ),
    dict(
        id="end-not-while-every-hand-holds-a-tile",
        board=BASE, hands=[[13, 14], [24, 25], [31, 32], [43, 44]], turns=[[[13], [24], [31], [43]]],
        over=False, scores_after=[-1, -1, -1, 2],
    ),
    dict(
        id="refill-2-3-players-the-first-empty-hand-everyone-draws-12",
        board=BASE, refill_due=True, supply=list(range(50, 80)), hands=[[13], [24, 25]], turns=[[[13], [24]]],
        hands_after=[list(range(50, 62)), [25] + list(range(62, 74))], supply_after=list(range(74, 80)), over=False,
        scores_after=[-1, -1],
    ),
    dict(
        id="refill-an-equal-share-when-the-supply-is-short",
        board=BASE, refill_due=True, supply=[50, 51, 52, 53, 54, 55, 56], hands=[[13], [24, 25], [31]],
        turns=[[[13], [24], [31]]],
        hands_after=[[50, 51], [25, 52, 53], [54, 55]], supply_after=[56], over=False,
    ),
    dict(
        id="refill-only-once-the-second-empty-hand-ends-the-game",
        board=BASE, refill_due=False, supply=list(range(50, 80)), hands=[[13], [24, 25]], turns=[[[13], [24]]],
        hands_after=[[], [25]], supply_after=list(range(50, 80)), over=True, scores_after=[-1, -3], winners=[0],
    ),
    dict(
        id="refill-too-short-to-fill-every-hand-ends-the-game",  # [reading] 8: 2 tiles for 3 seats
        board=BASE, refill_due=True, supply=[50, 51], hands=[[13], [24, 25], [31]], turns=[[[13], [24], [31]]],
        hands_after=[[], [25], []], supply_after=[50, 51], over=True, winners=[0, 2],
    ),
    dict(
        id="final-scoring-plus-1-a-card-minus-tiles-luck-cards-score-nothing",
        rules=LUCK, board=BASE, actions=[["stop", "swap"], []], luck=[{}, {"+5": 1}], stacks={"+5": 5, "2x": 6},
        hands=[[13], [24, 22, 55]], turns=[[[13], [24]]],
        answers=[(0, "action", None), (1, "use_plus5", False)], options=[[None] + STOPS_0123, [True, False]],
        effects=[(0, 13, "red", -1), (1, 24, "red", -1), (0, None, "end_cards", 2), (0, None, "end_tiles", 0),
                 (1, None, "end_cards", 0), (1, None, "end_tiles", -10)],
        scores_after=[1, -11], over=True, winners=[0], luck_after=[{}, {"+5": 1}],
    ),
    # ---- variant 4: pro with luck cards
    dict(
        id="luck-plus5-replaces-a-D-fields-draw",
        rules=LUCK, board={0: [10, 12], 1: [20], 2: [30], 3: [40, 41, 42]}, supply=[70],
        luck=[{"+5": 1}, {}], stacks={"+5": 5, "2x": 6}, hands=[[21, 98], [31, 99]], turns=[[[21], [31]]],
        answers=[(0, "use_plus5", True)], effects=[(0, 21, "plus5", 5), (1, 31, "red", -1)],
        hands_after=[[98], [99]], supply_after=[70], luck_after=[{}, {}], stacks_after={"+5": 6, "2x": 6},
    ),
    dict(
        id="luck-plus5-replaces-an-A-fields-draw",
        rules=LUCK, board={0: [10, 12], 1: [20, 21, 23], 2: [30], 3: [40]}, action_draws=["stop"],
        luck=[{"+5": 1}, {}], stacks={"+5": 5, "2x": 6}, hands=[[41, 98], [31, 99]], turns=[[[41], [31]]],
        answers=[(0, "use_plus5", True)], effects=[(1, 31, "red", -1), (0, 41, "plus5", 5)],
        actions_after=[[], []], action_draws_after=["stop"], deck_after=dict(ref.DEFAULT_ACTION_DECK),
    ),
    dict(
        id="luck-no-plus5-or-double-on-an-H-field-plus5-on-field-1-after",
        rules=LUCK, board=H_NEXT, luck=[{"+5": 1, "2x": 1}, {}], stacks={"+5": 5, "2x": 5},
        hands=[[15, 98], [31, 99]], turns=[[[15], [31]]],
        answers=[(0, "free_row", 4), (0, "use_plus5", True)],
        effects=[(0, 15, "take_hand", 0), (0, 15, "plus5", 5), (1, 31, "red", -1)],
        luck_after=[{"2x": 1}, {}], hands_after=[[10, 12, 13, 14, 98], [99]],
    ),
    dict(
        id="luck-double-on-a-T-take",  # 33 (5) and 30 (3) plus, 32 minus: +7
        rules=LUCK, board=T_NEXT, luck=[{"2x": 1}, {}], stacks={"+5": 6, "2x": 5},
        hands=[[34, 98], [43, 99]], turns=[[[34], [43]]],
        answers=[(0, "use_double", True), (0, "free_row", 2)],
        effects=[(0, 34, "take_2x", 7), (0, 34, "green", 1), (1, 43, "fixed", 2)],
        luck_after=[{}, {}], stacks_after={"+5": 6, "2x": 6}, scores_after=[8, 2],
    ),
    dict(
        id="luck-order-action-double-luck-card-free-row-plus5-luck-card",
        rules={"variant": "pro-luck", "clovers": [-10, -5]}, board=T_NEXT, actions=[["stop"], []],
        luck=[{"+5": 1, "2x": 1}, {}], stacks={"+5": 5, "2x": 5}, hands=[[34, 98], [43, 99]], turns=[[[34], [43]]],
        answers=[(0, "action", None), (0, "use_double", False), (0, "luck_card", "+5"), (0, "free_row", 4),
                 (0, "use_plus5", False), (0, "luck_card", "2x")],
        options=[[None] + STOPS_0123, [True, False], ["+5", "2x"], FREE_AFTER_TAKE[2], [True, False], ["+5", "2x"]],
        effects=[(0, 34, "take", -9), (0, 34, "red", -1), (1, 43, "fixed", 2)],
        luck_after=[{"+5": 2, "2x": 2}, {}], stacks_after={"+5": 4, "2x": 4}, scores_after=[-10, 2],
    ),
    dict(
        id="luck-plus5-on-the-front-tiles-field-1",
        rules=LUCK, board=BASE, actions=[["front"], []], luck=[{"+5": 1}, {}], stacks={"+5": 5, "2x": 6},
        hands=[[5, 98], [31, 99]], turns=[[[5], [31]]],
        answers=[(0, "action", front(1)), (0, "use_plus5", True)],
        effects=[(0, 5, "plus5", 5), (1, 31, "red", -1)],
    ),
    dict(
        id="luck-a-luck-card-gained-waits-for-a-later-turn",  # gained by 13, not offered for 61
        rules={"variant": "pro-luck", "clovers": [-1]}, board=TWO, supply=[70],
        hands=[[13, 61, 97], [21, 43, 99]], turns=[[[13, 61], [21, 43]]],
        answers=[(0, "luck_card", "+5")],
        effects=[(0, 13, "red", -1), (1, 21, "draw_tile", 0), (1, 43, "fixed", 2), (0, 61, "play_two", 0)],
        luck_after=[{"+5": 1}, {}],
    ),
]
