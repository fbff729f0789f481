"""Every file reader is bounded (core/untrusted.py): deep nesting, a 5,000-digit integer,
non-UTF-8 bytes, /dev/zero and an oversized file give the one-line error and exit code 2
in replay, --layout, --config, tournament --resume, report and sweep (its file, base
config and sweep.json), never a traceback, and nothing is read past the size limit
(README "Security")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.fuzz_support import assert_one_line_error, run_cli

KINDS = ["deep", "integer", "bytes", "dev-zero", "oversized"]


def hostile(path: Path, kind: str, limit: int, toml: bool = False) -> Path:
    """Write the hostile file `kind` at `path` (a symlink for /dev/zero, sparse when large)."""
    if kind == "dev-zero":
        path.symlink_to("/dev/zero")
    elif kind == "oversized":
        with open(path, "wb") as f:
            f.write(b"{}")
            f.truncate(limit + 1)
    else:
        body = {"deep": "[" * 100_000 + "]" * 100_000, "integer": "9" * 5000}.get(kind)
        if body is None:
            path.write_bytes(b"\xff\xfe{\"a\": 1}\n")
        else:
            path.write_text(f"a = {body}\n" if toml else f'{{"a": {body}}}\n')
    return path


def check(code, err, kind):
    line = assert_one_line_error(code, err)
    expected = {"deep": "nested deeper", "integer": "digits", "bytes": "not UTF-8",
                "dev-zero": "not a regular file", "oversized": "larger than the limit"}[kind]
    assert expected in line, line


@pytest.mark.parametrize("kind", KINDS)
def test_replay(tmp_path, kind):
    from sixnimmt_env.core.records import MAX_RECORD_BYTES
    f = hostile(tmp_path / "r.json", kind, MAX_RECORD_BYTES)
    code, _, err = run_cli("replay", f)
    check(code, err, kind)


@pytest.mark.parametrize("suffix", [".toml", ".json"])
@pytest.mark.parametrize("kind", KINDS)
def test_layout(tmp_path, kind, suffix):
    from sixnimmt_env.board._layout_files import MAX_LAYOUT_BYTES
    f = hostile(tmp_path / f"l{suffix}", kind, MAX_LAYOUT_BYTES, toml=suffix == ".toml")
    code, _, err = run_cli("match", "--agents", "random,random", "--game", "board", "--games", "1", "--layout", f)
    check(code, err, kind)


@pytest.mark.parametrize("suffix", [".toml", ".json"])
@pytest.mark.parametrize("kind", KINDS)
def test_config(tmp_path, kind, suffix):
    from training.config import MAX_CONFIG_BYTES
    f = hostile(tmp_path / f"c{suffix}", kind, MAX_CONFIG_BYTES, toml=suffix == ".toml")
    code, _, err = run_cli("train", "--config", f, "--runs-dir", tmp_path / "runs")
    check(code, err, kind)


@pytest.fixture(scope="module")
def tournament(tmp_path_factory):
    out = tmp_path_factory.mktemp("t") / "t"
    code, _, err = run_cli("tournament", "--agents", "random,lowest", "--games", "1", "--players-range", "2-2",
                           "--out", out, "--no-progress")
    assert code == 0, err
    return out


def _copy(tournament: Path, to: Path) -> Path:
    to.mkdir()
    for name in ("tournament.json", "results.jsonl"):
        (to / name).write_bytes((tournament / name).read_bytes())
    return to


@pytest.mark.parametrize("kind", KINDS)
def test_tournament_resume(tmp_path, tournament, kind):
    from experiments.tournaments.tournament import MAX_CONFIG_BYTES
    out = _copy(tournament, tmp_path / "t")
    (out / "tournament.json").unlink()
    hostile(out / "tournament.json", kind, MAX_CONFIG_BYTES)
    code, _, err = run_cli("tournament", "--resume", out, "--no-progress")
    check(code, err, kind)


@pytest.mark.parametrize("target", ["tournament.json", "results.jsonl"])
@pytest.mark.parametrize("kind", KINDS)
def test_report(tmp_path, tournament, kind, target):
    from experiments.tournaments import report
    out = _copy(tournament, tmp_path / "t")
    rows = (out / "results.jsonl").read_bytes()
    (out / target).unlink()
    limit = report.MAX_CONFIG_BYTES if target == "tournament.json" else report.MAX_RESULTS_BYTES
    f = hostile(out / target, kind, limit)
    if target == "results.jsonl" and kind in ("deep", "integer"):  # a bad first line, the rows after
        f.write_bytes(f.read_bytes() + rows)
    code, _, err = run_cli("report", out)
    check(code, err, kind)


def test_a_hostile_line_of_results_is_a_torn_one_on_resume(tmp_path, tournament):
    """tournament --resume drops a line it cannot read (as a line torn by a kill) and
    plays its unit again, instead of failing or reading it unbounded."""
    out = _copy(tournament, tmp_path / "t")
    rows = (out / "results.jsonl").read_text()
    (out / "results.jsonl").write_text("[" * 100_000 + "\n" + rows)
    code, _, err = run_cli("tournament", "--resume", out, "--no-progress")
    assert code == 0, err
    assert (out / "results.jsonl").read_text().count("\n") == rows.count("\n")


# ---------------------------------------------------------------------- linear work, FIFOs (issue 48)

def _profiled(parse, text: str) -> int:
    """Profile events (Python and C calls) while `parse(text)` runs; a regular expression
    of untrusted.py applied to the text stops it at once (AssertionError): one that
    backtracks rescans the text from every unterminated quote (an 80 KB record took 21 s)."""
    import sys

    from sixnimmt_env.core import untrusted
    from sixnimmt_env.core.errors import ConfigError

    events = 0

    def profile(frame, event, arg):
        nonlocal events
        events += 1
        if event == "c_call" and frame.f_code.co_filename == untrusted.__file__ \
                and type(getattr(arg, "__self__", None)).__name__ == "Pattern":
            raise AssertionError(f"untrusted.py scans the text with a regular expression ({arg.__qualname__})")

    sys.setprofile(profile)
    try:
        parse(text)
    except ConfigError:
        pass
    finally:
        sys.setprofile(None)
    return events


def test_the_parsers_are_linear_on_the_pathological_shapes():
    """The shapes that were quadratic — `"` and `\\"` over and over, unterminated strings,
    deep brackets — at the record cap (JSON) and at 1/8 and 1/4 of the config cap (TOML:
    tomllib is Python, and the profile slows it 20x): the work, counted as calls, grows
    with the size and no faster, and no regular expression of ours reads the text."""
    from sixnimmt_env.core.records import MAX_RECORD_BYTES
    from sixnimmt_env.core.untrusted import check_tree, loads_json, loads_toml
    from training.config import MAX_CONFIG_BYTES

    n = MAX_RECORD_BYTES // 2
    for text in ('"\\"' * (n // 3), '{"a": "' + '\\"' * n, "[" * n, '{"a":' * (n // 5), '"' * n):
        assert _profiled(loads_json, text) < 200  # json's C scanner: a constant number of calls whatever the size
    for shape in ('a = "{}', 'a = """{}', '"{}', "a = '''{}", "a = [{}]"):
        unit = '"x",' if "[" in shape else '\\"'
        work = [_profiled(loads_toml, shape.format(unit * (MAX_CONFIG_BYTES // k // len(unit)))) for k in (8, 4)]
        assert work[1] <= 2.2 * work[0] + 100 and work[1] <= 16 * MAX_CONFIG_BYTES // 4, (shape, work)  # per byte
    data = [[{"a": [1, "x"]}] * 1000] * 10
    assert check_tree(data, 5) == 1 + 10 + 10_000 * 4  # each value visited once: a dict, a list, 1, "x"


def test_a_fifo_is_refused_before_it_is_opened(tmp_path, monkeypatch):
    """`replay`, --layout and --config of a FIFO answer one line without opening it
    (opening a FIFO for reading waits for a writer: `replay` blocked for ever). Every
    open of the FIFO is recorded; a writer thread stands by, so a reader that does open
    it gets `{}` and the test fails instead of hanging."""
    import builtins
    import os
    import threading

    real_open, real_os_open = builtins.open, os.open
    opened = []
    monkeypatch.setattr(builtins, "open", lambda f, *a, **k: opened.append(str(f)) or real_open(f, *a, **k))
    monkeypatch.setattr(os, "open", lambda f, *a, **k: opened.append(str(f)) or real_os_open(f, *a, **k))
    cases = {"replay": ("replay", "{}"), "layout": ("match", "--agents", "random,random", "--game", "board",
                                                    "--games", "1", "--layout", "{}"),
             "config": ("train", "--config", "{}", "--runs-dir", tmp_path / "runs")}
    for name, args in cases.items():
        fifo = tmp_path / f"{name}.json"
        os.mkfifo(fifo)

        def writer(path=fifo):
            with real_open(path, "w") as f:  # blocks until a reader opens the FIFO
                f.write("{}")

        thread = threading.Thread(target=writer, daemon=True)
        thread.start()
        code, _, err = run_cli(*[fifo if a == "{}" else a for a in args])
        release = real_os_open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # lets the writer through, if nobody read
        thread.join()
        os.close(release)
        line = assert_one_line_error(code, err)
        assert "not a regular file" in line and str(fifo) not in opened, (name, line)


# ---------------------------------------------------------------------- sweep files (issue 60)

@pytest.mark.parametrize("kind", KINDS)
def test_sweep_file(tmp_path, kind):
    """`sixnimmt sweep FILE` read its TOML with a bare tomllib: the file, its base config
    and a resumed sweep.json now go through core/untrusted (one line, exit code 2)."""
    from experiments.backends.sweep import MAX_SPEC_BYTES
    f = hostile(tmp_path / "s.toml", kind, MAX_SPEC_BYTES, toml=True)
    code, _, err = run_cli("sweep", f, "--runs-dir", tmp_path / "runs")
    check(code, err, kind)
    assert not (tmp_path / "runs").exists()


@pytest.mark.parametrize("kind", KINDS)
def test_sweep_base_config_and_saved_sweep(tmp_path, kind):
    from experiments.backends.sweep import MAX_SAVED_BYTES, base_values, read_saved
    from sixnimmt_env.core.errors import ConfigError
    from training.config import MAX_CONFIG_BYTES
    base = hostile(tmp_path / "base.json", kind, MAX_CONFIG_BYTES)
    (tmp_path / "saved").mkdir()
    hostile(tmp_path / "saved" / "sweep.json", kind, MAX_SAVED_BYTES)
    for read in (lambda: base_values({"base": str(base)}, tmp_path), lambda: read_saved(tmp_path / "saved")):
        with pytest.raises(ConfigError) as e:
            read()
        check(2, str(e.value) + "\n", kind)


@pytest.mark.parametrize("text, words", [
    ('name = "x"\ngrid = "seed"\n', "[grid] must be a table"),
    ('name = "x"\nsamples = [1]\n', "samples must be a whole number"),
    ('name = "x"\nmax_concurrent = 0\n', "max_concurrent must be a whole number >= 1"),
    ('name = "../../up"\n', "a sweep file needs a name"),
    ('name = 7\n', "a sweep file needs a name"),
    ('name = "x"\nbase = ["a"]\n', "base must be"),
    ('name = "x"\n[random]\nlr = {loguniform = [0, 1]}\n', "loguniform takes [low, high]"),
    ('name = "x"\n[random]\nn = {randint = ["a", 2]}\n', "randint takes"),
    ('name = "x"\n[random]\nn = {choice = []}\n', "choice takes a non-empty list"),
    ('name = "x"\n[asha]\nreduction_factor = 1\n', "reduction_factor must be a number > 1"),
    ('name = "x"\n[asha]\ngrace = 1\n', "unknown [asha] key"),
])
def test_sweep_fields_of_the_wrong_kind_are_one_line(tmp_path, text, words):
    """Each was an AttributeError, TypeError or ValueError in trials() or under Tune."""
    from experiments.backends.sweep import load_spec
    from sixnimmt_env.core.errors import ConfigError
    (tmp_path / "s.toml").write_text(text)
    with pytest.raises(ConfigError, match=re.escape(words)):
        load_spec(tmp_path / "s.toml")


def test_a_saved_sweep_of_the_wrong_shape_is_one_line(tmp_path):
    import json

    from experiments.backends.sweep import read_saved
    from sixnimmt_env.core.errors import ConfigError
    good = {"spec": {"name": "x"}, "runs_dir": str(tmp_path), "trials": [{"name": "x-00", "train": {}, "params": {}}]}
    for bad, words in (([], "not a sweep's record"), ({**good, "trials": [{"name": 1}]}, "not a sweep's record"),
                       ({**good, "spec": {"name": "x", "seed": "0"}}, "seed must be a whole number"),
                       ({**good, "trials": [{"name": "x-00", "train": {"players": 99}}]}, "trial 'x-00'")):
        (tmp_path / "sweep.json").write_text(json.dumps(bad))
        with pytest.raises(ConfigError, match=re.escape(words)):
            read_saved(tmp_path)
    (tmp_path / "sweep.json").write_text(json.dumps(good))
    assert read_saved(tmp_path) == good
