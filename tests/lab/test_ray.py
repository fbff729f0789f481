"""The Ray backend and `sixnimmt sweep` on a local Ray cluster of 2 CPUs: the same
results as the local backend (also after the driver is killed and the tournament
resumed), a worker that cannot import the project says so, a tiny sweep writes its
summary, and no Ray process outlives the tests."""

from __future__ import annotations

import json
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")

from agents.arena import run_match  # noqa: E402
from experiments.backends import LocalBackend, RayBackend, _descendants, _stat, runtime_env  # noqa: E402
from experiments.tournaments.report import build_report  # noqa: E402
from experiments.tournaments.tournament import TournamentConfig, run_tournament  # noqa: E402
from sixnimmt_env import RuleConfig  # noqa: E402
from sixnimmt_env.core.errors import ConfigError  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CFG = dict(agents=["lowest", "greedy", "random"], players=[3], games=4, seed=5, max_rounds=2, chunk_deals=2)
RAY_PROCESS = re.compile(r"ray::|raylet|gcs_server|ray/dashboard|ray/_private|ray/autoscaler|experiments\.backends guard")


def ray_processes(pids) -> list[str]:
    """The command lines of those of `pids` that are Ray's (or the guard) and alive."""
    found = []
    for pid in pids:
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if RAY_PROCESS.search(cmd):
            found.append(f"{pid} {cmd[:100]}")
    return found


def wait_gone(pids: dict, seconds: float = 20.0) -> list[str]:
    """Wait for the processes `pids` (pid -> start time) to end; those still there."""
    deadline = time.time() + seconds
    while True:
        alive = [p for p, t in pids.items() if (_stat(p) or (0, None))[1] == t]
        left = ray_processes(alive)
        if not left or time.time() > deadline:
            return left
        time.sleep(0.3)


@pytest.fixture(scope="module")
def cluster():
    """A local cluster of 2 CPUs for the module; its address, for drivers that join it."""
    temp = tempfile.mkdtemp(prefix="sxray-", dir="/tmp")
    ray.init(num_cpus=2, include_dashboard=False, _temp_dir=temp, runtime_env=runtime_env(),
             log_to_driver=False, configure_logging=False)
    address = ray.get_runtime_context().gcs_address
    yield address
    ours = _descendants(__import__("os").getpid())
    ray.shutdown()
    left = wait_gone(ours)
    shutil.rmtree(temp, ignore_errors=True)
    assert not left, f"Ray processes left behind: {left}"


def strip(rows):
    return sorted(json.dumps({k: v for k, v in r.items() if k != "ms"}, sort_keys=True) for r in rows)


def rows_of(out):
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


def tables(out) -> list[str]:
    """The report's table rows without the ms/decision column (timings differ)."""
    build_report(out, plots=False)
    return [line.rsplit("|", 2)[0] for line in (out / "report.md").read_text().splitlines() if line.startswith("|")]


def test_tournament_on_ray_equals_local(tmp_path, cluster):
    local = run_tournament(TournamentConfig(**CFG), tmp_path / "local", progress=False)
    remote = run_tournament(TournamentConfig(**CFG), tmp_path / "ray", progress=False, backend=RayBackend())
    assert strip(rows_of(local)) == strip(rows_of(remote))
    assert tables(local) == tables(remote) and len(tables(local)) == 5
    assert json.loads((remote / "timing.json").read_text())["backend"] == "ray"


def test_match_units_on_ray_equal_local(cluster):
    rules = RuleConfig(players=3, max_rounds=1)
    specs = ["lowest", "greedy", "random"]
    def key(r):
        return [(a.name, a.points_per_round, a.points_ci, a.win_share) for a in r.agents]
    local = run_match(specs, rules, 11, 3, progress=False, chunk_deals=4, backend=LocalBackend(1))
    remote = run_match(specs, rules, 11, 3, progress=False, chunk_deals=4, backend=RayBackend())
    assert key(local) == key(remote) and remote.games == 33
    # one unit on ray is today's single batch, exactly
    assert key(run_match(specs, rules, 11, 3, progress=False)) == key(
        run_match(specs, rules, 11, 3, progress=False, backend=RayBackend()))


