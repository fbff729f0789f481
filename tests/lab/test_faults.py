"""Faults: tournaments killed at random moments (SIGKILL, several times) and crashed
mid-write resume to the same results with nothing lost or counted twice; a full disk
and a read-only directory give one clear line and leave the results written before
intact; a second process pointed at a running tournament's directory is refused (a
lock); a training run killed before its first checkpoint and again later resumes
with every evaluation counted once.

The disk-full and read-only cases run on a real small tmpfs (mount needs root; they
are skipped where it is not allowed) and, always, with the failure injected in process.
"""

from __future__ import annotations

import errno
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from sixnimmt_env.core.errors import ConfigError, OutputError
from tests.support.fuzz_support import assert_one_line_error, count, run_cli

AGENTS = ["random", "lowest", "highest", "greedy"]
TOUR = ["tournament", "--agents", ",".join(AGENTS), "--players", "3", "--games", "20", "--max-rounds", "2",
        "--records", "--no-progress"]  # 4 line-ups x 4 chunks = 16 units, 240 games of two rounds


def _config():
    from experiments.tournaments.tournament import TournamentConfig
    return TournamentConfig(agents=list(AGENTS), players=[3], games=20, rule_options={"max_rounds": 2},
                            records=True)


def canonical(out: Path) -> tuple[list, dict]:
    """A tournament's results without timing (ms), in a fixed order, and its records by
    name (bytes). Rows must be unique: a row counted twice fails here."""
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    keys = [(r["players"], r["lineup"], r["deal"], r["rotation"]) for r in rows]
    assert len(keys) == len(set(keys)), "a game counted twice"
    for r in rows:
        r.pop("ms", None)
    rows.sort(key=lambda r: (r["players"], r["lineup"], r["deal"], r["rotation"]))
    records = {p.name: p.read_bytes() for p in sorted((out / "records").glob("*.json"))}
    return rows, records


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    from experiments.tournaments.tournament import run_tournament
    out = tmp_path_factory.mktemp("ref") / "t"
    run_tournament(_config(), out, progress=False)
    return canonical(out)


def cli_process(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "experiments.cli", *args],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def _lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except OSError:
        return 0


def test_tournament_killed_at_random_moments_resumes_to_the_same_result(tmp_path, reference):
    out = tmp_path / "t"
    rng = np.random.default_rng(18)
    kills = 0
    for attempt in range(6):
        args = TOUR + ["--out", str(out)] if attempt == 0 else ["tournament", "--resume", str(out), "--no-progress"]
        before = _lines(out / "results.jsonl")
        target = before + int(rng.integers(1, 60))  # a random number of games into this session
        proc = cli_process(*args)
        while proc.poll() is None and _lines(out / "results.jsonl") < target:
            time.sleep(0.002)
        if proc.poll() is None and kills < 3:
            time.sleep(float(rng.uniform(0, 0.05)))  # anywhere: mid-unit, mid-write, mid-record
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            kills += 1
            count("faults", "tournament SIGKILL")
            continue
        assert proc.wait(timeout=300) == 0, proc.stderr.read()
        break
    assert kills == 3
    assert canonical(out) == reference  # nothing lost, nothing counted twice, records identical


