"""Worker processes that end with the process that started them.

A worker of a pool (label workers of `imitate`, the local pool of `tournament` and
`match`) calls `bind_to_parent` first. Whatever ends the parent (SIGKILL, SIGTERM, a
crash), the worker then ends too instead of computing on and printing BrokenPipe
tracebacks into a closed terminal: on Linux the kernel sends it SIGKILL when the parent
dies (PR_SET_PDEATHSIG), and everywhere a daemon thread polls `os.getppid()` as a second
line. A Ctrl-C is the parent's to handle (it reaches the whole process group): the worker
ignores SIGINT, and the parent ends its pool and prints one line.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1  # linux/prctl.h
POLL_S = 0.5


def bind_to_parent(parent_pid: int) -> None:
    """End this process when `parent_pid`, its parent, is gone; ignore Ctrl-C (see above)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent_pid:  # the parent died before the line above took effect
        os._exit(1)
    threading.Thread(target=_watch, args=(parent_pid,), daemon=True, name="parent-watch").start()


def _watch(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(POLL_S)
    os._exit(1)
