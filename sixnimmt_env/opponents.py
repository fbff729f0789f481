"""Opponents inside the single-agent and vectorized environments.

An opponent is an agent object (anything with `act(view, rng)`, see agents/base.py) or
a spec string resolved by the agent registry; None means uniformly random legal play.
The environments only call `act`, so they depend on no particular agent. A *pool*
(anything with `agents` and `sample(n, rng)`, e.g. training.pool.OpponentPool) draws
the opponents of each game anew whenever it starts.
"""

from __future__ import annotations

import numpy as np

from .observation import SeatView, uniform_legal_actions


class UniformRandom:
    """Uniformly random legal actions (the default opponent)."""

    name = "random"

    def act(self, view: SeatView, rng: np.random.Generator) -> np.ndarray:
        return uniform_legal_actions(view, rng)


def resolve_opponent(spec):
    """An agent object from None, an agent object, or a spec string like "random"."""
    if spec is None:
        return UniformRandom()
    if isinstance(spec, str):
        try:
            from agents.registry import make_agent  # the agent layer, when installed
        except ImportError:
            if spec == "random":
                return UniformRandom()
            raise
        return make_agent(spec)
    if not callable(getattr(spec, "act", None)):
        raise TypeError(f"an opponent needs an act(view, rng) method, got {spec!r}")
    return spec


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
            raise ValueError(f"give one opponent or {players - 1} (one per other seat), got {len(specs)}")
        self.agents, index, seen = [], [], {}
        for s in specs:  # the same spec object gives one agent: one batched call for it
            if id(s) not in seen:
                seen[id(s)] = len(self.agents)
                self.agents.append(resolve_opponent(s))
            index.append(seen[id(s)])
        self._fixed = np.array(index, dtype=np.int64)

    def assign(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """(n, P-1) agent indices for n games starting now."""
        if self.pool is not None:
            return self.pool.sample(n, rng)
        return np.broadcast_to(self._fixed, (n, self.players - 1)).copy()


def opponent_actions(agents: list, state, seats: np.ndarray, games: np.ndarray,
                     which: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """(n,) actions of the opponents at (seats[i], games[i]), entry i played by
    agents[which[i]] (`which` may be None when there is one agent); each agent gets its
    entries in one batched call."""
    if len(agents) == 1:
        return agents[0].act(SeatView(state, seats, games), rng)
    actions = np.empty(len(seats), dtype=np.int64)
    for j in np.unique(which):
        mine = which == j
        actions[mine] = agents[j].act(SeatView(state, seats[mine], games[mine]), rng)
    return actions
