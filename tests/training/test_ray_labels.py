"""The label stage of `imitate` on a Ray cluster of two nodes on this machine
(`ray.cluster_utils.Cluster`, one CPU each): the same unit files as the local run, the
label rate per node in progress.json, and a node killed mid-run loses no finished unit
while the run completes on the other. Heavy (a cluster start): marked slow, select with
`-m slow` or by file."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np
import pytest

ray = pytest.importorskip("ray")

from experiments.backends import RayBackend, _descendants, runtime_env  # noqa: E402
from tests.lab.test_ray import wait_gone  # noqa: E402
from tests.training.test_imitation import TINY  # noqa: E402
from training.imitate import ImitationConfig  # noqa: E402
from training.label_runs import label, unit_files  # noqa: E402
from training.labels import LABEL_FIELDS  # noqa: E402
from training.runs import new_run  # noqa: E402

pytestmark = pytest.mark.slow
CFG = ImitationConfig(name="ray-labels", players=(3, 4), units=8, seed=4, **TINY)
FAST_DEATH = {"health_check_period_ms": 500, "health_check_failure_threshold": 4}  # a dead node seen in ~2 s


def contents(run) -> dict:
    """Each unit file's arrays by file name."""
    out = {}
    for path in unit_files(run):
        with np.load(path) as z:
            out[path.name] = {k: z[k] for k in LABEL_FIELDS}
    return out


def same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[n][k], b[n][k], equal_nan=True)
                                        for n in a for k in LABEL_FIELDS)


def test_labels_on_two_ray_nodes_equal_local_and_survive_a_killed_node(tmp_path):
    from ray.cluster_utils import Cluster
    local = tmp_path / "local"
    label(CFG, local, progress=False)
    expected = contents(local)
    assert len(expected) == CFG.units

    temp = tempfile.mkdtemp(prefix="sxrl-", dir="/tmp")
    os.makedirs(tempfile.gettempdir() + "/ray", exist_ok=True)  # Cluster notes its address there, whatever temp_dir
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "temp_dir": temp,
                                                            "include_dashboard": False, "_system_config": FAST_DEATH})
    worker = cluster.add_node(num_cpus=1, temp_dir=temp)
    ours = {}
    try:
        ray.init(address=cluster.address, runtime_env=runtime_env(), log_to_driver=False, configure_logging=False)
        cluster.wait_for_nodes()
        run = new_run(tmp_path / "ray", CFG)
        result: dict = {}
        thread = threading.Thread(target=lambda: result.update(label(CFG, run, False, RayBackend())))
        thread.start()
        # kill the second node once it has finished a unit, with units still to do
        progress = run / "labels" / "progress.json"
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and thread.is_alive():
            nodes = json.loads(progress.read_text())["nodes"] if progress.exists() else {}
            if any(name.endswith(worker.node_id[:8]) for name in nodes):
                break
            time.sleep(0.1)
        before = {p.name: p.stat().st_mtime for p in unit_files(run)}
        assert len(before) < CFG.units, "the run ended before the node could be killed: use more units"
        ours = _descendants(os.getpid())
        cluster.remove_node(worker, allow_graceful=False)  # SIGKILL: its raylet and workers
        thread.join(300)
        assert not thread.is_alive() and result, "the run did not complete on the other node"
        after = {p.name: p.stat().st_mtime for p in unit_files(run)}
        assert all(after[name] == mtime for name, mtime in before.items())  # no finished unit lost or redone
        assert same(contents(run), expected)  # unit i is the same whichever node labelled it
        assert result["units"] == CFG.units and result["backend"] == "ray" and len(result["nodes"]) == 2
        assert sum(n["labels"] for n in result["nodes"].values()) == result["labels"] == result["records_this_session"]
        assert all(n["labels_per_s"] > 0 for n in result["nodes"].values())
        # the command line joins the cluster (its one node left) and resumes a run the same
        # way: a unit missing is labelled again, the same
        unit_files(run)[3].unlink()
        args = [sys.executable, "-m", "experiments.cli", "imitate", "--backend", "ray", "--address", cluster.address,
                "--no-progress"]
        out = subprocess.run([*args, "--resume", str(run)], capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        assert (run / "model.zip").exists() and same(contents(run), expected)
    finally:
        ray.shutdown()
        cluster.shutdown()
        left = wait_gone({**ours, **_descendants(os.getpid())})
        shutil.rmtree(temp, ignore_errors=True)
    assert not left, f"Ray processes left behind: {left}"


def test_bench_labels_measures_one_and_two_node_clusters_and_leaves_nothing(tmp_path):
    """`sixnimmt bench labels`: a fresh cluster per node count, labels/s and per-node rates
    for each, the ratio to one node, and no Ray process left once it is done; bad node
    counts get one line and exit code 2."""
    cfg = tmp_path / "tiny.toml"
    cfg.write_text("\n".join(f"{k} = {json.dumps(list(v) if isinstance(v, tuple) else v)}" for k, v in
                             {**TINY, "units": 2, "players": [4]}.items()) + "\n")
    # Each cluster labels the run's 2 units and stops: --minutes is only a ceiling, so the
    # test waits for the work, not for a clock (a 0.3-minute window of 40 units cost ~40 s
    # more; 0.15 minutes flaked under CI's load on 2026-12-04: a second node's slow start)
    args = [sys.executable, "-m", "experiments.cli", "bench", "labels", "--config", str(cfg), "--minutes", "5"]
    before = set(_all_processes())
    out = subprocess.run([*args, "--nodes", "1,2", "--json"], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    rows = json.loads(out.stdout.strip().splitlines()[-1])
    # every node of a cluster is listed; one that finished no unit in the time (a slow start
    # under CI's load, 2026-12-04) shows 0, so only the busiest node must have labelled
    assert [r["nodes"] for r in rows] == [1, 2] and [len(r["per_node"]) for r in rows] == [1, 2]
    assert all(r["labels"] > 0 and r["labels_per_s"] > 0 and r["per_node"][-1] > 0 for r in rows)
    assert rows[0]["labels"] == rows[1]["labels"]  # each cluster labelled the same 2 units, all of them
    assert not wait_gone({p: t for p, t in _all_processes().items() if p not in before}, 20)
    bad = subprocess.run([*args, "--nodes", "0,x"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and "Traceback" not in bad.stderr


def _all_processes() -> dict[int, int]:
    """Every live process: pid -> start time (a bench's Ray processes are not our descendants)."""
    from experiments.backends import _stat
    out = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (st := _stat(int(entry))) is not None:
            out[int(entry)] = st[1]
    return out
