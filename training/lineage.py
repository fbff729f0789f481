"""A run's lineage: the training runs it was started from, back to the first, laid end to
end on one axis of learner samples.

A long run is carried over several stages (issue 59: runs/long-4p, -b, -c, -d), each a new
run whose `init_model` is a checkpoint or snapshot of the stage before. Each stage's
eval.csv counts from zero; `lineage` follows the `init_model` links back (a path under
another run's folder), places every stage's evaluations at the lineage's sample count
(the samples of the checkpoint it started from, plus its own), and `plot` draws the whole
curve with the stage boundaries and, where a stage was gated (training/gate.py), its
snapshots' win share against the shipped network on the choosing deals.

Run folders are untrusted input: files are read bounded (training.runs.read_run_file),
the chain is at most MAX_STAGES long and a loop is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from sixnimmt_env.core.errors import ConfigError

from .runs import checkpoint_timesteps, pyplot, read_evals, read_run_json, save_plot

MAX_STAGES = 64
"""The longest chain of runs followed (a loop or a foreign folder cannot make it endless)."""

SAMPLES_IN_NAME = re.compile(r"(?:ckpt|ppo)-(\d+)")
"""A checkpoint's folder (ckpt-N) or a snapshot's file (ppo-N.zip): N is its run's samples."""


@dataclass
class Stage:
    """One run of a lineage: its folder, the lineage's samples before it, its evaluations
    (eval.csv rows, `timesteps` counted from the run's own start) and its gate's choosing
    rows (empty: not gated)."""

    run: Path
    start: int
    samples: int
    evals: list[dict] = field(default_factory=list)
    gated: list[dict] = field(default_factory=list)


def parent_of(init_model: str, base: Path) -> tuple[Path, int] | None:
    """The run folder `init_model` points into (the nearest folder above it holding a
    config.json) and the samples that model had seen in that run (from its ckpt-N or ppo-N
    name, else the run's last checkpoint); None when it is not inside a run (e.g.
    agents/models/ppo-4p.zip). A relative path is read from `base`, as the run was."""
    if not init_model:
        return None
    model = Path(init_model)
    model = model if model.is_absolute() else base / model
    for folder in list(model.parents)[:4]:
        if (folder / "config.json").is_file() and (folder / "eval.csv").is_file():
            names = [SAMPLES_IN_NAME.match(part) for part in model.relative_to(folder).parts]
            samples = [int(m.group(1)) for m in names if m]
            return folder, samples[0] if samples else checkpoint_timesteps(folder)
    return None


def lineage(run: str | Path, base: str | Path = ".") -> list[Stage]:
    """The stages of `run`'s lineage, the first first, each placed at its start in lineage
    samples; `base` is the folder the runs' relative `init_model` paths are read from."""
    chain: list[tuple[Path, int]] = []  # (run, samples of its parent it started from), newest first
    current: Path | None = Path(run)
    seen: set[Path] = set()
    while current is not None:
        if current.resolve() in seen:
            raise ConfigError(f"{current}: the runs' init_model links form a loop")
        if len(chain) == MAX_STAGES:
            raise ConfigError(f"{run}: a lineage longer than {MAX_STAGES} runs")
        seen.add(current.resolve())
        cfg = read_run_json(current / "config.json", dict)
        parent = parent_of(str(cfg.get("init_model") or ""), Path(base))
        chain.append((current, parent[1] if parent else 0))
        current = parent[0] if parent else None
    stages, start = [], 0
    for folder, branch in reversed(chain):
        start += branch  # a stage starts where the lineage stood at the checkpoint it began from
        evals = read_evals(folder / "eval.csv") if (folder / "eval.csv").is_file() else []
        stages.append(Stage(folder, start, checkpoint_timesteps(folder), evals, gate_rows(folder)))
    return stages


def gate_rows(run: Path) -> list[dict]:
    """The choosing rows of the run's gate.json (training/gate.py), empty if it has none."""
    if not (run / "gate.json").is_file():
        return []
    rows = read_run_json(run / "gate.json", dict).get("choosing", {}).get("rows", [])
    return [r for r in rows if isinstance(r, dict) and isinstance(r.get("head"), dict)
            and isinstance(r.get("steps"), (int, float))]


def total_samples(stages: list[Stage]) -> int:
    """The lineage's learner samples: every stage's start plus the last stage's own."""
    return stages[-1].start + stages[-1].samples if stages else 0


def markdown(stages: list[Stage]) -> str:
    """One row per evaluation: the stage, lineage samples, points a round against the
    run's evaluation opponents with its 95% interval, and win share."""
    lines = ["| stage | samples (lineage) | points a round (95% CI) | win share |", "| --- | --- | --- | --- |"]
    for stage in stages:
        for row in stage.evals:
            at = stage.start + int(row["timesteps"])
            lines.append(f"| {stage.run.name} | {at / 1e6:.2f}M | {row['points_per_round']:.2f} "
                         f"± {row.get('ci95', float('nan')):.2f} | {row.get('win_share', float('nan')):.3f} |")
    lines.append(f"\nlineage: {' -> '.join(s.run.name for s in stages)}, {total_samples(stages) / 1e6:.2f}M samples")
    return "\n".join(lines)


def plot(stages: list[Stage], out: Path) -> Path:
    """The lineage's curve: points a round in the runs' own evaluations (lower is better)
    with 95% bands, stage boundaries, and the gated snapshots' win share against the
    shipped network (choosing deals) on a second panel."""
    plt = pyplot()
    gated = any(s.gated for s in stages)
    fig, axes = plt.subplots(2 if gated else 1, 1, figsize=(9, 6.5 if gated else 4), sharex=True, squeeze=False)
    top = axes[0][0]
    for i, stage in enumerate(stages):
        xs = [(stage.start + r["timesteps"]) / 1e6 for r in stage.evals]
        ys = [r["points_per_round"] for r in stage.evals]
        cis = [r.get("ci95", 0.0) for r in stage.evals]
        top.plot(xs, ys, marker="o", markersize=3, color=f"C{i % 10}", label=stage.run.name)
        top.fill_between(xs, [y - c for y, c in zip(ys, cis)], [y + c for y, c in zip(ys, cis)],
                         color=f"C{i % 10}", alpha=0.15)
        top.axvline(stage.start / 1e6, color="grey", linewidth=0.6, linestyle=":")
    top.set_ylabel("points a round in its evaluation\n(lower is better)")
    top.legend(fontsize=8, loc="best")
    top.set_title(f"lineage of {stages[-1].run.name}: {total_samples(stages) / 1e6:.1f}M learner samples")
    if gated:
        low = axes[1][0]
        for i, stage in ((i, s) for i, s in enumerate(stages) if s.gated):
            xs = [(stage.start + r["steps"]) / 1e6 for r in stage.gated]
            ys = [r["head"].get("win_share", float("nan")) for r in stage.gated]
            errs = [r["head"].get("win_ci", 0.0) for r in stage.gated]
            low.errorbar(xs, ys, yerr=errs, fmt="s", markersize=4, capsize=2, color=f"C{i % 10}",
                         label=f"{stage.run.name} (gate)")
        low.axhline(0.25, color="grey", linewidth=0.6, linestyle="--")
        low.set_ylabel("win share, 1 snapshot\nvs 3 shipped (gate)")
        low.legend(fontsize=8, loc="best")
    axes[-1][0].set_xlabel("learner samples of the lineage (millions)")
    return save_plot(fig, out)
