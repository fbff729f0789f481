"""Strict JSON out: every JSON file the lab writes and every `--json` it prints.

RFC 8259 has no NaN or Infinity, but Python's `json` writes them as bare tokens by default,
and jq, JavaScript's `JSON.parse` and strict parsers (pandas') refuse such a file. So the
lab's writers go through `json_text` (or `write_json`): a float that is not finite becomes
`null`, and the text is made with `allow_nan=False`. In the lab's figures a `null` means
"no value": mostly a 95% interval's half-width over one sample (a 1-deal match or
tournament gives no interval, agents.results.mean_ci). The readers of those files take
`null` where such a figure may sit (agents.results.AgentResult.from_dict reads it back as
NaN; `sixnimmt reproduce` treats it as no new interval).

Reading stays lenient (core/untrusted.py): files written before this accept their NaN.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Callable

from .errors import writing

__all__ = ["finite", "json_text", "write_json"]


def finite(data: Any) -> Any:
    """`data` with every float that is not finite (NaN, +-Infinity) replaced by None, in
    dicts, lists and tuples at any depth (tuples become lists, as JSON writes them).
    Other values are returned as they are."""
    if isinstance(data, float):  # NumPy's float64 is a float
        return data if math.isfinite(data) else None
    if isinstance(data, dict):
        return {key: finite(value) for key, value in data.items()}
    if isinstance(data, (list, tuple)):
        return [finite(value) for value in data]
    return data


def json_text(data: Any, *, indent: int | None = None, default: Callable[[Any], Any] | None = None,
              **options: Any) -> str:
    """`data` as strict JSON text (json.dumps' `indent`, `default` and other options):
    non-finite floats written as null, never as NaN or Infinity.

    Raises:
        TypeError: a value JSON cannot hold (and `default` does not turn into one).
        ValueError: a circular reference (RecursionError if it also holds a non-finite float).
    """
    try:  # the common case, nothing to replace: the C encoder alone
        return json.dumps(data, indent=indent, default=default, allow_nan=False, **options)
    except ValueError as e:  # a non-finite float somewhere: replaced below; a cycle: raised
        if "Out of range float" not in str(e):
            raise
    finite_default = None if default is None else (lambda value: finite(default(value)))
    return json.dumps(finite(data), indent=indent, default=finite_default, allow_nan=False, **options)


def write_json(path: str | Path, data: Any, *, indent: int | None = 1, what: object = None) -> None:
    """Write `data` as strict JSON (`json_text`, indented by `indent`, a newline at the end)
    to `path` atomically: a temporary file, then a rename, so a killed writer leaves the
    whole old file or the whole new one. OutputError (naming `what`, default the path) if
    it cannot be written; no temporary file is left behind."""
    path = Path(path)
    text = json_text(data, indent=indent) + "\n"
    tmp = path.with_name(path.name + ".tmp")
    with writing(path if what is None else what):
        try:
            tmp.write_text(text)
            tmp.replace(path)
        finally:
            tmp.unlink(missing_ok=True)
