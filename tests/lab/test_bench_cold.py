"""`sixnimmt bench cold` (the board's first start with an empty numba cache): run as a user
would, with the JIT off in the child so the smoke test compiles nothing (its figure is a
benchmark's, not a test's); the child's cache is an empty directory of its own, removed after."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from experiments.bench import cold


def run_cli(*args: str, code: int = 0) -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, "-m", "experiments.cli", "bench", "cold", *args], capture_output=True,
                          text=True, timeout=300, env={**os.environ, "NUMBA_DISABLE_JIT": "1"})
    assert proc.returncode == code, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    return proc


def test_bench_cold_plays_the_demo_and_reports_its_cpu():
    result = json.loads(run_cli("--players", "2", "--json").stdout.strip().splitlines()[-1])
    assert result["variant"] == "pro" and result["players"] == 2
    # Each figure is rounded on its own, so the parts may sum one hundredth away from the whole.
    assert result["cpu_s"] > 0 and abs(result["cpu_s"] - (result["user_s"] + result["system_s"])) <= 0.011
    assert result["kernels"] == {}  # (no JIT in the child: nothing compiled)
    assert "s of CPU" in run_cli("--players", "2", "--variant", "basic").stdout


def test_bench_cold_refuses_bad_options_in_one_line():
    err = run_cli("--variant", "nope", code=2).stderr
    assert "unknown variant 'nope'" in err and len(err.strip().splitlines()) == 1
    assert "players must be 2..6" in run_cli("--players", "7", code=2).stderr


def test_the_child_compiles_into_an_empty_cache_of_its_own(monkeypatch):
    seen = {}

    def fake_run(command, env, **kwargs):
        cache = Path(env["NUMBA_CACHE_DIR"])
        seen.update(command=command, cache=cache, empty=not any(cache.iterdir()))
        stderr = "compiling the board kernels...\n  checked_step compiled (30 s of CPU)\n"
        return subprocess.CompletedProcess(command, 0, "", stderr)

    monkeypatch.setattr(cold.subprocess, "run", fake_run)
    result = cold.cold_start("pro-luck", 3, 5)
    assert seen["empty"] and not seen["cache"].exists()  # empty while it ran, removed after
    assert seen["command"][-8:] == ["--game", "board", "--variant", "pro-luck", "--players", "3", "--seed", "5"]
    assert result["kernels"] == {"checked_step": 30}
