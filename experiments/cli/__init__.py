"""The `sixnimmt` command line: one typer app, its commands in one module per group.

| module | commands |
| --- | --- |
| `play.py` | demo, play, replay, serve, results |
| `matches.py` | match, tournament, report, baselines, agents |
| `runs.py` | train, imitate, sweep |
| `exploit.py` | exploit |
| `reproduce.py` | reproduce |
| `study.py` | study die-sechste, study board, study board-skill |
| `bench.py` | bench engine, bench env, bench board, bench serve, bench labels |

Typed errors become one-line messages with an exit code, never tracebacks. Commands are
thin: they check their own options and call a library function. They import what they
need inside their bodies, so `sixnimmt --help` stays fast. The CLI is the top layer: it
may import every package (sixnimmt_env, agents, training, experiments). Games are picked
with `--game` (default `cards`, or `board`); the rule options are declared once, in
experiments/options.py. Commands for one game only say so in their help.
"""

from __future__ import annotations

import sys

import typer

# The command groups register their commands on `app` when imported, in the order `--help`
# lists them.
from experiments.cli import bench, exploit, matches, play, reproduce, runs, study  # noqa: E402, F401, I001
from experiments.cli.app import EXIT_INVALID, app, error_line
from sixnimmt_env.core.errors import SixNimmtError

__all__ = ["app", "main"]


def main() -> None:
    """Console entry point: run the app, turning our typed errors into one-line messages."""
    from sixnimmt_env.core.perf import tune_allocator

    tune_allocator()
    try:
        app()  # standalone: click reports usage errors itself, with exit code 2
    except SixNimmtError as e:  # raised outside a command (the group handles those)
        typer.echo(error_line(e), err=True)
        sys.exit(EXIT_INVALID)
