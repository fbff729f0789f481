"""No orphans, no tracebacks from workers: a run with worker processes (imitate's label
workers, the local pool of tournament and match) that is killed, whatever the signal,
leaves no process behind, and a Ctrl-C ends it with one line (README "Security")."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.process_support import in_group, leftovers, stat, wait_until_empty

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="reads /proc (Linux)")


def runs(tmp_path):
    """Each kind of run with two worker processes, long enough to be killed mid-way."""
    return {
        "imitate": ["imitate", "--runs-dir", str(tmp_path), "--no-progress", "--set", "name=k",
                    "--set", "units=50", "--set", "workers=2", "--set", "players=[4]",
                    "--set", "teacher=mcs:rollouts=400"],
        "tournament": ["tournament", "--agents", "mcs:rollouts=300,random", "--games", "400",
                       "--workers", "2", "--out", str(tmp_path / "t"), "--no-progress"],
        "match": ["match", "--agents", "mcs:rollouts=300,random,random", "--games", "400", "--chunk-deals", "10",
                  "--workers", "2"],
    }


def _as_from_a_terminal() -> None:
    os.setsid()  # a process group of its own, to signal it as a terminal does
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # not ignored, even if it is in this session


def start(args, tmp_path):
    """The run in a process group of its own; returns once its workers run."""
    proc = subprocess.Popen([sys.executable, "-m", "experiments.cli", *args], cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_as_from_a_terminal)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        workers = [p for p in in_group(proc.pid) if (stat(p) or {}).get("ppid") == proc.pid]
        if len(workers) >= 2:
            time.sleep(1.0)  # the workers at work
            return proc
        time.sleep(0.1)
    proc.kill()
    pytest.fail(f"the run never started its workers: {proc.communicate()[1][-2000:]}")


@pytest.mark.parametrize("kind", ["imitate", "tournament", "match"])
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_a_killed_run_leaves_no_process(tmp_path, kind, sig):
    proc = start(runs(tmp_path)[kind], tmp_path)
    proc.send_signal(sig)  # the run only: its workers learn it from the kernel or their watch
    _, err = proc.communicate(timeout=60)
    left = wait_until_empty(proc.pid)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert left == [], f"{kind} after {sig.name}: processes left"
    assert "Traceback" not in err and "BrokenPipe" not in err, err


@pytest.mark.parametrize("kind", ["imitate", "tournament"])
def test_ctrl_c_ends_a_run_with_one_line(tmp_path, kind):
    """SIGINT to the whole group, as a terminal sends it: one line, no worker traceback."""
    proc = start(runs(tmp_path)[kind], tmp_path)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    left = wait_until_empty(proc.pid)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert left == []
    assert proc.returncode == 130 and "Traceback" not in err, err
    assert len(err.strip().splitlines()) == 1, (proc.returncode, err)


def test_the_session_check_sees_an_orphan():
    """The check conftest runs at the session's end finds a process whose parent died."""
    shell = subprocess.run(["sh", "-c", "sleep 60 >/dev/null 2>&1 & echo $!"], capture_output=True, text=True)
    orphan = int(shell.stdout)
    try:
        assert orphan in leftovers(os.getpid())
    finally:
        os.kill(orphan, signal.SIGKILL)
    deadline = time.monotonic() + 5
    while stat(orphan) is not None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert orphan not in leftovers(os.getpid())


def cmdline(pid: int) -> bytes:
    """The first bytes of a process's command line (for the failure message)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()[:200]
    except OSError:
        return b"(gone)"


BUSY_BOT = """import subprocess, sys
child = subprocess.Popen([sys.executable, "-c", "while True: pass"])  # busy, in the bot's group
with open(sys.argv[1], "w") as f:
    f.write(f"{__import__('os').getpid()} {child.pid}")
for line in sys.stdin:
    if '"start"' in line:
        print('{"type": "ready"}', flush=True)
    else:
        while True:
            pass
"""


@pytest.mark.parametrize("kind", ["match", "imitate"])
def test_a_killed_runs_bots_end(tmp_path, kind):
    """SIGKILL of `sixnimmt match` (or `imitate` with a cmd: field agent) while its bot is busy:
    the bot and the child it started are gone (within 30 s: a loaded machine), checked by
    their PIDs and start times (they lived on under PID 1)."""
    bot, pids = tmp_path / "busy_bot.py", tmp_path / "pids"
    bot.write_text(BUSY_BOT)
    spec = f"cmd:{sys.executable} {bot} {pids}:timeout=600:start_timeout=60"
    args = {"match": ["match", "--agents", f"{spec},random,random", "--games", "10"],
            "imitate": ["imitate", "--runs-dir", str(tmp_path), "--no-progress", "--set", "name=k",
                        "--set", "units=2", "--set", "workers=1", "--set", "players=[3]", "--set", f'field=["{spec}"]']}[kind]
    proc = subprocess.Popen([sys.executable, "-m", "experiments.cli", *args], cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while not (pids.exists() and len(pids.read_text().split()) == 2) and proc.poll() is None \
                and time.monotonic() < deadline:
            time.sleep(0.1)
        assert pids.exists(), proc.communicate()[1][-2000:]
        # Each PID with its start time: on a busy machine (pid_max 32768) a PID can be
        # reused by another process within the wait, which is not the bot outliving the run.
        bots = {int(p): (stat(int(p)) or {}).get("start") for p in pids.read_text().split()}
        time.sleep(1.0)  # the bot busy on its first decision
        proc.kill()
        proc.communicate(timeout=60)

        def still_there():
            return [p for p, start in bots.items() if (s := stat(p)) is not None and s["start"] == start]

        deadline = time.monotonic() + 30
        while still_there() and time.monotonic() < deadline:
            time.sleep(0.1)
        alive = [(p, stat(p), cmdline(p)) for p in still_there()]
    finally:
        left = in_group(proc.pid) + [int(p) for p in (pids.read_text().split() if pids.exists() else [])]
        for pid in (p for p in left if stat(p)):
            os.kill(pid, signal.SIGKILL)
    assert alive == [], f"{kind}: the bot's processes {alive} outlived the run"


SLOW_INIT = """
import multiprocessing, time
if getattr(multiprocessing.current_process(), "_inheriting", False):  # a spawned worker, unpickling its
    time.sleep(4)  # initializer: a slow import, before the worker can ignore SIGINT
def init():
    pass
"""

SPAWN_THEN_CTRL_C = """
import os, signal, sys, threading, time
import slow_init
from sixnimmt_env.core.processes import LocalPool
with LocalPool(2, initializer=slow_init.init) as pool:
    try:
        # the Ctrl-C comes while both workers are still importing slow_init
        timer = threading.Timer(1.5, lambda: os.killpg(0, signal.SIGINT))
        timer.daemon = True
        timer.start()
        for _ in pool.map_unordered(time.sleep, [(0.5,), (0.5,)]):
            pass
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
"""


def test_a_ctrl_c_while_the_workers_start_prints_no_worker_traceback(tmp_path):
    """A spawned worker imports before it can ignore SIGINT: the pool holds SIGINT while it
    spawns, so a Ctrl-C in that window reaches the parent only (processes._sigint_held)."""
    (tmp_path / "slow_init.py").write_text(SLOW_INIT)
    root = Path(__file__).parents[2]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(root)])}
    proc = subprocess.Popen([sys.executable, "-c", SPAWN_THEN_CTRL_C], cwd=root, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_as_from_a_terminal)
    _, err = proc.communicate(timeout=120)
    left = wait_until_empty(proc.pid)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert left == []
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert err.strip().splitlines() == ["interrupted"], err
