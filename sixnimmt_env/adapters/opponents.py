"""Opponents inside the single-agent and vectorized environments.

An opponent is an agent object (anything with `act(view, rng)`, see agents/) or None,
which plays uniformly random legal actions (`view.random_legal_actions`). Agents are
built by the agent layer (`agents.registry.make_agent("mcs")`) and handed in: the
environments only call `act`, so they depend on no particular agent. A *pool* (anything
with `agents` and `sample(n, rng)`, e.g. training.pool.OpponentPool) draws the opponents
of each game anew whenever it starts.
"""

from __future__ import annotations

import numpy as np

from ..core.errors import ConfigError


def check_opponent(agent):
    """`agent` if it can play (None: random legal play), else a ConfigError saying what can."""
    if agent is None or callable(getattr(agent, "act", None)):
        return agent
    if isinstance(agent, str):
        raise ConfigError(f"opponent {agent!r}: the environments take agent objects, not spec strings; "
                          f"build one with agents.registry.make_agent({agent!r})")
    raise ConfigError(f"an opponent needs an act(view, rng) method, got {agent!r}")


class OpponentTable:
    """Which agent plays each opponent seat of each game.

    `spec`: one opponent for every seat, a list of P-1 (one per seat to the learner's
    left, in order), or a pool whose `sample(n, rng)` gives (n, P-1) agent indices.
    """

    def __init__(self, spec, players: int):
        self.players = players
        self.pool = spec if callable(getattr(spec, "sample", None)) else None
        if self.pool is not None:
            self.agents = self.pool.agents
            self._fixed = None
            return
        specs = list(spec) if isinstance(spec, (list, tuple)) else [spec] * (players - 1)
        if len(specs) != players - 1:
            raise ConfigError(f"give one opponent or {players - 1} (one per other seat), got {len(specs)}")
        self.agents, index, seen = [], [], {}
        for s in specs:  # the same object gives one agent: one batched call for it
            if id(s) not in seen:
                seen[id(s)] = len(self.agents)
                self.agents.append(check_opponent(s))
            index.append(seen[id(s)])
        self._fixed = np.array(index, dtype=np.int64)

    def assign(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """(n, P-1) agent indices for n games starting now."""
        if self.pool is not None:
            return self.pool.sample(n, rng)
        return np.broadcast_to(self._fixed, (n, self.players - 1)).copy()


def act(agent, view, rng: np.random.Generator) -> np.ndarray:
    """(n,) the actions of `agent` (None: uniformly random legal ones) for `view`."""
    return view.random_legal_actions(rng) if agent is None else agent.act(view, rng)


def opponent_actions(agents: list, game, state, seats: np.ndarray, games: np.ndarray,
                     which: np.ndarray | None, rng: np.random.Generator) -> np.ndarray:
    """(n,) actions of the opponents at (seats[i], games[i]), entry i played by
    agents[which[i]] (`which` may be None when there is one agent); each agent gets its
    entries in one batched call."""
    if len(agents) == 1:
        return act(agents[0], game.view(state, seats, games), rng)
    actions = np.empty(len(seats), dtype=np.int64)
    for j in np.unique(which):
        mine = which == j
        actions[mine] = act(agents[j], game.view(state, seats[mine], games[mine]), rng)
    return actions
