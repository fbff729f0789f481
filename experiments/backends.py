"""Where work units run: this machine's worker processes, or a Ray cluster.

Both backends have one method that matters, `map_unordered(fn, items)`: call
`fn(*item)` for every item and yield the results as they finish, in any order (the Ray
backend also takes a `window`: at most that many in flight, items taken as tasks finish,
as the label stage of `imitate` needs; its `capacity()` is the cluster's CPUs). The
callers (tournaments, chunked matches) key every result by its unit and do their own
bookkeeping, so the same units give the same results on either backend.

- `LocalBackend(workers)`: in this process (workers 1), or a pool of `workers` fresh
  (spawned) processes.
- `RayBackend(address, num_cpus)`: each item a Ray task. With an address (or
  RAY_ADDRESS) it joins that cluster; without, it starts a local one and shuts it down
  on the way out — also when the driver is killed: a small guard process (started with
  the cluster, `python -m experiments.backends guard PID`) kills what the dead driver's
  cluster leaves behind (Ray's own fate sharing misses its agents).

What travels to the workers: the project directory (Ray's runtime environment
`working_dir`, uploaded once per driver; the workers run in it, so relative paths like
the shipped model resolve as they do at the project root), less `WORKING_DIR_EXCLUDES`.
What every node needs: Python and the project's dependencies (`pip install -e ".[ray]"`,
the same Ray version); a worker that cannot import them fails with a `WorkerSetupError`
naming the node and the missing module, which the driver turns into a one-line error.

This module imports nothing outside the standard library at import time: it is what a
Ray worker imports first, before it can say what is missing.
"""

from __future__ import annotations

import importlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, Iterable, Iterator

from sixnimmt_env.core.processes import bind_to_parent

PROJECT_ROOT = Path(__file__).resolve().parents[1]
BACKENDS = ("local", "ray")
WORKING_DIR_EXCLUDES = [
    ".venv", "**/__pycache__", "*.egg-info", "build", "out", "tests", "docs",
    # training runs: the models (best.zip, snapshots/) travel, their bulk does not
    "runs/**/tb", "runs/**/ckpt-*", "runs/sweep-*",
]
GUARD_POLL_S = 0.5


class WorkerSetupError(RuntimeError):
    """A worker process cannot import the project or its dependencies."""


# ---------------------------------------------------------------------------- per process

_PROCESS_READY = False


def init_worker_process() -> None:
    """Once per worker process: the allocator tuning, and one torch thread (one core per
    worker)."""
    global _PROCESS_READY
    if _PROCESS_READY:
        return
    from sixnimmt_env.core.perf import tune_allocator
    tune_allocator()
    try:
        import torch
        torch.set_num_threads(1)
    except ImportError:
        pass
    _PROCESS_READY = True


def _call(fn: Callable, item: tuple):
    return fn(*item)


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


# ---------------------------------------------------------------------------- local

class LocalBackend:
    """This machine: in this process (workers 1) or in a pool of spawned processes."""

    name = "local"

    def __init__(self, workers: int = 1):
        self.workers = max(int(workers), 1)

    def __enter__(self) -> "LocalBackend":
        return self

    def __exit__(self, *exc) -> None:
        return None

    def map_unordered(self, fn: Callable, items: Iterable[tuple]) -> Iterator:
        items = list(items)
        if self.workers <= 1 or len(items) <= 1:
            for item in items:
                yield fn(*item)
            return
        import multiprocessing
        ctx = multiprocessing.get_context("spawn")  # fresh processes: no forked torch/BLAS state
        # the `with` ends the pool on any exit, a Ctrl-C included; the workers end
        # themselves when this process dies (bind_to_parent)
        with ctx.Pool(min(self.workers, len(items)), initializer=init_local_worker,
                      initargs=(os.getpid(),)) as pool:
            yield from pool.imap_unordered(_star, [(fn, item) for item in items])


def init_local_worker(parent_pid: int) -> None:
    """A local pool worker: bound to its parent's life (no orphans), then tuned."""
    bind_to_parent(parent_pid)
    init_worker_process()


def _star(args):
    return _call(*args)


# ---------------------------------------------------------------------------- ray

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


def make_backend(backend: str, workers: int | None = None, address: str | None = None):
    """The backend a command names: local with `workers` processes (default 1), or ray
    (joining `address`/RAY_ADDRESS, else a local cluster of `workers` CPUs, default all)."""
    if backend not in BACKENDS:
        from sixnimmt_env.core.errors import ConfigError
        raise ConfigError(f"--backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if workers is not None and workers < 1:
        from sixnimmt_env.core.errors import ConfigError
        raise ConfigError("--workers must be at least 1")
    if backend == "local":
        if address:
            from sixnimmt_env.core.errors import ConfigError
            raise ConfigError("--address joins a Ray cluster: it needs --backend ray")
        return LocalBackend(workers or 1)
    import_ray()
    return RayBackend(address, num_cpus=workers)


# ---------------------------------------------------------------------------- the guard

def start_guard(driver_pid: int) -> subprocess.Popen | None:
    """Start the guard of a local cluster (Linux only: it reads /proc)."""
    if not Path("/proc/self/stat").exists():
        return None
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(PROJECT_ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.Popen([sys.executable, "-m", "experiments.backends", "guard", str(driver_pid)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True, env=env, cwd=str(PROJECT_ROOT))


def _stat(pid: int) -> tuple[int, int] | None:
    """(parent pid, start time) of a process, or None when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()
    return int(fields[1]), int(fields[19])


def _descendants(root: int) -> dict[int, int]:
    """Every live descendant of `root`: pid -> start time."""
    children: dict[int, list[int]] = {}
    starts: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            st = _stat(int(entry))
            if st is not None:
                children.setdefault(st[0], []).append(int(entry))
                starts[int(entry)] = st[1]
    found, stack = {}, [root]
    while stack:
        for child in children.get(stack.pop(), []):
            if child not in found:
                found[child] = starts[child]
                stack.append(child)
    return found


def guard(driver_pid: int) -> None:
    """Watch the driver; once it is gone (or this guard is told to stop), end every
    process it had started that is still running (same pid and start time)."""
    me = os.getpid()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C is the driver's to handle
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(1))
    start = _stat(driver_pid)
    seen: dict[int, int] = {}
    while not stopping and start is not None and _stat(driver_pid) == start:
        seen.update({p: t for p, t in _descendants(driver_pid).items() if p != me})
        time.sleep(GUARD_POLL_S)
    if stopping:  # the driver shut its cluster down: only orphans are left to end
        still_its = _descendants(driver_pid)
        seen = {p: t for p, t in seen.items() if p not in still_its}
    else:
        time.sleep(1.0)  # Ray's fate sharing ends most of them itself
    for sig, wait in ((signal.SIGTERM, 2.0), (signal.SIGKILL, 0.0)):
        alive = [p for p, t in seen.items() if (_stat(p) or (0, None))[1] == t]
        for p in alive:
            try:
                os.kill(p, sig)
            except OSError:
                pass
        if alive and wait:
            time.sleep(wait)


if __name__ == "__main__":  # python -m experiments.backends guard PID
    if len(sys.argv) == 3 and sys.argv[1] == "guard":
        guard(int(sys.argv[2]))
