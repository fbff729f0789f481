"""Agents the lab does not ship: Python classes named by spec, and installed plug-ins.

- `py:FILE_OR_MODULE:ClassName[:key=value...]` loads `ClassName` from a `.py` file (a
  path, relative to the working directory) or an importable module (`pkg.mod`), and builds
  it with the parameters given. **Loading a file or module runs its code**: that is the
  user's own choice on the command line, which is why such specs are local-only
  (`registry.is_local_only`) and never taken from the network (the web server).
- Plug-ins: an installed distribution declares agents under the entry-point group
  `sixnimmt.agents` (`name = "package.module:ClassName"` in its `[project.entry-points]`);
  each appears in `sixnimmt agents` and plays by its name, like the shipped agents (a
  shipped name wins over a plug-in of the same name).

Either way the object is a class (or a factory function) whose instances follow the
`Agent` protocol. Its parameters are its constructor's keyword parameters: a value given
in a spec is converted to the parameter's annotated type (int, float, bool, str), else to
the type of its default, else passed as a string. A class attribute `games` (e.g.
`("cards",)`) names the game kinds it plays; without it, every game.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import importlib.util
import inspect
import sys
import typing
from pathlib import Path
from typing import Any

from sixnimmt_env.core.errors import ConfigError

ENTRY_POINT_GROUP = "sixnimmt.agents"
PY_PREFIX = "py:"
_SIMPLE = (bool, int, float, str)


def _one_line(e: BaseException) -> str:
    return " ".join(f"{type(e).__name__}: {e}".split())


@functools.lru_cache(maxsize=None)
def _load_file(path: str):
    """The module of a .py file, run once per process (keyed by its resolved path)."""
    file = Path(path)
    if not file.is_file():
        raise ConfigError(f"no Python file {path!r} (a py: spec names a .py file or an importable module)")
    resolved = file.resolve()
    name = "sixnimmt_user_" + hashlib.sha1(str(resolved).encode()).hexdigest()[:12]
    spec = importlib.util.spec_from_file_location(name, resolved)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # so classes defined there pickle and dataclasses resolve
    try:
        spec.loader.exec_module(module)
    except Exception as e:  # the user's code: any error, shown in one line
        sys.modules.pop(name, None)
        raise ConfigError(f"loading {path} failed: {_one_line(e)}") from None
    return module


def _load_module(name: str):
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name and name.startswith(e.name):
            raise ConfigError(f"no module named {name!r} (a py: spec names a .py file or an importable "
                              "module; is it on PYTHONPATH?)") from None
        raise ConfigError(f"importing {name} failed: {_one_line(e)}") from None
    except Exception as e:
        raise ConfigError(f"importing {name} failed: {_one_line(e)}") from None


def load_class(source: str, class_name: str):
    """The agent class `class_name` of a .py file or module (ConfigError: missing file,
    module or class, or no act method)."""
    is_file = source.endswith(".py") or "/" in source or "\\" in source
    module = _load_file(source) if is_file else _load_module(source)
    obj = getattr(module, class_name, None)
    if obj is None:
        found = sorted(n for n, v in vars(module).items() if inspect.isclass(v) and hasattr(v, "act")
                       and getattr(v, "__module__", None) == module.__name__)
        raise ConfigError(f"{source} has no class {class_name!r}"
                          + (f"; agent classes there: {', '.join(found)}" if found else ""))
    check_agent_class(obj, f"{class_name} in {source}")
    return obj


def check_agent_class(obj, what: str) -> None:
    if not callable(obj):
        raise ConfigError(f"{what} is not a class or a function")
    if inspect.isclass(obj) and not callable(getattr(obj, "act", None)):
        raise ConfigError(f"{what} has no act(view, rng) method: an agent answers one legal action per entry")


def parameters(obj) -> tuple[dict[str, Any], set[str]]:
    """A constructor's keyword parameters: name -> a value of its type (its default, or the
    annotated type's zero), and the names of those without a default (required)."""
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return {}, set()
    try:
        hints = typing.get_type_hints(obj.__init__ if inspect.isclass(obj) else obj)
    except Exception:  # unresolvable annotations: fall back to the defaults' types
        hints = {}
    params, required = {}, set()
    for p in sig.parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD, p.POSITIONAL_ONLY):
            continue
        kind = _simple_type(hints.get(p.name))
        if p.default is not p.empty:
            if kind is None:
                kind = type(p.default) if isinstance(p.default, _SIMPLE) else str
            params[p.name] = p.default if isinstance(p.default, kind) and p.default is not None else kind()
        else:
            params[p.name] = (kind or str)()
            required.add(p.name)
    return params, required


