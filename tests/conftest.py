"""Session hooks: the board kernels are compiled (or loaded from numba's cache) once before
any test runs, so the two workers of `make test` do not both compile them cold
(sixnimmt_env/board/warm.py); the property tests' input counts (tests/support/fuzz_support.py) are written to
the file SIXNIMMT_FUZZ_STATS names, when it is set; and the suite fails if it leaves a
process behind (a worker, server or run a test started that still runs at its end).
SB3's logger, which a bare `model.learn()` sets up, writes into one session directory
(SB3_LOGDIR) removed at the end, not a new /tmp/SB3-<time> directory per model."""

from __future__ import annotations

import json
import os

import pytest


def pytest_configure(config):
    if os.environ.get("PYTEST_XDIST_WORKER"):  # the controller did it before starting the workers
        return
    import tempfile
    import time

    if "SB3_LOGDIR" not in os.environ:  # (the workers inherit it)
        os.environ["SB3_LOGDIR"] = _SB3_LOGDIR[0] = tempfile.mkdtemp(prefix="sixnimmt-tests-sb3-")

    from sixnimmt_env.board.warm import compile_kernels
    from sixnimmt_env.board.worlds import load_deal_worlds
    t0 = time.perf_counter()
    compile_kernels()
    load_deal_worlds()  # the seat views' world dealer (not in the engine's warm-up)
    if time.perf_counter() - t0 > 5:
        print(f"board kernels compiled in {time.perf_counter() - t0:.0f} s (numba caches them: once per machine)")


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the marks
def pytest_collection_modifyitems(config, items):
    """`make test`'s workers (`-n 2 --dist loadgroup`) take whole files (a file's module
    fixtures, servers and clusters start once), and the files that start Ray clusters all
    go to one worker (two clusters at once on 2 cores starve each other's timeouts)."""
    for item in items:
        if item.get_closest_marker("xdist_group") is None:
            group = "ray" if item.path.name.startswith("test_ray") else item.path.name
            item.add_marker(pytest.mark.xdist_group(group))


_SB3_LOGDIR: list[str | None] = [None]  # the session's SB3 log directory, when this session made it


def pytest_sessionfinish(session, exitstatus):
    _check_no_process_left(session)
    _write_fuzz_stats()
    if _SB3_LOGDIR[0] and not os.environ.get("PYTEST_XDIST_WORKER"):
        import shutil
        shutil.rmtree(_SB3_LOGDIR[0], ignore_errors=True)


def _check_no_process_left(session) -> None:
    """Fail the session if processes it started still run (waits a few seconds for those
    that are ending: a pool's workers, multiprocessing's resource tracker)."""
    if not os.path.exists("/proc/self/stat") or os.environ.get("PYTEST_XDIST_WORKER"):
        return
    import time

    from tests.support.process_support import leftovers
    deadline = time.monotonic() + 10
    while (left := leftovers(os.getpid())) and time.monotonic() < deadline:
        time.sleep(0.2)
    if left:
        names = []
        for pid in left:
            try:
                names.append(f"{pid} ({open(f'/proc/{pid}/cmdline').read().replace(chr(0), ' ')[:120].strip()})")
            except OSError:
                names.append(str(pid))
        session.config.get_terminal_writer().line("the test session left processes behind: " + "; ".join(names),
                                                  red=True)
        session.exitstatus = 1


def _write_fuzz_stats() -> None:
    target = os.environ.get("SIXNIMMT_FUZZ_STATS")
    if not target:
        return
    from tests.support.fuzz_support import STATS
    table: dict = {}
    for key, n in sorted(STATS.items()):
        entry, kind = key.split("\t")
        table.setdefault(entry, {})[kind] = n
    with open(target, "w") as f:
        json.dump(table, f, indent=1)
