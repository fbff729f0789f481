"""`random`: a uniformly random legal action (the baseline everything must beat)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from sixnimmt_env.observation import SeatView, uniform_legal_actions


class RandomAgent:
    """Uniform over the legal actions: a card from the hand, or any allowed row."""

    name = "random"

    def act(self, view: SeatView, rng: np.random.Generator) -> NDArray[np.int64]:
        return uniform_legal_actions(view, rng)
