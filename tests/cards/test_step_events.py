"""StepEvents.rule: each placement says why its card took a row or went where it did.

Scripted positions (from_deal) for every flag, classic and Die Sechste, both row-choice
modes; then random games in which every flag must agree with the rows as they stood
before the card (followed through the step from the events' rows and takes). The flags
are also checked against the scalar references on every turn of the differential tests
(tests/cards/test_engine_reference.py, tests/cards/test_die_sechste.py).
"""

from __future__ import annotations

import numpy as np
import pytest

from sixnimmt_env import PHASE_CARDS, PHASE_OVER, PHASE_ROW, RuleConfig, from_deal, game_seeds, new_games, step
from sixnimmt_env.cards.events import (
    RULE_NAMES,
    RULE_NONE,
    RULE_ON_TWIN,
    RULE_SIXTH,
    RULE_TOO_LOW,
    RULE_TWIN_CHOICE,
    RULE_TWIN_SHORTER,
    StepEvents,
)
from sixnimmt_env.cards.rules import N_ROWS, ROW_CAPACITY
from tests.cards.test_die_sechste import _random_actions, cid, position
from tests.cards.test_die_sechste import cfg as sechste
from tests.cards.test_rules_cases import pad_rows
from tests.support.rule_flags import rule_names

TWIN_ROW = RULE_TWIN_SHORTER | RULE_TWIN_CHOICE


def classic_position(config: RuleConfig, rows: list[list[int]], cards: list[int]):
    """A one-game batch at turn 8: each seat holds its card of `cards` and a spare one."""
    spares = [c for c in range(104, 0, -1) if c not in cards and all(c not in r for r in rows)]
    return from_deal(config, [[[c, spares[s]] for s, c in enumerate(cards)]], [pad_rows(rows)])


def play(st, cards: list[int]):
    """Every seat plays its card of `cards`; (state, events)."""
    return step(st, np.asarray(cards, dtype=np.int64)[:, None], report=True)


def choose(st, row: int):
    """The chooser picks `row`; (state, events)."""
    actions = np.zeros((st.players, 1), dtype=np.int64)
    actions[st.chooser[0], 0] = row
    return step(st, actions, report=True)


def placed(ev: StepEvents) -> list[tuple[int, list[str]]]:
    """(card, rule names) of game 0's placements in placing order."""
    return [(int(ev.card[k, 0]), rule_names(int(ev.rule[k, 0]))) for k in np.flatnonzero(ev.card[:, 0])]


def test_flags_are_distinct_bits_with_names():
    bits = [RULE_TOO_LOW, RULE_SIXTH, RULE_ON_TWIN, RULE_TWIN_SHORTER, RULE_TWIN_CHOICE]
    assert RULE_NONE == 0 and len(set(bits)) == len(bits)
    assert all(b & (b - 1) == 0 for b in bits) and sum(bits) < 256, "one bit each, fits uint8"
    assert set(RULE_NAMES) == set(bits)
    assert rule_names(RULE_SIXTH | RULE_ON_TWIN) == ["sixth", "on_twin"]
    ev = StepEvents.empty(5, 3)
    assert ev.rule.shape == (5, 3) and ev.rule.dtype == np.uint8 and not ev.rule.any()


def test_no_events_without_report():
    st = classic_position(RuleConfig(players=2), [[10], [20], [30], [40]], [15, 25])
    assert step(st, np.array([[15], [25]]))[1] is None


# =========================================================================== classic


def test_classic_too_low_is_flagged_where_it_is_placed():
    """row_choice="player": the question step places nothing; the answer places the
    too-low card (flagged) and then the rest of the turn."""
    st = classic_position(RuleConfig(players=2), [[10], [20], [30], [40]], [5, 25])
    st, ev = play(st, [5, 25])
    assert st.phase[0] == PHASE_ROW and placed(ev) == [] and not ev.rule.any()
    st, ev = choose(st, 2)
    assert placed(ev) == [(5, ["too_low"]), (25, [])]
    assert ev.row[0, 0] == 2 and ev.taken[0, 0, 0] == 30


