"""`sixnimmt lineage`: a long run's stages followed back through their init_model links and
laid end to end on one axis of learner samples (training/lineage.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sixnimmt_env.core.errors import ConfigError
from tests.support.fuzz_support import assert_one_line_error, run_cli
from training.lineage import lineage, markdown, total_samples

HEADER = "timesteps,wall_s,points_per_round,ci95,win_share,steps_per_s,env_share\n"


def make_run(folder: Path, init_model: str, latest: int, evals: list[tuple[int, float]], gate: list | None = None) -> Path:
    """A run folder as training leaves it: config.json, eval.csv, its last checkpoint's name
    in `latest`, and (optionally) a gate.json of choosing rows (steps, win share)."""
    folder.mkdir(parents=True)
    (folder / "config.json").write_text(json.dumps({"name": folder.name, "init_model": init_model}))
    (folder / "eval.csv").write_text(HEADER + "".join(f"{t},1.0,{p},0.4,0.33,1000,0.5\n" for t, p in evals))
    (folder / f"ckpt-{latest}").mkdir()
    (folder / f"ckpt-{latest}" / "state.json").write_text(json.dumps({"timesteps": latest}))
    (folder / "latest").write_text(f"ckpt-{latest}")
    if gate is not None:
        rows = [{"steps": s, "spec": "x", "head": {"win_share": w, "win_ci": 0.02}} for s, w in gate]
        (folder / "gate.json").write_text(json.dumps({"choosing": {"rows": rows}}))
    return folder


@pytest.fixture
def three_stages(tmp_path: Path) -> Path:
    """Stage a (from a shipped model, 10M samples), b from a's checkpoint at 8M, c from b's
    snapshot at 3M (a relative path, read from tmp_path as training read it)."""
    make_run(tmp_path / "runs" / "a", "agents/models/ppo-4p.zip", 10_000_000, [(5_000_000, 9.0), (10_000_000, 8.8)])
    make_run(tmp_path / "runs" / "b", str(tmp_path / "runs" / "a" / "ckpt-8000000" / "model.zip"), 6_000_000,
             [(3_000_000, 8.7), (6_000_000, 8.6)], gate=[(3_000_000, 0.29)])
    return make_run(tmp_path / "runs" / "c", "runs/b/snapshots/ppo-3000000.zip", 4_000_000, [(4_000_000, 8.5)])


def test_stages_start_where_the_checkpoint_they_began_from_stood(three_stages: Path, tmp_path: Path):
    stages = lineage(three_stages, base=tmp_path)
    assert [s.run.name for s in stages] == ["a", "b", "c"]
    # b began at a's checkpoint at 8M (not a's last, 10M), c at b's snapshot at 3M
    assert [s.start for s in stages] == [0, 8_000_000, 11_000_000]
    assert total_samples(stages) == 15_000_000
    assert [len(s.evals) for s in stages] == [2, 2, 1] and [len(s.gated) for s in stages] == [0, 1, 0]
    table = markdown(stages)
    assert "| b | 11.00M | 8.70 ± 0.40 | 0.330 |" in table
    assert "| c | 15.00M | 8.50 ± 0.40 | 0.330 |" in table
    assert "a -> b -> c" in table


def test_a_loop_of_init_model_links_is_refused(tmp_path: Path):
    make_run(tmp_path / "x", str(tmp_path / "y" / "ckpt-5" / "model.zip"), 5, [(5, 9.0)])
    make_run(tmp_path / "y", str(tmp_path / "x" / "ckpt-5" / "model.zip"), 5, [(5, 9.0)])
    with pytest.raises(ConfigError, match="loop"):
        lineage(tmp_path / "x")


def test_cli_prints_the_table_and_writes_the_plot(three_stages: Path, tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli("lineage", "runs/c", "--out", tmp_path / "curve.png")
    assert code == 0, err
    assert "a -> b -> c, 15.00M samples" in out and (tmp_path / "curve.png").stat().st_size > 1000


def test_cli_refuses_a_folder_that_is_not_a_run(tmp_path: Path):
    code, out, err = run_cli("lineage", tmp_path)
    assert_one_line_error(code, err, "not a training run")


def test_cli_refuses_an_eval_csv_past_the_run_file_bound(three_stages: Path, tmp_path: Path, monkeypatch):
    """eval.csv is read as config.json and state.json are (training.runs.read_run_file): a file
    past MAX_RUN_FILE_BYTES is refused unread (it was read whole), a field past the csv
    module's limit (csv.Error, a traceback before) is refused by name."""
    from training.runs import MAX_RUN_FILE_BYTES

    monkeypatch.chdir(tmp_path)
    eval_csv = tmp_path / "runs" / "b" / "eval.csv"
    with eval_csv.open("r+b") as f:
        f.truncate(MAX_RUN_FILE_BYTES + 1)  # sparse: nothing written
    code, out, err = run_cli("lineage", "runs/c")
    assert_one_line_error(code, err, "eval.csv", "larger than the limit")
    eval_csv.write_text(HEADER + "1," + "9" * 200_000 + ",8.7,0.4,0.33,1000,0.5\n")
    code, out, err = run_cli("lineage", "runs/c")
    assert_one_line_error(code, err, "eval.csv", "not an eval.csv")
