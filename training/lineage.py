"""A run's lineage: the training runs it was started from, back to the first, laid end to
end on one axis of learner samples.

A long run is carried over several stages (issue 59: runs/long-4p, -b, -c, -d), each a new
run whose `init_model` is a checkpoint or snapshot of the stage before. Each stage's
eval.csv counts from zero; `lineage` follows the `init_model` links back (a path under
another run's folder), places every stage's evaluations at the lineage's sample count
(the samples of the checkpoint it started from, plus its own), and `plot` draws the whole
curve with the stage boundaries and, where a stage was gated (training/gate.py), its
snapshots' win share against the shipped network on the choosing deals. A stage gated more
than once keeps every gate (gate-1.json, gate-2.json, ..., then gate.json, the latest):
each is read, tabled and plotted, its chosen snapshot marked with the gate's number.

Run folders are untrusted input: files are read bounded (training.runs.read_run_file),
the chain is at most MAX_STAGES long and a loop is refused; a gate file that is not a
gate's record is one ConfigError naming it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from sixnimmt_env.core.checks import is_number
from sixnimmt_env.core.errors import ConfigError

from .runs import checkpoint_timesteps, points_per, pyplot, read_evals, read_run_json, save_plot

MAX_STAGES = 64
"""The longest chain of runs followed (a loop or a foreign folder cannot make it endless)."""

SAMPLES_IN_NAME = re.compile(r"(?:ckpt|ppo)-(\d+)")
"""A checkpoint's folder (ckpt-N) or a snapshot's file (ppo-N.zip): N is its run's samples."""

EARLIER_GATE = re.compile(r"gate-(\d{1,6})\.json")
"""An earlier gate's record (training.gate.keep_earlier moves gate.json to gate-N.json)."""

MAX_GATES = 64
"""The most gate records read from one run (more is not a run the lab gated)."""


@dataclass
class Gate:
    """One gate of a stage (training/gate.py's record): its number (1 the first; gate.json
    the latest), its file, the choosing rows (`steps`, `head` with a numeric win share), the
    chosen snapshot's steps (None: none qualified) and its figures on the reporting deals
    (None: no report): win share vs the reference, field lead and the reference's, with
    intervals, and the verdict."""

    number: int
    path: Path
    rows: list[dict]
    chosen: int | None = None
    report: dict | None = None


@dataclass
class Stage:
    """One run of a lineage: its folder, the lineage's samples before it, its evaluations
    (eval.csv rows, `timesteps` counted from the run's own start), its gates, oldest first
    (empty: not gated), and its game (its config's; the board game's figure is points a game)."""

    run: Path
    start: int
    samples: int
    evals: list[dict] = field(default_factory=list)
    gates: list[Gate] = field(default_factory=list)
    game: str = "cards"


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
    chain: list[tuple[Path, int, str]] = []  # (run, samples of its parent it started from, game), newest first
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
        chain.append((current, parent[1] if parent else 0, str(cfg.get("game") or "cards")))
        current = parent[0] if parent else None
    stages, start = [], 0
    for folder, branch, game in reversed(chain):
        start += branch  # a stage starts where the lineage stood at the checkpoint it began from
        evals = read_evals(folder / "eval.csv") if (folder / "eval.csv").is_file() else []
        stages.append(Stage(folder, start, checkpoint_timesteps(folder), evals, read_gates(folder), game))
    return stages


def gate_files(run: Path) -> list[tuple[int, Path]]:
    """(number, path) of the run's gate records, oldest first: gate-1.json, gate-2.json, ...
    by number, then gate.json (the latest, numbered one past the last earlier one)."""
    earlier = sorted((int(m.group(1)), p) for p in run.glob("gate-*.json") if (m := EARLIER_GATE.fullmatch(p.name)))
    latest = [(earlier[-1][0] + 1 if earlier else 1, run / "gate.json")] if (run / "gate.json").is_file() else []
    if len(earlier) + len(latest) > MAX_GATES:
        raise ConfigError(f"{run}: more than {MAX_GATES} gate records (gate-N.json)")
    return earlier + latest


