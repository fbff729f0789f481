"""Which agents a page may seat: the allow-list the person starting `sixnimmt serve` sets.

A page names its opponents by agent spec, but the server decides what runs: every spec
from the network is checked against this list before the registry sees it. An entry is
an agent spec whose numeric parameters may be ranges `LO..HI`:

- `mcs:rollouts=1..400`: mcs with 1 to 400 rollouts (its other parameters at their
  defaults); `mcs` alone would be mcs with its defaults only;
- `ppo`: the shipped model of the table (no parameter may be given);
- `ppo:path=models/mine.zip`: that one file, named by the page exactly as written here.

A page never sets a parameter the list does not open (so never a `path=` of its own),
never a value outside a range, and never a `py:` or `cmd:` agent (those run code of the
spec's choosing: `agents.registry.is_local_only`; the list refuses them too). `default`
in the list stands for DEFAULT_ALLOW. The spec an allowed request builds is its
canonical text (parameters equal to the default dropped), so the server's agent cache
(agents.py) holds one agent per distinct agent, not one per spelling.
"""

from __future__ import annotations

from dataclasses import dataclass

from agents.registry import available, check_spec, is_local_only, parse_spec
from sixnimmt_env.core.errors import ConfigError

MAX_ROLLOUTS = 400  # mcs per decision: ~20 ms (cards), ~60 ms (board), ~300 ms (board pro), as the hints' mcs
DEFAULT_ALLOW = ("random", "lowest", "highest", "min-gap", "safe-high", "greedy", "bayes",
                 "board-greedy", "board-safe", "board-green", f"mcs:rollouts=1..{MAX_ROLLOUTS}", "ppo", "guided")
MAX_SPEC = 200  # characters of one agent spec from a page


class NotAllowedError(ConfigError):
    """An agent spec from the network that this server does not run."""


def _range(text: str) -> tuple[float, float] | None:
    """`LO..HI` -> (LO, HI); None when the text is a plain value."""
    lo, sep, hi = text.partition("..")
    if not sep:
        return None
    try:
        bounds = float(lo), float(hi)
    except ValueError:
        raise ConfigError(f"allow-list: {text!r} is not a range LO..HI of numbers") from None
    if not bounds[0] <= bounds[1]:
        raise ConfigError(f"allow-list: the range {text!r} is empty")
    return bounds


@dataclass(frozen=True)
class Entry:
    """One allow-list entry: a name, fixed parameter values and numeric ranges."""

    text: str
    name: str
    fixed: tuple[tuple[str, str], ...]
    ranges: tuple[tuple[str, float, float], ...]

    def admits(self, given: dict[str, str]) -> str | None:
        """None when the given parameters fit this entry, else why not."""
        fixed, ranges = dict(self.fixed), {k: (lo, hi) for k, lo, hi in self.ranges}
        for key, value in given.items():
            if key in fixed:
                if value != fixed[key]:
                    return f"{key}={value[:40]!r} is not the {key} this server allows"
            elif key in ranges:
                lo, hi = ranges[key]
                try:
                    number = float(value)
                except ValueError:
                    return f"{key}={value[:40]!r} is not a number"
                if not lo <= number <= hi:
                    return f"{key}={value[:40]} is outside {lo:g}..{hi:g} on this server"
            else:
                return f"parameter {key} is not open to the page on this server"
        return None


def parse_entry(text: str) -> Entry:
    """An allow-list entry from its text (ConfigError naming what is wrong)."""
    if is_local_only(text):
        raise ConfigError(f"allow-list: {text!r} runs code of its own (py:, cmd:); a server does not offer it")
    name, params = parse_spec(text)
    entries = [e for e in (available(game).get(name) for game in _games()) if e is not None]
    if not entries:
        raise ConfigError(f"allow-list: unknown agent {name!r}; agents: {', '.join(available())}")
    fixed, ranges = [], []
    for key, value in params.items():
        bounds = _range(value)
        if bounds is None:
            fixed.append((key, value))
            continue
        defaults = [e.params[key] for e in entries if key in e.params]
        if not defaults or not all(isinstance(d, (int, float)) and not isinstance(d, bool) for d in defaults):
            raise ConfigError(f"allow-list: {text!r}: only a numeric parameter takes a range, not {key!r}")
        ranges.append((key, *bounds))
    check_spec(":".join([name] + [f"{k}={v}" for k, v in fixed]))  # the names and types of the fixed values
    for key, value in fixed:
        if key == "path":  # the operator's own file: read (as weights only) now, so a bad one stops the start
            from agents.ppo import load_model
            load_model(value)
    return Entry(text, name, tuple(fixed), tuple(ranges))


def _games() -> tuple[str, ...]:
    from sixnimmt_env.core.game import GAMES
    return tuple(GAMES)


class AllowList:
    """The agents a page may seat (see the module doc)."""

    def __init__(self, texts=("default",)):
        expanded = [t for text in texts for t in (DEFAULT_ALLOW if text.strip() == "default" else (text,))]
        if not expanded:
            raise ConfigError("allow-list: no agent at all; give at least one --allow SPEC")
        self.entries = [parse_entry(t.strip()) for t in dict.fromkeys(expanded)]

    @property
    def texts(self) -> list[str]:
        return [e.text for e in self.entries]

    def names(self, game: str) -> list[str]:
        """The allowed agent names that play game kind `game`."""
        plays = available(game)
        return sorted({e.name for e in self.entries if e.name in plays})

    def check(self, spec, game: str) -> str:
        """The canonical spec to build for `spec` from a page at a `game` table;
        NotAllowedError (one line naming what is refused) unless the list allows it."""
        if not isinstance(spec, str) or not spec.strip():
            raise NotAllowedError("an opponent is an agent spec such as mcs:rollouts=100")
        if len(spec) > MAX_SPEC:
            raise NotAllowedError(f"agent spec too long ({len(spec)} characters)")
        if is_local_only(spec):
            raise NotAllowedError("py: and cmd: agents run code on the server: a page cannot seat them")
        try:
            name, given = parse_spec(spec)
        except ConfigError as e:
            raise NotAllowedError(str(e)) from None
        entries = [e for e in self.entries if e.name == name]
        if name not in self.names(game):
            raise NotAllowedError(f"agent {name[:40]!r} is not offered for the {game} game on this server; "
                                  f"offered: {', '.join(self.names(game))}")
        reasons = [e.admits(given) for e in entries]
        if None not in reasons:
            allowed = ", ".join(e.text for e in entries)
            raise NotAllowedError(f"agent {name!r}: {reasons[0]} (allowed: {allowed})")
        check_spec(spec, game)  # the types of the values
        return self._canonical(name, given, game)

    @staticmethod
    def _canonical(name: str, given: dict[str, str], game: str) -> str:
        """One text per distinct agent: parameters in the registry's order, defaults dropped."""
        defaults = available(game)[name].params
        parts = []
        for key, default in defaults.items():
            if key not in given:
                continue
            value = given[key]
            if isinstance(default, (int, float)) and not isinstance(default, bool):
                number = type(default)(value)  # check_spec has converted it once already
                if number == default:
                    continue
                value = str(number)
            parts.append(f"{key}={value}")
        return ":".join([name] + parts)

    def first(self, game: str) -> str:
        """The first entry of the list that plays game kind `game`, as a spec (a default seat)."""
        plays = available(game)
        for e in self.entries:
            if e.name in plays:
                return ":".join([e.name] + [f"{k}={v}" for k, v in e.fixed])
        raise ConfigError(f"this server offers no agent for the {game} game")