def _simple_type(hint) -> type | None:
    if hint in _SIMPLE:
        return hint
    args = [a for a in typing.get_args(hint) if a is not type(None)]  # Optional[int] -> int
    return args[0] if len(args) == 1 and args[0] in _SIMPLE else None


def builder(obj, what: str, required: set[str]):
    """A build(**kwargs) that refuses missing parameters and turns the constructor's
    ValueError/TypeError into ConfigError."""
    def build(**kwargs):
        missing = sorted(required - set(kwargs))
        if missing:
            raise ConfigError(f"{what} needs parameter(s) {', '.join(missing)} (give them as key=value)")
        try:
            agent = obj(**kwargs)
        except ConfigError:
            raise
        except Exception as e:
            raise ConfigError(f"building {what} failed: {_one_line(e)}") from None
        if not callable(getattr(agent, "act", None)):
            raise ConfigError(f"{what} built an object without an act(view, rng) method")
        return agent
    return build


def summary_of(obj, default: str) -> str:
    doc = inspect.getdoc(obj) or ""
    return doc.strip().splitlines()[0] if doc.strip() else default


def games_of(obj) -> tuple[str, ...]:
    from .entries import ANY_GAME
    games = getattr(obj, "games", None)
    if isinstance(games, str):
        return (games,)
    if isinstance(games, (tuple, list)) and games and all(isinstance(g, str) for g in games):
        return tuple(games)
    return ANY_GAME


def entry_for(obj, what: str, summary: str):
    """The registry's AgentEntry of an agent class or factory."""
    from .entries import AgentEntry
    check_agent_class(obj, what)
    params, required = parameters(obj)
    return AgentEntry(builder(obj, what, required), params, summary_of(obj, summary), games_of(obj))


def parse_py_spec(spec: str) -> tuple[str, str, list[str]]:
    """'py:FILE_OR_MODULE:ClassName:k=v' -> (source, class name, ['k=v'])."""
    parts = spec.strip()[len(PY_PREFIX):].split(":")
    if len(parts) < 2 or not parts[0].strip() or not parts[1].strip():
        raise ConfigError(f"agent {spec!r}: a Python agent is py:FILE_OR_MODULE:ClassName[:key=value...]")
    return parts[0].strip(), parts[1].strip(), parts[2:]


def py_entry(spec: str):
    """The AgentEntry of a py: spec (loads the file or module: runs its code)."""
    source, class_name, _ = parse_py_spec(spec)
    return entry_for(load_class(source, class_name), f"{class_name} in {source}", f"Python agent {class_name}")


@functools.lru_cache(maxsize=None)
def plugin_entries() -> dict:
    """Installed plug-ins by name -> AgentEntry (group `sixnimmt.agents`). A plug-in that
    cannot be loaded is listed with the reason, and refuses to build (ConfigError).
    Cached per process; `plugin_entries.cache_clear()` looks again."""
    from importlib.metadata import entry_points

    from .entries import ANY_GAME, AgentEntry
    found = {}
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        dist = getattr(ep.dist, "name", None) or "?"
        what = f"plug-in {ep.name!r} ({ep.value}, from {dist})"
        if ep.name in found:
            continue
        try:
            obj = ep.load()
            entry = obj if isinstance(obj, AgentEntry) else entry_for(obj, what, f"plug-in agent from {dist}")
        except Exception as e:  # ConfigError included: list it, with why it cannot play
            reason = " ".join(str(e).split()) if isinstance(e, ConfigError) else _one_line(e)

            def broken(_reason=f"{what} cannot be loaded: {reason}", **_):
                raise ConfigError(_reason)
            entry = AgentEntry(broken, {}, f"BROKEN: {reason}", ANY_GAME)
        found[ep.name] = AgentEntry(entry.build, entry.params, f"{entry.summary} [plug-in: {dist}]", entry.games)
    return found
