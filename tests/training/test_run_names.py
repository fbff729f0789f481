"""Run files across renames and sessions: an old run's eval.csv (`penalty_per_round`) and
model meta (`eval_penalty_per_round`) read as points; a resumed run may change its budget
(minutes, total_timesteps, torch_threads) and nothing else."""

from __future__ import annotations

import json

import pytest

from sixnimmt_env import ConfigError


def test_old_eval_csv_and_meta_read_as_points(tmp_path):
    from training.runs import eval_figure, read_evals

    old = tmp_path / "eval.csv"
    old.write_text("timesteps,wall_s,penalty_per_round,ci95,win_share,steps_per_s,env_share\n"
                   "500,10.0,7.5,0.4,0.3,900,0.5\n1000,20.0,7.2,0.4,0.31,900,0.5\n1500,30")
    rows = read_evals(old)
    assert [r["points_per_round"] for r in rows] == [7.5, 7.2]  # the torn last row is skipped
    assert "penalty_per_round" not in rows[0]
    assert eval_figure({"eval_penalty_per_round": 7.56}) == 7.56
    assert eval_figure({"eval_points_per_round": 7.1, "eval_penalty_per_round": 9.0}) == 7.1
    assert eval_figure({"eval_points_per_round": None}) is None


def test_a_board_runs_eval_csv_says_points_per_game(tmp_path):
    """The board game has no rounds: its eval.csv names the figure points_per_game (issue 63),
    and read_evals gives every game's rows the same keys."""
    from training.bookkeeping import EVAL_COLUMNS, eval_columns
    from training.runs import eval_figure, read_evals

    assert eval_columns("cards") == EVAL_COLUMNS and "points_per_game" not in EVAL_COLUMNS
    header = eval_columns("board")
    assert "points_per_game" in header and not any("round" in c for c in header)
    board = tmp_path / "eval.csv"
    board.write_text(",".join(header) + "\n500,10.0,-17.5,1.4,0.3,900,0.5\n")
    assert read_evals(board)[0]["points_per_round"] == -17.5
    assert eval_figure({"eval_points_per_game": -16.0}) == -16.0



def test_every_games_eval_csv_header_reads_back_under_eval_columns(tmp_path):
    """Whatever a game's eval.csv header names its figure, read_evals gives its rows
    EVAL_COLUMNS' keys: the writer (eval_columns) and the reader (GAME_EVAL_NAMES) derive from
    one name (training.runs.EVAL_FIGURE_COLUMNS), so renaming it cannot part them."""
    from training.bookkeeping import EVAL_COLUMNS, eval_columns
    from training.game_rules import RUN_GAMES
    from training.runs import EVAL_FIGURE_COLUMNS, read_evals

    assert set(EVAL_FIGURE_COLUMNS) <= set(RUN_GAMES)
    for game in RUN_GAMES:
        csv_path = tmp_path / f"{game}.csv"
        csv_path.write_text(",".join(eval_columns(game)) + "\n" + ",".join(["1"] * len(EVAL_COLUMNS)) + "\n")
        assert list(read_evals(csv_path)[0]) == EVAL_COLUMNS, game

def test_resume_may_raise_the_budget_only(tmp_path):
    from training.config import TrainConfig
    from training.runs import resumed_config

    cfg = TrainConfig.load(None, ["minutes=5"])
    (tmp_path / "config.json").write_text(json.dumps(cfg.to_dict()))
    more = resumed_config(tmp_path, cfg, ["minutes=300", "total_timesteps=9_000_000"], "training")
    assert more.minutes == 300 and more.total_timesteps == 9_000_000 and more.players == cfg.players
    assert json.loads((tmp_path / "config.json").read_text())["minutes"] == 300  # later resumes keep it
    assert resumed_config(tmp_path, cfg, [], "training") is cfg
    with pytest.raises(ConfigError, match="cannot change players"):
        resumed_config(tmp_path, cfg, ["players=3"], "training")
