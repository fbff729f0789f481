"""Checks of plain values that every game and tool repeats: an integer that is not a bool.

JSON, TOML and the command line all give `True` where a number is due, and Python's bool is
an int; every bound (players, counts, seeds, tiles) goes through `is_int` or `check_int`.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from .errors import ConfigError


def is_int(value: Any) -> bool:
    """Whether `value` is an integer (Python or NumPy) and not a bool."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def is_number(value: Any) -> bool:
    """Whether `value` is a real number (int or float, Python or NumPy) and not a bool."""
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))


def check_int(name: str, value: Any, lo: int | None = None, hi: int | None = None, *,
              context: str = "", optional: bool = False,
              error: Callable[[str], Exception] = ConfigError) -> int | None:
    """`value` as an int in lo..hi (either bound may be None: open), else `error(message)`.

    Args:
        name: what the value is, as the message names it ("players").
        value: the value to check.
        lo, hi: the inclusive bounds (None: no bound).
        context: words after the range in the message (" for the board game").
        optional: None is allowed (and returned).
        error: builds the exception from the one-line message (default ConfigError).

    Returns:
        int(value), or None when `optional` and the value is None.
    """
    if optional and value is None:
        return None
    none = " or None" if optional else ""
    if lo is not None and hi is not None:
        bound = f"{lo}..{hi}"
    elif lo in (0, 1) and hi is None:
        bound = "a positive integer" if lo == 1 else "a non-negative integer"
    else:
        bound = f"an integer >= {lo}" if lo is not None else (f"an integer <= {hi}" if hi is not None else "")
    if not is_int(value):
        kind = f"an integer {bound}" if lo is not None and hi is not None else (bound or "an integer")
        raise error(f"{name} must be {kind}{none}{context}, got {value!r}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise error(f"{name} must be {bound}{none}{context}, got {value!r}")
    return int(value)
