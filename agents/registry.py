"""Agents by spec string: `name` or `name:key=value:key=value`, e.g. `mcs:rollouts=100`.

One registry builds every agent; unknown names or parameters give an error that lists
the valid ones.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from sixnimmt_env.core.errors import ConfigError

from . import Agent

ANY_GAME = ("*",)


@dataclasses.dataclass(frozen=True)
class AgentEntry:
    """How to build one kind of agent, and what it is."""

    build: Callable[..., Agent]
    params: dict[str, Any]  # name -> default (its type is the parameter's type)
    summary: str
    games: tuple[str, ...] = ("cards",)  # the game kinds it plays; ANY_GAME: every one


def _heuristic(rule: str) -> AgentEntry:
    from .cards.heuristics import HeuristicAgent
    summaries = {
        "lowest": "its lowest card that lands safely",
        "highest": "plays its highest card",
        "min-gap": "the card landing closest above a row end without being a sixth card",
        "safe-high": "its highest card that lands safely",
        "greedy": "the card that would cost least if played alone now",
    }
    return AgentEntry(lambda: HeuristicAgent(rule), {}, summaries[rule])


def _entries() -> dict[str, AgentEntry]:
    from .random_agent import RandomAgent
    from .cards.search import BayesAgent, MonteCarloAgent
    from .ppo import PPOAgent  # torch and SB3 load only when a model does

    entries = {"random": AgentEntry(RandomAgent, {}, "uniformly random legal action", ANY_GAME)}
    for rule in ("lowest", "highest", "min-gap", "safe-high", "greedy"):
        entries[rule] = _heuristic(rule)
    entries["bayes"] = AgentEntry(BayesAgent, {"samples": 200},
                                  "one-step expected penalty over sampled plays of the others")
    entries["mcs"] = AgentEntry(MonteCarloAgent, {"rollouts": 100, "score": "own"},
                                "flat Monte-Carlo search: rollouts of the rest of the round per card")
    entries["ppo"] = AgentEntry(PPOAgent, {"path": "", "deterministic": True},
                                "a trained MaskablePPO model (no path: the shipped 4-player model)", ANY_GAME)
    return entries


def available() -> dict[str, AgentEntry]:
    """Every agent kind by name."""
    return _entries()


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """'mcs:rollouts=100' -> ('mcs', {'rollouts': '100'})."""
    name, *parts = spec.strip().split(":")
    params = {}
    for part in parts:
        if "=" not in part:
            raise ConfigError(f"agent {spec!r}: parameter {part!r} must look like key=value")
        key, value = part.split("=", 1)
        params[key.strip()] = value.strip()
    return name.strip(), params


def _convert(spec: str, key: str, value: str, default: Any) -> Any:
    kind = type(default)
    try:
        if kind is bool:
            if value.lower() not in ("true", "false", "1", "0", "yes", "no"):
                raise ValueError
            return value.lower() in ("true", "1", "yes")
        return kind(value)
    except ValueError:
        raise ConfigError(f"agent {spec!r}: {key}={value!r} is not a valid {kind.__name__}") from None


def make_agent(spec: str, game: str | None = None) -> Agent:
    """Build the agent a spec string names (for game kind `game`, when given: an agent
    that cannot play it is refused)."""
    entries = available()
    name, given = parse_spec(spec)
    if name not in entries:
        raise ConfigError(f"unknown agent {name!r}; valid agents: {', '.join(entries)}")
    entry = entries[name]
    if game is not None and entry.games != ANY_GAME and game not in entry.games:
        playable = ", ".join(n for n, e in entries.items() if e.games == ANY_GAME or game in e.games)
        raise ConfigError(f"agent {name!r} plays {', '.join(entry.games)}, not {game!r}; "
                          f"agents for {game!r}: {playable}")
    unknown = set(given) - set(entry.params)
    if unknown:
        valid = ", ".join(f"{k} (default {v!r})" for k, v in entry.params.items()) or "none"
        raise ConfigError(f"agent {name!r} has no parameter {', '.join(sorted(unknown))}; "
                          f"valid parameters: {valid}")
    kwargs = {k: _convert(spec, k, v, entry.params[k]) for k, v in given.items()}
    try:
        agent = entry.build(**kwargs)
    except ValueError as e:  # an agent's own check of its parameters (ConfigError passes as is)
        if isinstance(e, ConfigError):
            raise
        raise ConfigError(f"agent {spec!r}: {e}") from None
    agent.name = spec.strip()
    return agent


def describe() -> str:
    """One line per agent: name, parameters, summary."""
    lines = []
    for name, e in available().items():
        params = ":".join(f"{k}={v}" for k, v in e.params.items())
        games = "any game" if e.games == ANY_GAME else ", ".join(e.games)
        lines.append(f"{name + (':' + params if params else ''):40} {e.summary} ({games})")
    return "\n".join(lines)