@pytest.mark.parametrize("crash_at", [0, 6, 15])
def test_tournament_crashed_mid_write_resumes_to_the_same_result(tmp_path, reference, monkeypatch, crash_at):
    """The process dies while appending unit `crash_at`'s results (half a line written)."""
    import experiments.tournaments.tournament as tour

    out = tmp_path / "t"
    real = tour._append
    calls = []

    def torn(path, text):
        calls.append(1)
        if len(calls) - 1 == crash_at:
            with path.open("a") as f:
                f.write(text[: len(text) // 2])
            raise KeyboardInterrupt  # as abrupt as it gets in process
        real(path, text)

    monkeypatch.setattr(tour, "_append", torn)
    with pytest.raises(KeyboardInterrupt):
        tour.run_tournament(_config(), out, progress=False)
    monkeypatch.setattr(tour, "_append", real)
    count("faults", "tournament torn write")
    tour.run_tournament(None, out, resume=True, progress=False)
    assert canonical(out) == reference


def test_disk_full_gives_one_line_and_keeps_the_results(tmp_path, reference, monkeypatch):
    import experiments.tournaments.tournament as tour

    out = tmp_path / "t"
    real = tour._append
    calls = []

    def full(path, text):
        calls.append(1)
        if len(calls) == 5:
            with path.open("a") as f:
                f.write(text[:100])
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        real(path, text)

    monkeypatch.setattr(tour, "_append", full)
    code, _, err = run_cli(*TOUR, "--out", out)
    assert_one_line_error(code, err, "No space left on device", "results.jsonl")
    count("faults", "disk full (injected)")
    monkeypatch.setattr(tour, "_append", real)
    kept = (out / "results.jsonl").read_text().splitlines()
    assert len(kept) == 4 * 15 + 1  # four complete units, then the torn start of the fifth
    code, _, err = run_cli("tournament", "--resume", out, "--no-progress")
    assert code == 0, err
    assert canonical(out) == reference


def test_read_only_directory_gives_one_line_and_changes_nothing(tmp_path, monkeypatch):
    import experiments.tournaments.tournament as tour

    out = tmp_path / "t"
    calls = []
    real = tour._append

    def crash(path, text):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        real(path, text)

    monkeypatch.setattr(tour, "_append", crash)
    with pytest.raises(KeyboardInterrupt):
        tour.run_tournament(_config(), out, progress=False)
    monkeypatch.setattr(tour, "_append", real)
    snapshot = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system", str(out / ".lock"))

    monkeypatch.setattr(tour, "open", read_only, raising=False)  # the lock file is the first write
    code, _, err = run_cli("tournament", "--resume", out, "--no-progress")
    assert_one_line_error(code, err, "Read-only file system")
    count("faults", "read-only (injected)")
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == snapshot


# ---------------------------------------------------------------- a real small file system

@pytest.fixture
def tmpfs(tmp_path):
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mnt)],
                      capture_output=True).returncode != 0:
        pytest.skip("mounting a tmpfs is not allowed here")
    yield mnt
    subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def _remount(mnt: Path, options: str) -> None:
    subprocess.run(["mount", "-o", f"remount,{options}", str(mnt)], check=True, capture_output=True)


def test_real_disk_full_then_read_only_then_resumed(tmpfs, reference):
    out = tmpfs / "t"
    code, _, err = run_cli(*TOUR, "--out", out)  # 240 records do not fit in 256 kB
    assert_one_line_error(code, err, "No space left on device")
    count("faults", "disk full (tmpfs)")
    rows_before = (out / "results.jsonl").read_text()
    assert rows_before  # some units were written before the disk filled
    _remount(tmpfs, "ro")
    for args in (["tournament", "--resume", out, "--no-progress"], ["report", out]):
        code, _, err = run_cli(*args)
        assert_one_line_error(code, err, "Read-only file system")
        count("faults", "read-only (tmpfs)")
    assert (out / "results.jsonl").read_text() == rows_before
    _remount(tmpfs, "rw,size=8m")
    code, _, err = run_cli("tournament", "--resume", out, "--no-progress")
    assert code == 0, err
    assert canonical(out) == reference


# ---------------------------------------------------------------- two processes, one directory

def test_second_process_on_a_running_tournament_is_refused(tmp_path, reference):
    out = tmp_path / "t"
    first = cli_process(*TOUR, "--out", str(out))
    deadline = time.time() + 120
    while time.time() < deadline and first.poll() is None and _lines(out / "results.jsonl") < 1:
        time.sleep(0.005)
    assert first.poll() is None, "the first tournament ended before the second could start"
    second = subprocess.run([sys.executable, "-m", "experiments.cli", "tournament", "--resume", str(out),
                             "--no-progress"], capture_output=True, text=True, timeout=120)
    third = subprocess.run([sys.executable, "-m", "experiments.cli", *TOUR, "--out", str(out)],
                           capture_output=True, text=True, timeout=120)
    count("faults", "second process on one directory")
    assert first.wait(timeout=300) == 0, first.stderr.read()
    line = assert_one_line_error(second.returncode, second.stderr, "in use by another sixnimmt process",
                                 f"pid {first.pid}")
    assert line.startswith("error:")
    assert_one_line_error(third.returncode, third.stderr, "already holds a tournament")
    assert canonical(out) == reference  # the first one's results, whole


