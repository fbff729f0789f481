"""What the registry lists per agent name: how to build one implementation and what it plays.

Apart from registry.py so that the plug-in loader (agents/plugins.py), which the registry
calls, can make entries without importing the registry back.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from . import Agent

ANY_GAME = ("*",)


@dataclasses.dataclass(frozen=True)
class AgentEntry:
    """How to build one implementation of an agent, and what it is."""

    build: Callable[..., Agent]
    params: dict[str, Any]  # name -> default (its type is the parameter's type)
    summary: str
    games: tuple[str, ...] = ("cards",)  # the game kinds it plays; ANY_GAME: every one

    def plays(self, game: str) -> bool:
        return self.games == ANY_GAME or game in self.games
