"""Smoke tests of every `sixnimmt` command, run as a user would (a subprocess)."""

from __future__ import annotations

import json
import re
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
    assert "greedy" in out and "bullheads/game" in out  # games of one round
    records = sorted((tmp_path / "recs").glob("*.json"))
    assert len(records) == 6
    assert sixnimmt("replay", str(records[0])).returncode == 0
    data = json.loads(sixnimmt("match", "--agents", "lowest,highest", "--games", "2", "--max-rounds", "1",
                               "--json", "--no-progress").stdout)
    assert {a["name"] for a in data["agents"]} == {"lowest", "highest"} and data["games"] == 4


def test_match_in_one_process_decides_on_one_torch_thread_as_a_tournament_worker(monkeypatch):
    """match plays in its own process set up as a tournament's worker (one torch thread), so
    the two time a network's decision alike (issue 63: two threads on a busy 2-core machine
    made board ppo's decisions ~29x slower in match than in a tournament)."""
    import torch
    from typer.testing import CliRunner

    from experiments.backends import workers
    from experiments.cli import app

    before = torch.get_num_threads()
    monkeypatch.setattr(workers, "_PROCESS_READY", False)
    try:
        torch.set_num_threads(2)
        run = CliRunner().invoke(app, ["match", "--agents", "lowest,random", "--games", "1", "--max-rounds", "1",
                                       "--no-progress"])
        assert run.exit_code == 0, run.output
        assert torch.get_num_threads() == 1
    finally:
        torch.set_num_threads(before)


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


# ---------------------------------------------------------------------- the board game



@pytest.mark.parametrize("args", [
    [],
    ["--variant", "luck", "--players", "2", "--seed", "3"],
    ["--variant", "basic", "--players", "6", "--next-row", "rotate",
     "--layout", "sixnimmt_env/board/layouts/basic-default.toml"],
])
def test_demo_plays_the_board_game(args):
    out = sixnimmt("demo", "--game", "board", *args).stdout
    assert out.startswith("board demo (")
    assert "board basic-default" in out and "revealed: seat 1" in out
    assert "final scores (points):" in out and "winner" in out
    assert out == sixnimmt("demo", "--game", "board", *args).stdout  # seeded: the same game again


def test_demo_record_of_the_board_game(tmp_path):
    path = tmp_path / "board.json"
    sixnimmt("demo", "--game", "board", "--variant", "luck", "--record", str(path))
    assert json.loads(path.read_text())["game"] == "board"
    assert sixnimmt("replay", str(path)).returncode == 0


@pytest.mark.parametrize("args,message", [
    (["--game", "board", "--row-choice", "cheapest"], "unknown rule option(s) for the board game: row_choice"),
    (["--game", "board", "--end-score", "0"], "unknown rule option(s) for the board game: end_score"),
    (["--game", "board", "--max-rounds", "2"], "unknown rule option(s) for the board game: max_rounds"),
    (["--game", "board", "--deck", "exact"], "unknown rule option(s) for the board game: deck"),
    (["--game", "board", "--variant", "classic"], "variant must be one of basic, luck"),
    (["--game", "board", "--players", "7"], "players must be 2..6 for the board game"),
    (["--game", "board", "--next-row", "up"], "next_row must be one of scan, rotate"),
    (["--game", "board", "--layout", "no-such-layout.toml"], "no-such-layout.toml"),
    (["--layout", "basic-default"], "unknown rule option(s) for the card games: layout"),
    (["--next-row", "rotate"], "unknown rule option(s) for the card games: next_row"),
    (["--game", "chess"], "unknown game 'chess'"),
])
def test_options_a_game_does_not_know_are_one_line_errors(args, message):
    proc = sixnimmt("demo", *args, check_code=2)
    assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_help_says_which_game_each_option_belongs_to():
    text = sixnimmt("demo", "--help").stdout
    for option in ("--row-choice", "--end-score", "--max-rounds", "--deck", "--layout", "--next-row"):
        assert option in text
    assert text.count("cards only") == 4 and text.count("board only") == 2
    assert "board: basic" in " ".join(re.sub(r"[│\s]+", " ", text).split())
    for command in (["baselines"], ["study", "die-sechste"], ["bench", "engine"], ["bench", "env"]):
        assert "Card game only" in " ".join(sixnimmt(*command, "--help").stdout.split()), command


