"""Export a trained model for shipping: the policy without the optimizer's state.

    python -m training.export runs/ppo-4p/best.zip training/models/ppo-4p.zip

Adam keeps two moments per weight, so a training checkpoint is three times the policy's
size; an agent only needs the policy. The sidecar .json (what it was trained for) is
copied along.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path


def export_model(src: str | Path, dst: str | Path) -> Path:
    """Save the MaskablePPO model at `src` to `dst` with a fresh optimizer (no Adam moments),
    copying its sidecar .json along; returns `dst`."""
    import torch
    from sb3_contrib import MaskablePPO

    src, dst = Path(src), Path(dst)
    model = MaskablePPO.load(src, device="cpu")
    model.policy.optimizer = torch.optim.Adam(model.policy.parameters())  # fresh: no moments
    dst.parent.mkdir(parents=True, exist_ok=True)
    model.save(dst)
    meta = src.with_suffix(".json")
    if meta.exists():
        shutil.copyfile(meta, dst.with_suffix(".json"))
    return dst


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python -m training.export SRC.zip DST.zip")
    print(export_model(sys.argv[1], sys.argv[2]))
