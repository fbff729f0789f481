"""`sixnimmt gate`: a run's snapshots chosen on one seed's deals, the chosen one reported on
another's in both head-to-head tables and the field's (training/gate.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.support.fuzz_support import assert_one_line_error, run_cli
from training.config import TrainConfig

MODELS = Path(__file__).resolve().parents[2] / "agents" / "models"


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    """A training run's directory with two snapshots: the shipped ppo-4p and the weaker
    ppo-all (the network trained on every table size), as if a run had saved them."""
    run = tmp_path / "runs" / "toy"
    (run / "snapshots").mkdir(parents=True)
    cfg = TrainConfig(name="toy", players=4, row_choice="player", observation="card-features", policy="card-scorer")
    (run / "config.json").write_text(json.dumps(cfg.to_dict()))
    for steps, model in ((100, "ppo-4p"), (200, "ppo-all")):
        for ext in (".zip", ".json"):
            shutil.copy(MODELS / f"{model}{ext}", run / "snapshots" / f"ppo-{steps}{ext}")
    return run


def test_gate_chooses_on_one_seed_and_reports_both_tables_on_another(run_dir: Path):
    code, out, err = run_cli("gate", run_dir, "--reference", "random", "--field", "lowest",
                             "--choose-deals", "3", "--choose-field-deals", "3", "--report-deals", "4",
                             "--report-field-deals", "4")
    assert code == 0, err
    record = json.loads((run_dir / "gate.json").read_text())
    rows = record["choosing"]["rows"]
    assert [r["steps"] for r in rows] == [100, 200]
    assert all(r["head"]["seed"] == 777 and r["head"]["deals"] == 3 for r in rows)
    chosen = record["choosing"]["chosen"]
    qualified = [r for r in rows if r["qualifies"]]
    assert chosen == max(qualified, key=lambda r: r["head"]["win_share"])
    report = record["report"]
    assert report["new_vs_reference"]["agent"] == chosen["spec"]
    assert report["reference_vs_new"]["agent"] == "random" and report["reference_vs_new"]["against"] == chosen["spec"]
    assert {r["seed"] for k, r in report.items() if isinstance(r, dict) and "seed" in r} == {2026}
    # networks against random: the new one leads, random trails with the intervals apart
    assert report["new_vs_reference"]["lead"] > 0 and report["reference_vs_new"]["lead"] < 0
    assert report["verdict"] in ("promote", "keep")
    assert (run_dir / "gate.png").read_bytes()[:4] == b"\x89PNG"
    md = (run_dir / "gate.md").read_text()
    for text in ("1 new vs reference", "1 reference vs new", "new vs field", "reference vs field", "(chosen)"):
        assert text in md and text in out


@pytest.mark.parametrize("extra, fragment", [
    (("--report-seed", "777"), "--choose-seed and --report-seed must differ"),
    (("--choose-deals", "0"), "--choose-deals must be in 1.."),
    (("--field", "nope"), "unknown agent 'nope'"),
])
def test_gate_bad_options_are_one_line(run_dir: Path, extra, fragment):
    code, _, err = run_cli("gate", run_dir, *extra)
    assert_one_line_error(code, err, fragment)


def test_gate_needs_a_run_with_snapshots(tmp_path: Path, run_dir: Path):
    code, _, err = run_cli("gate", tmp_path)
    assert_one_line_error(code, err, "holds no config.json")
    shutil.rmtree(run_dir / "snapshots")
    code, _, err = run_cli("gate", run_dir)
    assert_one_line_error(code, err, "holds no snapshot")


def test_a_second_gate_keeps_the_first(run_dir: Path):
    small = ("--reference", "random", "--field", "lowest", "--choose-deals", "2", "--choose-field-deals", "2",
             "--report-deals", "2", "--report-field-deals", "2")
    code, _, err = run_cli("gate", run_dir, *small)
    assert code == 0, err
    first = {ext: (run_dir / f"gate{ext}").read_bytes() for ext in (".json", ".md", ".png")}
    code, out, err = run_cli("gate", run_dir, *small, "--last", "1")
    assert code == 0, err
    assert "gate-1.json" in out
    # the first gate moved aside whole, the latest in gate.json: 2 snapshots chosen from, then 1
    assert {ext: (run_dir / f"gate-1{ext}").read_bytes() for ext in first} == first
    assert len(json.loads((run_dir / "gate-1.json").read_text())["choosing"]["rows"]) == 2
    assert len(json.loads((run_dir / "gate.json").read_text())["choosing"]["rows"]) == 1
    code, _, err = run_cli("gate", run_dir, *small, "--last", "1")
    assert code == 0, err
    assert sorted(p.name for p in run_dir.glob("gate*.json")) == ["gate-1.json", "gate-2.json", "gate.json"]
    assert json.loads((run_dir / "gate-1.json").read_bytes()) == json.loads(first[".json"])


@pytest.mark.parametrize("game, unit", [("board", "points a game"), ("cards", "points a round"), (None, "points a round")])
def test_the_plot_counts_the_field_lead_per_game_in_the_board_game(game: str | None, unit: str, tmp_path: Path,
                                                                  monkeypatch):
    """The board game has no rounds: its gate's plot says points a game (issue 63); a record
    written before the gate said its game (None) is a card run's."""
    import training.runs as runs
    from training.gate import plot

    row = {"steps": 100, "head": {"win_share": 0.3, "win_ci": 0.02}, "field": {"lead": 1.0, "ci": 0.3}}
    choosing = {"players": 4, "rows": [row], "chosen": row, "reference_field": {"lead": 0.5}}
    if game:
        choosing["game"] = game
    figures = []
    monkeypatch.setattr(runs, "save_plot", lambda fig, out: figures.append(fig) or out)
    plot({"run": "runs/x", "plan": {"choose_seed": 777}, "choosing": choosing}, tmp_path / "gate.png")
    try:
        assert figures[0].axes[1].get_ylabel() == f"lead over the field ({unit})"
    finally:
        runs.pyplot().close(figures[0])
