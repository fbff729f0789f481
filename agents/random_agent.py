"""`random`: a uniformly random legal action (the baseline everything must beat), any game."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray


class RandomAgent:
    """Uniform over the legal actions (the view's own sampler: a card from the hand, or
    any allowed row, in the card games)."""

    name = "random"

    def act(self, view, rng: np.random.Generator) -> NDArray[np.int64]:
        return view.random_legal_actions(rng)
