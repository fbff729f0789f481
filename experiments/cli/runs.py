"""Commands that start or finish training runs: train, imitate, sweep."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from experiments.cli import ADDRESS, app
from sixnimmt_env.core.errors import ConfigError

CONFIG = "A JSON or TOML file of {} options."
SET = typer.Option([], "--set", help="Override an option: --set key=value (repeatable).")
RUNS_DIR = typer.Option(Path("runs"), help="Where new runs go (runs/<name>/).")


def _start_or_resume(runner, config_class, config, set_, resume, runs_dir, progress):
    """A run of `train` or `imitate`: a new one from --config and --set, or --resume DIR
    with its saved config (then --config and --set are refused)."""
    if resume is not None:
        if config is not None or set_:
            raise ConfigError("--resume continues a run with its saved config: drop --config/--set")
        return runner(resume=resume, progress=progress)
    return runner(config_class.load(config, set_), runs_dir=runs_dir, progress=progress)


@app.command()
def train(
    config: Optional[Path] = typer.Option(None, help=CONFIG.format("training")),
    set_: list[str] = SET,
    resume: Optional[Path] = typer.Option(None, help="Continue the run in this directory from its last checkpoint."),
    runs_dir: Path = RUNS_DIR,
    progress: bool = typer.Option(True, help="Show a progress bar."),
) -> None:
    """Train MaskablePPO on the batched env against a self-play league (see training/)."""
    from training.config import TrainConfig
    from training.train import train as run_training

    run = _start_or_resume(run_training, TrainConfig, config, set_, resume, runs_dir, progress)
    typer.echo(f"run in {run}/ (best model: {run}/best.zip, evaluations: {run}/eval.csv)")


@app.command()
def imitate(
    config: Optional[Path] = typer.Option(None, help=CONFIG.format("imitation")),
    set_: list[str] = SET,
    resume: Optional[Path] = typer.Option(None, help="Continue the run in this directory (its labels are kept)."),
    runs_dir: Path = RUNS_DIR,
    progress: bool = typer.Option(True, help="Show progress bars."),
) -> None:
    """Learn from search: label positions with mcs, fit the network to it (see training/imitate.py)."""
    from training.imitate import ImitationConfig, imitate as run_imitation

    run = _start_or_resume(run_imitation, ImitationConfig, config, set_, resume, runs_dir, progress)
    typer.echo(f"run in {run}/ (model: {run}/model.zip, figures: {run}/report.json); "
               f"continue it with PPO: sixnimmt train --set init_model={run}/model.zip")


@app.command()
def sweep(
    file: Optional[Path] = typer.Argument(None, help="The sweep's TOML file (experiments/sweep.py describes it)."),
    resume: Optional[Path] = typer.Option(None, help="Finish the sweep in this directory (runs/sweep-<name>/)."),
    runs_dir: Path = typer.Option(Path("runs"), help="Where the trials' runs go (runs/<name>-<ii>/)."),
    address: Optional[str] = ADDRESS,
    workers: Optional[int] = typer.Option(None, help="CPUs of a local cluster (default all)."),
    progress: bool = typer.Option(True, help="Show Tune's progress table."),
) -> None:
    """Many training runs on Ray Tune (grid or random search, ASHA early stopping); a summary of every trial."""
    from experiments.sweep import run_sweep

    if (file is None) == (resume is None):
        raise ConfigError("give a sweep file, or --resume DIR")
    if workers is not None and workers < 1:
        raise ConfigError("--workers must be at least 1")
    target = run_sweep(file, runs_dir, resume=resume, address=address, num_cpus=workers, progress=progress)
    typer.echo(f"summary: {target}/summary.md, summary.csv, curves.png")