def test_classic_too_low_cheapest_in_the_same_step():
    st = classic_position(RuleConfig(players=3, row_choice="cheapest"), [[10], [20], [30], [55]], [5, 25, 56])
    _, ev = play(st, [5, 25, 56])
    assert placed(ev) == [(5, ["too_low"]), (25, []), (56, [])]


def test_classic_sixth_card():
    st = classic_position(RuleConfig(players=2), [[10, 11, 12, 13, 14], [20], [30], [40]], [15, 25])
    st, ev = play(st, [15, 25])
    assert placed(ev) == [(15, ["sixth"]), (25, [])]
    assert st.penalty[:, 0].tolist() == [int(ev.taken_bulls[0, 0]), 0] and ev.taken_bulls[0, 0] > 0


def test_a_too_low_card_taking_a_full_row_is_not_a_sixth_card():
    st = classic_position(RuleConfig(players=2), [[10, 11, 12, 13, 14], [20], [30], [40]], [5, 25])
    st, _ = play(st, [5, 25])
    _, ev = choose(st, 0)
    assert placed(ev) == [(5, ["too_low"]), (25, [])]
    assert (ev.taken[0, :, 0] > 0).sum() == ROW_CAPACITY


def test_classic_resumed_too_low_turn_from_deal():
    """from_deal's `pending`: the too-low card is flagged when the owner answers."""
    st = from_deal(RuleConfig(players=2), [[[90], [91]]], [[10, 20, 30, 40]], pending=([[5, 25]], [[1, 0]]))
    assert st.phase[0] == PHASE_ROW and st.chooser[0] == 1
    _, ev = choose(st, 3)
    assert placed(ev) == [(5, ["too_low"]), (25, [])]


# =========================================================================== Die Sechste


def names(cards):
    return [cid(c) for c in cards]


def test_sechste_worked_example_too_low_and_sixth():
    """One deck (4 players): Carla's AH is too low, Ben's KC is the sixth card."""
    rows = [["8H"], ["9S", "10C", "JD", "QH", "QS"], ["2C"], ["7D"]]
    st = position(sechste(4), rows, ["JS", "KC", "AH", "7S"])
    st, ev = play(st, names(["JS", "KC", "AH", "7S"]))
    assert placed(ev) == []
    _, ev = choose(st, 2)
    assert placed(ev) == [(cid("AH"), ["too_low"]), (cid("7S"), []), (cid("JS"), []), (cid("KC"), ["sixth"])]


@pytest.mark.parametrize("row_choice", ["player", "cheapest"])
def test_on_twin(row_choice):
    rows = [["5C", "9H"], ["9S"], ["AD"], ["AH"]]
    _, ev = play(position(sechste(2, row_choice), rows, ["9H*", "KC"]), names(["9H*", "KC"]))
    assert placed(ev) == [(cid("9H*"), ["on_twin"]), (cid("KC"), [])]


def test_twins_in_one_turn_the_second_is_on_its_twin_and_sixth():
    rows = [["2C", "3C", "4C", "8S"], ["AC"], ["AD"], ["AH"]]
    st = position(sechste(4), rows, ["AS", "9H", "2D", "9H*"], dealer=0)
    _, ev = play(st, names(["AS", "9H", "2D", "9H*"]))
    assert placed(ev) == [(cid("AS"), []), (cid("2D"), []), (cid("9H"), []),
                          (cid("9H*"), ["sixth", "on_twin"])]


@pytest.mark.parametrize("row_choice", ["player", "cheapest"])
def test_twin_rows_of_different_length_the_shorter(row_choice):
    rows = [["AC", "7D"], ["2C", "3C", "7D*"], ["KS"], ["AH"]]
    st, ev = play(position(sechste(2, row_choice), rows, ["8C", "AS"]), names(["8C", "AS"]))
    assert st.phase[0] == PHASE_CARDS
    assert placed(ev) == [(cid("AS"), []), (cid("8C"), ["twin_shorter"])] and ev.row[1, 0] == 0


def test_equal_twin_rows_cheapest_is_the_rule_not_a_choice():
    rows = [["5C", "7D"], ["2C", "7D*"], ["KS"], ["AH"]]
    st, ev = play(position(sechste(2, "cheapest"), rows, ["8C", "AS"]), names(["8C", "AS"]))
    assert placed(ev) == [(cid("AS"), []), (cid("8C"), ["twin_shorter"])] and ev.row[1, 0] == 1


