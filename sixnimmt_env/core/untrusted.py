"""Reading untrusted JSON and TOML with limits: every file or message the lab did not
write itself in this process (records, layouts, configs, run files, model metadata,
WebSocket messages) goes through here.

The limits hold before and while parsing, so a hostile input costs bounded time and
memory and fails with the caller's typed error in one line: a size limit (read at most
that many bytes; FIFOs, devices such as /dev/zero and other non-regular files are
refused before they are opened for reading), a nesting depth, integers of at most
`MAX_INT_DIGITS` digits (Python refuses 4,300 with a ValueError deep in the parser), and
strict UTF-8.

Every step is linear in the input's size: the parsers are the standard library's (`json`
in C, `tomllib` token by token; both raise RecursionError, not a crash, past Python's
recursion limit), and the depth and integer limits are checked on the parsed data by one
walk that visits each value once (`check_tree`). No regular expression of ours scans the
text: the string pattern that blanked strings out before a bracket count rescanned to the
end of the text from every unterminated quote (an 80 KB record of `"` and `\\"` took 21 s).
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any, Callable

from .errors import ConfigError

MAX_FILE_BYTES = 64 * 2**20
"""Default size limit of one file (64 MiB: the largest record or run file is far below)."""
MAX_DEPTH = 64
"""Default nesting limit of arrays and objects (the deepest legitimate file nests 5)."""
MAX_INT_DIGITS = 40
"""Digits an integer may have (a 64-bit seed has 20)."""


def read_bytes(path: str | Path, *, limit: int = MAX_FILE_BYTES, error: type[Exception] = ConfigError,
               what: str | None = None) -> bytes:
    """At most `limit` bytes of the regular file at `path`; `error` naming it (`what`,
    default the path) when it is missing, not a regular file, unreadable or larger.

    A FIFO, socket or device is refused from its `stat`, before it is opened for reading
    (opening a FIFO blocks until a writer comes); the file is then opened without
    blocking and checked again, so one swapped in between is refused too."""
    what = what or str(path)
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise error(f"{what}: not a regular file (a directory, a FIFO or a device?)")
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
        with open(fd, "rb") as f:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise error(f"{what}: not a regular file (a directory, a FIFO or a device?)")
            if info.st_size > limit:  # refused unread
                raise error(f"{what}: larger than the limit of {_size(limit)}")
            data = f.read(limit + 1)  # a file still growing stops here
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


def _refuse_long_int(digits: str) -> Any:
    raise ValueError(f"an integer of more than {MAX_INT_DIGITS} digits")


def _int_parser(long_int: Callable[[str], Any]) -> Callable[[str], Any]:
    """json's integer hook: text of more than MAX_INT_DIGITS digits goes to `long_int`
    before `int` converts it (Python refuses 4,300 digits with a ValueError)."""
    def parse(digits: str) -> Any:
        if len(digits) - digits.startswith("-") > MAX_INT_DIGITS:
            return long_int(digits)
        return int(digits)
    return parse


_PARSE_INT = _int_parser(_refuse_long_int)


def loads_json(text: str | bytes, *, error: type[Exception] = ConfigError, what: str = "input",
               depth: int = MAX_DEPTH, long_int: Callable[[str], Any] | None = None) -> Any:
    """Parse JSON with the depth and integer limits; `error` naming `what` on any failure.

    Args:
        text: the JSON text, or its bytes (strict UTF-8).
        error: the exception type raised, with one line naming `what`.
        what: what the text is, as the error names it (a path, "message", ...).
        depth: the deepest nesting of arrays and objects accepted (a top-level array is 1).
        long_int: what an integer of more than MAX_INT_DIGITS digits becomes, called with
            its text (default: refused). The web server keeps one as a placeholder, so the
            field that holds it is the one named in the error.
    """
    if isinstance(text, bytes):
        text = decode(text, error=error, what=what)
    parse_int = _PARSE_INT if long_int is None else _int_parser(long_int)
    return _parse_bounded(lambda t: json.loads(t, parse_int=parse_int), text, "JSON", json.JSONDecodeError,
                          error=error, what=what, depth=depth, level=1)


def loads_toml(text: str, *, error: type[Exception] = ConfigError, what: str = "input",
               depth: int = MAX_DEPTH) -> dict:
    """Parse TOML with the depth and integer limits; `error` naming `what` on any failure."""
    import tomllib

    # level 0: the document is a table without brackets
    return _parse_bounded(tomllib.loads, text, "TOML", tomllib.TOMLDecodeError, error=error, what=what,
                          depth=depth, level=0)


def _parse_bounded(parse: Callable[[str], Any], text: str, kind: str, syntax_error: type[ValueError], *,
                   error: type[Exception], what: str, depth: int, level: int) -> Any:
    """`parse(text)` within the depth and integer limits: one home for how the JSON and TOML
    readers turn each failure into `error` naming `what` (a syntax error, nesting past
    Python's recursion limit, a value the parser refuses), then the walk of `check_tree`."""
    try:
        data = parse(text)
    except syntax_error as e:
        raise error(f"{what}: not {kind} ({_syntax_message(e)})") from None
    except RecursionError:
        raise error(f"{what}: nested deeper than {depth} levels") from None
    except ValueError as e:
        raise error(f"{what}: not accepted as {kind} ({e})") from None
    check_tree(data, depth, error, what, level=level)
    return data


def _syntax_message(e: ValueError) -> str:
    """A parser's syntax error in a few words: json's message and place, tomllib's text."""
    if isinstance(e, json.JSONDecodeError):
        return f"{e.msg} at line {e.lineno} column {e.colno}"
    return str(e)


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


def check_tree(value: Any, depth: int, error: type[Exception] = ConfigError, what: str = "input", *,
               level: int = 1) -> int:
    """Refuse parsed data whose arrays and objects nest deeper than `depth` or that holds
    an integer of more than MAX_INT_DIGITS digits; the number of values visited (each
    value once, without recursion: the work is linear in the data's size). `level`: the
    nesting level of `value` itself."""
    bound = 10 ** MAX_INT_DIGITS
    stack = [(value, level)]
    visited = 0
    while stack:
        item, level = stack.pop()
        visited += 1
        if isinstance(item, (dict, list)):
            if level > depth:
                raise error(f"{what}: nested deeper than {depth} levels")
            stack.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
        elif isinstance(item, int) and not isinstance(item, bool) and abs(item) >= bound:
            raise error(f"{what}: an integer of more than {MAX_INT_DIGITS} digits")
    return visited


def _size(n: int) -> str:
    return f"{n / 2**20:g} MiB" if n >= 2**20 else f"{n:,} bytes"
