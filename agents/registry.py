"""Agents by spec string: `name` or `name:key=value:key=value`, e.g. `mcs:rollouts=100`.

One registry builds every agent; unknown names or parameters give an error that lists
the valid ones.

Besides the shipped names: installed plug-ins (entry-point group `sixnimmt.agents`) by
their names, `py:FILE_OR_MODULE:ClassName[:key=value...]` (a Python class: agents.plugins)
and `cmd:COMMAND[:timeout=S]` (a program in any language: agents.external). The last two
run code of the user's choosing: `is_local_only(spec)` tells them, so that no server takes
them from the network.

A name may have one implementation per game kind (`mcs` has one for the card games and
one for the board game). Each implementation is an `AgentEntry` that lists the games it
plays. `make_agent(spec, game)` builds the implementation for `game`; without a game, a
name with a single implementation builds it, and a name with
several builds a `PerGameAgent`, which builds every implementation and hands each view to
the one for the view's game (`view.config.game`). So a spec like `mcs` plays whatever
table it sits at — in a match, a tournament, a training pool or a terminal game — and
callers that know the game (the arena) get the implementation itself and a clear error
for an agent that cannot play there.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sixnimmt_env.core.errors import ConfigError
from sixnimmt_env.core.game import DEFAULT_GAME

from . import Agent
from .entries import ANY_GAME, AgentEntry


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


def _board_heuristic(rule: str) -> AgentEntry:
    from .board.heuristics import SUMMARIES, BoardHeuristicAgent
    return AgentEntry(lambda: BoardHeuristicAgent(rule), {}, SUMMARIES[rule], ("board",))


def _guided(**kwargs) -> Agent:
    from .cards.guided import GuidedSearchAgent  # torch loads only when it is built
    return GuidedSearchAgent(**kwargs)


def _board_guided(**kwargs) -> Agent:
    from .board.guided import BoardGuidedAgent  # torch loads only when it is built
    return BoardGuidedAgent(**kwargs)


def _entries() -> dict[str, list[AgentEntry]]:
    """Every agent name and its implementations (one per game kind, or one for all)."""
    from .board.search import BoardMonteCarloAgent
    from .cards.search import BayesAgent, MonteCarloAgent
    from .ppo import PPOAgent  # torch and SB3 load only when a model does
    from .random_agent import RandomAgent

    entries = {"random": [AgentEntry(RandomAgent, {}, "uniformly random legal action", ANY_GAME)]}
    for rule in ("lowest", "highest", "min-gap", "safe-high", "greedy"):
        entries[rule] = [_heuristic(rule)]
    entries["bayes"] = [AgentEntry(BayesAgent, {"samples": 200},
                                   "one-step expected penalty over sampled plays of the others")]
    entries["mcs"] = [
        AgentEntry(MonteCarloAgent, {"rollouts": 100, "score": "own", "batched": False},
                   "flat Monte-Carlo search: rollouts of the rest of the round per card"),
        AgentEntry(BoardMonteCarloAgent, {"rollouts": 32, "score": "own", "horizon": 3, "card_value": 3.0,
                                             "tie_break": "board-green", "batch": 4096},
                   "flat Monte-Carlo search: per tile or answer, random rollouts of `horizon` turns "
                   "(0: the whole game), unseen tiles dealt at random", ("board",)),
    ]
    entries["ppo"] = [AgentEntry(PPOAgent, {"path": "", "deterministic": True},
                                 "a trained MaskablePPO model (no path: the shipped model for the table size)",
                                 ANY_GAME)]
    entries["guided"] = [AgentEntry(_guided, {"path": "", "worlds": 96, "depth": 1, "top": 3, "rollout": "network",
                                              "belief": "", "trust": 2.0, "others": "", "mix": 1.0, "ms": 0.0,
                                              "sample": False, "slip": 0.0},
                                    "search guided by a trained model (default: the table's recipe, the network "
                                    "`ppo` plays there, its 3 best cards in 96 worlds, trust=2, at 2-4 classic "
                                    "players; at 5+ and in Die Sechste the table's imitation network, every card "
                                    "(top=0) in 32 worlds, trust=0; a given value overrides its own): the others "
                                    "play its policy in `worlds` determinized deals, its value head judges the rest "
                                    "of the round; rollout=mcs rolls out as mcs does, top=K (with it) only the "
                                    "network's K best cards; belief=FILE (or shipped) deals the worlds from a belief "
                                    "model of who holds each unseen card; trust=Z keeps the network's card unless "
                                    "another beats it by Z standard errors over the same worlds (network "
                                    "rollouts; with rollout=mcs the default is 0); others=PATH plays the other seats by "
                                    "that network instead (e.g. ppo-all, the imitation of mcs, at a table of mcs), "
                                    "mix=p only a share p of them (each seat of each world one or the other); "
                                    "others=mixture by a mixture of ppo, ppo-all, min-gap, greedy and random, "
                                    "weighted every turn by how well each explains each seat's plays this game, "
                                    "slip=p (with it) plays its ppo candidate in the worlds as ppo plays, its argmax but for "
                                    "a share p of uniform cards (scored by its softmax as before); "
                                    "ms=N a time budget instead of worlds and depth: N ms of CPU a decision on one "
                                    "core, as many worlds as fit, deeper only past 96 (plain guided costs about 8 ms "
                                    "a decision at 4 players, 45 at 10; ms=N costs N at any table, match prints "
                                    "its CPU record); sample=true: the other seats of the worlds draw their card "
                                    "from their network's softmax instead of playing its best, with others=mixture "
                                    "from the distribution of the model playing the seat (a table of a "
                                    "random-ish player such as mcs)"),
                         AgentEntry(_board_guided, {"path": "", "worlds": 16, "horizon": 1, "top": 0,
                                                    "rollout": "network"},
                                    "board mcs guided by a trained board model: its policy plays every seat for "
                                    "`horizon` turns in `worlds` determinized deals, its value head judges the rest; "
                                    "top=K searches its K best candidates only, rollout=mcs rolls out as mcs does",
                                    ("board",))]
    for rule in ("board-greedy", "board-safe", "board-green"):
        entries[rule] = [_board_heuristic(rule)]
    from .plugins import plugin_entries  # installed plug-ins; a shipped name wins
    for name, entry in plugin_entries().items():
        entries.setdefault(name, [entry])
    return entries


STANDARD_LINEUPS = {
    "cards": ("ppo", "mcs", "bayes", "lowest", "highest", "min-gap", "safe-high", "greedy", "random"),
    "board": ("ppo", "guided", "mcs", "board-green", "board-safe", "random"),
}
"""The standard tournament's agents of each game kind (`sixnimmt tournament` without
--agents): the learned agents, the search, the heuristics and random. The board's
leaves out board-greedy (below board-safe and board-green in every variant) so that a
4-player round robin is 15 line-ups, not 35."""


def standard_lineup(game: str) -> list[str]:
    """The standard tournament's agent specs for the game kind `game`."""
    if game not in STANDARD_LINEUPS:
        raise ConfigError(f"no standard line-up for the game {game!r}: give --agents")
    return list(STANDARD_LINEUPS[game])


