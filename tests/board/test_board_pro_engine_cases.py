"""The pro rules (variants 3-4) as scripted cases on the batched engine: the same data
table the pro reference is tested with (tests/support/board_pro_cases.py). The engine must ask
exactly the case's questions in its order and end with the case's board, scores, hands,
action cards and outcome."""

from __future__ import annotations

import numpy as np
import pytest

from sixnimmt_env import make_game
from sixnimmt_env.board import engine
from sixnimmt_env.board.actions import (
    ANSWER_NO,
    ASCENDING_ACTION,
    FREE_ROW_ACTION,
    FRONT_ACTION,
    LUCK_ACTION,
    NO_CARD_ACTION,
    ONE_MORE_ACTION,
    PASS_ACTION,
    SKIP_ACTION,
    STOP_ACTION,
    SWAP_ACTION,
)
from sixnimmt_env.board.layout import BoardLayout
from sixnimmt_env.board.rules import ACTION_KINDS, LUCK_KINDS, BoardConfig
from sixnimmt_env.board.state import ASK_NAMES, PHASE_ASK, PHASE_OVER, PHASE_PICK_SECOND
from sixnimmt_env.core.errors import IllegalActionError
from tests.support import reference_board_pro as ref
from tests.support.board_pro_cases import CASES, active_of, board_of

KIND = {k: i for i, k in enumerate(ACTION_KINDS)}


def case_config(case: dict) -> BoardConfig:
    rules = ref.Rules(**case.get("rules", {}))
    layout = BoardLayout(name="case", side="pro", rows=tuple(tuple(r) for r in rules.rows),
                         clovers=tuple(rules.clovers), bullheads=tuple(rules.bullheads[t] for t in range(1, 101)))
    return BoardConfig(players=len(case["hands"]), variant=rules.variant, layout=layout,
                       plus5_cards=rules.luck_stacks["+5"], double_cards=rules.luck_stacks["2x"],
                       action_cards=tuple(rules.action_deck[k] for k in ACTION_KINDS))


def encode(ask: str, answer) -> int:
    if ask == "action":
        if answer is None:
            return NO_CARD_ACTION
        card = answer["card"]
        base = {"stop": STOP_ACTION, "front": FRONT_ACTION, "ascending": ASCENDING_ACTION}
        if card in base:
            return base[card] + answer["row"]
        if card == "skip":
            return SKIP_ACTION
        return (SWAP_ACTION if card == "swap" else ONE_MORE_ACTION) + answer["tile"] - 1
    if ask == "free_row":
        return FREE_ROW_ACTION + answer
    if ask == "luck_card":
        return LUCK_ACTION[LUCK_KINDS.index(answer)]
    return ANSWER_NO + int(bool(answer))


def start(case: dict):
    config = case_config(case)
    state = ref.position(ref.Rules(**case.get("rules", {})), board_of(case["board"], len(config.board.rows)),
                         case["hands"], actions=case.get("actions"), deck=case.get("deck"),
                         discards=case.get("discards"), action_draws=case.get("action_draws", ()))
    # the deck in draw order: the cards the case draws first, then the rest of the pile
    rest = dict(state.deck)
    order = []
    for kind in case.get("action_draws", ()):
        order.append(KIND[kind])
        rest[kind] -= 1
    order += [KIND[k] for k in ACTION_KINDS for _ in range(max(rest[k], 0))]
    luck = None if case.get("luck") is None else [[held.get(k, 0) for k in LUCK_KINDS] for held in case["luck"]]
    stacks = None if case.get("stacks") is None else [case["stacks"][k] for k in LUCK_KINDS]
    st = engine.from_position(config, board_of(case["board"], len(config.board.rows)), case["hands"],
                              scores=case.get("scores"), luck=luck, stacks=stacks, supply=case.get("supply", ()),
                              refilled=not case.get("refill_due", False),
                              actions=[[KIND[k] for k in held] for held in case.get("actions") or []],
                              deck=order, discards=[state.discards[k] for k in ACTION_KINDS],
                              stops=case.get("stops", ()))
    return config, st


def run_on_engine(case: dict):
    config, st = start(case)
    game = make_game("board", rules=config)
    P = config.players
    answers = list(case.get("answers", []))
    asked, offered = [], []
    for tiles in case["turns"]:
        turn = int(st.turn[0])
        for pick in range(2):
            if pick == 1 and st.phase[0] != PHASE_PICK_SECOND:
                break
            acts = np.full((P, 1), PASS_ACTION, dtype=np.int64)
            for p in range(P):
                if len(tiles[p]) > pick:
                    acts[p, 0] = tiles[p][pick] - 1
            st, _ = game.step(st, acts)
        while st.phase[0] == PHASE_ASK and int(st.turn[0]) == turn:
            seat, ask = int(st.asker[0]), ASK_NAMES[int(st.ask[0])]
            assert answers, f"engine asks {ask} of seat {seat}, the case has no answer left"
            a_seat, a_ask, a_answer = answers.pop(0)
            asked.append((seat, ask, a_answer))
            assert (seat, ask) == (a_seat, a_ask), f"engine asks {ask} of seat {seat}, case expects {a_ask} of {a_seat}"
            legal = game.view(st, [seat]).action_mask()[0]
            offered.append(sorted(int(a) for a in np.flatnonzero(legal)))
            acts = np.full((P, 1), PASS_ACTION, dtype=np.int64)
            acts[seat, 0] = encode(ask, a_answer)
            st, _ = game.step(st, acts)
        if st.phase[0] == PHASE_OVER:
            break
    return st, asked, answers, offered


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_pro_case_on_engine(case):
    if "error" in case:  # the last answer is refused, naming the legal answers
        with pytest.raises(IllegalActionError, match="; legal: [0-9]+ \\("):
            run_on_engine(case)
        return
    st, asked, left, offered = run_on_engine(case)
    assert not left, f"answers never asked: {left}"
    if "board_after" in case:
        rows = [[int(t) if t else None for t in st.tiles[r, :st.length[r, 0], 0]] for r in range(st.tiles.shape[0])]
        assert active_of(rows) == case["board_after"]
    if "scores_after" in case:
        assert st.score[:, 0].tolist() == case["scores_after"]
    if "hands_after" in case:
        assert st.hand_lists(0) == [sorted(h) for h in case["hands_after"]]
    if "actions_after" in case:
        held = [sorted(ACTION_KINDS[k] for k in range(len(ACTION_KINDS)) for _ in range(st.action[k, p, 0]))
                for p in range(st.players)]
        assert held == [sorted(c) for c in case["actions_after"]]
    if "over" in case:
        assert bool(st.phase[0] == PHASE_OVER) == case["over"]
    if "effects" in case:  # the scores the effects add up to
        expected = list(case.get("scores") or [0] * st.players)
        for seat, _, _, points in case["effects"]:
            expected[seat] += points
        assert st.score[:, 0].tolist() == expected
    if "options" in case:  # every question offered exactly the reference's options
        want = [sorted(encode(ask, o) for o in opts) for (_, ask, _), opts in zip(case["answers"], case["options"])]
        assert offered[:len(want)] == want
    if "winners" in case:
        assert np.flatnonzero(st.winners()[:, 0]).tolist() == case["winners"]