def read_gates(run: Path) -> list[Gate]:
    """Every gate of the run (gate_files' order), each read bounded (read_run_json)."""
    return [read_gate(number, path) for number, path in gate_files(run)]


def figure(record: dict, key: str, path: Path) -> float:
    """The number `record[key]` of a gate's record; a ConfigError naming the file if it is
    missing or not a finite number."""
    value = record.get(key)
    if not is_number(value) or not math.isfinite(value):
        raise ConfigError(f"{path}: not a gate record ({key!r} is {str(value)[:40]!r}, not a number)")
    return float(value)


def table_in(record: dict, key: str, path: Path) -> dict:
    """The object `record[key]` of a gate's record; a ConfigError naming the file otherwise."""
    value = record.get(key)
    if not isinstance(value, dict):
        raise ConfigError(f"{path}: not a gate record (no {key!r} object)")
    return value


def read_gate(number: int, path: Path) -> Gate:
    """One gate record (training/gate.py): the choosing rows that hold a step count and a
    numeric head-to-head win share, the chosen snapshot and its reporting figures. A file
    that is not a gate's record (no choosing object, a report without its figures) is a
    ConfigError naming it."""
    record = read_run_json(path, dict)
    choosing = table_in(record, "choosing", path)
    rows = choosing.get("rows", [])
    if not isinstance(rows, list):
        raise ConfigError(f"{path}: not a gate record (its choosing rows are not a list)")
    rows = [r for r in rows if isinstance(r, dict) and is_number(r.get("steps")) and isinstance(r.get("head"), dict)
            and is_number(r["head"].get("win_share")) and is_number(r["head"].get("win_ci", 0.0))]
    chosen = choosing.get("chosen")
    gate = Gate(number, path, rows, int(figure(chosen, "steps", path)) if isinstance(chosen, dict) else None)
    if gate.chosen is not None and isinstance(record.get("report"), dict):
        report = record["report"]
        head, field_, reference = (table_in(report, k, path) for k in ("new_vs_reference", "new_field",
                                                                        "reference_field"))
        verdict = report.get("verdict")
        gate.report = {"win_share": figure(head, "win_share", path), "win_ci": figure(head, "win_ci", path),
                       "field_lead": figure(field_, "lead", path),
                       "field_ci": figure(field_, "ci", path), "reference_lead": figure(reference, "lead", path),
                       "verdict": verdict if verdict in ("promote", "keep") else "?"}
    return gate


def total_samples(stages: list[Stage]) -> int:
    """The lineage's learner samples: every stage's start plus the last stage's own."""
    return stages[-1].start + stages[-1].samples if stages else 0


def unit(stages: list[Stage]) -> str:
    """What the lineage's evaluations count points over ("a round", "a game"): its newest
    stage's game (a stage starts from its parent's network, so one lineage plays one game)."""
    return points_per(stages[-1].game) if stages else "a round"


def markdown(stages: list[Stage]) -> str:
    """One row per evaluation: the stage, lineage samples, points a round (a game in the
    board game: `unit`) against the run's evaluation opponents with its 95% interval, and win
    share; then one row per gate (gates_markdown)."""
    lines = [f"| stage | samples (lineage) | points {unit(stages)} (95% CI) | win share |", "| --- | --- | --- | --- |"]
    for stage in stages:
        for row in stage.evals:
            at = stage.start + int(row["timesteps"])
            lines.append(f"| {stage.run.name} | {at / 1e6:.2f}M | {row['points_per_round']:.2f} "
                         f"± {row.get('ci95', float('nan')):.2f} | {row.get('win_share', float('nan')):.3f} |")
    gates = gates_markdown(stages)
    lines += ["", gates] if gates else []
    lines.append(f"\nlineage: {' -> '.join(s.run.name for s in stages)}, {total_samples(stages) / 1e6:.2f}M samples")
    return "\n".join(lines)


