"""The guard of a local Ray cluster: a small process, started with the cluster, that
watches the driver and, once the driver is gone (killed, crashed) or tells it to stop,
ends every process the driver had started that is still running (Ray's own fate sharing
misses its agents). Linux only: it reads /proc.

It runs as `python -m experiments.backends guard PID` (the command line the tests and
`ps` know it by).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from experiments.backends.workers import PROJECT_ROOT

GUARD_POLL_S = 0.5


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
