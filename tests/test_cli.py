"""Smoke tests of every `sixnimmt` command, run as a user would (a subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def sixnimmt(*args: str, check_code: int | None = 0, stdin: str = "") -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, "-m", "experiments.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=300)
    if check_code is not None:
        assert proc.returncode == check_code, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    return proc


@pytest.fixture(scope="module")
def record_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("rec") / "game.json"
    out = sixnimmt("demo", "--players", "3", "--seed", "5", "--record", str(path)).stdout
    assert "final scores" in out and "winner" in out and "round 1" in out
    return path


def test_demo_prints_turns_and_writes_a_record(record_file):
    rec = json.loads(record_file.read_text())
    assert rec["format"] == "sixnimmt-record/1" and rec["rules"]["players"] == 3


def test_replay_valid_record(record_file):
    out = sixnimmt("replay", str(record_file)).stdout
    assert "totals:" in out and "winners:" in out


def test_replay_json_fills_outputs(record_file, tmp_path):
    rec = json.loads(record_file.read_text())
    del rec["totals"], rec["winners"]
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(rec))
    filled = json.loads(sixnimmt("replay", str(bare), "--json").stdout)
    assert filled["totals"] == json.loads(record_file.read_text())["totals"]


def test_replay_differences_exit_1(record_file, tmp_path):
    rec = json.loads(record_file.read_text())
    rec["totals"][0] += 1
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(rec))
    proc = sixnimmt("replay", str(wrong), check_code=1)
    assert "totals are" in proc.stderr


@pytest.mark.parametrize("content,message", [
    ("{not json", "not JSON"),
    ('{"format": "other"}', "format must be"),
])
def test_replay_invalid_exit_2_one_line(tmp_path, content, message):
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    proc = sixnimmt("replay", str(bad), check_code=2)
    assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_replay_illegal_move_names_round_turn_seat(record_file, tmp_path):
    rec = json.loads(record_file.read_text())
    rec["rounds"][0]["turns"][2]["cards"][1] = rec["rounds"][0]["turns"][0]["cards"][1]
    bad = tmp_path / "illegal.json"
    bad.write_text(json.dumps(rec))
    proc = sixnimmt("replay", str(bad), check_code=2)
    assert "round 0, turn 2, seat 1" in proc.stderr


def test_replay_missing_file_exit_2(tmp_path):
    proc = sixnimmt("replay", str(tmp_path / "nope.json"), check_code=2)
    assert "cannot read" in proc.stderr


def test_bad_rule_option_is_one_line_error():
    proc = sixnimmt("demo", "--players", "11", check_code=2)
    assert "players must be 2..10" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_bench_engine_json():
    out = sixnimmt("bench", "engine", "--players", "4", "--batch", "64", "--seconds", "0.3",
                   "--no-limit", "--json").stdout
    result = json.loads(out.strip().splitlines()[0])
    assert result["rounds_per_s"] > 0 and result["P"] == 4 and result["B"] == 64
    assert 10 < result["pen_per_player_round"] < 15


def test_match_command(tmp_path):
    out = sixnimmt("match", "--agents", "greedy,random,random", "--games", "2", "--max-rounds", "1",
                   "--row-choice", "player", "--records", str(tmp_path / "recs"), "--no-progress").stdout
    assert "greedy" in out and "bullheads/round" in out
    records = sorted((tmp_path / "recs").glob("*.json"))
    assert len(records) == 6
    assert sixnimmt("replay", str(records[0])).returncode == 0
    data = json.loads(sixnimmt("match", "--agents", "lowest,highest", "--games", "2", "--max-rounds", "1",
                               "--json", "--no-progress").stdout)
    assert {a["name"] for a in data["agents"]} == {"lowest", "highest"} and data["games"] == 4


def test_match_bad_agent_is_one_line_error():
    proc = sixnimmt("match", "--agents", "lowest,wizard", "--games", "1", check_code=2)
    assert "unknown agent 'wizard'" in proc.stderr and "valid agents" in proc.stderr


def test_agents_and_baselines_commands():
    assert "mcs" in sixnimmt("agents").stdout
    out = sixnimmt("baselines", "--players", "3", "--deals", "2", "--agents", "random,lowest").stdout
    assert "| `lowest` |" in out


def test_play_with_piped_input(tmp_path):
    # The game at a terminal is tested through a pty (test_play_terminal.py); piped lines
    # work too, and input that runs out stops the game like Ctrl-C, record kept.
    record = tmp_path / "piped.json"
    proc = sixnimmt("play", "--opponents", "lowest", "--players", "2", "--row-choice", "cheapest",
                    "--seed", "3", "--record", str(record), check_code=130, stdin="quit-not\n")
    assert "'quit-not' is not a card" in proc.stdout and "No input" in proc.stdout
    assert sixnimmt("replay", str(record)).returncode == 0


@pytest.mark.parametrize("args,message", [
    (["--variant", "nonsense"], "variant must be one of"),
    (["--players", "3", "--opponents", "a,b,c"], "3 opponents for 2 other seats"),
    (["--players", "3", "--opponents", "wizard"], "unknown agent 'wizard'"),
])
def test_play_bad_options_are_one_line_errors(args, message):
    proc = sixnimmt("play", "--seed", "1", *args, check_code=2)
    assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