def test_lock_is_released_by_a_killed_holder(tmp_path):
    from experiments.tournaments.tournament import DirectoryLock
    out = tmp_path / "t"
    out.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time; from pathlib import Path; "
                               "from experiments.tournaments.tournament import DirectoryLock; "
                               f"l = DirectoryLock(Path({str(out)!r})).__enter__(); print('held', flush=True); "
                               "time.sleep(60)"], stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "held"
    with pytest.raises(ConfigError, match=f"pid {holder.pid}"):
        DirectoryLock(out).__enter__()
    holder.kill()
    holder.wait()
    with DirectoryLock(out):  # a dead holder leaves no stale lock
        pass


# ---------------------------------------------------------------- foreign and half-written directories

@pytest.mark.parametrize("setup, fragment", [
    (lambda d: None, "no tournament.json"),
    (lambda d: (d / "tournament.json").write_text("{torn"), "is not a tournament's config"),
    (lambda d: (d / "tournament.json").write_text("[]"), "is not a tournament's config"),
    (lambda d: (d / "tournament.json").write_text('{"agents": ["random"], "players": [3], "games": 1}'),
     "at least two agents"),
    (lambda d: (d / "tournament.json").write_text('{"agents": ["random", "x"], "players": [3], "games": 1}'),
     "unknown agent 'x'"),
    (lambda d: (d / "tournament.json").write_text('{"agents": ["random", "lowest"], "players": "3", "games": 1}'),
     "players must be a list"),
    (lambda d: (d / "tournament.json").write_text('{"agents": ["random", "lowest"], "players": [3], "games": 1, '
                                                  '"colour": 1}'), "unexpected keyword"),
])
def test_foreign_tournament_directories(tmp_path, setup, fragment):
    d = tmp_path / "d"
    d.mkdir()
    setup(d)
    count("tournament directories", "foreign or broken")
    code, _, err = run_cli("tournament", "--resume", d, "--no-progress")
    assert_one_line_error(code, err, fragment)


def test_results_of_another_tournament_are_not_counted(tmp_path, reference):
    """Rows that are not this tournament's (foreign units, junk lines) are dropped on resume."""
    from experiments.tournaments.tournament import run_tournament
    out = tmp_path / "t"
    run_tournament(_config(), out, progress=False)
    with (out / "results.jsonl").open("a") as f:
        f.write('{"unit": "9/9/9", "players": 9, "lineup": 9, "deal": 0, "rotation": 0, "seats": [], '
                '"totals": [], "rounds": 1, "winners": []}\n[1, 2]\n"junk"\n')
    count("tournament directories", "foreign rows")
    run_tournament(None, out, resume=True, progress=False)
    assert canonical(out) == reference
    (out / "results.jsonl").write_text((out / "results.jsonl").read_text() + "[1, 2]\n{}\n")
    code, _, err = run_cli("report", out)
    assert_one_line_error(code, err, "is not a tournament's game row")


@pytest.mark.parametrize("setup, fragment", [
    (lambda d: None, "holds no training run"),
    (lambda d: (d / "config.json").write_text("{torn"), "not JSON"),
    (lambda d: (d / "config.json").write_text(" " * (16 * 2**20 + 1)), "larger than the limit of"),
    (lambda d: (d / "config.json").write_text("[" * 100 + "]" * 100), "nested"),
    (lambda d: (d / "config.json").write_text('{"players": "4"}'), "players must be a whole number"),
    (lambda d: ((d / "config.json").write_text("{}"), (d / "latest").write_text("ckpt-9")), "cannot read"),
    (lambda d: ((d / "config.json").write_text("{}"), (d / "latest").write_text("ckpt-9"),
                (d / "ckpt-9").mkdir(), (d / "ckpt-9" / "state.json").write_text('{"timesteps": 9}')),
     "not a complete checkpoint"),
])
def test_foreign_and_half_written_training_directories(tmp_path, setup, fragment):
    d = tmp_path / "run"
    d.mkdir()
    setup(d)
    count("training directories", "foreign or broken")
    code, _, err = run_cli("train", "--resume", d, "--no-progress")
    assert_one_line_error(code, err, fragment)


def test_output_error_names_the_file_and_reason(tmp_path):
    from sixnimmt_env.core.records import write_record
    (tmp_path / "f").write_text("")
    with pytest.raises(OutputError, match="cannot write the record .*Not a directory"):
        write_record({}, tmp_path / "f" / "x.json")
    assert not list(tmp_path.glob("**/*.tmp"))
