"""Commands that start or finish training runs: train, imitate, distill, sweep, gate, lineage, keep."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

import typer

from experiments.cli.app import ADDRESS, BACKEND, app
from experiments.options import Marker, option_group
from sixnimmt_env.core.errors import ConfigError
from sixnimmt_env.core.strict_json import json_text

RUN_OPTIONS: Any = Marker("RUN_OPTIONS")


@dataclass(frozen=True)
class RunStart:
    """How a run of `train` or `imitate` starts: a new one from --config and --set, or
    --resume DIR with its saved config (then --config is refused, and --set, but for a
    training run's budget: training.runs.RESUME_OPTIONS)."""

    config: Optional[Path]
    set_: list[str]
    resume: Optional[Path]
    runs_dir: Path
    progress: bool

    def start(self, runner, config_class, budget: bool = False) -> Path:
        """Run `runner` (training's train or imitate) and return its run directory;
        `budget`: the runner takes --set of its budget on resume (`overrides`)."""
        if self.resume is not None:
            from training.runs import RESUME_OPTIONS
            keys = {item.split("=", 1)[0].strip() for item in self.set_}
            if self.config is not None or (self.set_ and not budget):
                raise ConfigError("--resume continues a run with its saved config: drop --config/--set")
            if not keys <= set(RESUME_OPTIONS):
                raise ConfigError(f"--resume continues a run with its saved config: --set may change only "
                                  f"{', '.join(RESUME_OPTIONS)}, not {', '.join(sorted(keys - set(RESUME_OPTIONS)))}")
            extra = {"overrides": self.set_} if budget else {}
            return runner(resume=self.resume, progress=self.progress, **extra)
        from training.runs import discard_failed_start

        cfg = config_class.load(self.config, self.set_)
        folder = self.runs_dir / cfg.name
        made_here = not folder.exists()
        try:
            return runner(cfg, runs_dir=self.runs_dir, progress=self.progress)
        except BaseException:  # a start that failed before any work leaves no folder to block a retry
            if made_here:
                discard_failed_start(folder)
            raise


def run_options(what: str, resume: str, progress: str):
    """The options of a command that starts or resumes a run (handed over as a RunStart);
    `what` names its config file's options, `resume` and `progress` are those options' help."""
    return option_group(RUN_OPTIONS, {
        "config": (Optional[Path], typer.Option(None, help=f"A JSON or TOML file of {what} options.")),
        "set_": (list[str], typer.Option([], "--set", help="Override an option: --set key=value (repeatable).")),
        "resume": (Optional[Path], typer.Option(None, help=resume)),
        "runs_dir": (Path, typer.Option(Path("runs"), help="Where new runs go (runs/<name>/).")),
        "progress": (bool, typer.Option(True, help=progress)),
    }, RunStart)


@app.command()
@run_options("training", resume="Continue the run in this directory from its last checkpoint "
                         "(--set may raise its minutes, total_timesteps, torch_threads).",
             progress="Show a progress bar.")
def train(run: RunStart = RUN_OPTIONS,
          device: Optional[str] = typer.Option(None, help="Where the network trains: auto (a GPU when torch "
                                                         "sees one), cpu or cuda; the same as --set device=...")) -> None:
    """Train MaskablePPO on the batched env against a self-play league (see training/)."""
    from training.config import TrainConfig
    from training.train import train as run_training

    if device is not None:
        if run.resume is not None:
            raise ConfigError("--device: a resumed run keeps its saved config (its device included)")
        run = RunStart(run.config, [*run.set_, f"device={device}"], run.resume, run.runs_dir, run.progress)
    out = run.start(run_training, TrainConfig, budget=True)
    typer.echo(f"run in {out}/ (best model: {out}/best.zip, evaluations: {out}/eval.csv)")


@app.command()
@run_options("imitation", resume="Continue the run in this directory (its labels are kept).",
             progress="Show progress bars.")
def imitate(run: RunStart = RUN_OPTIONS, backend: str = BACKEND, address: Optional[str] = ADDRESS) -> None:
    """Learn from search: label positions with mcs, fit the network to it (see training/imitate.py).
    With --backend ray the label units run as Ray tasks (the same units and files)."""
    from experiments.backends import make_backend
    from training.imitate import ImitationConfig, train_command
    from training.imitate import imitate as run_imitation

    runner = make_backend(backend, None, address)  # checks --backend and --address first
    # local: the run's own `workers` processes (training/label_runs.py), killed with it
    labels_on = runner if backend == "ray" else None
    out = run.start(functools.partial(run_imitation, backend=labels_on), ImitationConfig)
    typer.echo(f"run in {out}/ (model: {out}/model.zip, figures: {out}/report.json); "
               f"continue it with PPO: {train_command(out)}")


@app.command()
@run_options("distillation", resume="(distillation runs are short and do not resume: start a new one)",
             progress="Print a line per batch.")
def distill(run: RunStart = RUN_OPTIONS) -> None:
    """Distil a teacher network into a student (soft targets from the teacher's own play at every
    seat), then fine-tune it with PPO (see training/distill.py)."""
    from training.distill import DistillConfig, finetune_command
    from training.distill import distill as run_distill
    from training.runs import resume_run

    if run.resume is not None:
        raise ConfigError("distill runs do not resume: start a new one (--set name=...)")
    out = run.start(run_distill, DistillConfig)
    _, cfg = resume_run(out, DistillConfig, "distillation")  # the student's config as the run saved it
    typer.echo(f"student in {out}/model.zip (agreement per batch: {out}/distill.csv); fine-tune it with PPO: "
               f"{finetune_command(cfg, out)}")


@app.command()
def sweep(
    file: Optional[Path] = typer.Argument(None, help="The sweep's TOML file (experiments/backends/sweep.py describes it)."),
    resume: Optional[Path] = typer.Option(None, help="Finish the sweep in this directory (runs/sweep-<name>/)."),
    runs_dir: Path = typer.Option(Path("runs"), help="Where the trials' runs go (runs/<name>-<ii>/)."),
    address: Optional[str] = ADDRESS,
    workers: Optional[int] = typer.Option(None, help="CPUs of a local cluster (default all)."),
    progress: bool = typer.Option(True, help="Show Tune's progress table."),
) -> None:
    """Many training runs on Ray Tune (grid or random search, ASHA early stopping); a summary of every trial."""
    from experiments.backends.sweep import run_sweep

    if (file is None) == (resume is None):
        raise ConfigError("give a sweep file, or --resume DIR")
    if workers is not None and workers < 1:
        raise ConfigError("--workers must be at least 1")
    target = run_sweep(file, runs_dir, resume=resume, address=address, num_cpus=workers, progress=progress)
    typer.echo(f"summary: {target}/summary.md, summary.csv, curves.png")


@app.command()
def gate(
    run: Path = typer.Argument(..., help="A training run's directory (runs/<name>/): its snapshots are the candidates."),
    reference: str = typer.Option("ppo", help="The network a snapshot must beat head to head (default the shipped one)."),
    field: str = typer.Option("mcs:rollouts=100:batched=true", help="The fixed field a snapshot must not fall behind on."),
    choose_seed: int = typer.Option(777, help="Seed of the deals that choose the snapshot."),
    choose_deals: int = typer.Option(400, help="Choosing deals head to head (each in every seat rotation)."),
    choose_field_deals: int = typer.Option(300, help="Choosing deals against the field."),
    report_seed: int = typer.Option(2026, help="Seed of the deals that report the chosen one (not the choosing seed)."),
    report_deals: int = typer.Option(1500, help="Reporting deals of each head-to-head table."),
    report_field_deals: int = typer.Option(1500, help="Reporting deals against the field."),
    last: int = typer.Option(0, help="Only the newest N snapshots (0: all)."),
    out: Optional[Path] = typer.Option(None, help="Write the record as JSON here, the tables (.md) and the "
                                                  "plot (.png) beside it; default runs/<name>/gate.json. An "
                                                  "earlier gate there moves to gate-1.*, gate-2.*, ..."),
) -> None:
    """Choose a training run's snapshot on one seed's deals and report it on another's: both head-to-head
    tables and the field's (training/gate.py); prints the tables and a verdict, promote or keep."""
    from training.gate import GatePlan, keep_earlier, markdown, plot
    from training.gate import gate as run_gate

    plan = GatePlan(reference=reference, field=field, choose_seed=choose_seed, choose_deals=choose_deals,
                    choose_field_deals=choose_field_deals, report_seed=report_seed, report_deals=report_deals,
                    report_field_deals=report_field_deals, last=last)
    out = out or run / "gate.json"
    record = run_gate(run, plan)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        earlier = keep_earlier(out)  # after the matches: a gate that fails midway moves nothing
        if earlier:
            typer.echo(f"the earlier gate kept as {earlier} (.md, .png beside it)")
        out.write_text(json_text(record, indent=1) + "\n")
        out.with_suffix(".md").write_text(markdown(record) + "\n")
        plot(record, out.with_suffix(".png"))
    except OSError as e:
        raise ConfigError(f"cannot write {out}: {e.strerror or e}") from None
    typer.echo(markdown(record))
    typer.echo(f"record: {out}, tables: {out.with_suffix('.md')}, plot: {out.with_suffix('.png')}")


@app.command()
def lineage(
    run: Path = typer.Argument(..., help="A training run's directory (runs/<name>/): the newest stage."),
    out: Optional[Path] = typer.Option(None, help="The plot (.png); default runs/<name>/lineage.png."),
) -> None:
    """A long run's learning curve across its stages: follows init_model back through the runs it
    started from, prints every evaluation at the lineage's sample count and plots them (training/lineage.py)."""
    from training.lineage import lineage as run_lineage
    from training.lineage import markdown, plot

    if not (run / "config.json").is_file():
        raise ConfigError(f"{run}: not a training run's directory (no config.json)")
    stages = run_lineage(run)
    out = out or run / "lineage.png"
    typer.echo(markdown(stages))
    typer.echo(f"plot: {plot(stages, out)}")


@app.command()
def keep(
    run: Path = typer.Argument(..., help="A training run's directory (runs/<name>/), or a kept copy of one."),
    to: Path = typer.Option(..., help="Where the copy goes, e.g. experiments/networks/<name> (git keeps it), "
                                      "or runs/<name> to bring a kept run back."),
    snapshots: int = typer.Option(2, help="The newest snapshots of the run's opponent pool kept with it."),
) -> None:
    """Keep what --resume needs of a training run (config, last checkpoint, the newest snapshots, eval.csv,
    gates) where git keeps it, or bring a kept run back to runs/<name> (training/keep.py): runs/ is not
    kept by git, and a reset machine loses it."""
    from training.keep import keep as keep_run

    files, size = keep_run(run, to, snapshots)
    typer.echo(f"kept {len(files)} files ({size / 2**20:.1f} MB) of {run} in {to}")
