"""Test fixture: a Python agent class loaded by file (py:tests/data/bots/my_agent.py:LowestCard)."""
import numpy as np


class LowestCard:
    """plays its lowest legal action, or with offset=k the k-th lowest"""

    games = ("cards", "board")

    def __init__(self, offset: int = 0, label: str = "x", strict: bool = False):
        self.offset = offset
        self.label = label
        self.strict = strict

    def act(self, view, rng):
        mask = view.action_mask()
        out = np.empty(view.n, dtype=np.int64)
        for e in range(view.n):
            legal = np.flatnonzero(mask[e])
            out[e] = legal[min(self.offset, len(legal) - 1)]
        return out


class Cheater(LowestCard):
    """plays action 0 whatever it holds (an illegal action, mostly)"""

    def act(self, view, rng):
        return np.where(view.must_act, 0, super().act(view, rng)).astype(np.int64)


class NoAct:
    """has no act method"""