def test_equal_twin_rows_the_owners_choice_is_flagged_once_at_placement():
    rows = [["7D"], ["7D*"], ["KS"], ["AH"]]
    st, ev = play(position(sechste(3), rows, ["AS", "8C", "2C"]), names(["AS", "8C", "2C"]))
    assert st.phase[0] == PHASE_ROW
    assert placed(ev) == [(cid("AS"), []), (cid("2C"), [])], "the waiting card is not placed yet"
    assert not (ev.rule & TWIN_ROW).any()
    st, ev = choose(st, 1)
    assert placed(ev) == [(cid("8C"), ["twin_choice"])] and ev.row[0, 0] == 1


def test_equal_full_twin_rows_chosen_and_taken():
    rows = [["AC", "2C", "3C", "4C", "7D"], ["AD", "2D", "3D", "4D", "7D*"], ["KS"], ["AH"]]
    st, _ = play(position(sechste(2), rows, ["8C", "2H"]), names(["8C", "2H"]))
    _, ev = choose(st, 0)
    assert placed(ev) == [(cid("8C"), ["sixth", "twin_choice"])]


def test_too_low_then_twin_rows_two_questions_two_flags():
    rows = [["7D"], ["7D*"], ["KS"], ["5H"]]
    st, ev = play(position(sechste(3), rows, ["AC", "8C", "2C"]), names(["AC", "8C", "2C"]))
    assert placed(ev) == []
    st, ev = choose(st, 3)
    assert placed(ev) == [(cid("AC"), ["too_low"]), (cid("2C"), [])]
    _, ev = choose(st, 0)
    assert placed(ev) == [(cid("8C"), ["twin_choice"])]


def test_sechste_resumed_twin_choice_from_deal():
    rows = names(["7D", "7D*", "KS", "AH"])  # one card to a row
    st = from_deal(sechste(2), [[[cid("QC")], [cid("QD")]]], [rows],
                   pending=([[cid("8C"), cid("9C")]], [[1, 0]]))
    assert st.row_options[:, 0].tolist() == [True, True, False, False]
    _, ev = choose(st, 0)
    assert placed(ev) == [(cid("8C"), ["twin_choice"]), (cid("9C"), [])]


# =========================================================================== random games


def check_step(before, actions, ev, config: RuleConfig) -> dict[str, int]:
    """Every placement's flags agree with the rows as they stood just before it (the
    rows of `before`, followed through the step with the events' rows and takes).
    Returns how often each flag was seen."""
    order = config.variant_data.order.astype(int)
    bullheads = config.variant_data.bullheads.astype(int)
    seen = dict.fromkeys(RULE_NAMES.values(), 0)
    assert not ev.rule[ev.card == 0].any(), "flags only where a card was placed"
    for b in range(before.batch_size):
        if before.phase[b] == PHASE_OVER:
            continue
        rows = before.row_lists(b)
        question = int(before.row_options[:, b].sum()) if before.phase[b] == PHASE_ROW else 0
        for k in np.flatnonzero(ev.card[:, b]):
            card, row, flags = int(ev.card[k, b]), int(ev.row[k, b]), int(ev.rule[k, b])
            for name in rule_names(flags):
                seen[name] += 1
            value, ends = order[card], [order[r[-1]] for r in rows]
            taken = [int(c) for c in ev.taken[k, :, b] if c]
            too_low = value < min(ends)
            assert bool(flags & RULE_TOO_LOW) == too_low
            if too_low:  # Rule 4: the owner's row, or the cheapest: fewest bullheads, cards, index
                assert k == 0 and taken == rows[row]
                if config.row_choice == "player":
                    assert question == N_ROWS and row == actions[before.chooser[b], b]
                else:
                    key = [(sum(bullheads[c] for c in r), len(r), i) for i, r in enumerate(rows)]
                    assert row == min(key)[2]
            else:
                top = max(e for e in ends if e <= value)
                pair = [r for r in range(N_ROWS) if ends[r] == top]
                assert row in pair
                assert bool(flags & TWIN_ROW) == (len(pair) == 2)
                assert bool(flags & RULE_ON_TWIN) == (top == value)
                assert bool(flags & RULE_SIXTH) == (len(rows[row]) == ROW_CAPACITY)
                assert taken == (rows[row] if flags & RULE_SIXTH else [])
                lengths = [len(rows[r]) for r in pair]
                if flags & RULE_TWIN_CHOICE:  # asked in this step, placed on the owner's row
                    assert (k, question, config.row_choice) == (0, 2, "player") and lengths[0] == lengths[1]
                    assert row == actions[before.chooser[b], b]
                if flags & RULE_TWIN_SHORTER:  # the shorter row; equal: the cheaper, lower index
                    key = [(len(rows[r]), sum(bullheads[c] for c in rows[r]), r) for r in pair]
                    assert row == min(key)[2]
                    assert lengths[0] != lengths[1] or config.row_choice == "cheapest"
            rows[row] = [card] if taken else rows[row] + [card]
        if question:  # the answer to a question is flagged at the card it placed
            assert ev.rule[0, b] & (RULE_TOO_LOW if question == N_ROWS else RULE_TWIN_CHOICE)
    return seen


