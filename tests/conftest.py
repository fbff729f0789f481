"""Session hooks: the property tests' input counts (tests/fuzz_support.py) are written to
the file SIXNIMMT_FUZZ_STATS names, when it is set; and the suite fails if it leaves a
process behind (a worker, server or run a test started that still runs at its end)."""

from __future__ import annotations

import json
import os


def pytest_sessionfinish(session, exitstatus):
    _check_no_process_left(session)
    _write_fuzz_stats()


def _check_no_process_left(session) -> None:
    """Fail the session if processes it started still run (waits a few seconds for those
    that are ending: a pool's workers, multiprocessing's resource tracker)."""
    if not os.path.exists("/proc/self/stat") or os.environ.get("PYTEST_XDIST_WORKER"):
        return
    import time

    from tests.process_support import leftovers
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
    from tests.fuzz_support import STATS
    table: dict = {}
    for key, n in sorted(STATS.items()):
        entry, kind = key.split("\t")
        table.setdefault(entry, {})[kind] = n
    with open(target, "w") as f:
        json.dump(table, f, indent=1)
