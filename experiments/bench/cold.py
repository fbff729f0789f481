"""`sixnimmt bench cold`: the board's first start, the CPU a first game costs on a machine
whose numba cache is empty (issue 63's target: 30 s).

The demo game (`sixnimmt demo --game board`) runs in a fresh process with `NUMBA_CACHE_DIR`
pointed at an empty temporary directory (removed at the end), so every kernel it needs is
compiled; the user's own cache (~/.cache/sixnimmt) is neither read nor touched. The figure
is the child's CPU (user + system, `getrusage` of the children): the compile runs on one
core, so it stays comparable on a busy machine where the wall time does not (the load is
reported beside it). The kernels' compile lines on stderr (`_kernel/compiling.py`) give
each kernel's share.
"""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
import tempfile
import time

from sixnimmt_env.board.rules import VARIANTS
from sixnimmt_env.core.errors import ConfigError

COMPILED = re.compile(r"^\s+(\w+) compiled \((\d+) s of CPU\)$")  # compiling.CompileNotice's line
TIMEOUT_S = 3600  # (a cold compile took 14 minutes of wall time at a load of 16 on 2 cores)


def cold_start(variant: str = "pro", players: int = 4, seed: int = 1) -> dict:
    """Play the board demo in a fresh process with an empty numba cache; its CPU, wall time,
    the load before and after, and each compiled kernel's CPU seconds (as the child printed
    them, rounded)."""
    if variant not in VARIANTS:
        raise ConfigError(f"unknown variant {variant!r}; one of {', '.join(VARIANTS)}")
    if not 2 <= players <= 6:
        raise ConfigError("players must be 2..6")
    command = [sys.executable, "-m", "experiments.cli", "demo", "--game", "board", "--variant", variant,
               "--players", str(players), "--seed", str(seed)]
    with tempfile.TemporaryDirectory(prefix="sixnimmt-cold-") as cache:
        load_before = os.getloadavg()
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        proc = subprocess.run(command, env={**os.environ, "NUMBA_CACHE_DIR": cache}, capture_output=True,
                              text=True, timeout=TIMEOUT_S)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise ConfigError(f"the demo failed (exit {proc.returncode}): {proc.stderr.strip().splitlines()[-1:]}")
    user, system = after.ru_utime - used.ru_utime, after.ru_stime - used.ru_stime
    kernels = {m[1]: int(m[2]) for m in map(COMPILED.match, proc.stderr.splitlines()) if m}
    return {"variant": variant, "players": players, "seed": seed, "cpu_s": round(user + system, 2),
            "user_s": round(user, 2), "system_s": round(system, 2), "wall_s": round(wall, 1),
            "load_before": round(load_before[0], 2), "load_after": round(os.getloadavg()[0], 2), "kernels": kernels}
