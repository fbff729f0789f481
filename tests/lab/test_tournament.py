"""Tournaments: duplicate deals, resume, workers, the report."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pytest

from agents.arena import build_agents, play_duplicate
from agents.results import AgentResult
from experiments.tournaments.report import build_report
from experiments.tournaments.tournament import TournamentConfig, lineups, run_tournament
from sixnimmt_env import RuleConfig, game_seeds
from sixnimmt_env.core.errors import ConfigError


def strip(rows):
    """Rows without timings, in a canonical order."""
    return sorted((json.dumps({k: v for k, v in r.items() if k != "ms"}, sort_keys=True) for r in rows))


def rows_of(out):
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


CFG = dict(agents=["lowest", "greedy", "random", "min-gap", "highest"], players=[3], games=4,
           seed=5, max_rounds=2, chunk_deals=2)


def test_duplicate_deals_same_agent_everywhere_gives_equal_rotations():
    names, agents = build_agents(["lowest"] * 4)
    rules = RuleConfig(players=4, max_rounds=2)
    rows, *_ = play_duplicate(names, agents, rules, game_seeds(1, 3), np.random.default_rng(0))
    for deal in range(3):
        totals = [r["totals"] for r in rows if r["deal"] == deal]
        assert len(totals) == 4 and all(t == totals[0] for t in totals)


def test_lineups_round_robin():
    assert len(lineups(["a", "b", "c", "d", "e"], 3)) == 10
    assert lineups(["a", "b"], 4) == [("a", "b", "a", "b")]


def test_a_network_that_cannot_take_a_table_is_refused_before_any_game(tmp_path):
    """A network trained for 4 players in a tournament at 4 and 3: refused before the first
    line-up, so no directory is left that a retry would need --resume or another --out for
    (it was refused at its first 3-player line-up, after other line-ups had been played)."""
    model = Path(__file__).resolve().parents[2] / "agents" / "models" / "ppo-4p.zip"
    cfg = TournamentConfig(agents=["lowest", "greedy", "random", f"ppo:path={model}"], players=[4, 3], games=1,
                           max_rounds=1)
    with pytest.raises(ConfigError, match="trained for 4 players, the table has 3"):
        run_tournament(cfg, tmp_path / "t", progress=False)
    assert not (tmp_path / "t").exists()


def test_resume_after_interruption_gives_the_same_results(tmp_path):
    full = run_tournament(TournamentConfig(**CFG), tmp_path / "full", progress=False)
    cut = run_tournament(TournamentConfig(**CFG), tmp_path / "cut", progress=False)
    lines = (cut / "results.jsonl").read_text().splitlines()
    # an interruption: some units done, one cut short, a torn last line
    (cut / "results.jsonl").write_text("\n".join(lines[:40]) + "\n" + lines[40][:17])
    run_tournament(None, cut, resume=True, progress=False)
    assert strip(rows_of(cut)) == strip(rows_of(full))
    assert len(rows_of(cut)) == 10 * 4 * 3
    a, b = build_report(full, plots=False), build_report(cut, plots=False)
    for p in a["by_players"]:
        for x, y in zip(a["by_players"][p], b["by_players"][p]):
            assert x["name"] == y["name"] and x["points_per_round"] == y["points_per_round"]
    assert a["ratings"] == b["ratings"]


def test_two_workers_play_the_same_games(tmp_path):
    cfg = dict(CFG, agents=["lowest", "greedy", "random"], games=2)
    serial = run_tournament(TournamentConfig(**cfg), tmp_path / "serial", progress=False)
    parallel = run_tournament(TournamentConfig(**cfg), tmp_path / "parallel", workers=2, progress=False)
    assert strip(rows_of(serial)) == strip(rows_of(parallel))


def test_report_from_a_tiny_tournament(tmp_path):
    out = tmp_path / "t"
    proc = subprocess.run([sys.executable, "-m", "experiments.cli", "tournament", "--agents", "lowest,random",
                           "--players-range", "2-3", "--games", "2", "--max-rounds", "1", "--out", str(out),
                           "--records", "--no-progress"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "2 players" in proc.stdout and "3 players" in proc.stdout
    for name in ("report.md", "summary.json", "results.csv", "leaderboard.png", "head_to_head.png", "points.png"):
        assert (out / name).exists(), name
    summary = json.loads((out / "summary.json").read_text())
    assert set(summary["by_players"]) == {"2", "3"} and set(summary["ratings"]) == {"lowest", "random"}
    records = list((out / "records").glob("*.json"))
    assert len(records) == summary["games"]
    again = subprocess.run([sys.executable, "-m", "experiments.cli", "report", str(out)],
                           capture_output=True, text=True, timeout=300)
    assert again.returncode == 0 and "report.md" in again.stdout
    exists = subprocess.run([sys.executable, "-m", "experiments.cli", "tournament", "--agents", "lowest,random",
                             "--out", str(out), "--no-progress"], capture_output=True, text=True, timeout=300)
    assert exists.returncode == 2 and "already holds a tournament" in exists.stderr



def test_one_deal_prints_no_interval(tmp_path):
    """One deal is one sample, so no 95% interval: the tournament's table and report.md,
    match's table and the baselines' table print "± n/a" there, never "± nan"."""
    from experiments.tournaments.baselines import markdown

    cli = [sys.executable, "-m", "experiments.cli"]
    one = ["--agents", "lowest,random", "--games", "1", "--max-rounds", "1", "--no-progress"]
    tour = subprocess.run(cli + ["tournament", *one, "--players", "2", "--out", str(tmp_path / "t")],
                          capture_output=True, text=True, timeout=300)
    match = subprocess.run(cli + ["match", *one], capture_output=True, text=True, timeout=300)
    for done in (tour, match):
        assert done.returncode == 0, done.stderr
        assert "± n/a" in done.stdout and "nan" not in done.stdout.lower(), done.stdout
    report = (tmp_path / "t" / "report.md").read_text()
    assert "± n/a" in report and "± nan" not in report
    row = {"agent": "lowest", "points_per_round": 11.5, "points_ci": float("nan"), "win_share": 0.0,
           "ms_per_decision": 0.2}
    assert "11.50 ± n/a" in markdown([row]) and "nan" not in markdown([row])

# A tournament.json as written before there were other games: the card options as keys.
OLD_CONFIG = {"agents": ["lowest", "greedy", "random"], "players": [3], "games": 2, "seed": 5,
              "row_choice": "player", "game": "cards", "end_score": 66, "max_rounds": 2,
              "variant": "classic", "records": False, "chunk_deals": 2, "extra": {}}


def test_an_old_tournament_directory_resumes_as_it_was(tmp_path):
    old = tmp_path / "old"
    old.mkdir()
    (old / "tournament.json").write_text(json.dumps(OLD_CONFIG, indent=1) + "\n")
    run_tournament(None, old, resume=True, progress=False)
    new = run_tournament(TournamentConfig(agents=["lowest", "greedy", "random"], players=[3], games=2, seed=5,
                                          rule_options={"max_rounds": 2}, chunk_deals=2), tmp_path / "new",
                         progress=False)
    assert strip(rows_of(old)) == strip(rows_of(new)) and len(rows_of(old)) == 1 * 2 * 3
    assert json.loads((old / "tournament.json").read_text()) == OLD_CONFIG  # left as it was
    report = (old / "report.md").read_text() if (old / "report.md").exists() else None
    summary = build_report(old, plots=False)
    assert summary["rules"] == {"row_choice": "player", "end_score": 66, "max_rounds": 2, "deck": "full"}
    assert (summary["game"], summary["score_unit"], summary["utility"]) == ("cards", "bullheads", -1)
    assert report is None and "row choice player, end score 66, max rounds 2" in (old / "report.md").read_text()


# A tournament directory as written before the points were called points (summary.json
# with penalty_per_round, penalty_ci and penalty_per_game), one of its two units played.
OLD_DIR = Path(__file__).parents[1] / "data" / "tournament-old"


def old_directory(tmp_path):
    out = tmp_path / "old"
    shutil.copytree(OLD_DIR, out)
    (out / "penalties.png").write_bytes(b"")  # stands for the plot under its old name
    return out


def in_points(summary):
    entries = [a for results in summary["by_players"].values() for a in results]
    return entries and all("points_per_round" in a and "points_ci" in a and "points_per_game" in a
                           and not any(k.startswith("penalty") for k in a) for a in entries)


def test_an_old_directory_reports_in_points(tmp_path):
    out = old_directory(tmp_path)
    old = json.loads((out / "summary.json").read_text())
    assert "penalty_per_round" in old["by_players"]["2"][0]  # the fixture is of the old format
    summary = build_report(out)
    assert in_points(summary) and in_points(json.loads((out / "summary.json").read_text()))
    # the old summary read under its old field names: the same figures as the new one
    assert [AgentResult.from_dict(a) for a in old["by_players"]["2"]] == \
        [AgentResult.from_dict(a) for a in summary["by_players"]["2"]]
    assert (out / "points.png").exists() and not (out / "penalties.png").exists()
    assert "points.png" in (out / "report.md").read_text()


def test_an_old_directory_resumes_and_reports(tmp_path):
    out = old_directory(tmp_path)
    run_tournament(None, out, resume=True, progress=False, then=build_report)
    config = json.loads((OLD_DIR / "tournament.json").read_text())
    fresh = run_tournament(TournamentConfig(**config), tmp_path / "fresh", progress=False)
    assert strip(rows_of(out)) == strip(rows_of(fresh)) and len(rows_of(out)) == 4 * 2
    assert rows_of(out)[:4] == rows_of(OLD_DIR)  # the unit played before is kept as it was
    assert in_points(json.loads((out / "summary.json").read_text()))
    assert (out / "points.png").exists() and not (out / "penalties.png").exists()


def test_agent_results_read_old_field_names():
    new = AgentResult("a", 1, 3.5, 0.5, 0.25, 0.1, 0.2, 7)
    old = {k.replace("points", "penalty"): v for k, v in new.as_dict().items()} | {"penalty_per_game": 3.5}
    assert AgentResult.from_dict(old) == AgentResult.from_dict(new.as_dict()) == new
    with pytest.raises(ConfigError, match="without points_ci"):
        AgentResult.from_dict({k: v for k, v in old.items() if k != "penalty_ci"})


def test_legacy_keywords_fold_into_the_rule_options():
    cfg = TournamentConfig(agents=["a", "b"], players=[3], games=1, max_rounds=2, end_score=None, variant="classic")
    assert cfg.rule_options == {"max_rounds": 2, "end_score": None, "variant": "classic"}
    assert cfg.rules(3).rules.end_score is None  # None given is a value: no end score
    assert TournamentConfig(**asdict(cfg)) == cfg
    with pytest.raises(ConfigError, match="max_rounds given twice"):
        TournamentConfig(agents=["a", "b"], players=[3], games=1, max_rounds=2, rule_options={"max_rounds": 3})
    with pytest.raises(ConfigError, match="unknown rule option.*board game: row_choice"):
        TournamentConfig(agents=["random", "ppo"], players=[3], games=1, game="board", row_choice="player").validate()


def test_rankings_follow_the_games_utility():
    from agents.results import AgentResult, MatchResult, format_table, ranked
    from experiments.tournaments.report import head_to_head, leaderboard_markdown, ratings

    a = AgentResult("a", 1, 10.0, 1.0, 0.2, 0.1, 0.0, 1)
    b = AgentResult("b", 1, -5.0, 1.0, 0.8, 0.1, 0.0, 1)
    assert [x.name for x in ranked([a, b], -1)] == ["b", "a"]  # fewest penalty points first
    assert [x.name for x in ranked([a, b], +1)] == ["a", "b"]  # most points first
    board = MatchResult([b, a], 1, 2, 2, {"players": 2}, 0, 0.1, game="board", variant="basic",
                        score_unit="points", utility=1)
    table = format_table(board)
    assert "points/game" in table and table.index("\na ") < table.index("\nb ")
    cards = MatchResult([a, b], 1, 2, 2, {"players": 2}, 0, 0.1)
    assert "bullheads/game" in format_table(cards) and format_table(cards).index("\nb ") < format_table(cards).index("\na ")
    longer = MatchResult([a, b], 1, 2, 5, {"players": 2}, 0, 0.1)  # games of several rounds
    assert "bullheads/round" in format_table(longer) and "5 rounds" in format_table(longer)
    md = leaderboard_markdown([b, a], {}, 2, "points", 1)
    assert "points / round" in md and md.index("`a`") < md.index("`b`") and "| 1 | `a` |" in md
    rows = [{"seats": ["a", "b"], "totals": [10, -5]}] * 3
    names, share, _ = head_to_head(rows, +1)
    assert share[names.index("a"), names.index("b")] == 1.0
    names, share, _ = head_to_head(rows, -1)
    assert share[names.index("a"), names.index("b")] == 0.0
    up, down = ratings(rows, +1), ratings(rows, -1)
    assert up["a"]["mu"] > up["b"]["mu"] and down["a"]["mu"] < down["b"]["mu"]


def test_head_to_head_is_in_rank_order_and_the_rating_column_is_explained():
    from experiments.tournaments.report import RATING_NOTE, head_to_head, leaderboards

    rows = [{"seats": ["a", "b", "cmd:python bots/zed.py"], "totals": [9, 5, 1], "rounds": 1}] * 3
    names, _, _ = head_to_head(rows, -1)  # fewest points best: not alphabetical
    assert names == ["cmd:python bots/zed.py", "b", "a"]
    assert head_to_head(rows, +1)[0] == ["a", "b", "cmd:python bots/zed.py"]
    summary = {"by_players": {"3": [{"name": n, "seats": 1, "points_per_round": p, "points_ci": 0.1, "win_share": 0.3,
                                     "win_ci": 0.1, "ms_per_decision": 1.0, "decisions": 9}
                                    for n, p in (("a", 9.0), ("cmd:python bots/zed.py", 1.0))]},
               "ratings": {}, "games": 3, "score_unit": "bullheads", "utility": -1}
    text = leaderboards(summary)
    assert RATING_NOTE in text and "| `cmd:zed.py` |" in text and "`cmd:zed.py` is `cmd:python bots/zed.py`" in text


def test_long_names_get_one_letter_in_every_plot_and_a_legend():
    """A spec longer than the plots' room is a letter in the plots, the same letter in each
    plot whatever order the plot draws its agents in, spelt out in that plot's legend."""
    from experiments.tournaments.report import SHORT_NAME, plot_names

    long_a, long_b = "ppo:path=" + "a" * SHORT_NAME, "mcs:rollouts=4:horizon=1"
    everyone = [long_a, "random", long_b]  # best first, as the head-to-head map
    assert plot_names(everyone, everyone) == (["A", "random", "B"], f"A = {long_a}\nB = {long_b}")
    assert plot_names(everyone[::-1], everyone) == (["B", "random", "A"], f"A = {long_a}\nB = {long_b}")
    assert plot_names(["random", long_b], everyone) == (["random", "B"], f"B = {long_b}")
    assert plot_names(["random", "lowest"]) == (["random", "lowest"], "")
