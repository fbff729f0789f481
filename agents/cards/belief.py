"""A belief model: who holds each card a seat has not seen, from the public play so far.

For every unseen card (sixnimmt_env/cards/belief_features.py gives the inputs) the model
gives a probability over the other seats and "not dealt" that sums to one; a card that
no other seat can hold (own hand, rows, every revealed card) gets none. Two small MLPs
score it: one per (card, other seat) pair, one for the card being left out of the deal;
a softmax over them is then fitted to the hand sizes, which are public (every other seat
holds as many cards as the observer, the rest of the unseen cards were not dealt):
iterative proportional fitting scales each column to its count and each card back to one,
so the expected cards of every seat are its hand size. Zero weights give the uniform
deal, which the searches sample by default.

The game deals worlds from it (`SeatView.worlds(..., deal=model.of_view(view))`,
sixnimmt_env/core/worlds.py: each other seat in turn draws exactly its hand size without
replacement, weighted by its share of what the seats after it may still take, Gumbel
top-k); `guided:belief=...` searches in such worlds (agents/cards/guided.py).

The weights are a .npz of arrays (read with allow_pickle=False: no code) with a .json
beside it (what it was trained on, its held-out figures); training/belief.py makes them.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from sixnimmt_env.cards.belief_features import CARD_FEATURES, PAIR_FEATURES, BeliefInputs, belief_inputs
from sixnimmt_env.core.errors import ConfigError
from sixnimmt_env.core.strict_json import json_text

FIT_ROUNDS = 30  # proportional-fitting passes: the columns' counts agree to about 1e-3 by then
SHIPPED_BELIEF = Path(__file__).resolve().parent.parent / "models" / "belief-4p.npz"
LAYERS = ("pair_w1", "pair_b1", "pair_w2", "pair_b2", "pair_w3", "pair_b3", "out_w1", "out_b1", "out_w2", "out_b2")
"""The arrays of a belief model's file: the pair MLP (3 layers) and the not-dealt MLP (2)."""


def _mlp(x: NDArray, weights: list[NDArray]) -> NDArray:
    """ReLU MLP of (w, b) pairs; the last layer linear, its one output squeezed."""
    for i in range(0, len(weights), 2):
        x = x @ weights[i] + weights[i + 1]
        if i + 2 < len(weights):
            np.maximum(x, 0, out=x)
    return x[..., 0]


class BeliefModel:
    """Probabilities of who holds each unseen card (see the module doc); `weights` None: uniform."""

    def __init__(self, weights: dict[str, NDArray] | None = None, meta: dict | None = None):
        self.weights = weights
        self.meta = meta or {}

    @classmethod
    def load(cls, path: str | Path) -> "BeliefModel":
        """A model saved by `save`; a ConfigError naming the file for anything else."""
        path = Path(path)
        try:
            with np.load(path, allow_pickle=False) as data:
                weights = {k: np.asarray(data[k], dtype=np.float32) for k in LAYERS}
        except (OSError, ValueError, KeyError, EOFError) as e:
            raise ConfigError(f"belief model {path}: not a belief model file ({str(e).splitlines()[0][:120]})") from None
        if weights["pair_w1"].shape[0] != PAIR_FEATURES or weights["out_w1"].shape[0] != CARD_FEATURES:
            raise ConfigError(f"belief model {path}: made for other features ({weights['pair_w1'].shape[0]} pair, "
                              f"{weights['out_w1'].shape[0]} card; these are {PAIR_FEATURES}, {CARD_FEATURES})")
        try:
            model = cls(weights)
            model._logits(np.zeros((1, 1, 1, PAIR_FEATURES), np.float32), np.zeros((1, 1, CARD_FEATURES), np.float32))
        except ValueError as e:
            raise ConfigError(f"belief model {path}: its layers do not fit together ({e})") from None
        meta_path = path.with_suffix(".json")
        if meta_path.exists():
            from sixnimmt_env.core.untrusted import read_json
            meta = read_json(meta_path, limit=2**20)
            model.meta = meta if isinstance(meta, dict) else {}
        return model

    def save(self, path: str | Path, meta: dict | None = None) -> None:
        """The weights as a .npz, the meta as the .json beside it."""
        assert self.weights is not None, "the uniform model has no weights to save"
        path = Path(path)
        np.savez(path, **self.weights)
        path.with_suffix(".json").write_text(json_text(meta or self.meta, indent=1) + "\n")

    def _logits(self, pair: NDArray, card: NDArray) -> NDArray:
        """(n, C, P) logits: the other seats', then not dealt."""
        n, C, others, _ = pair.shape
        if self.weights is None:
            return np.zeros((n, C, others + 1), np.float32)
        w = self.weights
        holds = _mlp(pair, [w[k] for k in LAYERS[:6]])
        out = _mlp(card, [w[k] for k in LAYERS[6:]])
        return np.concatenate([holds, out[..., None]], axis=-1)

    def probabilities(self, inputs: BeliefInputs) -> NDArray[np.float64]:
        """(n, C, P): for each card id, the probability that relative seat j (columns 0..P-2
        for seats 1..P-1) holds it, or that it was not dealt (column P-1). Each possible
        card's row sums to one; an impossible card's row is zero; each column sums to its
        count (hand size, cards not dealt) up to the fitting's precision."""
        logits = self._logits(inputs.pair, inputs.card).astype(np.float64)
        logits -= logits.max(axis=-1, keepdims=True)
        p = np.exp(logits) * inputs.possible[:, :, None]
        others = p.shape[2] - 1
        target = np.concatenate([np.repeat(inputs.holds[:, None], others, axis=1), inputs.left_out[:, None]], axis=1)
        p[:, :, target.shape[1] - 1] *= (inputs.left_out > 0)[:, None]  # an exact deck: nothing left out
        target = target.astype(np.float64)
        for _ in range(FIT_ROUNDS):
            column = p.sum(axis=1)
            p *= np.divide(target, column, out=np.zeros_like(column), where=column > 0)[:, None, :]
            row = p.sum(axis=2, keepdims=True)
            p = np.divide(p, row, out=np.zeros_like(p), where=row > 0)
        return p

    def of_view(self, view) -> NDArray[np.float64]:
        """`probabilities` for every entry of a card SeatView."""
        return self.probabilities(belief_inputs(view))


def load_belief(spec: str) -> BeliefModel | None:
    """The belief a search samples from: '' or 'uniform' none (uniform deals), 'shipped'
    the shipped 4-player model, else the file at `spec`."""
    if spec in ("", "uniform"):
        return None
    return BeliefModel.load(SHIPPED_BELIEF if spec == "shipped" else spec)