@pytest.mark.parametrize("variant,players,row_choice,deck", [
    ("classic", 4, "player", "full"), ("classic", 10, "cheapest", "full"), ("classic", 3, "player", "exact"),
    ("die-sechste", 10, "player", "full"), ("die-sechste", 6, "cheapest", "full"),
    ("die-sechste", 8, "player", "full"), ("die-sechste", 4, "player", "full")])
def test_flags_agree_with_the_rows_in_random_games(variant, players, row_choice, deck):
    config = RuleConfig(players=players, row_choice=row_choice, variant=variant, deck=deck,
                        end_score=None, max_rounds=2)
    st = new_games(config, game_seeds(players, 96))
    rng = np.random.default_rng(players)
    seen = dict.fromkeys(RULE_NAMES.values(), 0)
    while not st.game_over().all():
        actions = _random_actions(st, rng)
        after, ev = step(st, actions, report=True)
        for name, n in check_step(st, actions, ev, config).items():
            seen[name] += n
        st = after
    assert seen["too_low"] > 0 and seen["sixth"] > 0
    twins = variant == "die-sechste" and players > 4
    assert (seen["on_twin"] > 0) == twins
    if twins:  # equal twin rows: the owner's question, or decided by the rule
        assert seen["twin_choice" if row_choice == "player" else "twin_shorter"] > 0
    if not twins:
        assert seen["twin_shorter"] == seen["twin_choice"] == 0


# =========================================================================== the study's counter


def observe_turn(counter, st, cards: list[int], rows: list[int] = ()):
    """Feed `counter` one turn: the card step, then a step per row answer."""
    encoded = np.asarray(cards, dtype=np.int64)[:, None] - 1  # encoded action a plays card id a + 1
    after, ev = play(st, cards)
    counter.observe(st, encoded, after, ev)
    for row in rows:
        st, (after, ev) = after, choose(after, row)
        counter.observe(st, np.full((st.players, 1), row), after, ev)
    return after


def test_study_counter_reads_the_flags():
    """RuleCounter counts each rule once per card: a question and its answer are two steps."""
    from experiments.studies.die_sechste import RuleCounter

    config = sechste(3)
    counter = RuleCounter(config, 1)
    st = position(config, [["7D"], ["7D*"], ["KS"], ["5H"]], ["AC", "8C", "2C"])
    observe_turn(counter, st, names(["AC", "8C", "2C"]), rows=[3, 0])
    assert {k: int(v[0]) for k, v in counter.counts.items()} == {
        "too_low": 1, "sixth": 0, "twins_same_turn": 0, "on_twin": 0, "twin_rows_shorter": 0,
        "twin_rows_equal": 1}
    config = sechste(4)
    counter = RuleCounter(config, 1)
    st = position(config, [["2C", "3C", "4C", "8S"], ["AC"], ["AD"], ["AH"]], ["AS", "9H", "2D", "9H*"])
    observe_turn(counter, st, names(["AS", "9H", "2D", "9H*"]))
    assert {k: int(v[0]) for k, v in counter.counts.items()} == {
        "too_low": 0, "sixth": 1, "twins_same_turn": 1, "on_twin": 1, "twin_rows_shorter": 0,
        "twin_rows_equal": 0}
