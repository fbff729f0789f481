"""Board-game records (docs/spec/board-record.md): the Recorder, replay through the engine,
the `sixnimmt replay` contract (exit 0 valid, 1 outputs differ, 2 invalid in one line) and
every malformed case, a record carrying a user's layout, and deals for the ParallelEnv."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import numpy as np
import pytest

import sixnimmt_env
from sixnimmt_env import ConfigError, InvalidRecordError, make_game
from sixnimmt_env.board._layout_files import layout_to_dict, load_layout, save_layout
from sixnimmt_env.board._records import Recorder
from sixnimmt_env.board._replay import check_deal, replay
from sixnimmt_env.board.layout import BoardLayout
from sixnimmt_env.core.records import replay as replay_any
from sixnimmt_env.core.records import seat_words, write_record
from sixnimmt_env.core.rng import game_seeds
from tests.support import reference_board as ref

HAND = 12


def play_recorded(game, seeds, rng_seed: int = 0, stop=None):
    """Random legal games of `game`, one per seed, stepped in one batch with a Recorder.

    `stop(step_no)`: stop after that many steps (a game saved part-way). Returns (records, state).
    """
    B, P = len(seeds), game.info.players
    st = game.new_games(seeds)
    recorder = game.recorder(st, seats=["random"] * P, seeds=[int(s) for s in seeds])
    assert isinstance(recorder, Recorder)
    rng = np.random.default_rng(rng_seed)
    steps = 0
    while not game.game_over(st).all() and (stop is None or steps < stop):
        actions = np.stack([game.view(st, [p] * B).random_legal_actions(rng) for p in range(P)])
        after, events = game.step(st, actions, report=True)
        recorder.observe(st, actions, after, events)
        st = after
        steps += 1
    return [json.loads(json.dumps(r)) for r in recorder.records(st)], st  # what a file holds


def reference_scores(record: dict) -> list[int]:
    """The record's turns and decisions played on the scalar reference (tests/support/reference_board.py)."""
    layout = record["layout"]
    rules = ref.Rules(rows=layout["rows"], bullheads=record["bullheads"], clovers=layout["clovers"],
                      variant=record["variant"], next_row=record["rules"]["next_row"],
                      luck_stacks={"+5": record["rules"]["plus5_cards"], "2x": record["rules"]["double_cards"]})
    state = ref.new_game(rules, record["hands"], record["start"], record["draws"])
    for turn in record["turns"]:
        script = ref.Script([(d["seat"], d["ask"], d["answer"]) for d in turn["decisions"]])
        state = ref.play_turn(state, turn["tiles"], script).state
        script.finish()
    return list(state.scores)


# --------------------------------------------------------------------------- round trips


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("variant", ["basic", "luck"])
def test_recorded_games_replay_without_differences(players, variant):
    game = make_game("board", players=players, variant=variant)
    records, st = play_recorded(game, game_seeds(players, 6), rng_seed=players)
    for b, record in enumerate(records):
        assert record["game"] == "board" and record["variant"] == variant
        assert record["draws"] == (st.supply[:HAND * players, b].tolist() if players <= 3 else [])
        result = replay_any(record)  # through the envelope's dispatch, as the CLI does
        assert result.differences == [] and result.over
        assert result.scores == st.score[:, b].tolist() == record["scores"]
        assert result.winners == np.flatnonzero(st.winners()[:, b]).tolist() == record["winners"]
        assert result.turns == len(record["turns"]) == int(st.turn[b])
        assert sum(len(t["tiles"][0]) for t in record["turns"]) == HAND * (2 if players <= 3 else 1)
        assert reference_scores(record) == result.scores  # the record's order of decisions is the spec's
    decisions = [d for r in records for t in r["turns"] for d in t["decisions"]]
    assert bool(decisions) == (variant == "luck")


def test_next_row_rotate_and_other_stacks_are_recorded():
    game = make_game("board", players=4, variant="luck", next_row="rotate", plus5_cards=1, double_cards=2)
    records, st = play_recorded(game, game_seeds(9, 6), rng_seed=9)
    for b, record in enumerate(records):
        assert record["rules"] == {"players": 4, "next_row": "rotate", "plus5_cards": 1, "double_cards": 2}
        assert replay(record).differences == []
        assert reference_scores(record) == st.score[:, b].tolist()


