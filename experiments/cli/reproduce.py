"""`sixnimmt reproduce REPORT`: re-run a report's figures and say which still hold (experiments/reproduce.py)."""

from __future__ import annotations

import shlex
from pathlib import Path

import typer

from experiments.cli.app import EXIT_DIFFERENCES, app
from sixnimmt_env.core.errors import ConfigError
from sixnimmt_env.core.strict_json import json_text


@app.command()
def reproduce(
    report: Path = typer.Argument(..., help="A report with a `toml figures` block, e.g. experiments/board-game.md."),
    scale: float = typer.Option(1.0, help="Multiply every game and deal count by this (0.1: a tenth; the "
                                          "intervals widen to match)."),
    figure: list[str] = typer.Option([], "--figure", help="Only figures whose name contains this (repeatable)."),
    cheapest: bool = typer.Option(False, help="Only the figures of the report's cheapest command."),
    timeout: float = typer.Option(600.0, help="Seconds each command may run before it is killed."),
    list_: bool = typer.Option(False, "--list", help="List the figures and their commands; run nothing."),
    as_json: bool = typer.Option(False, "--json", help="Print the verdicts as JSON."),
) -> None:
    """Re-run a report's figures at the current code: each holds (within its interval), changed (was X, now Y),
    failed, or is not re-run (training runs). Only match, baselines and study commands run. Exit 1 if any
    figure changed or failed."""
    from experiments.reproduce import cost, read_figures
    from experiments.reproduce import reproduce as run_figures

    if timeout <= 0:
        raise ConfigError("--timeout must be positive")
    figures = read_figures(report)
    if figure:
        figures = [f for f in figures if any(part in f.name for part in figure)]
    if cheapest:
        runnable = [f for f in figures if f.rerun]
        if runnable:
            command = min(runnable, key=cost).command
            figures = [f for f in runnable if f.command == command]
    if not figures:
        raise ConfigError(f"{report}: no figure matches")
    if list_:
        for f in figures:
            how = "" if f.rerun else f" (not re-run: {f.note or 'a record'})"
            typer.echo(f"{f.name}: {f.value:g} ± {f.interval:g} at {f.commit}\n    sixnimmt {shlex.join(f.command)}{how}")
        return
    log = None if as_json else (lambda v: typer.echo(v.line()))
    verdicts = run_figures(figures, scale=scale, timeout=timeout, log=log)
    counts = {s: sum(v.status == s for v in verdicts) for s in ("holds", "changed", "failed", "not re-run")}
    if as_json:
        typer.echo(json_text({"report": str(report), "scale": scale, "counts": counts,
                              "figures": [v.as_dict() for v in verdicts]}, indent=1))
    else:
        typer.echo(f"{report} at scale {scale:g}: " + ", ".join(f"{n} {s}" for s, n in counts.items() if n))
    if counts["changed"] or counts["failed"]:
        raise typer.Exit(EXIT_DIFFERENCES)
