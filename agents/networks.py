"""Network pieces shared by the games' policies (agents/cards/policy.py, agents/board/policy.py).

Kept here, below both games' agent packages, so that neither imports the other's private
helpers (agents/<game>/ may import its own game; a piece both need lives one level up).
"""

from __future__ import annotations

from torch import nn


def mlp(sizes: list[int]) -> nn.Sequential:
    """Linear + ReLU layers through `sizes` (input width first); empty for a single size."""
    layers: list[nn.Module] = []
    for a, b in zip(sizes[:-1], sizes[1:]):
        layers += [nn.Linear(a, b), nn.ReLU()]
    return nn.Sequential(*layers)


def near_uniform(*heads: nn.Linear) -> None:
    """Initialise the output layers of a policy to small orthogonal weights (gain 0.01) and
    zero biases, in place, so the policy starts near uniform over its actions."""
    for out in heads:
        nn.init.orthogonal_(out.weight, gain=0.01)
        nn.init.zeros_(out.bias)