def test_every_action_card_answer_round_trips_through_the_record_form():
    """Each pro answer to the action-card offer (no card; every card with every row or
    tile) is written in the record's form, well formed, and read back as the same action."""
    from sixnimmt_env.board._answers import answer_action, answer_value, well_formed
    from sixnimmt_env.board.actions import N_ACTIONS, NO_CARD_ACTION
    from sixnimmt_env.board.state import ASK_ACTION, ASK_NAMES

    ask = ASK_NAMES[ASK_ACTION]
    for action in range(NO_CARD_ACTION, N_ACTIONS):
        value = answer_value(ASK_ACTION, action)
        assert well_formed(ask, value) and answer_action(ask, value) == action, (action, value)


def test_a_game_saved_part_way_replays_without_winners():
    """Stopped after any step (mid-turn too): the record holds the finished turns only."""
    game = make_game("board", players=3, variant="luck")
    for stop in (0, 1, 7, 23, 40):
        records, st = play_recorded(game, game_seeds(4, 4), rng_seed=4, stop=stop)
        for g, record in enumerate(records):
            result = replay(record)
            assert result.differences == [] and result.over == bool(game.game_over(st)[g])
            assert len(record["turns"]) <= stop
            if not result.over:
                assert record["winners"] == [] and "(game not over)" in result.summary_lines()[-1]
    assert any(len(r["turns"]) < int(st.turn[g]) + 1 for g, r in enumerate(records))  # stopped mid-turn


def test_a_step_that_leaves_games_alone_records_nothing_for_them():
    game = make_game("board", players=4, variant="luck")
    B = 4
    st = game.new_games(game_seeds(2, B))
    recorder = game.recorder(st)
    rng = np.random.default_rng(2)
    only = np.array([True, False, True, False])
    while not game.game_over(st)[only].all():
        actions = np.stack([game.view(st, [p] * B).random_legal_actions(rng) for p in range(4)])
        after, events = game.step(st, actions, report=True, games=only)
        recorder.observe(st, actions, after, events)
        st = after
    records = recorder.records(st)
    assert records[1]["turns"] == [] and records[1]["winners"] == []
    for b in (0, 2):
        assert replay(json.loads(json.dumps(records[b]))).scores == st.score[:, b].tolist()
    with pytest.raises(ValueError, match="inplace"):
        recorder.observe(st, actions, st, None)


def test_outputs_are_optional_and_filled_in(valid_record):
    bare = copy.deepcopy(valid_record)
    del bare["scores"], bare["winners"]
    result = replay(bare)
    assert result.differences == []
    assert result.completed()["scores"] == valid_record["scores"]
    assert result.completed()["winners"] == valid_record["winners"]
    assert "scores" not in bare  # the record given is not changed
    lines = result.summary_lines()
    assert lines[0] == f"turns: {len(valid_record['turns'])}"
    assert f"scores: {valid_record['scores']}" in lines and f"winners: {seat_words(valid_record['winners'])}" in lines


def test_missing_optional_keys_take_defaults(valid_record):
    rec = copy.deepcopy(valid_record)
    rec["rules"] = {"players": 3}
    del rec["bullheads"], rec["seats"], rec["seed"]
    for turn in rec["turns"]:
        if not turn["decisions"]:
            del turn["decisions"]
    assert replay(rec).differences == []


def test_wrong_outputs_are_differences(valid_record):
    rec = copy.deepcopy(valid_record)
    rec["scores"][1] += 3
    rec["winners"] = [0, 1]
    assert replay(rec).differences == [
        f"scores are {rec['scores']}, replay gives {valid_record['scores']}",
        f"winners are [0, 1], replay gives {valid_record['winners']}"]


# --------------------------------------------------------------------------- malformed records