LOCAL_ONLY_PREFIXES = ("py:", "cmd:")


def is_local_only(spec: str) -> bool:
    """Whether a spec runs code of the user's choosing (`py:` loads a Python file or
    module, `cmd:` starts a program): fine on one's own command line, never to be taken
    from the network (the web server refuses these)."""
    return isinstance(spec, str) and spec.strip().lower().startswith(LOCAL_ONLY_PREFIXES)


def _local_resolve(spec: str) -> tuple[str, list[AgentEntry], dict[str, str]]:
    """The entry of a py: or cmd: spec (see agents.plugins, agents.external)."""
    from . import external, plugins
    text = spec.strip()
    if text.lower().startswith("cmd:"):
        command, given = external.parse_cmd_spec(text)
        external.command_argv(command)  # the program exists
        entry = AgentEntry(lambda **kw: external.ExternalAgent(command, **kw), dict(external.PARAMS),
                           f"external bot: {command}", ANY_GAME)
        return text, [entry], given
    _, _, rest = plugins.parse_py_spec(text)
    _, given = parse_spec(":".join(["py", *rest]))
    return text, [plugins.py_entry(text)], given


def available(game: str | None = None) -> dict[str, AgentEntry]:
    """Every agent kind by name, each as its implementation for `game` (names that cannot
    play it left out); without a game, each name's first implementation."""
    out = {}
    for name, impls in _entries().items():
        fitting = [e for e in impls if game is None or e.plays(game)]
        if fitting:
            out[name] = fitting[0]
    return out


class PerGameAgent:
    """One agent name with an implementation per game kind: each view goes to the
    implementation for its game (`view.config.game`). Other attributes are those of the
    default game's implementation (so `make_agent("mcs:rollouts=7").rollouts` is 7)."""

    def __init__(self, name: str, impls: dict[str, Agent]):
        self.name = name
        self.impls = impls

    def for_game(self, game: str) -> Agent:
        if game in self.impls:
            return self.impls[game]
        raise ConfigError(f"agent {self.name!r} plays {', '.join(self.impls)}, not {game!r}")

    def act(self, view, rng):
        return self.for_game(getattr(view.config, "game", DEFAULT_GAME)).act(view, rng)

    def __getattr__(self, attr: str):
        if attr.startswith("_") or attr in ("impls", "name"):  # not during unpickling
            raise AttributeError(attr)
        default = self.impls.get(DEFAULT_GAME) or next(iter(self.impls.values()))
        return getattr(default, attr)


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """'mcs:rollouts=100' -> ('mcs', {'rollouts': '100'})."""
    name, *parts = spec.strip().split(":")
    params = {}
    for part in parts:
        if "=" not in part:
            raise ConfigError(f"agent {spec!r}: parameter {part!r} must look like key=value")
        key, value = part.split("=", 1)
        if key.strip() in params:
            raise ConfigError(f"agent {spec!r}: parameter {key.strip()!r} given twice")
        params[key.strip()] = value.strip()
    return name.strip(), params


