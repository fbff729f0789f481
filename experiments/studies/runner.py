"""What every study shares: its cells run on this machine's worker processes
(`backends.LocalBackend`, the one local pool), results.json, report.md and the plots
written, and the shape of its report (a ± figure, the figures at the end).

A study (`die_sechste.py`, `board.py`, `board_skill.py`) writes its config (with a
`jobs()` list), a `run_cell(job, cfg)` that plays one cell and returns a JSON-able dict
naming its job, a report and a plot, and binds them in one `Study`; `Study.run` does the
rest.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from sixnimmt_env.core.strict_json import write_json


def run_cells(cell, jobs: list, cfg, *, workers: int = 1, progress: bool = True, desc: str = "study") -> list:
    """`cell(job, cfg)` for every job, on a LocalBackend of `workers` processes, with a
    progress bar; the results in the order they finish (each names its job)."""
    from tqdm import tqdm

    from experiments.backends import LocalBackend

    bar = tqdm(total=len(jobs), unit="cell", desc=desc, disable=not progress)
    results = []
    with LocalBackend(workers) as backend:
        for result in backend.map_unordered(cell, [(job, cfg) for job in jobs]):
            results.append(result)
            bar.update()
    bar.close()
    return results


@dataclass(frozen=True)
class Study:
    """What a study is made of; `run` plays it and writes its files.

    Attributes:
        cell: `cell(job, cfg)` plays one job of `cfg.jobs()` and returns a JSON-able dict
            (a module-level function: the worker processes import it).
        job_keys: the keys of that dict that name its job, in the job tuple's order.
        plot: `plot(summary, out)` draws the figures into `out` and returns their file names.
        report: `report(summary, files)` is report.md's text.
        desc: the progress bar's words.
    """

    cell: Callable[[tuple, object], dict]
    job_keys: tuple[str, ...]
    plot: Callable[[dict, Path], list[str]]
    report: Callable[[dict, list[str]], str]
    desc: str = "study"

    def run(self, cfg, out: str | Path, *, workers: int = 1, progress: bool = True) -> dict:
        """Every cell of `cfg` (in `workers` processes), the results in job order, then
        results.json, the plots and report.md in `out`. Returns the summary ({"config", "cells"})."""
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        jobs = cfg.jobs()
        results = run_cells(self.cell, jobs, cfg, workers=workers, progress=progress, desc=self.desc)
        order = {j: i for i, j in enumerate(jobs)}
        results.sort(key=lambda r: order[tuple(r[k] for k in self.job_keys)])
        summary = {"config": asdict(cfg), "cells": results}
        write_json(out / "results.json", summary)  # strict JSON: an interval of one sample (NaN) is null
        files = self.plot(summary, out)
        (out / "report.md").write_text(self.report(summary, files))
        return summary


def fmt_ci(pair, digits: int = 2) -> str:
    """A (mean, 95% CI) pair as "m ± ci" (the mean alone when the CI is not finite, or
    None: null in results.json, one sample's interval)."""
    m, ci = pair
    return f"{m:.{digits}f} ± {ci:.{digits}f}" if ci is not None and np.isfinite(ci) else f"{m:.{digits}f}"


def with_figures(lines: list[str], files: list[str]) -> str:
    """A study's report: its markdown lines, then every figure written."""
    return "\n".join(lines + [""] + [f"![{f}]({f})\n" for f in files])


def markdown_table(header: list[str], rows) -> list[str]:
    """A markdown table's lines: the header, its rule, then one line per row of cells."""
    return (["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
            + ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows])