@pytest.fixture(scope="module")
def valid_record():
    """A finished 3-player luck game (so a refill and draws) with play-two turns, one-tile
    turns, turns without decisions and every kind of decision."""
    game = make_game("board", players=3, variant="luck")
    records, _ = play_recorded(game, game_seeds(11, 32), rng_seed=11)
    for record in records:
        turns = record["turns"]
        asks = {d["ask"] for t in turns for d in t["decisions"]}
        sizes = {len(t["tiles"][0]) for t in turns}
        if asks == {"luck_card", "use_plus5", "use_double"} and sizes == {1, 2} and \
                any(not t["decisions"] for t in turns):
            return record
    raise AssertionError("no game with every kind of decision")


def first(record, pred):
    """(turn index, decision index) of the first decision matching pred."""
    for t, turn in enumerate(record["turns"]):
        for i, d in enumerate(turn["decisions"]):
            if pred(d):
                return t, i
    raise AssertionError("no such decision")


def first_turn(record, pred) -> int:
    return next(t for t, turn in enumerate(record["turns"]) if pred(turn))


class Replace:
    """What an edit returns to replace the whole record."""

    def __init__(self, value):
        self.value = value


def edited(record: dict, case: str):
    """A deep copy of `record` with the case's edit made."""
    rec = copy.deepcopy(record)
    done = MALFORMED[case][0](rec)
    return done.value if isinstance(done, Replace) else rec


def _drop(container, key) -> None:
    container.pop(key)


def _set(path, value):
    def edit(r):
        *keys, last = path
        for k in keys:
            r = r[k]
        r[last] = value
    return edit


def _not_in_hand(r):
    r["turns"][0]["tiles"][0][0] = r["hands"][1][0]


def _put_out_again(r):
    r["turns"][1]["tiles"][0][0] = r["turns"][0]["tiles"][0][0]


def _same_tile_twice(r):
    t = first_turn(r, lambda turn: len(turn["tiles"][0]) == 2)
    r["turns"][t]["tiles"][2] = [r["turns"][t]["tiles"][2][0]] * 2


def _one_tile_under_play_two(r):
    t = first_turn(r, lambda turn: len(turn["tiles"][0]) == 2)
    r["turns"][t]["tiles"][1].pop()


def _two_tiles_without_play_two(r):
    t = first_turn(r, lambda turn: len(turn["tiles"][0]) == 1)
    spare = r["turns"][t + 1]["tiles"][1][0] if t + 1 < len(r["turns"]) else r["hands"][1][-1]
    r["turns"][t]["tiles"][1].append(spare)


def _dealt_twice(r):
    r["start"][0] = r["hands"][0][0]


def _drawn_and_dealt(r):
    r["draws"][5] = r["hands"][2][3]


def _decision_missing(r):
    t, i = first(r, lambda d: d["ask"] == "use_double")
    del r["turns"][t]["decisions"][i]


def _last_decision_dropped(r):
    t = first_turn(r, lambda turn: turn["decisions"])
    r["turns"][t]["decisions"].pop()


def _decision_unneeded(r):
    t = first_turn(r, lambda turn: not turn["decisions"])
    r["turns"][t]["decisions"].append({"seat": 1, "ask": "use_plus5", "answer": True})


def _decision_other_seat(r):
    t, i = first(r, lambda d: d["ask"] == "use_plus5")
    d = r["turns"][t]["decisions"][i]
    d["seat"] = (d["seat"] + 1) % 3


def _decision_other_ask(r):
    t, i = first(r, lambda d: d["ask"] == "use_plus5")
    r["turns"][t]["decisions"][i]["ask"] = "use_double"


def _answer_not_bool(r):
    t, i = first(r, lambda d: d["ask"] == "use_plus5")
    r["turns"][t]["decisions"][i]["answer"] = "yes"


def _answer_not_a_kind(r):
    t, i = first(r, lambda d: d["ask"] == "luck_card")
    r["turns"][t]["decisions"][i]["answer"] = "+6"


