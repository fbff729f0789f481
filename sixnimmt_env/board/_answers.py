"""Answers to the board game's questions as records write them (docs/spec/board-record.md).

A question's answer is one encoded action to the engine and a JSON value in a record:
"+5"/"2x" for luck_card, a row for free_row, null or {"card": kind, "row"/"tile": ...} for
action (pro), true/false for the yes/no questions. These convert between the two and
check a record's answer has the form its question takes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.checks import is_int
from . import actions
from .actioncards import decode_play
from .actions import ANSWER_NO, ANSWER_YES, FREE_ROW_ACTION, LUCK_ACTION, NO_CARD_ACTION
from .rules import ACTION_KINDS, ASCENDING, FRONT, LUCK_KINDS, MAX_ACTION_ROWS, N_TILES, ONE_MORE, SKIP, STOP, SWAP
from .state import ASK_ACTION, ASK_FREE_ROW, ASK_LUCK_CARD, ASK_NAMES, NO_CARD

# each action card kind's first action: + the row (Stop, Front, Ascending), + the tile - 1 (Swap, One more)
_CARD_ACTION = {STOP: actions.STOP_ACTION, FRONT: actions.FRONT_ACTION, ASCENDING: actions.ASCENDING_ACTION,
                SKIP: actions.SKIP_ACTION, SWAP: actions.SWAP_ACTION - 1, ONE_MORE: actions.ONE_MORE_ACTION - 1}


def card_action(kind: int, arg: int = 0) -> int:
    """The action that plays action card `kind` on row `arg` (Stop, Front, Ascending) or
    with tile `arg` (Swap, One more): the inverse of `actioncards.decode_play`."""
    return _CARD_ACTION[kind] + arg


def answer_value(ask: int, action: int) -> Any:
    """An encoded answer as the record writes it: "+5"/"2x" for luck_card, a row for
    free_row, null or {"card": kind, "row"/"tile": ...} for action, else true/false."""
    if ask == ASK_LUCK_CARD:
        return LUCK_KINDS[action - LUCK_ACTION[0]]
    if ask == ASK_FREE_ROW:
        return action - FREE_ROW_ACTION
    if ask == ASK_ACTION:
        kind, arg = decode_play(np.array([action]))
        if kind[0] == NO_CARD:
            return None
        card = {"card": ACTION_KINDS[int(kind[0])]}
        if kind[0] in (STOP, FRONT, ASCENDING):
            card["row"] = int(arg[0])
        elif kind[0] in (SWAP, ONE_MORE):
            card["tile"] = int(arg[0])
        return card
    return action == ANSWER_YES


def answer_action(ask: str, answer: Any) -> int:
    """A record's (well-formed) answer as the encoded action."""
    if ask == ASK_NAMES[ASK_LUCK_CARD]:
        return LUCK_ACTION[LUCK_KINDS.index(answer)]
    if ask == ASK_NAMES[ASK_FREE_ROW]:
        return FREE_ROW_ACTION + answer
    if ask == ASK_NAMES[ASK_ACTION]:
        if answer is None:
            return NO_CARD_ACTION
        return card_action(ACTION_KINDS.index(answer["card"]), answer.get("row", answer.get("tile", 0)))
    return ANSWER_YES if answer else ANSWER_NO


# an action answer's keys, exactly (docs/spec/board-record.md)
CARD_KEYS = {"stop": {"card", "row"}, "front": {"card", "row"}, "ascending": {"card", "row"},
              "swap": {"card", "tile"}, "one_more": {"card", "tile"}, "skip": {"card"}}


def well_formed(ask: str, answer: Any) -> bool:
    """Whether an answer has the form its ask takes (legality is checked by the engine's mask)."""
    if ask == ASK_NAMES[ASK_LUCK_CARD]:
        return isinstance(answer, str) and answer in LUCK_KINDS
    if ask == ASK_NAMES[ASK_FREE_ROW]:
        return is_int(answer) and 0 <= answer < MAX_ACTION_ROWS
    if ask == ASK_NAMES[ASK_ACTION]:
        if answer is None:
            return True
        if not isinstance(answer, dict) or answer.get("card") not in CARD_KEYS:
            return False
        if set(answer) != CARD_KEYS[answer["card"]]:
            return False
        bound = MAX_ACTION_ROWS if "row" in answer else N_TILES + 1
        value = answer.get("row", answer.get("tile", 1))
        return is_int(value) and (0 if "row" in answer else 1) <= value < bound
    return isinstance(answer, bool)
