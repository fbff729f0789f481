"""The server's agents: one object per distinct agent, built on first use and shared by
the games of every page (a model loads once), in a bounded cache.

Bounded: each spelling of a spec is an entry (a model loaded again takes ~40 MB), so the
server, which runs for days, must not keep every one it was ever asked for; the allow-list
(allowed.py) hands out one canonical spelling per agent. An agent dropped here lives on in
the games still holding it. Shared agents keep no state of a call on themselves (they are
called from several worker threads at once: docs/robustness.md, "Shared agents").
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from agents.arena import build_agents

SHARED_MAX = 32


class AgentCache:
    """(spec, game kind) -> agent, the `limit` used last kept, least recently used first."""

    def __init__(self, limit: int = SHARED_MAX):
        self.limit = limit
        self.agents: OrderedDict[tuple[str, str | None], object] = OrderedDict()
        self._lock = threading.Lock()  # pages build agents from several threads

    def get(self, spec: str, game: str | None):
        """The agent for (spec, game), built on first use."""
        from agents.registry import make_agent

        key = (spec, game)
        with self._lock:
            if key in self.agents:
                self.agents.move_to_end(key)
                return self.agents[key]
            agent = self.agents[key] = make_agent(spec, game)
            while len(self.agents) > self.limit:
                self.agents.popitem(last=False)
            return agent


SHARED = AgentCache()


def shared_agents(specs: list[str], game: str) -> dict:
    """One agent object per distinct spec, from the server's cache, shared by every game."""
    return build_agents(specs, game, make=SHARED.get)[1]