def _answer_from_an_empty_stack(r):
    # no "+5" cards at all: the game's first decision (a luck card: nobody holds one before)
    # must then be "2x"
    r["rules"]["plus5_cards"] = 0
    t, i = first(r, lambda d: True)
    assert r["turns"][t]["decisions"][i]["ask"] == "luck_card"
    r["turns"][t]["decisions"][i]["answer"] = "+5"


def _turn_after_the_end(r):
    r["turns"].append(copy.deepcopy(r["turns"][-1]))


def _draws_left_out(r):
    del r["draws"]


def _draws_short(r):
    del r["draws"][10:]


def _bad_layout_first_field(r):
    r["layout"]["rows"][2][0] = "+"


def _bad_layout_last_field(r):
    r["layout"]["rows"][4][-1] = "."


def _bad_layout_code(r):
    r["layout"]["rows"][0][1] = "X"


def _pro_field_on_basic(r):
    r["layout"]["rows"][0][1] = "D"


def _few_rows(r):
    del r["layout"]["rows"][4:]


def _bullheads_99(r):
    r["bullheads"].pop()


def _bullheads_zero(r):
    r["bullheads"][6] = 0


def _layout_unknown_key(r):
    r["layout"]["colour"] = "blue"


def _layout_missing(r):
    del r["layout"]


def _layout_pro_side(r):
    r["layout"]["side"] = "pro"


def _no_turns(r):
    del r["turns"]


