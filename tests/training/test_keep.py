"""`sixnimmt keep`: a run's resume state copied where git keeps it and brought back, so a
reset machine (runs/ lost) resumes the run where it stopped (training/keep.py)."""

from __future__ import annotations

import json
import shutil

from tests.support.fuzz_support import assert_one_line_error, run_cli

TINY = ["name=kept", "players=4", "num_games=8", "n_steps=16", "batch_size=128", "n_epochs=1", "eval_deals=2",
        "checkpoint_every=400", "eval_every=1000", "snapshot_every=300", "max_snapshots=5", "torch_threads=1",
        'pool_weights={"random": 0.5, "self": 0.5}']


def _train(tmp_path, steps: int):
    from training.config import TrainConfig
    from training.train import train
    return train(TrainConfig.load(None, TINY + [f"total_timesteps={steps}"]), runs_dir=tmp_path / "runs",
                 progress=False)


def test_a_kept_run_comes_back_and_resumes_where_it_stopped(tmp_path):
    from training.runs import checkpoint_timesteps

    run = _train(tmp_path, 1500)
    steps = checkpoint_timesteps(run)
    pool = json.loads((run / (run / "latest").read_text().strip() / "pool.json").read_text())
    assert len(pool["snapshots"]) >= 3

    kept = tmp_path / "experiments" / "networks" / "kept"
    code, out, err = run_cli("keep", run, "--to", kept, "--snapshots", "2")
    assert code == 0, err
    assert "kept" in out and "MB" in out
    # what --resume reads, the two newest snapshots and no more (no tb/ logs, no older snapshots)
    assert (kept / "config.json").is_file() and (kept / "eval.csv").is_file()
    assert (kept / (kept / "latest").read_text().strip() / "model.zip").is_file()
    newest = [p.rsplit("/", 1)[-1] for p in pool["snapshots"][-2:]]
    assert sorted(p.name for p in (kept / "snapshots").glob("*.zip")) == sorted(newest)
    assert (kept / "snapshots" / newest[-1]).stat().st_size < (run / "snapshots" / newest[-1]).stat().st_size
    assert not (kept / "tb").exists()

    # a gate's chosen snapshot is kept beside the newest ones: what a report measured stays
    oldest = pool["snapshots"][0].rsplit("/", 1)[-1]
    (run / "gate.json").write_text(json.dumps({"choosing": {"chosen": {"spec": f"ppo:path={pool['snapshots'][0]}"}}}))
    code, out, err = run_cli("keep", run, "--to", kept, "--snapshots", "2")
    assert code == 0, err
    assert (kept / "snapshots" / oldest).is_file() and (kept / "gate.json").is_file()

    shutil.rmtree(run)  # the machine is reset: runs/ is gone
    code, out, err = run_cli("keep", kept, "--to", run)
    assert code == 0, err
    assert checkpoint_timesteps(run) == steps

    from training.train import train
    train(resume=run, progress=False, overrides=["total_timesteps=2500"])
    assert checkpoint_timesteps(run) >= 2500
    rows = [int(line.split(",")[0]) for line in (run / "eval.csv").read_text().strip().splitlines()[1:]]
    assert rows == sorted(set(rows)) and rows[-1] >= 2500  # carried on, no evaluation twice

    # keeping the older copy back over the run that has moved on would lose steps: refused
    code, out, err = run_cli("keep", kept, "--to", run)
    assert_one_line_error(code, err, "later checkpoint", "go back")
    assert checkpoint_timesteps(run) >= 2500
    # and keeping the run again replaces the earlier copy
    code, out, err = run_cli("keep", run, "--to", kept)
    assert code == 0, err
    assert checkpoint_timesteps(kept) == checkpoint_timesteps(run)


def test_bad_keeps_are_refused_in_one_line_with_nothing_lost(tmp_path):
    code, out, err = run_cli("keep", tmp_path, "--to", tmp_path / "k")
    assert_one_line_error(code, err, "not a training run with a checkpoint")
    assert not (tmp_path / "k").exists()

    run = tmp_path / "runs" / "r"
    (run / "ckpt-5").mkdir(parents=True)
    (run / "config.json").write_text(json.dumps({"name": "r"}))
    (run / "latest").write_text("../../etc")
    code, out, err = run_cli("keep", run, "--to", tmp_path / "k")
    assert_one_line_error(code, err, "names no complete checkpoint")

    (run / "latest").write_text("ckpt-5")
    (run / "ckpt-5" / "model.zip").write_bytes(b"weights")
    (run / "ckpt-5" / "state.json").write_text(json.dumps({"timesteps": 5}))
    other = tmp_path / "docs"
    other.mkdir()
    (other / "index.md").write_text("not a run")
    code, out, err = run_cli("keep", run, "--to", other)
    assert_one_line_error(code, err, "holds something other than a copy of this run")
    assert (other / "index.md").read_text() == "not a run"
    code, out, err = run_cli("keep", run, "--to", run)
    assert_one_line_error(code, err, "the run itself")
    code, out, err = run_cli("keep", run, "--to", tmp_path / "k", "--snapshots", "-1")
    assert_one_line_error(code, err, "--snapshots must be >= 0")
