"""Opponents inside the single-agent and vectorized environments.

An opponent is an agent object (anything with `act(view, rng)`, see agents/base.py) or
a spec string resolved by the agent registry; None means uniformly random legal play.
The environments only call `act`, so they depend on no particular agent.
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


def resolve_opponents(spec, players: int) -> list:
    """One agent per relative opponent position 1..P-1 (seat learner+1, +2, ...).

    `spec` is one opponent for every seat, or a list of P-1 of them.
    """
    specs = list(spec) if isinstance(spec, (list, tuple)) else [spec] * (players - 1)
    if len(specs) != players - 1:
        raise ValueError(f"give one opponent or {players - 1} (one per other seat), got {len(specs)}")
    cache: dict[int, object] = {}
    agents = []
    for s in specs:  # the same spec object gives the same agent: one batched call for it
        key = id(s)
        if key not in cache:
            cache[key] = resolve_opponent(s)
        agents.append(cache[key])
    return agents


def opponent_actions(agents: list, state, seats: np.ndarray, games: np.ndarray,
                     position: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """(n,) actions of the opponents at (seats[i], games[i]).

    Entry i is played by agents[position[i]]; entries of one agent object go to it in
    one batched call.
    """
    actions = np.empty(len(seats), dtype=np.int64)
    done: set[int] = set()
    for agent in agents:
        if id(agent) in done:
            continue
        done.add(id(agent))
        mine = np.isin(position, [j for j, a in enumerate(agents) if a is agent])
        if mine.all():
            return agent.act(SeatView(state, seats, games), rng)
        if mine.any():
            actions[mine] = agent.act(SeatView(state, seats[mine], games[mine]), rng)
    return actions