MALFORMED = {
    # the envelope and the rules
    "not an object": (lambda r: Replace([r]), "a record must be a JSON object"),
    "wrong format": (_set(["format"], "sixnimmt-record/2"), "format must be 'sixnimmt-record/1'"),
    "unknown game": (_set(["game"], "chess"), "unknown game 'chess'"),
    "unknown variant": (_set(["variant"], "deluxe"), 'unknown variant "deluxe"'),
    "pro variant on the basic board": (_set(["variant"], "pro"), "the variant plays on the 'pro' side"),
    "rules not an object": (_set(["rules"], [3]), "rules must be an object"),
    "unknown rule key": (_set(["rules", "speed"], 2), "unknown rule option(s): speed"),
    "layout under rules": (_set(["rules", "layout"], "basic-default"), "unknown rule option(s): layout"),
    "bad rule value": (_set(["rules", "next_row"], "random"), "next_row must be one of scan, rotate"),
    "wrong player count": (_set(["rules", "players"], 7), "players must be 2..6"),
    # the board
    "layout missing": (_layout_missing, 'the record has no "layout"'),
    "field 1 not plain": (_bad_layout_first_field, "invalid board layout: row 3, field 1: field 1 must be plain"),
    "no take field last": (_bad_layout_last_field, "row 5, field 5: the last field must be a take field"),
    "unknown field code": (_bad_layout_code, "row 1, field 2: unknown field code 'X'"),
    "pro field on the basic side": (_pro_field_on_basic, "is a pro-side field"),
    "four rows": (_few_rows, "4 rows; a board needs at least 5"),
    "99 bullheads": (_bullheads_99, "bullheads must be 100 integers"),
    "a tile without bullheads": (_bullheads_zero, "bullheads of tile 7 must be an integer 1..5, got 0"),
    "unknown layout key": (_layout_unknown_key, "unknown key(s) in \"layout\": colour"),
    "pro-side layout for luck": (_layout_pro_side, "the layout is for the 'pro' side"),
    # the deal
    "hands missing": (lambda r: _drop(r, "hands"), "hands must list 3 hands, one per seat, got nothing"),
    "a hand of 11": (lambda r: _drop(r["hands"][2], -1), "seat 2: a hand must hold 12 tiles, got 11"),
    "three start tiles": (lambda r: _drop(r["start"], -1), "start must list the 4 start tiles of rows 0-3, got 3"),
    "tile 101": (_set(["hands", 1, 4], 101), "seat 1: 101 is not a tile (an integer 1..100)"),
    "tile as a string": (_set(["hands", 0, 0], "17"), 'seat 0: "17" is not a tile'),
    "tile as a float": (_set(["start", 3], 12.0), "start, row 3: 12.0 is not a tile"),
    "tile dealt twice": (_dealt_twice, "start, row 0: tile {t} is dealt twice (also in seat 0's hand)"),
    "tile drawn and dealt": (_drawn_and_dealt, "draws, draw 5: tile {t} is dealt twice (also in seat 2's hand)"),
    "draws not a list": (_set(["draws"], 5), "draws must be a list of tiles, got 5"),
    "draws left out": (_draws_left_out, "the refill draws 36 tiles from the supply (12 per seat, seat 0 first), "
                                        "but draws lists only 0"),
    "draws cut short": (_draws_short, "but draws lists only 10"),
    # the turns
    "turns missing": (_no_turns, "turns must be a list of turns, got nothing"),
    "turn not an object": (_set(["turns", 2], [[1], [2], [3]]), "turn 2: a turn must be an object"),
    "tiles of two seats": (lambda r: _drop(r["turns"][0]["tiles"], -1), "turn 0: tiles must list 3 seats' tiles"),
    "decisions not a list": (_set(["turns", 0, "decisions"], {"0": 1}), "turn 0: decisions must be a list"),
    "tile not in hand": (_not_in_hand, "turn 0, seat 0: tile {t} is not in the seat's hand"),
    "tile put out again": (_put_out_again, "turn 1, seat 0: tile {t} is not in the seat's hand"),
    "same tile twice in a turn": (_same_tile_twice, "turn {t}, seat 2: tile {x} is put out twice"),
    "one tile under play two": (_one_tile_under_play_two, "turn {t}, seat 1: the rules ask for 2 tiles this "
                                                          "turn (play two: an active row has an uncovered "
                                                          "play-two field), got 1"),
    "two tiles without play two": (_two_tiles_without_play_two, "turn {t}, seat 1: the rules ask for 1 tile "
                                                                "this turn"),
    "decision missing": (_decision_missing, "turn {t}, seat {s}: decision {i} is missing"),
    "last decision dropped": (_last_decision_dropped, "turn {t}, seat {s}: decision {i} is missing: the rules "
                                                      "ask {ask} (for tile "),
    "decision unneeded": (_decision_unneeded, "turn {t}, seat 1: decision 0 (use_plus5 true) is not needed"),
    "decision of another seat": (_decision_other_seat, "turn {t}, seat {s}: decision {i} is missing or out of "
                                                       "place: the rules ask use_plus5"),
    "decision of another ask": (_decision_other_ask, "turn {t}, seat {s}: decision {i} is missing or out of "
                                                     "place: the rules ask use_plus5"),
    "answer not true/false": (_answer_not_bool, 'turn {t}, seat {s}: illegal answer "yes" to use_plus5; '
                                                'legal: true, false'),
    "answer not a luck card": (_answer_not_a_kind, 'illegal answer "+6" to luck_card; legal: "+5", "2x"'),
    "luck card from an empty stack": (_answer_from_an_empty_stack, 'illegal answer "+5" to luck_card (that '
                                                                   'stack is empty); legal: "2x"'),
    "turn after the end": (_turn_after_the_end, "turn {t}: the game was already over after turn {p}"),
}


def expected_message(record: dict, case: str) -> str:
    """The case's message fragment with the place filled in from the record before the edit."""
    fragment = MALFORMED[case][1]
    turns = record["turns"]
    fill: dict = {}
    if case == "tile dealt twice":
        fill["t"] = record["hands"][0][0]
    elif case == "tile drawn and dealt":
        fill["t"] = record["hands"][2][3]
    elif case == "tile not in hand":
        fill["t"] = record["hands"][1][0]
    elif case == "tile put out again":
        fill["t"] = turns[0]["tiles"][0][0]
    elif case in ("same tile twice in a turn", "one tile under play two"):
        fill["t"] = first_turn(record, lambda turn: len(turn["tiles"][0]) == 2)
        fill["x"] = turns[fill["t"]]["tiles"][2][0]
    elif case == "two tiles without play two":
        fill["t"] = first_turn(record, lambda turn: len(turn["tiles"][0]) == 1)
    elif case == "last decision dropped":
        fill["t"] = first_turn(record, lambda turn: turn["decisions"])
        last = turns[fill["t"]]["decisions"][-1]
        fill["s"], fill["i"], fill["ask"] = last["seat"], len(turns[fill["t"]]["decisions"]) - 1, last["ask"]
    elif case == "decision unneeded":
        fill["t"] = first_turn(record, lambda turn: not turn["decisions"])
    elif case.startswith("decision") or case.startswith("answer"):
        ask = "use_double" if case == "decision missing" else "use_plus5"
        t, i = first(record, lambda d: d["ask"] == ask)
        fill["t"], fill["s"], fill["i"] = t, turns[t]["decisions"][i]["seat"], i
    elif case == "turn after the end":
        fill["t"], fill["p"] = len(turns), len(turns) - 1
    return fragment.format(**fill)