def test_a_worker_that_cannot_import_says_so(cluster):
    with pytest.raises(ConfigError, match="cannot import 'sixnimmt_no_such_module'.*Every node needs"):
        list(RayBackend().map_named("sixnimmt_no_such_module:play", [()]))


def cli(*args, **kwargs):
    return subprocess.run([sys.executable, "-m", "experiments.cli", *args], capture_output=True, text=True,
                          timeout=300, cwd=ROOT, **kwargs)


def test_killed_driver_leaves_nothing_and_resumes_the_same(tmp_path, cluster):
    out = tmp_path / "killed"
    agents, games = "lowest,greedy,random,min-gap", 20
    args = ["tournament", "--agents", agents, "--players", "3", "--games", str(games), "--max-rounds", "3",
            "--seed", "5", "--out", str(out), "--no-progress"]
    # its own local cluster: killing the driver must take it down (the guard's work)
    proc = subprocess.Popen([sys.executable, "-m", "experiments.cli", *args, "--backend", "ray", "--workers", "2"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    results = out / "results.jsonl"
    deadline = time.time() + 120
    while time.time() < deadline and proc.poll() is None and not (results.exists() and results.stat().st_size):
        time.sleep(0.05)
    assert proc.poll() is None, "the tournament ended before it could be killed"
    started = _descendants(proc.pid)
    proc.send_signal(signal.SIGKILL)  # mid-run, with no warning
    proc.wait()
    assert not wait_gone(started), "a killed driver left Ray processes behind"
    played = len(results.read_text().splitlines())
    assert 0 < played < 4 * games * 3
    # resumed on the module's cluster (joined by address), then compared with a local run
    done = cli("tournament", "--resume", str(out), "--backend", "ray", "--address", cluster, "--no-progress")
    assert done.returncode == 0, done.stderr
    local = run_tournament(TournamentConfig(agents=agents.split(","), players=[3], games=games, seed=5,
                                            rule_options={"max_rounds": 3}), tmp_path / "local", progress=False)
    assert strip(rows_of(out)) == strip(rows_of(local))
    assert tables(out) == tables(local)


SWEEP = """
name = "tiny"
max_concurrent = 2
cpus_per_trial = 1
[set]
num_games = 32
n_steps = 16
batch_size = 256
n_epochs = 1
eval_deals = 4
checkpoint_every = 1500
eval_every = 1000
snapshot_every = 2500
total_timesteps = 3000
players = 3
[grid]
seed = [0, 1]
[asha]
grace_steps = 1000
"""


def test_a_two_trial_sweep_writes_its_summary(tmp_path, cluster):
    from experiments.backends.sweep import run_sweep

    spec = tmp_path / "tiny.toml"
    spec.write_text(SWEEP)
    target = run_sweep(spec, tmp_path / "runs", progress=False)
    assert target == (tmp_path / "runs" / "sweep-tiny").resolve()
    for name in ("summary.md", "summary.csv", "curves.png", "sweep.json"):
        assert (target / name).exists(), name
    summary = (target / "summary.md").read_text()
    assert "`tiny-00`" in summary and "`tiny-01`" in summary
    for trial in ("tiny-00", "tiny-01"):
        run = tmp_path / "runs" / trial
        assert (run / "best.zip").exists() and (run / "tb").is_dir()
        assert len((run / "eval.csv").read_text().splitlines()) >= 2
    rows = (target / "summary.csv").read_text().splitlines()
    assert len(rows) == 3 and "error" not in (target / "summary.csv").read_text()
    with pytest.raises(ConfigError, match="already holds this sweep"):
        run_sweep(spec, tmp_path / "runs", progress=False)
    # resuming a finished sweep runs nothing again and rewrites the same summary
    assert run_sweep(None, resume=target, progress=False) == target
    assert "`tiny-01`" in (target / "summary.md").read_text()
