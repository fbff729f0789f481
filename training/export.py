"""Export a trained model for shipping: the policy without the optimizer's state.

    python -m training.export runs/ppo-4p/best.zip agents/models/ppo-4p.zip

Adam keeps two moments per weight, so a training checkpoint is three times the policy's
size; an agent only needs the policy. The sidecar .json (what it was trained for) is
copied along.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path


def export_model(src: str | Path, dst: str | Path) -> Path:
    """Write the model zip at `src` to `dst` with a fresh optimizer (no Adam moments),
    copying its sidecar .json along; returns `dst`. The model is read as data and tensors
    (agents.model_file), never unpickled; its other entries are copied as they are."""
    import io
    import zipfile

    import torch

    from agents.model_file import ENTRIES, read_entry, read_model

    src, dst = Path(src), Path(dst)
    policy = read_model(src).policy  # checks the file and that the weights fit
    fresh = io.BytesIO()
    torch.save(torch.optim.Adam(policy.parameters()).state_dict(), fresh)
    dst.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(src) as z:
        names = [n for n in z.namelist() if n in ENTRIES]
    with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as out:
        for name in names:
            out.writestr(name, fresh.getvalue() if name == "policy.optimizer.pth" else read_entry(src, name))
    meta = src.with_suffix(".json")
    if meta.exists():
        shutil.copyfile(meta, dst.with_suffix(".json"))
    return dst


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python -m training.export SRC.zip DST.zip")
    print(export_model(sys.argv[1], sys.argv[2]))