def test_card_defaults_are_the_games_defaults():
    # --end-score not given: the card game's 66; --end-score 0: none (then max rounds ends it)
    default = json.loads(sixnimmt("match", "--agents", "lowest,highest", "--games", "1", "--json",
                                  "--no-progress").stdout)
    assert default["rules"] == {"players": 2, "row_choice": "player", "end_score": 66, "max_rounds": None,
                                "deck": "full"}
    assert default["game"] == "cards" and default["variant"] == "classic" and default["utility"] == -1
    none = json.loads(sixnimmt("match", "--agents", "lowest,highest", "--games", "1", "--json", "--no-progress",
                               "--end-score", "0", "--max-rounds", "1").stdout)
    assert none["rules"]["end_score"] is None and none["rules"]["max_rounds"] == 1
    proc = sixnimmt("match", "--agents", "lowest,highest", "--games", "1", "--end-score", "0", check_code=2)
    assert "set end_score or max_rounds" in proc.stderr


def test_match_plays_the_board_game_and_ranks_the_most_points_first():
    out = sixnimmt("match", "--game", "board", "--agents", "random,random,random", "--games", "2",
                   "--no-progress").stdout
    assert "points/game" in out and "bullheads" not in out and re.search(r"^random\s+3\s+-?\d", out, re.M)
    data = json.loads(sixnimmt("match", "--game", "board", "--variant", "luck", "--agents", "random,random",
                               "--games", "2", "--json", "--no-progress").stdout)
    assert (data["game"], data["variant"], data["score_unit"], data["utility"]) == ("board", "luck", "points", 1)
    assert data["games"] == 4 and data["rules"]["players"] == 2
    proc = sixnimmt("match", "--game", "board", "--agents", "random,greedy", "--games", "1", check_code=2)
    assert "agent 'greedy' plays cards, not 'board'" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_play_the_board_game_with_hints():
    proc = sixnimmt("play", "--game", "board", "--players", "2", "--seed", "3", "--hints", stdin="quit\n")
    assert re.search(r"Hint \(mcs:rollouts=\d+\): play \d+\. Mean points for you", proc.stdout), proc.stdout
    assert "Game stopped." in proc.stdout


def test_match_records_of_the_board_game(tmp_path):
    args = ["match", "--game", "board", "--agents", "random,random", "--games", "1", "--no-progress",
            "--records", str(tmp_path / "recs")]
    sixnimmt(*args)
    records = sorted((tmp_path / "recs").glob("*.json"))
    assert len(records) == 2 and sixnimmt("replay", str(records[0])).returncode == 0


def test_play_the_board_game_with_piped_input(tmp_path):
    proc = sixnimmt("play", "--game", "board", "--players", "2", "--variant", "luck", "--seed", "3",
                    check_code=130, stdin="abc\n")
    assert "Das Brettspiel (with luck cards)" in proc.stdout and "seat 2 (mcs)" in proc.stdout  # default: the board mcs
    assert "'abc' is not a tile" in proc.stdout and "No input" in proc.stdout
    assert "(not saved: add --record FILE" in proc.stdout
    proc = sixnimmt("play", "--game", "board", "--players", "2", "--seed", "3", check_code=0, stdin="quit\n")
    assert "Game stopped." in proc.stdout
    record = tmp_path / "board.json"
    sixnimmt("play", "--game", "board", "--players", "2", "--seed", "3", "--record", str(record),
             check_code=0, stdin="quit\n")
    assert sixnimmt("replay", str(record)).returncode == 0


@pytest.mark.parametrize("args,message", [
    (["--opponents", "bayes"], "agent 'bayes' plays cards, not 'board'"),
    (["--row-choice", "player"], "unknown rule option(s) for the board game: row_choice"),
    (["--players", "3", "--opponents", "random,random,random"], "3 opponents for 2 other seats"),
])
def test_play_board_bad_options_are_one_line_errors(args, message):
    proc = sixnimmt("play", "--game", "board", "--seed", "1", *args, check_code=2)
    assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_tournament_plays_the_board_game(tmp_path):
    from typer.testing import CliRunner

    from experiments.cli import app

    out = tmp_path / "board"
    run = CliRunner().invoke(app, ["tournament", "--game", "board", "--variant", "luck", "--agents", "random,board-greedy",
                                   "--players-range", "2-3", "--games", "2", "--out", str(out), "--no-progress"])
    assert run.exit_code == 0, run.output
    assert "points / game" in run.output and "bullheads" not in run.output and "per round" not in run.output
    config = json.loads((out / "tournament.json").read_text())
    assert config["game"] == "board" and config["rule_options"] == {"variant": "luck"}
    summary = json.loads((out / "summary.json").read_text())
    assert (summary["game"], summary["score_unit"], summary["utility"]) == ("board", "points", 1)
    for results in summary["by_players"].values():  # summary order is the agents'; the report ranks
        assert {a["name"] for a in results} == {"random", "board-greedy"}
    report = (out / "report.md").read_text()
    assert "Game board, variant luck" in report and "Points per game: more is better" in report
    tables = re.findall(r"\| rank \|.*?(?=\n\n|\Z)", report, re.S)
    assert len(tables) == 2  # 2 and 3 players
    for table in tables:
        values = [float(v) for v in re.findall(r"^\| \d+ \| `[^`]+` \| (-?[\d.]+) ±", table, re.M)]
        assert len(values) == 2 and values == sorted(values, reverse=True)
    assert "| points / game (95% CI) |" in report and "points / round" not in report
    assert "points_per_round" in (out / "results.csv").read_text().splitlines()[0]  # the column keeps its name
    for name in ("leaderboard.png", "head_to_head.png", "points.png"):
        assert (out / name).exists()
    again = CliRunner().invoke(app, ["report", str(out)])
    assert again.exit_code == 0 and (out / "report.md").read_text() == report