@pytest.mark.parametrize("case", list(MALFORMED))
def test_malformed_record_is_rejected_in_one_line(valid_record, case):
    assert replay(copy.deepcopy(valid_record)).differences == []
    with pytest.raises(InvalidRecordError) as err:
        replay_any(edited(valid_record, case))
    message = str(err.value)
    assert expected_message(valid_record, case) in message
    assert "\n" not in message and len(message) < 300


# --------------------------------------------------------------------------- the command line


def sixnimmt(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "experiments.cli", *args], capture_output=True, text=True,
                          timeout=300)


def cli_in_process(capsys, monkeypatch, *args: str) -> tuple[int, str, str]:
    """`sixnimmt ARGS` through the CLI's own entry point (main), in this process: exit code,
    stdout, stderr."""
    from experiments import cli
    monkeypatch.setattr(sys, "argv", ["sixnimmt", *args])
    with pytest.raises(SystemExit) as done:
        cli.main()
    out, err = capsys.readouterr()
    return int(done.value.code or 0), out, err


@pytest.fixture()
def record_file(valid_record, tmp_path):
    path = tmp_path / "board-game.json"
    write_record(valid_record, path)
    return path


def test_cli_replays_a_valid_record(record_file, valid_record):
    proc = sixnimmt("replay", str(record_file))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert f"scores: {valid_record['scores']}" in proc.stdout
    assert f"winners: {seat_words(valid_record['winners'])}" in proc.stdout


def test_cli_fills_in_outputs_with_json(record_file, valid_record, tmp_path):
    rec = json.loads(record_file.read_text())
    del rec["scores"], rec["winners"]
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(rec))
    proc = sixnimmt("replay", str(bare), "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == valid_record


def test_cli_edited_score_exits_1(record_file, tmp_path):
    rec = json.loads(record_file.read_text())
    rec["scores"][0] -= 1
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(rec))
    proc = sixnimmt("replay", str(wrong))
    assert proc.returncode == 1
    assert proc.stderr.startswith("difference: scores are") and "Traceback" not in proc.stderr


def test_cli_invalid_record_exits_2_in_one_line(record_file, tmp_path):
    rec = json.loads(record_file.read_text())
    _not_in_hand(rec)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(rec))
    proc = sixnimmt("replay", str(bad))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("invalid record: turn 0, seat 0: tile ")
    assert len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("case", list(MALFORMED))
def test_cli_rejects_each_malformed_record(valid_record, tmp_path, capsys, monkeypatch, case):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(edited(valid_record, case)))
    code, out, err = cli_in_process(capsys, monkeypatch, "replay", str(path))
    assert code == 2 and out == ""
    assert err.startswith("invalid record: ") and expected_message(valid_record, case) in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


# --------------------------------------------------------------------------- a user's layout


def user_layout() -> BoardLayout:
    """A board unlike the default: other rows, fixed values, other clovers and bullheads."""
    rows = [[".", "+", "+4", "T"], [".", "-", "-", "2", "T"], [".", "-5", "T"], [".", "+", ".", "-", "+", "T"],
            [".", "2", "T"], [".", "-", "+", "-2", "T"], [".", "+3", "2", "-", "T"]]
    bulls = [1 + (t * 7) % 5 for t in range(1, 101)]
    return BoardLayout(name="my-board", side="basic", rows=rows, clovers=(-25, -12, -5, 5, 15),
                       bullheads=bulls, approximation=False)


