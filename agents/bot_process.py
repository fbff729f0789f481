"""A bot's process, contained: it and every process it starts end with the run, however the
run ends, and what it writes to stderr costs a bounded amount of memory.

`start_bot(argv)` starts a small supervisor (Python, a few lines: `SUPERVISOR`) in a session
and process group of its own, and the supervisor starts the bot in that group. The
supervisor asks the kernel for a signal when its parent dies (Linux `prctl(PR_SET_PDEATHSIG)`)
and then kills the whole group: the run killed by any signal, SIGKILL included, takes the
bot and its children with it. (The parent is the thread that started the supervisor: the
arena starts bots from a process's main thread.) When the run ends normally, the agent
kills the group itself (`ExternalAgent.close`). What escapes: a process that leaves the
group (`setsid`, a daemon) — run untrusted bots in a container.

The bot's stderr is read by a thread that keeps only the last `STDERR_TAIL` bytes (for the
error line when the bot fails) and counts the rest: a bot writing 20 MiB per decision
filled 1.6 GiB of temporary space in 10 s before.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading

STDERR_TAIL = 64 * 1024  # bytes of a bot's stderr kept (its last lines, for the error message)
SUPERVISOR = r"""
import ctypes, os, signal, subprocess, sys
def end(*_):
    os.killpg(0, signal.SIGKILL)  # the bot, its children, and this supervisor
signal.signal(signal.SIGTERM, end)
if sys.platform.startswith("linux"):
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM, 0, 0, 0)  # 1: PR_SET_PDEATHSIG
if os.getppid() != int(sys.argv[1]):  # the parent died before the request
    end()
try:
    bot = subprocess.Popen(sys.argv[2:])
except OSError as e:
    sys.stderr.write(f"cannot start {sys.argv[2]}: {e.strerror or e}\n")
    sys.exit(127)
null = os.open(os.devnull, os.O_RDWR)
os.dup2(null, 0)  # the bot alone holds its stdin and stdout: its exit is seen at once
os.dup2(null, 1)
code = bot.wait()
if code < 0:
    signal.signal(-code, signal.SIG_DFL)
    os.kill(os.getpid(), -code)
sys.exit(code)
"""


class StderrTail:
    """The last STDERR_TAIL bytes a pipe delivered, read by a daemon thread until EOF."""

    def __init__(self, pipe, keep: int = STDERR_TAIL):
        self.keep, self.total = keep, 0
        self._data = bytearray()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._drain, args=(pipe,), daemon=True, name="bot-stderr")
        self._thread.start()

    def _drain(self, pipe) -> None:
        with pipe:
            while chunk := os.read(pipe.fileno(), 1 << 16):
                with self._lock:
                    self.total += len(chunk)
                    self._data += chunk
                    if len(self._data) > 2 * self.keep:  # trimmed in steps: amortised, not per chunk
                        del self._data[:-self.keep]

    def tail(self, wait: float = 0.2) -> bytes:
        """The last bytes written (waiting up to `wait` s for the pipe to close)."""
        self._thread.join(wait)
        with self._lock:
            return bytes(self._data[-self.keep:])


def start_bot(argv: list[str]) -> tuple[subprocess.Popen, StderrTail]:
    """The supervised bot process (pipes for stdin and stdout, unbuffered) and its stderr tail."""
    proc = subprocess.Popen([sys.executable, "-S", "-c", SUPERVISOR, str(os.getpid()), *argv],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True, bufsize=0)
    return proc, StderrTail(proc.stderr)


def kill_group(proc: subprocess.Popen) -> None:
    """Kill the bot's process group (the supervisor, the bot and its children)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
