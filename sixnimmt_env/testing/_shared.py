"""What the checks of every env form share: finding our env inside a wrapper, comparing
traces, naming what lies outside a space, running a library's own checker quietly."""

from __future__ import annotations

import contextlib
import copy
import io
import pickle
import re
import warnings
from typing import Callable

import numpy as np

from ..core.rewards import step_rewards


def inner(env, cls):
    """Our env of class `cls` inside `env` (env itself, or down a wrapper chain), or None."""
    seen = set()
    while env is not None and id(env) not in seen:
        if isinstance(env, cls):
            return env
        seen.add(id(env))
        env = next((getattr(env, a) for a in ("env", "venv", "par_env", "aec_env", "unwrapped")
                    if getattr(env, a, None) is not None and getattr(env, a) is not env), None)
    return None


class Found:
    """The problems of one check: the first of each kind in full, then how many more."""

    def __init__(self):
        self.first: dict[str, str] = {}
        self.more: dict[str, int] = {}

    def add(self, kind: str, message: str) -> None:
        if kind in self.first:
            self.more[kind] = self.more.get(kind, 0) + 1
        else:
            self.first[kind] = message

    def lines(self) -> list[str]:
        return [m + (f" (and {self.more[k]} more like it)" if k in self.more else "") for k, m in self.first.items()]


def difference(a, b, where: str = "") -> str | None:
    """Where two nested dicts/lists/arrays/numbers first differ (arrays bit for bit), or None."""
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            return f"{where or 'keys'}: keys {sorted(map(str, a))} vs {sorted(map(str, b))}"
        return next((d for k in a if (d := difference(a[k], b[k], f"{where}[{k!r}]"))), None)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        if len(a) != len(b):
            return f"{where}: {len(a)} vs {len(b)} items"
        return next((d for i, (x, y) in enumerate(zip(a, b)) if (d := difference(x, y, f"{where}[{i}]"))), None)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        same = a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
        return None if same else f"{where}: arrays differ"
    return None if a == b or (a != a and b != b) else f"{where}: {a!r} vs {b!r}"


def outside(space, obs, layout=None) -> str | None:
    """Why `obs` is not in `space` (naming the layout's fields where it can), or None."""
    import gymnasium
    if space.contains(obs):
        return None
    if isinstance(space, gymnasium.spaces.Dict) and isinstance(obs, dict):
        for key, sub in space.spaces.items():
            if key not in obs:
                return f"no {key!r} key"
            why = outside(sub, obs[key], layout)
            if why:
                return f"{key!r} {why}"
        return f"keys {sorted(obs)} are not the space's {sorted(space.spaces)}"
    if isinstance(space, gymnasium.spaces.Box):
        x = np.asarray(obs)
        if x.shape != space.shape or x.dtype != space.dtype:
            return f"has shape {x.shape} dtype {x.dtype}, the space {space.shape} {space.dtype}"
        bad = (x < space.low) | (x > space.high) | ~np.isfinite(x)
        if layout is not None and x.shape == (layout.size,):
            return "outside its bounds in " + ", ".join(f for f, part in layout.decode(bad).items() if part.any())
        return f"outside its bounds at indices {np.flatnonzero(bad)[:5].tolist()}"
    return "is not in the space"


def legal(mask, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(np.asarray(mask))))


def copies() -> dict[str, Callable]:
    ways: dict[str, Callable] = {"pickle": lambda e: pickle.loads(pickle.dumps(e)), "deepcopy": copy.deepcopy}
    try:
        import cloudpickle
        ways["cloudpickle"] = lambda e: pickle.loads(cloudpickle.dumps(e))
    except ImportError:
        pass
    return ways


def expected(kind: str, start, end, over: bool, utility: int) -> np.ndarray:
    """(P,) a seat's rewards summed over an episode from its (P,) totals at start and end:
    the reward modes are sums of per-step terms linear in the totals (rank: only at the end)."""
    start, end = np.asarray(start, np.float64)[:, None], np.asarray(end, np.float64)[:, None]
    return step_rewards(kind, start, end, np.array([over]), utility)[:, 0]


def _plain(message) -> str:
    """A warning as one plain line (no colour codes)."""
    return " ".join(re.sub(r"\x1b\[[0-9;]*m", "", str(message)).split()).removeprefix("WARN: ")[:300]


def _quiet(fn: Callable, *args, **kwargs) -> tuple[bool, list[str]]:
    """Run a library's checker: (whether it failed, its failure and its own warnings as
    lines); its printing is swallowed."""
    found, failed = [], False
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("always")
        try:
            fn(*args, **kwargs)
        except Exception as e:  # noqa: BLE001 (any failure of the checker is the env's problem)
            failed = True
            found.append(f"{type(e).__name__}: {_plain(e) or 'failed'}")
    top = (getattr(fn, "__module__", "") or "").split(".")[0]
    # Only the checker's own warnings; the checkers reset with options of their own, which
    # our envs accept with a warning of theirs (adapters/checks.reset_options).
    # Gymnasium's note that a wrapped env is not the raw one is what a wrapper check expects.
    found += [text for w in caught if top and f"/{top}/" in w.filename.replace("\\", "/")
              and not (text := _plain(w.message)).startswith(("unknown reset option", "render"))
              and "different from the unwrapped version" not in text]
    return failed, found


def library_check(name: str, fn: Callable, *args, **kwargs) -> tuple[bool, list[str]]:
    """A library's own checker (`name`) as api problems: (whether it failed, the lines)."""
    failed, lines = _quiet(fn, *args, **kwargs)
    return failed, [f"api: {name}: {m}" for m in lines]


def api_and_seeds(skip, seed: int, check: Callable[[], tuple[bool, list[str]]],
                   play: Callable[[], list]) -> tuple[bool, list[str]]:
    """A library's checker (`check`: stop when it fails, the checks after it rely on the
    API), then `play()` (the same seed, the same actions) twice: the same trace."""
    problems: list[str] = []
    if "api" not in skip:
        failed, problems = check()
        if failed:
            return True, problems
    if "seeds" not in skip:
        diff = difference(play(), play())
        if diff:
            problems.append(f"seeds: seed {seed} twice with the same actions plays differently ({diff})")
    return False, problems


def copy_failed(how: str, error: Exception) -> str:
    return f"copies: a {how} copy fails: {type(error).__name__}: {_plain(error)[:200]}"
