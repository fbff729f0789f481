"""Figures written to files: the set-up and the write every report and study shares."""

from __future__ import annotations

from pathlib import Path


def pyplot():
    """matplotlib's pyplot, drawing to files only (the Agg backend)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def save_figure(fig, out: Path, name: str) -> list[str]:
    """Lay out `fig`, write it to out/name and close it; returns [name]."""
    fig.tight_layout()
    fig.savefig(out / name, dpi=110)
    pyplot().close(fig)
    return [name]
