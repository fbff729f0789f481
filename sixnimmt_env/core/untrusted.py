"""Reading untrusted JSON and TOML with limits: every file or message the lab did not
write itself in this process (records, layouts, configs, run files, model metadata,
WebSocket messages) goes through here.

The limits hold before and while parsing, so a hostile input costs bounded time and
memory and fails with the caller's typed error in one line: a size limit (read at most
that many bytes; devices such as /dev/zero and other non-regular files are refused), a
nesting depth (checked on the text before the parser recurses), integers of at most
`MAX_INT_DIGITS` digits (Python refuses 4,300 with a ValueError deep in the parser), and
strict UTF-8.
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Any

import numpy as np

from .errors import ConfigError

MAX_FILE_BYTES = 64 * 2**20
"""Default size limit of one file (64 MiB: the largest record or run file is far below)."""
MAX_DEPTH = 64
"""Default nesting limit of arrays and objects (the deepest legitimate file nests 5)."""
MAX_INT_DIGITS = 40
"""Digits an integer may have (a 64-bit seed has 20)."""

_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_TOML_STRING = re.compile(r'"""(?:[^\\]|\\.)*?"""|\'\'\'.*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*',
                          re.DOTALL)


def read_bytes(path: str | Path, *, limit: int = MAX_FILE_BYTES, error: type[Exception] = ConfigError,
               what: str | None = None) -> bytes:
    """At most `limit` bytes of the regular file at `path`; `error` naming it (`what`,
    default the path) when it is missing, not a regular file, unreadable or larger."""
    what = what or str(path)
    try:
        with open(path, "rb") as f:
            mode = os.fstat(f.fileno()).st_mode
            if not stat.S_ISREG(mode):
                raise error(f"{what}: not a regular file (a directory or a device?)")
            if os.fstat(f.fileno()).st_size > limit:  # refused unread
                raise error(f"{what}: larger than the limit of {_size(limit)}")
            data = f.read(limit + 1)  # a file still growing stops here
    except IsADirectoryError:
        raise error(f"{what}: not a regular file (a directory or a device?)") from None
    except OSError as e:
        raise error(f"cannot read {what}: {e.strerror or e}") from None
    if len(data) > limit:
        raise error(f"{what}: larger than the limit of {_size(limit)}")
    return data


def decode(data: bytes, *, error: type[Exception] = ConfigError, what: str = "input") -> str:
    """`data` as strict UTF-8 text; `error` naming the first bad byte otherwise."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise error(f"{what}: not UTF-8 text (byte {e.start})") from None


def read_text(path: str | Path, *, limit: int = MAX_FILE_BYTES, error: type[Exception] = ConfigError,
              what: str | None = None) -> str:
    """The UTF-8 text of the regular file at `path`, at most `limit` bytes (see read_bytes)."""
    return decode(read_bytes(path, limit=limit, error=error, what=what), error=error, what=what or str(path))


def loads_json(text: str | bytes, *, error: type[Exception] = ConfigError, what: str = "input",
               depth: int = MAX_DEPTH) -> Any:
    """Parse JSON with the depth and integer limits; `error` naming `what` on any failure."""
    if isinstance(text, bytes):
        text = decode(text, error=error, what=what)
    _check_depth(_JSON_STRING.sub('""', text), depth, error, what)

    def parse_int(digits: str) -> int:
        if len(digits.lstrip("-")) > MAX_INT_DIGITS:
            raise ValueError(f"an integer of more than {MAX_INT_DIGITS} digits")
        return int(digits)

    try:
        return json.loads(text, parse_int=parse_int)
    except json.JSONDecodeError as e:
        raise error(f"{what}: not JSON ({e.msg} at line {e.lineno} column {e.colno})") from None
    except (ValueError, RecursionError) as e:
        raise error(f"{what}: not accepted as JSON ({e})") from None


def loads_toml(text: str, *, error: type[Exception] = ConfigError, what: str = "input",
               depth: int = MAX_DEPTH) -> dict:
    """Parse TOML with the depth and integer limits; `error` naming `what` on any failure."""
    import tomllib

    _check_depth(_TOML_STRING.sub('""', text), depth, error, what)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise error(f"{what}: not TOML ({e})") from None
    except (ValueError, RecursionError) as e:
        raise error(f"{what}: not accepted as TOML ({e})") from None
    _check_ints(data, error, what)
    return data


def read_json(path: str | Path, *, limit: int = MAX_FILE_BYTES, error: type[Exception] = ConfigError,
              what: str | None = None, depth: int = MAX_DEPTH) -> Any:
    """The JSON file at `path`, read within the limits (see read_bytes and loads_json)."""
    what = what or str(path)
    return loads_json(read_text(path, limit=limit, error=error, what=what), error=error, what=what, depth=depth)


def read_toml(path: str | Path, *, limit: int = MAX_FILE_BYTES, error: type[Exception] = ConfigError,
              what: str | None = None, depth: int = MAX_DEPTH) -> dict:
    """The TOML file at `path`, read within the limits (see read_bytes and loads_toml)."""
    what = what or str(path)
    return loads_toml(read_text(path, limit=limit, error=error, what=what), error=error, what=what, depth=depth)


def _check_depth(text: str, limit: int, error: type[Exception], what: str) -> None:
    """Refuse text whose brackets (strings already blanked out) nest deeper than `limit`."""
    raw = np.frombuffer(text.encode("utf-8", "surrogatepass"), dtype=np.uint8)
    if raw.size == 0:
        return
    step = np.isin(raw, (ord("["), ord("{"))).astype(np.int32) - np.isin(raw, (ord("]"), ord("}")))
    if int(np.cumsum(step).max()) > limit:
        raise error(f"{what}: nested deeper than {limit} levels")


def _check_ints(value: Any, error: type[Exception], what: str) -> None:
    """Refuse integers of more than MAX_INT_DIGITS digits anywhere in parsed data."""
    stack = [value]
    bound = 10 ** MAX_INT_DIGITS
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, int) and not isinstance(item, bool) and abs(item) >= bound:
            raise error(f"{what}: an integer of more than {MAX_INT_DIGITS} digits")


def _size(n: int) -> str:
    return f"{n / 2**20:g} MiB" if n >= 2**20 else f"{n:,} bytes"
