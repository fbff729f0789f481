"""Every rule of the board game (variants 1-2, basic side) as a scripted case on the
batched engine: the same data table the scalar reference is tested with
(tests/support/board_cases.py). The engine must ask exactly the case's questions in its order,
and end with the case's board, scores, luck cards, stacks, hands and tiles removed."""

from __future__ import annotations

import numpy as np
import pytest

from sixnimmt_env import make_game
from sixnimmt_env.board import engine
from sixnimmt_env.board.actions import ANSWER_NO, LUCK_ACTION, PASS_ACTION
from sixnimmt_env.board.layout import BoardLayout
from sixnimmt_env.board.rules import LUCK_KINDS, BoardConfig
from sixnimmt_env.board.state import ASK_NAMES, PHASE_ASK, PHASE_OVER
from tests.support import reference_board as ref
from tests.support.board_cases import CASES, active_of, board_of


def case_config(case: dict) -> BoardConfig:
    """The engine's rules of a case (its Rules keywords as a layout and options)."""
    rules = ref.Rules(**case.get("rules", {}))  # the reference's defaults fill the rest
    layout = BoardLayout(name="case", side="basic", rows=tuple(tuple(r) for r in rules.rows),
                         clovers=tuple(rules.clovers), bullheads=tuple(rules.bullheads[t] for t in range(1, 101)))
    return BoardConfig(players=len(case["hands"]), variant=rules.variant, next_row=rules.next_row, layout=layout,
                       plus5_cards=rules.luck_stacks["+5"], double_cards=rules.luck_stacks["2x"])


def run_on_engine(case: dict):
    """Play a case on the engine; returns (state, asked [(seat, ask, answer)])."""
    config = case_config(case)
    game = make_game("board", rules=config)
    P = config.players
    luck = None if case.get("luck") is None else [[held.get(k, 0) for k in LUCK_KINDS] for held in case["luck"]]
    stacks = None if case.get("stacks") is None else [case["stacks"][k] for k in LUCK_KINDS]
    st = engine.from_position(config, board_of(case["board"], len(config.board.rows)), case["hands"],
                              scores=case.get("scores"), luck=luck, stacks=stacks, pointer=case.get("pointer", 3),
                              supply=case.get("supply", ()), refilled=not case.get("refill_due", False))
    answers = list(case.get("answers", []))
    asked = []
    for turn in case["turns"]:
        assert int(st.picks[0]) == max(len(t) for t in turn), "tiles per seat this turn (play two)"
        for pick in range(max(len(t) for t in turn)):
            actions = np.full((P, 1), PASS_ACTION, dtype=np.int64)
            for p, tiles in enumerate(turn):
                if pick < len(tiles):
                    actions[p, 0] = tiles[pick] - 1
            st, _ = game.step(st, actions)
        while st.phase[0] == PHASE_ASK:
            seat, ask = int(st.asker[0]), ASK_NAMES[int(st.ask[0])]
            assert answers, f"the engine asks seat {seat} {ask}, the case has no answer left"
            want_seat, want_ask, answer = answers.pop(0)
            assert (seat, ask) == (want_seat, want_ask)
            asked.append((seat, ask, answer))
            actions = np.full((P, 1), PASS_ACTION, dtype=np.int64)
            actions[seat, 0] = LUCK_ACTION[LUCK_KINDS.index(answer)] if ask == "luck_card" else ANSWER_NO + bool(answer)
            st, _ = game.step(st, actions)
    assert not answers, f"answers never asked for: {answers}"
    return st, asked


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_rule_case_on_the_engine(case):
    st, asked = run_on_engine(case)
    assert asked == case.get("answers", [])
    if "board_after" in case:
        assert active_of(st.row_lists(0)) == case["board_after"]
    if "scores_after" in case:
        assert st.score[:, 0].tolist() == case["scores_after"]
    if "luck_after" in case:
        assert [{k: int(st.luck[i, p, 0]) for i, k in enumerate(LUCK_KINDS)} for p in range(st.players)] \
            == [{k: held.get(k, 0) for k in LUCK_KINDS} for held in case["luck_after"]]
    if "stacks_after" in case:
        assert {k: int(st.stack[i, 0]) for i, k in enumerate(LUCK_KINDS)} == case["stacks_after"]
    if "hands_after" in case:
        assert st.hand_lists(0) == [sorted(h) for h in case["hands_after"]]
    if "removed" in case:
        assert np.flatnonzero(st.gone[:, 0]).tolist() == sorted(case["removed"])
    if "over" in case:
        assert bool(st.phase[0] == PHASE_OVER) == case["over"]
    if "winners" in case and st.phase[0] == PHASE_OVER:
        assert np.flatnonzero(st.winners()[:, 0]).tolist() == case["winners"]
    if "supply_after" in case:
        assert st.supply[int(st.drawn[0]):, 0][st.supply[int(st.drawn[0]):, 0] > 0].tolist() == case["supply_after"]
    if "pointer_after" in case:
        assert int(st.pointer[0]) == case["pointer_after"]
    assert (st.length[:, 0] > 0).sum() == 4
