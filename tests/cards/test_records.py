"""Game records: writing, replay, and every malformed case of docs/spec/game-record.md."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from experiments.play.demo import demo_actions, play_demo
from sixnimmt_env import InvalidRecordError, RuleConfig, game_seeds
from sixnimmt_env.cards.records import Recorder, replay
from sixnimmt_env.core.game import as_game


def recorded_games(cfg: RuleConfig, n: int, seed: int):
    """Play n games in one batch with a Recorder; returns (records, final state)."""
    game = as_game(cfg)
    st = game.new_games(game_seeds(seed, n))
    rng = np.random.default_rng(seed)
    rec = Recorder(st, seats=["demo"] * cfg.players, seeds=list(range(n)))
    while not st.game_over().all():
        actions = demo_actions(st, rng)  # encoded actions
        after, ev = game.step(st, actions, report=True)
        rec.observe(st, actions, after, ev)
        st = after
    return rec.records(st), st


@pytest.mark.parametrize("cfg", [
    RuleConfig(players=4),
    RuleConfig(players=2, row_choice="cheapest"),
    RuleConfig(players=10, deck="exact"),
    RuleConfig(players=5, end_score=None, max_rounds=3),
    RuleConfig(players=3, end_score=30, max_rounds=2),
])
def test_recorded_games_replay_without_differences(cfg):
    records, st = recorded_games(cfg, 6, seed=3)
    for b, record in enumerate(records):
        record = json.loads(json.dumps(record))  # what a file holds
        result = replay(record)
        assert result.differences == []
        assert result.over
        assert result.totals == st.total()[:, b].tolist()
        assert result.winners == np.flatnonzero(st.winners()[:, b]).tolist()
        assert result.winners == record["winners"]


@pytest.fixture(scope="module")
def valid_record():
    """A finished 4-player game with at least one row choice."""
    for seed in range(50):
        rec = play_demo(RuleConfig(players=4), seed, echo=lambda s: None)
        if any(t["choices"] for r in rec["rounds"] for t in r["turns"]) and len(rec["rounds"]) >= 2:
            return json.loads(json.dumps(rec))
    raise AssertionError("no demo game with a row choice")


def first_choice(rec):
    """(round, turn, seat) of the first recorded row choice."""
    for i, r in enumerate(rec["rounds"]):
        for t, turn in enumerate(r["turns"]):
            if turn["choices"]:
                return i, t, int(next(iter(turn["choices"])))
    raise AssertionError


def _bad_format(r):
    r["format"] = "sixnimmt-record/2"


def _bad_variant(r):
    r["variant"] = "seven-nimmt"


def _bad_rule(r):
    r["rules"]["row_choice"] = "dealer"


def _not_in_hand(r):
    hand1 = r["rounds"][0]["hands"][1]
    r["rounds"][0]["turns"][0]["cards"][0] = hand1[0]


def _played_twice(r):
    turns = r["rounds"][0]["turns"]
    turns[1]["cards"][0] = turns[0]["cards"][0]


def _outside_deck(r):
    r["rounds"][0]["hands"][0][0] = 105


def _dealt_twice(r):
    r["rounds"][0]["rows"][0][0] = r["rounds"][0]["hands"][0][0]


def _short_hand(r):
    r["rounds"][0]["hands"][2].pop()


def _short_turn(r):
    r["rounds"][0]["turns"][3]["cards"].pop()


def _two_card_row(r):
    r["rounds"][0]["rows"][1].append(104)


def _missing_choice(r):
    i, t, s = first_choice(r)
    r["rounds"][i]["turns"][t]["choices"] = {}


def _unneeded_choice(r):
    i, t, s = first_choice(r)
    for turn in r["rounds"][i]["turns"]:
        if not turn["choices"]:
            turn["choices"] = {"0": 1}
            return


def _illegal_choice(r):
    i, t, s = first_choice(r)
    r["rounds"][i]["turns"][t]["choices"][str(s)] = 4


def _wrong_dealer(r):
    r["rounds"][1]["dealer"] = (r["rounds"][0]["dealer"] + 2) % 4


def _round_after_end(r):
    r["rounds"].append(copy.deepcopy(r["rounds"][-1]))
    r["rounds"][-1]["dealer"] = (r["rounds"][-2]["dealer"] + 1) % 4


def _not_an_int_card(r):
    r["rounds"][0]["hands"][0][0] = "12"


MALFORMED = {
    "wrong format tag": (_bad_format, "format"),
    "unknown variant": (_bad_variant, "unknown variant"),
    "unknown rule value": (_bad_rule, "row_choice"),
    "card not in hand": (_not_in_hand, "round 0, turn 0, seat 0"),
    "card played twice": (_played_twice, "round 0, turn 1, seat 0"),
    "dealt card outside the deck": (_outside_deck, "round 0, seat 0"),
    "card dealt twice": (_dealt_twice, "round 0, row 0"),
    "hand of 9 cards": (_short_hand, "round 0, seat 2"),
    "turn with too few cards": (_short_turn, "round 0, turn 3"),
    "row of two cards": (_two_card_row, "round 0, row 1"),
    "missing choice": (_missing_choice, "choose a row"),
    "unneeded choice": (_unneeded_choice, "ask this seat for none"),
    "illegal choice": (_illegal_choice, "illegal choice 4"),
    "wrong dealer rotation": (_wrong_dealer, "round 1: dealer must be"),
    "round after the game was over": (_round_after_end, "already over"),
    "card of the wrong type": (_not_an_int_card, "not a classic card"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_record_is_rejected_with_its_place(valid_record, case):
    mutate, expected = MALFORMED[case]
    rec = copy.deepcopy(valid_record)
    assert replay(rec).differences == []
    mutate(rec)
    with pytest.raises(InvalidRecordError) as err:
        replay(rec)
    assert expected in str(err.value)
    assert "\n" not in str(err.value)


def test_wrong_outputs_are_reported_as_differences(valid_record):
    rec = copy.deepcopy(valid_record)
    rec["rounds"][0]["penalties"][0] += 1
    rec["totals"][1] += 2
    rec["winners"] = [3]
    diffs = replay(rec).differences
    assert len(diffs) == 3
    assert diffs[0].startswith("round 0: penalties")


def test_outputs_are_optional_and_filled_in(valid_record):
    rec = copy.deepcopy(valid_record)
    for r in rec["rounds"]:
        del r["penalties"]
    del rec["totals"], rec["winners"]
    result = replay(rec)
    assert result.differences == []
    assert result.completed()["totals"] == valid_record["totals"]
    assert result.completed()["winners"] == valid_record["winners"]


def test_missing_rule_keys_take_defaults(valid_record):
    rec = copy.deepcopy(valid_record)
    rec["rules"] = {"players": 4}
    assert replay(rec).differences == []


def test_unfinished_game_has_no_winners(valid_record):
    rec = copy.deepcopy(valid_record)
    rec["rounds"] = rec["rounds"][:1]
    rec["rounds"][0]["turns"] = rec["rounds"][0]["turns"][:4]
    del rec["rounds"][0]["penalties"], rec["totals"], rec["winners"]
    result = replay(rec)
    assert not result.over and result.winners == []
    assert len(result.totals) == 4
