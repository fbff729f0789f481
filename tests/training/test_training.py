"""Training end to end on a tiny budget: config saved, checkpoints, resume after a kill,
the model as an agent."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from sixnimmt_env import ConfigError, RuleConfig

TINY = ["num_games=32", "n_steps=16", "batch_size=256", "n_epochs=1", "eval_deals=4",
        "checkpoint_every=1500", "eval_every=3000", "snapshot_every=2500", "torch_threads=1"]


def cli(*args, **kwargs):
    return subprocess.run([sys.executable, "-m", "experiments.cli", *args], capture_output=True,
                          text=True, timeout=600, **kwargs)


def test_tiny_run_end_to_end(tmp_path):
    from agents.arena import run_match
    from agents.ppo import PPOAgent
    from training.config import TrainConfig
    from training.train import train

    cfg = TrainConfig.load(None, TINY + ["name=tiny", "total_timesteps=6000", "players=3"])
    run = train(cfg, runs_dir=tmp_path, progress=False)
    assert json.loads((run / "config.json").read_text())["players"] == 3
    assert json.loads((run / "versions.json").read_text())["seed"] == 0
    assert (run / (run / "latest").read_text()).is_dir()
    rows = (run / "eval.csv").read_text().strip().splitlines()
    assert rows[0].startswith("timesteps,wall_s,points_per_round,") and len(rows) >= 3
    pool = json.loads((run / (run / "latest").read_text() / "pool.json").read_text())
    assert pool["snapshots"] and abs(sum(pool["probabilities"].values()) - 1) < 1e-9
    assert (run / "best.zip").exists() and json.loads((run / "best.json").read_text())["players"] == 3
    assert isinstance(json.loads((run / "best.json").read_text())["eval_points_per_round"], float)
    agent = PPOAgent(str(run / "best.zip"))
    result = run_match([agent, "random", "random"], RuleConfig(players=3, max_rounds=1), 3, 0, progress=False)
    assert result.games == 9  # the agent played legal moves throughout (run_match validates)
    with pytest.raises(ConfigError, match="trained for 3 players"):
        run_match([agent, "random", "random", "random"], RuleConfig(players=4, max_rounds=1), 1, 0,
                  progress=False)


def test_killed_run_resumes_from_its_last_checkpoint(tmp_path):
    """Killed (SIGKILL) three times: before its first checkpoint, and twice at random
    moments after one; each resume goes on from the last complete checkpoint, and in the
    end every evaluation is in eval.csv once (those after the checkpoint a resume starts
    from are dropped and done again)."""
    from tests.support.fuzz_support import count
    # a budget no session can finish between its next checkpoint and a kill 1.5 s later:
    # at 12,000 steps a quiet machine did once (CI at f516ca0), and the kill came too late
    TOTAL = 24000

    args = ["train", "--runs-dir", str(tmp_path), "--no-progress", "--set", "name=killed",
            "--set", f"total_timesteps={TOTAL}"]
    for item in TINY:
        args += ["--set", item]
    run = tmp_path / "killed"
    rng = np.random.default_rng(7)

    def session(cli_args, ready):
        proc = subprocess.Popen([sys.executable, "-m", "experiments.cli", *cli_args],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 300
        while not ready() and time.time() < deadline and proc.poll() is None:
            time.sleep(0.05)
        return proc

    def kill(proc):
        assert proc.poll() is None, "the run ended before it could be killed"
        proc.send_signal(signal.SIGKILL)  # mid-way, with no warning
        proc.wait()
        count("faults", "training SIGKILL")

    kill(session(args, lambda: (run / "config.json").exists()))  # before any checkpoint
    assert not (run / "latest").exists()
    resume = ["train", "--resume", str(run), "--no-progress"]
    marks = []
    for _ in range(2):
        start = _steps(run)
        proc = session(resume, lambda: _steps(run) > start)
        time.sleep(float(rng.uniform(0, 1.5)))
        marks.append(_steps(run))
        kill(proc)
    assert 0 < marks[0] <= marks[1] < TOTAL
    done = cli("train", "--resume", str(run), "--no-progress")
    assert done.returncode == 0, done.stderr
    final = json.loads((run / (run / "latest").read_text() / "state.json").read_text())
    assert final["timesteps"] >= TOTAL
    steps = [int(line.split(",")[0]) for line in (run / "eval.csv").read_text().splitlines()[1:]]
    assert steps == sorted(set(steps)) and steps[-1] >= TOTAL  # each evaluation once, in order
    assert len([s for s in steps if s < TOTAL]) == TOTAL // 3000 - (TOTAL % 3000 == 0)


@pytest.mark.parametrize("sig, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_stops_a_run_with_a_checkpoint_of_that_step(tmp_path, sig, code):
    """SIGTERM (kill, timeout, a session's end) or Ctrl-C long before the first checkpoint:
    the run stops at its next step, writes a checkpoint of it (no evaluation: quick) and
    exits with the signal's usual code; without this the steps since the last checkpoint
    were lost."""
    args = ["train", "--runs-dir", str(tmp_path), "--no-progress", "--set", "name=stopped",
            "--set", "total_timesteps=400000"]
    for item in TINY:
        args += ["--set", item]
    args += ["--set", "checkpoint_every=300000", "--set", "eval_every=300000"]
    run = tmp_path / "stopped"
    proc = subprocess.Popen([sys.executable, "-m", "experiments.cli", *args],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 300
    while not list((run / "tb").rglob("events.*")) and time.time() < deadline and proc.poll() is None:
        time.sleep(0.05)  # SB3 opens its log when learning starts
    time.sleep(2.0)
    assert proc.poll() is None, "the run ended before the signal"
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == code, err
    steps = _steps(run)
    assert 0 < steps < 300000, "no checkpoint of the stopped step"
    assert f"stopped at {steps:,} steps" in err and f"--resume {run}" in err
    assert len((run / "eval.csv").read_text().splitlines()) == 1  # header only: no evaluation on a stop


def _steps(run) -> int:
    """The timesteps of a run's last complete checkpoint (0: none yet)."""
    try:
        return json.loads((run / (run / "latest").read_text() / "state.json").read_text())["timesteps"]
    except (OSError, ValueError):
        return 0


def test_training_cli_errors():
    bad = cli("train", "--set", "learning_rat=0.1")
    assert bad.returncode == 2 and "unknown training option 'learning_rat'" in bad.stderr
    missing = cli("train", "--resume", "/nonexistent/run")
    assert missing.returncode == 2 and "no complete checkpoint" in missing.stderr


@pytest.mark.parametrize("option, message", [
    ("episode=turn", "episode must be one of game, round"),
    ("reward=win", "reward must be one of points, relative, rank, penalty"),
    ("observation=pixels", "observation must be one of basic, card-features"),
    ("policy=cnn", "policy must be one of mlp, card-scorer"),
    ('pool_weights={"selfish": 1}', "pool_weights: selfish; valid: random, heuristics, search, self"),
])
def test_config_errors_name_the_option_and_its_values(option, message):
    from training.config import TrainConfig

    with pytest.raises(ConfigError, match=message):
        TrainConfig.load(None, [option])


def test_resume_drops_evaluations_after_its_checkpoint(tmp_path):
    """A kill between an evaluation and the checkpoint after it: the resumed run evaluates
    those steps again, so the rows beyond its checkpoint are dropped (else counted twice)."""
    from training.train import _truncate_eval

    f = tmp_path / "eval.csv"
    f.write_text("timesteps,wall_s\n3008,1\n6016,2\n9024,3\n")
    _truncate_eval(f, 6016)
    assert f.read_text() == "timesteps,wall_s\n3008,1\n6016,2\n"
    _truncate_eval(f, 0)
    assert f.read_text() == "timesteps,wall_s\n"


def test_progress_total_follows_the_time_budget():
    """A run bounded by minutes shows its real end, not total_timesteps' (a 30-second run
    once showed a 48-hour ETA)."""
    from training.bookkeeping import projected_total
    # 10k steps in 10 s, 20 s left: 30k steps, far below 50M
    assert projected_total(10_000, 10_000, 10.0, 20.0, 50_000_000) == 30_000
    assert projected_total(10_000, 10_000, 10.0, 1e9, 50_000_000) == 50_000_000  # steps bind
    assert projected_total(10_000, 10_000, 10.0, -5.0, 50_000_000) == 10_000      # time is up
    assert projected_total(0, 0, 0.0, 60.0, 1_000) == 1_000                      # no rate yet
