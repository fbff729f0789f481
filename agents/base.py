"""The agent protocol: one batched call decides for many games at once.

An agent receives a `SeatView` — what one seat of each of n games may know — and returns
one legal action per entry (the action encoding of `sixnimmt_env.observation`). It
never sees the engine state. `act_one` is the convenience form for a single game.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from sixnimmt_env.observation import SeatView


@runtime_checkable
class Agent(Protocol):
    """Anything with a name and a batched `act`."""

    name: str

    def act(self, view: SeatView, rng: np.random.Generator) -> NDArray[np.int64]:
        """(n,) one legal action for each entry of `view`."""
        ...


def act_one(agent: Agent, view: SeatView, rng: np.random.Generator) -> int:
    """The action of `agent` for a view holding a single entry."""
    if view.n != 1:
        raise ValueError(f"act_one needs a view of one game, got {view.n}")
    return int(agent.act(view, rng)[0])
