"""Work units as Ray tasks, on a cluster joined or started here (`RayBackend`).

With an address (or RAY_ADDRESS) it joins that cluster; without, it starts a local one and
shuts it down on the way out — also when the driver is killed: a small guard process
(experiments/backends/process_guard.py, started with the cluster) kills what the dead driver's
cluster leaves behind (Ray's own fate sharing misses its agents).

What travels to the workers: the project directory (Ray's runtime environment
`working_dir`, uploaded once per driver; the workers run in it, so relative paths like
the shipped model resolve as they do at the project root), less `WORKING_DIR_EXCLUDES`.
What every node needs: Python and the project's dependencies (`pip install -e ".[ray]"`,
the same Ray version); a worker that cannot import them fails with a `WorkerSetupError`
naming the node and the missing module, which the driver turns into a one-line error.

This module imports nothing outside the standard library at import time: it is what a
Ray worker imports first (`run_named`), before it can say what is missing.
"""

from __future__ import annotations

import importlib
import os
import socket
import subprocess
import sys
from typing import Callable, Iterable, Iterator

from experiments.backends.process_guard import start_guard
from experiments.backends.workers import PROJECT_ROOT, init_worker_process

WORKING_DIR_EXCLUDES = [
    ".venv", "**/__pycache__", "*.egg-info", "build", "out", "tests", "docs",
    # training runs: the models (best.zip, snapshots/) travel, their bulk does not
    "runs/**/tb", "runs/**/ckpt-*", "runs/sweep-*",
]


class WorkerSetupError(RuntimeError):
    """A worker process cannot import the project or its dependencies."""


def fn_name(fn: Callable) -> str:
    """`module:qualname` of a module-level function (how it is sent to Ray workers)."""
    return f"{fn.__module__}:{fn.__qualname__}"


def run_named(name: str, item: tuple):
    """The body of every Ray task: import the function named `module:qualname` and call
    it; a missing project package or dependency becomes a WorkerSetupError that says so."""
    module, _, qualname = name.partition(":")
    try:
        init_worker_process()
        fn = importlib.import_module(module)
    except ImportError as e:
        raise WorkerSetupError(
            f"a Ray worker on {socket.gethostname()} ({sys.executable}, Python {sys.version.split()[0]}) cannot "
            f"import {e.name or module!r}: {e}. Every node needs the project's dependencies "
            f"(pip install -e \".[ray]\" with the same Ray version); the project's own code travels "
            f"with the job") from None
    for part in qualname.split("."):
        fn = getattr(fn, part)
    return fn(*item)


def ray_address(address: str | None) -> str | None:
    """The cluster to join: `address`, else RAY_ADDRESS, else None (start a local one)."""
    return address or os.environ.get("RAY_ADDRESS") or None


def runtime_env() -> dict:
    """What travels to every worker: the project directory (see the module doc)."""
    return {"working_dir": str(PROJECT_ROOT), "excludes": list(WORKING_DIR_EXCLUDES)}


class RayBackend:
    """Work units as Ray tasks, on a cluster joined (`address`/RAY_ADDRESS) or started here.

    num_cpus  CPUs of a local cluster started here (default: all); ignored when joining
    temp_dir  Ray's session directory of a local cluster (default Ray's)
    If Ray is already initialised in this process (a test fixture, a sweep), that
    connection is used and left open.
    """

    name = "ray"

    def __init__(self, address: str | None = None, num_cpus: int | None = None, temp_dir: str | None = None):
        self.address = ray_address(address)
        self.num_cpus = num_cpus
        self.temp_dir = temp_dir
        self._owned = False
        self._guard: subprocess.Popen | None = None
        self._remote = None

    def __enter__(self) -> "RayBackend":
        ray = import_ray()
        if ray.is_initialized():
            return self
        kwargs = dict(runtime_env=runtime_env(), log_to_driver=False, configure_logging=False)
        if self.address is None:
            self._guard = start_guard(os.getpid())
            kwargs.update(num_cpus=self.num_cpus or os.cpu_count(), include_dashboard=False)
            if self.temp_dir:
                kwargs["_temp_dir"] = str(self.temp_dir)
        else:
            kwargs["address"] = self.address
        try:
            ray.init(**kwargs)
        except BaseException as e:
            self._stop_guard()
            if self.address is not None and isinstance(e, (ConnectionError, TimeoutError)):
                from sixnimmt_env.core.errors import ConfigError
                raise ConfigError(f"--address {self.address}: cannot join a Ray cluster there "
                                  f"({' '.join(str(e).split())[:200]})") from None
            raise
        self._owned = True
        return self

    def __exit__(self, *exc) -> None:
        if self._owned:
            import ray
            ray.shutdown()
            self._owned = False
        self._stop_guard()

    def _stop_guard(self) -> None:
        if self._guard is not None:
            self._guard.terminate()  # the guard sweeps once more on its way out
            try:
                self._guard.wait(10)
            except subprocess.TimeoutExpired:
                self._guard.kill()
            self._guard = None

    def capacity(self) -> int:
        """Tasks the cluster runs at once: its CPUs (one a task), as of now."""
        import ray
        return max(int(ray.cluster_resources().get("CPU", 1)), 1)

    def map_unordered(self, fn: Callable, items: Iterable[tuple], window: int | None = None) -> Iterator:
        return self.map_named(fn_name(fn), items, window)

    def map_named(self, name: str, items: Iterable[tuple], window: int | None = None) -> Iterator:
        """map_unordered of the function named `module:qualname` (imported on the workers).
        `window`: at most this many tasks in flight, items taken from `items` only as
        tasks finish (a caller's iterator can stop at a deadline); None: all at once.
        A task lost with its worker or node is run again elsewhere (Ray's retries)."""
        import ray
        from ray.exceptions import RayTaskError

        if self._remote is None:
            self._remote = ray.remote(num_cpus=1, max_retries=2)(run_named)
        items = iter(items)
        pending: list = []
        try:
            while True:
                while window is None or len(pending) < window:
                    item = next(items, None)
                    if item is None:
                        break
                    pending.append(self._remote.remote(name, tuple(item)))
                if not pending:
                    return
                done, pending = ray.wait(pending, num_returns=1)
                try:
                    yield ray.get(done[0])
                except RayTaskError as e:
                    cause = getattr(e, "cause", None)
                    if isinstance(cause, WorkerSetupError):
                        from sixnimmt_env.core.errors import ConfigError
                        raise ConfigError(str(cause)) from None
                    raise
        finally:
            for ref in pending:  # stopped early (an error, Ctrl-C): nothing left running
                ray.cancel(ref, force=True)


def import_ray():
    """The ray module, or a ConfigError saying how to install it."""
    try:
        import ray
    except ImportError:
        from sixnimmt_env.core.errors import ConfigError
        raise ConfigError("--backend ray needs Ray: pip install -e \".[ray]\"") from None
    return ray