def test_tournament_without_agents_plays_the_games_standard_line_up(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    import experiments.tournaments.report
    import experiments.tournaments.tournament
    from agents.registry import STANDARD_LINEUPS, check_spec
    from experiments.cli import app

    seen = []
    monkeypatch.setattr(experiments.tournaments.tournament, "run_tournament", lambda cfg, out, **kw: seen.append(cfg) or out)
    monkeypatch.setattr(experiments.tournaments.report, "leaderboards", lambda summary: "")  # nothing was played
    for game, variant in (("board", "pro"), ("cards", "classic")):
        run = CliRunner().invoke(app, ["tournament", "--game", game, "--variant", variant, "--out", str(tmp_path / game),
                                       "--no-progress"])
        assert run.exit_code == 0, run.output
        assert seen[-1].agents == list(STANDARD_LINEUPS[game]) and seen[-1].game == game
        assert all(check_spec(spec, game) for spec in seen[-1].agents)  # every one plays that game
    assert "board-safe" in STANDARD_LINEUPS["board"] and "bayes" in STANDARD_LINEUPS["cards"]


def test_tournament_refuses_card_agents_and_card_options_for_the_board(tmp_path):
    proc = sixnimmt("tournament", "--game", "board", "--agents", "bayes,random", "--out", str(tmp_path / "t"),
                    "--no-progress", check_code=2)
    assert "plays cards, not 'board'" in proc.stderr and not (tmp_path / "t").exists()
    proc = sixnimmt("tournament", "--game", "board", "--agents", "random,ppo", "--max-rounds", "1",
                    "--out", str(tmp_path / "t"), "--no-progress", check_code=2)
    assert "unknown rule option(s) for the board game: max_rounds" in proc.stderr and not (tmp_path / "t").exists()


def test_bench_board_json():
    out = sixnimmt("bench", "board", "--players", "3", "--batch", "32", "--seconds", "0.3", "--json").stdout
    result = json.loads(out.strip().splitlines()[-1])
    assert result["games_per_s"] > 0 and result["turns_per_s"] > 0 and result["P"] == 3
    assert result["ratio_to_card_turns"] > 0 and len(result["ratios"]) == 5  # reported; its size is a benchmark's
    assert result["kernel_turns_per_s"] > 0 and result["kernel_ratio_to_card_engine"] > 0
    err = sixnimmt("bench", "board", "--players", "7", check_code=2).stderr
    assert "players must be 2..6" in err


def test_study_board(tmp_path):
    out = tmp_path / "study"
    sixnimmt("study", "board", "--out", str(out), "--players", "2,4", "--random-games", "4", "--search-games", "2",
             "--search", "random", "--workers", "1", "--no-progress")
    report = (out / "report.md").read_text()
    assert "points per seat" in report and "Luck cards per game" in report
    assert (out / "board_numbers.png").stat().st_size > 10_000
    summary = json.loads((out / "results.json").read_text())
    assert {(c["variant"], c["players"]) for c in summary["cells"]} == {(v, p) for v in ("basic", "luck") for p in (2, 4)}
    assert all(c["field_kinds_per_game"]["take"][0] > 0 for c in summary["cells"])
    err = sixnimmt("study", "board", "--search", "greedy", check_code=2).stderr
    assert "greedy" in err and "board" in err


def test_study_board_skill(tmp_path):
    out = tmp_path / "skill"
    sixnimmt("study", "board-skill", "--out", str(out), "--players", "2", "--variants", "luck,pro", "--games", "2",
             "--search", "mcs:rollouts=2", "--workers", "1", "--no-progress")
    report = (out / "report.md").read_text()
    assert "## The gap" in report and "2x paid off" in report and "APPROXIMATIONS" in report
    assert (out / "board_skill.png").stat().st_size > 10_000
    summary = json.loads((out / "results.json").read_text())
    assert {(c["variant"], c["opponents"]) for c in summary["cells"]} == {
        (v, o) for v in ("luck", "pro") for o in ("random", "board-safe")}
    pro = [c for c in summary["cells"] if c["variant"] == "pro"]
    assert all(sum(m for m, _ in c["cards_per_game"].values()) > 0 for c in pro)  # action cards are played
    err = sixnimmt("study", "board-skill", "--variants", "expert", check_code=2).stderr
    assert "expert" in err and "Traceback" not in err


def test_study_board_skill_with_learned_opponents(tmp_path):
    """Strong players on both sides: the shipped network of the variant as the opponents."""
    out = tmp_path / "skill"
    sixnimmt("study", "board-skill", "--out", str(out), "--players", "2", "--variants", "luck", "--games", "2",
             "--search", "mcs:rollouts=2", "--opponents", "ppo", "--workers", "1", "--no-progress")
    summary = json.loads((out / "results.json").read_text())
    assert [(c["opponents"], c["players"]) for c in summary["cells"]] == [("ppo", 2)]
    assert set(summary["cells"][0]["ms_per_decision"]) == {"mcs:rollouts=2", "ppo"}  # the network played
    assert "P − 1 `ppo`" in (out / "report.md").read_text()
    for opponents in ("mcs:rollouts=2", "ppo,ppo", ""):
        err = sixnimmt("study", "board-skill", "--search", "mcs:rollouts=2", "--opponents", opponents, check_code=2).stderr
        assert "--opponents" in err and "Traceback" not in err


@pytest.mark.parametrize("variant", ["pro", "pro-luck"])
def test_the_pro_variants_through_the_commands(tmp_path, variant):
    path = tmp_path / "pro.json"
    out = sixnimmt("demo", "--game", "board", "--variant", variant, "--players", "3", "--record", str(path)).stdout
    assert "board pro-default" in out and "action cards:" in out and "final scores (points):" in out
    assert sixnimmt("replay", str(path)).returncode == 0
    out = sixnimmt("match", "--game", "board", "--variant", variant, "--agents", "mcs:rollouts=2,board-green,random",
                   "--games", "1", "--no-progress").stdout
    assert "mcs" in out and "board-green" in out
    proc = sixnimmt("play", "--game", "board", "--variant", variant, "--players", "2", "--seed", "1",
                    check_code=0, stdin="quit\n")
    # the table view's: the deck in the info, your own cards by kind beside your points
    assert "Action cards: deck" in proc.stdout and "Points: you 0 (" in proc.stdout


def test_serve_answers_and_stops():
    import urllib.request

    from experiments.serve.bench import served

    with served() as url:  # the real `sixnimmt serve` process on a free port
        with urllib.request.urlopen(url + "/api/health", timeout=10) as r:
            assert json.loads(r.read()) == {"games": 0}
        with urllib.request.urlopen(url + "/", timeout=10) as r:
            assert b"sixnimmt lab" in r.read()


@pytest.mark.parametrize("args, message", [(["--port", "70000"], "--port must be 0..65535"),
                                           (["--idle-minutes", "0"], "--idle-minutes must be > 0"),
                                           (["--log-level", "loud"], "--log-level must be one of")])
def test_serve_bad_options_are_one_line_errors(args, message):
    proc = sixnimmt("serve", *args, check_code=2)
    assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_bench_serve_json():
    out = json.loads(sixnimmt("bench", "serve", "--moves", "3", "--games", "2", "--opponents",
                              "random,random,random", "--json").stdout)
    assert out["round_trip_ms"]["n"] == 3 and out["concurrent"]["errors"] == 0
    assert out["concurrent"]["finished"] == 2


def test_a_cold_board_match_says_it_is_compiling_the_kernels(tmp_path):
    """With an empty numba cache the first board game compiles its kernels: a line on
    stderr says so before the compile starts (read, then the process is stopped)."""
    import os
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    proc = subprocess.Popen([sys.executable, "-m", "experiments.cli", "match", "--game", "board", "--agents",
                             "random,random", "--games", "1", "--no-progress"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    try:
        lines = []
        for line in proc.stderr:
            lines.append(line)
            if "compiling the board kernels" in line:
                break
    finally:
        proc.kill()
        proc.wait(timeout=60)
        proc.stderr.close()
    assert "compiling the board kernels (once per machine" in lines[-1], "".join(lines)