def test_a_record_with_a_user_layout_replays_with_no_other_file(tmp_path):
    layout_file = tmp_path / "my-board.toml"
    save_layout(user_layout(), layout_file)
    game = make_game("board", players=3, variant="luck", layout=str(layout_file))
    records, st = play_recorded(game, game_seeds(5, 4), rng_seed=5)
    layout_file.unlink()  # the record alone must do
    record = records[0]
    assert record["layout"]["name"] == "my-board" and record["layout"]["approximation"] is False
    assert {**record["layout"], "bullheads": record["bullheads"]} == {
        **layout_to_dict(user_layout())["layout"], "bullheads": list(user_layout().bullheads)}
    path = tmp_path / "game.json"
    write_record(record, path)
    proc = sixnimmt("replay", str(path))
    assert proc.returncode == 0, proc.stderr
    assert f"scores: {st.score[:, 0].tolist()}" in proc.stdout
    assert reference_scores(record) == st.score[:, 0].tolist()
    # the board inside the record is the one replayed: the default board scores otherwise
    for b, rec in enumerate(records):
        assert replay(rec).scores == st.score[:, b].tolist()
    swapped = []
    for rec in records:
        rec = {**rec, **layout_to_dict(load_layout("basic-default"))}
        try:
            swapped.append(bool(replay(rec).differences))
        except InvalidRecordError:
            swapped.append(True)  # other rows ask other decisions
    assert any(swapped)


# --------------------------------------------------------------------------- deals (ParallelEnv reset)


def test_check_deal_and_position_start_from_a_record(valid_record):
    game = make_game("board", players=3, variant="luck")
    hands, start, supply = check_deal(game.rules, valid_record, "deal")
    assert hands == valid_record["hands"] and start == valid_record["start"]
    assert supply[:len(valid_record["draws"])] == valid_record["draws"]
    assert sorted(sum(hands, []) + start + supply) == list(range(1, 101))
    deal = {k: valid_record[k] for k in ("hands", "start", "draws")}
    st = game.position(deal, seed=3)
    assert st.hand_lists(0) == [sorted(h) for h in hands]
    assert [int(st.tiles[r, 0, 0]) for r in range(4)] == start
    # the same tiles as the recorded game: its turns play on from here to its scores
    assert replay({**valid_record, **deal}).scores == valid_record["scores"]
    # without draws the supply is every other tile, ascending
    hands2, _, supply2 = check_deal(game.rules, {"hands": hands, "start": start}, "deal")
    assert supply2 == sorted(set(range(1, 101)) - set(sum(hands, []) + start))


@pytest.mark.parametrize("deal,message", [
    ([1, 2], "invalid deal option: deal: a deal must be an object"),
    ({"hands": [[1] * 12] * 3, "start": [90, 91, 92, 93]}, "deal, seat 0: tile 1 is dealt twice"),
    ({"hands": [list(range(1, 13))] * 2, "start": [90, 91, 92, 93]}, "deal: hands must list 3 hands"),
    ({"hands": [list(range(1 + 12 * s, 13 + 12 * s)) for s in range(3)], "start": [90, 91, 92]},
     "deal: start must list the 4 start tiles"),
])
def test_bad_deals_are_config_errors(deal, message):
    game = make_game("board", players=3)
    with pytest.raises(ConfigError) as err:
        game.position(deal, seed=0)
    assert message in str(err.value)


def test_parallel_env_resets_from_a_recorded_deal(valid_record):
    env = sixnimmt_env.parallel_env(game="board", players=3, variant="luck")
    deal = {k: valid_record[k] for k in ("hands", "start", "draws")}
    env.reset(seed=1, options={"deal": deal})
    st = env._state  # noqa: SLF001 (the env's one-game batch)
    assert st.hand_lists(0) == [sorted(h) for h in valid_record["hands"]]
    with pytest.raises(ConfigError, match="invalid deal option"):
        env.reset(options={"deal": {**deal, "start": deal["hands"][0][:4]}})
