"""The process list, read from /proc (Linux): who is in a process group, what a process
started, and what a test session leaves behind."""

from __future__ import annotations

import os
import time
from pathlib import Path


def stat(pid: int) -> dict | None:
    """ppid, pgrp and start time of a live process (None when gone or a zombie)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()
    if fields[0] in ("Z", "X"):
        return None
    return {"pid": pid, "ppid": int(fields[1]), "pgrp": int(fields[2]), "start": int(fields[19])}


def processes() -> list[dict]:
    return [s for e in os.listdir("/proc") if e.isdigit() and (s := stat(int(e))) is not None]


def in_group(pgrp: int) -> list[int]:
    """Live processes of process group `pgrp` (orphans keep their group)."""
    return [s["pid"] for s in processes() if s["pgrp"] == pgrp]


def wait_until_empty(pgrp: int, seconds: float = 15.0) -> list[int]:
    """Wait for group `pgrp` to empty; the pids still in it after `seconds`."""
    deadline = time.monotonic() + seconds
    while (left := in_group(pgrp)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def leftovers(root: int) -> list[int]:
    """Processes the process `root` started that are still running: its descendants, and
    processes of its group started after it whose parent is gone (orphans, re-parented)."""
    me = stat(root)
    table = processes()
    children: dict[int, list[int]] = {}
    for s in table:
        children.setdefault(s["ppid"], []).append(s["pid"])
    found, stack = set(), [root]
    while stack:
        for child in children.get(stack.pop(), []):
            if child not in found:
                found.add(child)
                stack.append(child)
    orphans = {s["pid"] for s in table if me and s["pgrp"] == me["pgrp"] and s["start"] > me["start"]
               and s["ppid"] != me["ppid"] and s["pid"] not in found and s["pid"] != root
               and stat(s["ppid"]) is not None and s["ppid"] in (1, *_reapers(table, me))}
    return sorted(p for p in found | orphans if not _own_tracker(p, root))


def _own_tracker(pid: int, root: int) -> bool:
    """multiprocessing's resource tracker of `root` itself: it ends when `root` does (EOF on
    its pipe), so it is not left behind."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    return (stat(pid) or {}).get("ppid") == root and b"multiprocessing.resource_tracker" in cmdline


def _reapers(table: list[dict], me: dict) -> list[int]:
    """Processes an orphan can be re-parented to besides init: our ancestors (subreapers)."""
    by_pid = {s["pid"]: s for s in table}
    out, pid = [], me["ppid"]
    while pid in by_pid and pid > 1:
        out.append(pid)
        pid = by_pid[pid]["ppid"]
    return out