def gates_markdown(stages: list[Stage]) -> str:
    """One row per gate, oldest first in each stage: its file, the snapshots it chose from,
    the chosen one (its run's steps and the lineage's samples) and, on the reporting deals,
    its win share against the reference and its field lead beside the reference's, and the
    verdict; empty when no stage was gated."""
    lines = []
    for stage in stages:
        for gate in stage.gates:
            who = f"| {stage.run.name} | {gate.number} ({gate.path.name}) | {len(gate.rows)} "
            if gate.chosen is None:
                lines.append(who + "| none qualified | - | - | - | - |")
                continue
            chosen = f"| ppo-{gate.chosen} | {(stage.start + gate.chosen) / 1e6:.2f}M "
            r = gate.report
            lines.append(who + chosen + ("| - | - | - |" if r is None else
                         f"| {r['win_share']:.3f} ± {r['win_ci']:.3f} | {r['field_lead']:+.2f} ± {r['field_ci']:.2f} "
                         f"({r['reference_lead']:+.2f}) | {r['verdict']} |"))
    if not lines:
        return ""
    return "\n".join(["| stage | gate | snapshots | chosen | chosen at (lineage) | win share vs reference "
                      "(reporting deals, 95% CI) | field lead (the reference's) | verdict |",
                      "| --- | --- | --- | --- | --- | --- | --- | --- |"] + lines)


def plot(stages: list[Stage], out: Path) -> Path:
    """The lineage's curve: points a round (a game: `unit`) in the runs' own evaluations (lower is better)
    with 95% bands, stage boundaries, and on a second panel every gate's snapshots' win
    share against the shipped network (choosing deals) and its chosen one's (reporting
    deals), numbered by gate (plot_gates)."""
    plt = pyplot()
    gated = any(s.gates for s in stages)
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
    top.set_ylabel(f"points {unit(stages)} in its evaluation\n(lower is better)")
    top.legend(fontsize=8, loc="best")
    top.set_title(f"lineage of {stages[-1].run.name}: {total_samples(stages) / 1e6:.1f}M learner samples")
    if gated:
        plot_gates(axes[1][0], stages)
    axes[-1][0].set_xlabel("learner samples of the lineage (millions)")
    return save_plot(fig, out)


GATE_MARKERS = "sD^vpho"
"""The choosing rows' marker of a stage's first, second, ... gate."""


def plot_gates(low, stages: list[Stage]) -> None:
    """Every gate's choosing rows (a marker per gate number, a colour per stage) and its
    chosen snapshot's win share on the reporting deals (a star labelled with the gate's
    number)."""
    starred = False
    for i, stage in enumerate(stages):
        for gate in stage.gates:
            xs = [(stage.start + r["steps"]) / 1e6 for r in gate.rows]
            ys = [r["head"]["win_share"] for r in gate.rows]
            errs = [r["head"].get("win_ci", 0.0) for r in gate.rows]
            low.errorbar(xs, ys, yerr=errs, fmt=GATE_MARKERS[(gate.number - 1) % len(GATE_MARKERS)], markersize=4,
                         capsize=2, color=f"C{i % 10}", alpha=0.7, label=f"{stage.run.name} gate {gate.number}")
            if gate.report is None:  # none qualified: no chosen snapshot, no report
                continue
            at, share = (stage.start + gate.chosen) / 1e6, gate.report["win_share"]
            low.errorbar([at], [share], yerr=[gate.report["win_ci"]], fmt="*", markersize=11, capsize=3,
                         color=f"C{i % 10}", markeredgecolor="black",
                         label=None if starred else "chosen (reporting deals)")
            low.annotate(f"gate {gate.number}", (at, share), textcoords="offset points", xytext=(6, 6), fontsize=7)
            starred = True
    low.axhline(0.25, color="grey", linewidth=0.6, linestyle="--")
    low.set_ylabel("win share, 1 snapshot\nvs 3 shipped (gate)")
    low.legend(fontsize=7, loc="best")
