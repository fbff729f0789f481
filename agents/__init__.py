"""sixnimmt lab: agents, and the arena they play in.

Every agent follows one protocol: `act(view, rng)` takes a game's seat view (what one
seat of each of n games may know, `core.game.SeatViewLike`) and returns one legal
encoded action per entry. `registry.make_agent("mcs:rollouts=100")` builds them by spec;
`arena` plays them against each other and `results` says what a match came to. Agents
for one game kind live in its sub-package (`cards/`, `board/`); `random` and `ppo` play
any game.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray


@runtime_checkable
class Agent(Protocol):
    """Anything with a name and a batched `act`."""

    name: str

    def act(self, view, rng: np.random.Generator) -> NDArray[np.int64]:
        """(n,) one legal action for each entry of `view`."""
        ...
