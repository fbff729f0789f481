"""Start a wider network from a narrower one that computes the same function at first:
wider in its observation (`widened`) or in its hidden layers (`grown`).

- `widened`: an observation that is another with fields appended (`card-history` is
  `card-features` plus `history`) feeds every input layer the old vector and then some.
  Copying the old network's weights and giving the new inputs zero weights makes the new
  network compute exactly what the old one did; training then learns what the new fields
  are worth. Why: a new observation would otherwise start again from imitation, and could
  not be measured against the network it should improve on at equal training
  (experiments/training-2026-12-06.md).
- `grown`: a network of the same layers, each as wide or wider (more hidden units), gets
  the old weights in the top-left block of each layer and zero weights from the new units
  into the old ones, so the new units change nothing until training uses them. Why: a
  larger distilled student (`sixnimmt distill --set init_from_teacher=true`) then starts
  at its teacher's play instead of from scratch (experiments/training-2026-12-07.md).
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


def grown(source: dict[str, torch.Tensor], target: dict[str, torch.Tensor]) -> dict[str, torch.Tensor] | None:
    """`source`'s weights inside `target`'s wider layers, the same function (Net2Net-style):
    each source weight fills the top-left block of the target's, the source's units read
    none of the new ones (zero columns), the new units keep `target`'s fresh weights (they
    read everything; nothing old reads them yet). Every layer must be as wide or wider and
    the same layers present; else None. Why: a larger student (`sixnimmt distill
    --set init_from_teacher=true`) then starts at its teacher's play, where distilling it
    from scratch took more samples than a session could give it (2026-12-07)."""
    if set(source) != set(target):
        return None
    out = {}
    for key, want in target.items():
        have = source[key]
        if have.ndim != want.ndim or have.ndim not in (1, 2) or any(h > w for h, w in zip(have.shape, want.shape)):
            return None
        grown_ = want.detach().clone()
        if have.ndim == 1:
            grown_[:have.shape[0]] = have
        else:
            grown_[:have.shape[0], :have.shape[1]] = have
            grown_[:have.shape[0], have.shape[1]:] = 0.0
        out[key] = grown_
    return out
