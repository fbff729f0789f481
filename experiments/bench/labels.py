"""`sixnimmt bench labels`: the label stage's rate on Ray clusters of 1, 2, ... nodes on
this machine (`ray.cluster_utils.Cluster`, one CPU per node), the same imitation config
each time, so the ratio to one node is the figure issue 28 asks for ("with --backend ray
on N nodes the label rate grows close to N x").

Every cluster is started here and stopped before the next (its processes waited for);
the label runs go to a temporary directory that is removed at the end. On one machine
the nodes share its cores with the driver and Ray's own processes, so N nodes on N cores
read low: the figure is the rate of the work units, not of N separate machines.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

from sixnimmt_env.core.errors import ConfigError

MAX_NODES = 8


def bench_ray_labels(cfg, nodes: Sequence[int], progress: bool = False) -> list[dict]:
    """For each node count: {"nodes", "labels", "seconds", "labels_per_s", "per_node"}
    (per_node: each node's labels/s, ascending, 0 for a node that finished no unit),
    labelling `cfg` (an ImitationConfig) for its label_minutes on a fresh local cluster of
    that many one-CPU nodes."""
    import ray
    from ray.cluster_utils import Cluster

    from experiments.backends import RayBackend, _descendants, runtime_env, start_guard
    from training.label_runs import label
    from training.runs import new_run

    rows = []
    root = Path(tempfile.mkdtemp(prefix="sxrl-bench-labels-", dir="/tmp"))
    guard = start_guard(os.getpid())  # a killed bench leaves no Ray process behind
    try:
        for n in nodes:
            temp = str(root / f"ray-{n}")
            os.makedirs(temp)
            os.makedirs(tempfile.gettempdir() + "/ray", exist_ok=True)  # Cluster notes its address there
            cluster = None
            try:
                try:
                    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "temp_dir": temp,
                                                                            "include_dashboard": False})
                    for _ in range(n - 1):
                        cluster.add_node(num_cpus=1, temp_dir=temp)
                except Exception as e:  # Ray's own startup errors are plain Exceptions
                    raise ConfigError(f"bench labels: a local Ray cluster of {n} node(s) did not start "
                                      f"({' '.join(str(e).split())[:160]})") from None
                ray.init(address=cluster.address, runtime_env=runtime_env(), log_to_driver=False,
                         configure_logging=False)
                cluster.wait_for_nodes()
                result = label(cfg, new_run(root / f"run-{n}", cfg), progress, RayBackend())
            finally:
                ours = _descendants(os.getpid())
                ray.shutdown()
                if cluster is not None:
                    cluster.shutdown()
                _end(ours)
            rates = [node["labels_per_s"] for node in result["nodes"].values()]
            # a node that finished no work unit in the minutes given (a slow start under load)
            # shows as 0 labels/s, not as a missing node
            rows.append({"nodes": n, "labels": result["labels"], "seconds": result["seconds"],
                         "labels_per_s": result["labels_per_s"],
                         "per_node": sorted(rates + [0.0] * max(0, n - len(rates)))})
    finally:
        shutil.rmtree(root, ignore_errors=True)
        if guard is not None:
            guard.terminate()
            guard.wait(10)
    return rows


def _end(pids: dict, seconds: float = 30.0) -> None:
    """Wait for the processes `pids` (pid -> start time) to end; SIGKILL what is left."""
    import signal
    import time

    from experiments.backends import _stat
    deadline = time.monotonic() + seconds
    while True:
        alive = [p for p, t in pids.items() if (_stat(p) or (0, None))[1] == t]
        if not alive or time.monotonic() > deadline:
            break
        time.sleep(0.3)
    for p in alive:
        try:
            os.kill(p, signal.SIGKILL)
        except OSError:
            pass
