"""Model files edited the way a hostile or broken file would be: a copy of a saved SB3 zip
whose `data` entry (its JSON) is changed and every other entry kept, for the tests of the
model file's checks (agents/model_file.py)."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Callable


def with_data_edit(src: Path, out: Path, edit: Callable[[dict], None], compression=zipfile.ZIP_STORED) -> Path:
    """Copy the model zip `src` to `out` with `edit` applied to its parsed `data`; `out`."""
    with zipfile.ZipFile(src) as z, zipfile.ZipFile(out, "w", compression) as w:
        for name in z.namelist():
            raw = z.read(name)
            if name == "data":
                data = json.loads(raw)
                edit(data)
                raw = json.dumps(data).encode()
            w.writestr(name, raw)
    return out