def _convert(spec: str, key: str, value: str, default: Any) -> Any:
    kind = type(default)
    try:
        if kind is bool:
            if value.lower() not in ("true", "false", "1", "0", "yes", "no"):
                raise ValueError
            return value.lower() in ("true", "1", "yes")
        converted = kind(value)
        if kind is float and not np.isfinite(converted):
            raise ValueError(value)
        return converted
    except ValueError:
        raise ConfigError(f"agent {spec!r}: {key}={value!r} is not a valid {kind.__name__}") from None


def _games_of(entry: AgentEntry) -> str:
    return "any game" if entry.games == ANY_GAME else ", ".join(entry.games)


def _params_text(impls: list[AgentEntry]) -> str:
    """The parameters of a name's implementations, with defaults (per game where they differ)."""
    keys = list(dict.fromkeys(k for e in impls for k in e.params))
    parts = []
    for k in keys:
        having = [e for e in impls if k in e.params]
        defaults = {repr(e.params[k]) for e in having}
        if len(impls) == 1 or (len(having) == len(impls) and len(defaults) == 1):
            parts.append(f"{k} (default {having[0].params[k]!r})")
        else:
            parts.append(f"{k} (" + "; ".join(f"{_games_of(e)}: default {e.params[k]!r}" for e in having) + ")")
    return ", ".join(parts) or "none"


def _build(spec: str, name: str, entry: AgentEntry, given: dict[str, str]) -> Agent:
    kwargs = {k: _convert(spec, k, v, entry.params[k]) for k, v in given.items() if k in entry.params}
    try:
        agent = entry.build(**kwargs)
    except ValueError as e:  # an agent's own check of its parameters (ConfigError passes as is)
        if isinstance(e, ConfigError):
            raise
        raise ConfigError(f"agent {spec!r}: {e}") from None
    agent.name = spec.strip()
    return agent


def _resolve(spec: str, game: str | None) -> tuple[str, list[AgentEntry], dict[str, str]]:
    """The name, the implementations to build and the given parameters of a spec; a
    ConfigError for an unknown name or parameter, or an agent that cannot play `game`."""
    if not isinstance(spec, str):
        raise ConfigError(f"an agent spec is a string like mcs:rollouts=100, got {type(spec).__name__}")
    if is_local_only(spec):
        name, impls, given = _local_resolve(spec)
        entries = {name: impls, **_entries()}
    else:
        entries = _entries()
        name, given = parse_spec(spec)
        if name not in entries:
            raise ConfigError(f"unknown agent {name!r}; valid agents: {', '.join(entries)}, or your own: "
                              "py:FILE_OR_MODULE:ClassName, cmd:COMMAND (docs/own-agent.md)")
        impls = entries[name]
    if game is not None:
        fitting = [e for e in impls if e.plays(game)]
        if not fitting:
            playable = ", ".join(n for n, es in entries.items() if any(e.plays(game) for e in es))
            games = ", ".join(dict.fromkeys(g for e in impls for g in e.games))
            raise ConfigError(f"agent {name!r} plays {games}, not {game!r}; agents for {game!r}: {playable}")
        impls = fitting[:1]
    unknown = set(given) - {k for e in impls for k in e.params}
    if unknown:
        raise ConfigError(f"agent {name!r} has no parameter {', '.join(sorted(unknown))}; "
                          f"valid parameters: {_params_text(impls)}")
    return name, impls, given


def check_spec(spec: str, game: str | None = None) -> str:
    """Check a spec without building the agent (no model is loaded): its name, that it
    plays `game`, its parameters' names and types (ConfigError otherwise). Returns the name.
    Range checks of the values are the agent's own, when it is built."""
    name, impls, given = _resolve(spec, game)
    for entry in impls:
        for k, v in given.items():
            if k in entry.params:
                _convert(spec, k, v, entry.params[k])
    return name


def make_agent(spec: str, game: str | None = None) -> Agent:
    """Build the agent a spec string names: its implementation for game kind `game` (an
    agent that cannot play it is refused), or, without a game, for every game it plays
    (a PerGameAgent when it has several implementations; see the module doc)."""
    name, impls, given = _resolve(spec, game)
    if len(impls) == 1:
        return _build(spec, name, impls[0], given)
    built = {}
    for entry in impls:
        agent = _build(spec, name, entry, given)
        for g in entry.games:
            built.setdefault(g, agent)
    return PerGameAgent(spec.strip(), built)


def describe() -> str:
    """One line per agent implementation: name, parameters, summary, the games it plays."""
    lines = []
    for name, impls in _entries().items():
        for e in impls:
            params = ":".join(f"{k}={v}" for k, v in e.params.items())
            lines.append(f"{name + (':' + params if params else ''):40} {e.summary} ({_games_of(e)})")
    return "\n".join(lines)
