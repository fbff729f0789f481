"""Checks of what a caller hands an environment: actions and reset options.

An action is an integer: a Python or NumPy integer, or a one-element integer array (what
a policy's `predict` gives). Anything else — a float (also a whole one: 3.0 is more
likely a bug than a choice), NaN, a bool, a string, an array of another shape — is an
IllegalActionError naming the agent and what was given, before the rules see it; an
integer out of range is the rules' illegal action, with the legal set in the message.
"""

from __future__ import annotations

import numbers
import warnings
from typing import Any

import numpy as np

from ..core.errors import ConfigError, IllegalActionError
from ..core.game import Game


def action_int(value: Any, who: str) -> int:
    """`value` as an int action of `who` (IllegalActionError if it is not an integer)."""
    if isinstance(value, np.ndarray) and value.size == 1 and value.dtype.kind in "iu":
        value = value.reshape(()).item()
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise IllegalActionError(f"{who}: an action is an integer, got {type(value).__name__} {_show(value)}")
    if not -2**63 <= int(value) < 2**63:
        raise IllegalActionError(f"{who}: action {int(value)} is out of range")
    return int(value)


def action_array(values: Any, n: int, who: str = "actions") -> np.ndarray:
    """(n,) int64 actions from an array-like of n integers (or shape (n, 1))."""
    arr = np.asarray(values)
    if arr.dtype.kind not in "iu":
        raise IllegalActionError(f"{who}: expected integer actions, got dtype {arr.dtype} {_show(values)}")
    if arr.size != n or arr.ndim > 2 or (arr.ndim == 2 and arr.shape[1] != 1):
        raise IllegalActionError(f"{who}: expected {n} actions (shape ({n},)), got shape {arr.shape}")
    return arr.astype(np.int64).reshape(n)


def action_dict(actions: Any, agents: list[str], live: list[str]) -> list[int]:
    """The int action of every agent from a {agent: action} dict: every live agent acts,
    and no key names an agent that is not at the table (IllegalActionError)."""
    if not isinstance(actions, dict):
        raise IllegalActionError(f"step takes a dict {{agent: action}}, got {type(actions).__name__}")
    unknown = [str(a) for a in actions if a not in agents]
    if unknown:
        raise IllegalActionError(f"no agent {', '.join(unknown)} at this table; agents: {', '.join(agents)}")
    missing = [a for a in live if a not in actions]
    if missing:
        raise IllegalActionError(f"no action for {', '.join(missing)}; every live agent acts each step")
    return [action_int(actions[a], a) for a in agents]


def reset_options(options: Any, known: tuple[str, ...]) -> dict:
    """The reset options as a dict (ConfigError if they are not one). Unknown names get a
    warning, not an error: the PettingZoo and Gymnasium checkers reset with options of
    their own, which an env must accept; a typo like "dael" is still not silent."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise ConfigError(f"reset options are a dict, got {type(options).__name__}")
    unknown = sorted(str(k) for k in options if k not in known)
    if unknown:
        warnings.warn(f"unknown reset option(s) ignored: {', '.join(unknown)}; "
                      f"valid: {', '.join(known) or 'none'}", UserWarning, stacklevel=3)
    return options


def seed_int(seed: Any) -> int | None:
    """A reset seed: None or an integer >= 0 (ConfigError otherwise)."""
    if seed is None:
        return None
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ConfigError(f"seed must be None or an integer >= 0, got {_show(seed)}")
    return int(seed)


def finite_number(name: str, value: Any) -> float:
    """A finite real number option (ConfigError otherwise)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real) or not np.isfinite(value):
        raise ConfigError(f"{name} must be a finite number, got {_show(value)}")
    return float(value)


def legal_list(game: Game, legal_mask: np.ndarray, limit: int = 12) -> str:
    """The legal actions of a mask in words (for an illegal action's message), the first
    `limit` of them."""
    legal = np.flatnonzero(legal_mask).tolist()
    described = ", ".join(f"{a} ({game.describe_action(a)})" for a in legal[:limit])
    return described + (f", ... ({len(legal)} in all)" if len(legal) > limit else "")


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
