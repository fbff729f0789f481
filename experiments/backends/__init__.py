"""Where work units run: this machine's worker processes, or a Ray cluster.

Both backends have one method that matters, `map_unordered(fn, items)`: call
`fn(*item)` for every item and yield the results as they finish, in any order (both also
take a `window`: at most that many in flight, items taken as tasks finish, as the label
stage of `imitate` needs; `capacity()` is how many run at once). The callers
(tournaments, chunked matches, studies) key every result by its unit and do their own
bookkeeping, so the same units give the same results on either backend.

- `LocalBackend(workers)`: in this process (workers 1), or a pool of `workers` fresh
  (spawned) processes: the one local pool, `sixnimmt_env/core/processes.LocalPool`.
- `RayBackend(address, num_cpus)`: each item a Ray task (experiments/backends/ray_backend.py),
  a local cluster watched by a guard process (experiments/backends/process_guard.py).
- `make_backend`: the backend a command's `--backend`, `--workers`, `--address` name.

Each has one home; this module binds them for the commands. Like them it imports nothing
outside the standard library at import time.
"""

from __future__ import annotations

from typing import Callable, Iterable, Iterator

# their homes; here for the commands, the benchmarks and the tests that import them from here
from experiments.backends.process_guard import _descendants, _stat, guard, start_guard  # noqa: F401
from experiments.backends.ray_backend import RayBackend, import_ray, runtime_env  # noqa: F401
from experiments.backends.workers import init_worker_process
from sixnimmt_env.core.processes import LocalPool

BACKENDS = ("local", "ray")


class LocalBackend(LocalPool):
    """This machine: in this process (workers 1) or in a pool of spawned processes, each
    tuned for work (`init_worker_process`: one torch thread a worker)."""

    def __init__(self, workers: int = 1):
        super().__init__(workers, initializer=init_worker_process)

    def map_unordered(self, fn: Callable, items: Iterable[tuple], window: int | None = None) -> Iterator:
        items = list(items)
        if len(items) <= 1:  # one unit: no process to start for it
            return (fn(*item) for item in items)
        return super().map_unordered(fn, items, window)


def make_backend(backend: str, workers: int | None = None, address: str | None = None):
    """The backend a command names: local with `workers` processes (default 1), or ray
    (joining `address`/RAY_ADDRESS, else a local cluster of `workers` CPUs, default all)."""
    from sixnimmt_env.core.errors import ConfigError
    if backend not in BACKENDS:
        raise ConfigError(f"--backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if workers is not None and workers < 1:
        raise ConfigError("--workers must be at least 1")
    if backend == "local":
        if address:
            raise ConfigError("--address joins a Ray cluster: it needs --backend ray")
        return LocalBackend(workers or 1)
    import_ray()
    return RayBackend(address, num_cpus=workers)

