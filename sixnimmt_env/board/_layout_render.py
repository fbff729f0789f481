"""A board layout drawn as text lines (`sixnimmt` prints it): a header, each row's field
codes, the kinds used, the clovers and the bullheads."""

from __future__ import annotations

from collections import Counter

import numpy as np

from .layout import CODES, FIXED, KIND_EFFECTS, KIND_NAMES, NO_FIELD, BoardLayout


def _kind_code(kind: int) -> str:
    return "+N/-N" if kind == FIXED else next(c for c, k in CODES.items() if k == kind)


def render_board(layout: BoardLayout) -> list[str]:
    """Text lines of a layout: a header, each row's field codes, the kinds used, clovers, bullheads."""
    mark = "  APPROXIMATION (not known to be the printed board)" if layout.approximation else ""
    lines = [f"board {layout.name}: {layout.side} side, {layout.n_rows} rows{mark}"]
    width = max(3, 1 + max(len(c) for row in layout.rows for c in row))
    for r, row in enumerate(layout.rows, 1):
        lines.append(f"row {r:>2}:" + "".join(f"{c:>{width}}" for c in row))
    used = sorted({int(k) for k in np.unique(layout.kind) if k != NO_FIELD})
    lines.append("fields:")
    lines += [f"  {_kind_code(k):<7}{KIND_NAMES[k]:<14}{KIND_EFFECTS[k]}" for k in used]
    lines.append("clovers: " + (" ".join(map(str, layout.clovers)) or "none"))
    counts = Counter(layout.bullheads)
    lines.append(f"tile bullheads: {sum(layout.bullheads)} in all; "
                 + ", ".join(f"{counts[b]} tiles with {b}" for b in sorted(counts)))
    return lines
