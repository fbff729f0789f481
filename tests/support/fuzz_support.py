"""Shared pieces of the property-based tests of bad input (tests/test_fuzz_*.py).

`STATS` counts the inputs tried per entry point and kind; with SIXNIMMT_FUZZ_STATS=FILE
the counts are written there at the end of the session (tests/conftest.py), which is
where the README's table of inputs comes from.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from typing import Any

from typer.testing import CliRunner

STATS: Counter = Counter()


def count(entry: str, kind: str) -> None:
    STATS[f"{entry}\t{kind}"] += 1


def run_cli(*args: str):
    """The `sixnimmt` app in process: (exit code, stdout, stderr). Any exception that
    escapes the app (a traceback for the user) fails the test here."""
    from experiments.cli import app

    result = CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"sixnimmt {' '.join(map(str, args))} raised "
                             f"{type(result.exception).__name__}: {result.exception}") from result.exception
    return result.exit_code, result.stdout, result.stderr


def error_lines(stderr: str) -> list[str]:
    """stderr without progress-bar lines (tqdm redraws with carriage returns)."""
    lines = [line.split("\r")[-1].strip() for line in stderr.splitlines()]
    return [line for line in lines if line and "decisions [" not in line and "game/s" not in line]


def assert_one_line_error(code: int, stderr: str, *fragments: str) -> str:
    """Exit code 2 and one line on stderr that contains every fragment."""
    lines = error_lines(stderr)
    assert code == 2, (code, stderr)
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    for fragment in fragments:
        assert fragment.lower() in lines[0].lower(), (fragment, lines[0])
    return lines[0]


# ---------------------------------------------------------------- mutations of JSON values

def paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path to a value inside nested dicts and lists (the root excluded)."""
    out = []
    if isinstance(value, dict):
        for k, v in value.items():
            out.append(prefix + (k,))
            out.extend(paths(v, prefix + (k,)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.append(prefix + (i,))
            out.extend(paths(v, prefix + (i,)))
    return out


RETYPES = ["x", None, [], {}, 1.5, True, -1, 10**9, float("nan")]
MUTATIONS = ("drop", "retype", "out_of_range", "duplicate")


def mutate(doc: Any, path: tuple, how: str, retype: Any = None) -> Any:
    """A deep copy of `doc` with the value at `path` dropped, replaced by another type,
    pushed out of range (ints: -1 or huge; strings: unknown; lists: emptied or grown), or
    duplicated (a list element twice, or a key's value written into its neighbour)."""
    doc = copy.deepcopy(doc)
    *head, last = path
    parent = doc
    for key in head:
        parent = parent[key]
    value = parent[last]
    if how == "drop":
        del parent[last]
    elif how == "retype":
        parent[last] = retype if type(retype) is not type(value) else "x"
    elif how == "out_of_range":
        if isinstance(value, bool):
            parent[last] = 2
        elif isinstance(value, int):
            parent[last] = -1 if value >= 0 else 10**9
        elif isinstance(value, float):
            parent[last] = float("inf")
        elif isinstance(value, str):
            parent[last] = value + "-unknown"
        elif isinstance(value, list):
            parent[last] = value + value if value else [0]
        else:
            parent[last] = {"unexpected": 1}
    elif how == "duplicate":
        if isinstance(parent, list):
            parent.insert(last, copy.deepcopy(value))
        else:
            keys = list(parent)
            other = keys[(keys.index(last) + 1) % len(keys)]
            parent[other] = copy.deepcopy(value)
    return doc


def dumps(doc: Any) -> str:
    return json.dumps(doc, allow_nan=True)
