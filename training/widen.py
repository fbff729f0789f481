"""Start a network of a wider observation from one of a narrower: the same function at first.

An observation that is another with fields appended (`card-history` is `card-features` plus
`history`) feeds every input layer the old vector and then some. Copying the old network's
weights and giving the new inputs zero weights makes the new network compute exactly what
the old one did; training then learns what the new fields are worth. Why: a new
observation would otherwise start again from imitation, and could not be measured against
the network it should improve on at equal training (experiments/training-2026-12-06.md).
"""

from __future__ import annotations

import torch

from sixnimmt_env.core.layout import ObsLayout


def extends(old: ObsLayout, new: ObsLayout) -> bool:
    """Whether `new` is `old` with fields appended (same names and shapes first, in order)."""
    head = new.fields[:len(old.fields)]
    return len(new.fields) > len(old.fields) and all(
        (a.name, a.shape) == (b.name, b.shape) for a, b in zip(old.fields, head))


def widened(source: dict[str, torch.Tensor], target: dict[str, torch.Tensor],
            old: ObsLayout, new: ObsLayout) -> dict[str, torch.Tensor] | None:
    """`source`'s weights shaped as `target`'s: tensors of equal shape copied; a weight that
    reads the observation (columns: `old.size` in the source, `new.size` in the target)
    gets zero columns for the appended fields. None when anything else differs (another
    network shape: the caller's error)."""
    if not extends(old, new) or set(source) != set(target):
        return None
    out = {}
    for key, want in target.items():
        have = source[key]
        if have.shape == want.shape:
            out[key] = have.clone()
        elif have.ndim == 2 and want.ndim == 2 and have.shape[0] == want.shape[0] \
                and (have.shape[1], want.shape[1]) == (old.size, new.size):
            wide = torch.zeros_like(want)
            wide[:, :old.size] = have
            out[key] = wide
        else:
            return None
    return out
