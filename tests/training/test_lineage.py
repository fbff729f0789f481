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


def gate_record(rows: list[tuple[int, float]], chosen: int, reported: float, field_lead: float) -> dict:
    """A gate's record as training/gate.py writes it: the choosing rows (steps, win share),
    the chosen snapshot, and its report (win share vs the reference, field leads)."""
    def table(win_share: float = 0.3, lead: float = 2.0) -> dict:
        return {"win_share": win_share, "win_ci": 0.01, "lead": lead, "ci": 0.2}
    choosing = [{"steps": s, "spec": f"ppo:path=ppo-{s}.zip", "head": table(w)} for s, w in rows]
    picked = next(r for r in choosing if r["steps"] == chosen)
    return {"run": "x", "plan": {}, "choosing": {"players": 4, "rows": choosing, "chosen": picked},
            "report": {"new_vs_reference": table(reported), "reference_vs_new": table(0.2, -3.0),
                       "new_field": table(lead=field_lead), "reference_field": table(lead=2.6),
                       "checks": {}, "verdict": "keep"}}


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
    assert [len(s.evals) for s in stages] == [2, 2, 1] and [len(s.gates) for s in stages] == [0, 1, 0]
    table = markdown(stages)
    assert "| b | 11.00M | 8.70 ± 0.40 | 0.330 |" in table
    assert "| c | 15.00M | 8.50 ± 0.40 | 0.330 |" in table
    assert "a -> b -> c" in table


def test_a_board_lineage_counts_its_points_a_game(three_stages: Path, tmp_path: Path, monkeypatch):
    """The board game has no rounds: a board lineage's table and curve say points a game
    (issue 63), read from the runs' config.json; a config without `game` is a card run's."""
    import training.lineage as lineage_module

    assert "| points a round (95% CI) |" in markdown(lineage(three_stages, base=tmp_path))
    for name in ("a", "b", "c"):
        config = tmp_path / "runs" / name / "config.json"
        config.write_text(json.dumps({**json.loads(config.read_text()), "game": "board"}))
    stages = lineage(three_stages, base=tmp_path)
    assert [s.game for s in stages] == ["board"] * 3
    assert "| points a game (95% CI) |" in markdown(stages)
    figures = []
    monkeypatch.setattr(lineage_module, "save_plot", lambda fig, out: figures.append(fig) or out)
    lineage_module.plot(stages, tmp_path / "curve.png")
    try:
        assert figures[0].axes[0].get_ylabel().startswith("points a game in its evaluation")
    finally:
        lineage_module.pyplot().close(figures[0])


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


@pytest.fixture
def gated_twice(three_stages: Path, tmp_path: Path) -> Path:
    """Stage b gated twice: its first gate kept as gate-1.json (training.gate.keep_earlier),
    chose b's snapshot at 2M; the latest, gate.json, its snapshot at 6M."""
    b = tmp_path / "runs" / "b"
    (b / "gate-1.json").write_text(json.dumps(gate_record([(1_000_000, 0.27), (2_000_000, 0.29)], 2_000_000, 0.31, 2.2)))
    (b / "gate.json").write_text(json.dumps(gate_record([(5_000_000, 0.30), (6_000_000, 0.33)], 6_000_000, 0.32, 1.9)))
    return three_stages


def test_every_gate_of_a_stage_is_tabled_and_plotted_oldest_first(gated_twice: Path, tmp_path: Path, monkeypatch):
    """A stage gated twice shows both gates (only gate.json, the latest, was read before)."""
    import training.lineage as lineage_module

    stages = lineage(gated_twice, base=tmp_path)
    gates = stages[1].gates
    assert [(g.number, g.path.name, g.chosen) for g in gates] == [(1, "gate-1.json", 2_000_000), (2, "gate.json", 6_000_000)]
    table = markdown(stages)
    # b starts at 8M of the lineage: its snapshots at 2M and 6M stand at 10M and 14M
    assert "| b | 1 (gate-1.json) | 2 | ppo-2000000 | 10.00M | 0.310 ± 0.010 | +2.20 ± 0.20 (+2.60) | keep |" in table
    assert "| b | 2 (gate.json) | 2 | ppo-6000000 | 14.00M | 0.320 ± 0.010 | +1.90 ± 0.20 (+2.60) | keep |" in table
    figures = []
    monkeypatch.setattr(lineage_module, "save_plot", lambda fig, out: figures.append(fig) or out)
    lineage_module.plot(stages, tmp_path / "curve.png")
    low = figures[0].axes[1]
    try:
        assert [t.get_text() for t in low.texts] == ["gate 1", "gate 2"]  # each gate's chosen point, numbered
        assert [t.xy for t in low.texts] == [(10.0, 0.31), (14.0, 0.32)]
        assert {"b gate 1", "b gate 2"} <= {t.get_text() for t in low.get_legend().get_texts()}
    finally:
        lineage_module.pyplot().close(figures[0])


@pytest.mark.parametrize("damage", [{"choosing": []}, {"choosing": {"rows": {}}},
                                    {"choosing": {"rows": [], "chosen": {"steps": "many"}}},
                                    {"choosing": {"rows": [], "chosen": {"steps": 5}}, "report": {"new_field": {}}}])
def test_cli_names_a_damaged_earlier_gate_in_one_line(gated_twice: Path, tmp_path: Path, monkeypatch, damage):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs" / "b" / "gate-1.json").write_text(json.dumps(damage))
    code, out, err = run_cli("lineage", "runs/c", "--out", tmp_path / "curve.png")
    assert_one_line_error(code, err, "gate-1.json", "not a gate record")
