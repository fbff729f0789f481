"""The `study` group: studies of how a game plays, each over a grid of seat counts and
variants (and tables of agents), written to a directory with a report and plots."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from experiments.cli import app
from experiments.options import GameOptions
from sixnimmt_env.core.errors import ConfigError

study_app = typer.Typer(no_args_is_help=True, help="Studies of how the games play: Die Sechste next to the classic "
                                                     "card game, the board game and its professional side.")
app.add_typer(study_app, name="study")

SEED = typer.Option(0)
WORKERS = typer.Option(2, help="Worker processes.")
PROGRESS = typer.Option(True)
SEARCH = typer.Option("mcs", help="The search player's spec.")


def _grid(game: str, players: str, variants: str, **options) -> tuple[list[int], list[str]]:
    """--players and --variants of a study (comma-separated), each table of the grid
    checked before the worker processes start (ConfigError naming what is wrong)."""
    try:
        counts = [int(p) for p in players.split(",") if p.strip()]
    except ValueError:
        raise ConfigError(f"--players must list seat counts like 2,4,6, got {players!r}") from None
    kinds = [v.strip() for v in variants.split(",") if v.strip()]
    for variant in kinds:
        GameOptions.given(game, variant=variant, **options).check(counts)
    return counts, kinds


def _at_least_one(**counts: int) -> None:
    """ConfigError unless every count is at least 1 (the message names them all)."""
    if min(counts.values()) < 1:
        names = [f"--{name.replace('_', '-')}" for name in counts]
        raise ConfigError(f"{', '.join(names[:-1])} and {names[-1]} must be at least 1")


@study_app.command("die-sechste")
def study_die_sechste(
    out: Path = typer.Option(Path("out/study-die-sechste"), help="Directory for results.json, report.md and plots."),
    players: str = typer.Option("2,4,6,10", help="Seat counts, comma-separated."),
    heuristic_games: int = typer.Option(400, help="Games per cell with the heuristic table."),
    mcs_games: int = typer.Option(40, help="Games per cell with the mcs table."),
    mcs: str = typer.Option("mcs:rollouts=30", help="The search player's spec."),
    seed: int = SEED,
    workers: int = WORKERS,
    progress: bool = PROGRESS,
) -> None:
    """Card game only: Die Sechste next to the classic game (points, game length, rule frequencies, seat position)."""
    from agents.registry import make_agent
    from experiments.study import StudyConfig, run_study

    counts, _ = _grid("cards", players, "die-sechste")
    _at_least_one(heuristic_games=heuristic_games, mcs_games=mcs_games, workers=workers)
    make_agent(mcs)
    run_study(StudyConfig(counts, heuristic_games, mcs_games, mcs, seed), out, workers=workers, progress=progress)
    typer.echo(f"report: {out}/report.md  plots: {out}/points_and_length.png, twin_rules.png, seat_position.png")


@study_app.command("board")
def study_board(
    out: Path = typer.Option(Path("out/study-board"), help="Directory for results.json, report.md and the plot."),
    players: str = typer.Option("2,3,4,5,6", help="Seat counts, comma-separated."),
    variants: str = typer.Option("basic,luck", help="Board variants, comma-separated."),
    random_games: int = typer.Option(400, help="Games per cell with random players."),
    search_games: int = typer.Option(40, help="Games per cell with the search player in every seat."),
    search: str = SEARCH,
    layout: Optional[str] = typer.Option(None, help="The board: a shipped layout's name or a TOML/JSON file "
                                                    "(default: the variant's side's shipped board)."),
    seed: int = SEED,
    workers: int = WORKERS,
    progress: bool = PROGRESS,
) -> None:
    """Board game only: points per seat, field kinds per game, luck cards, play-two turns."""
    from agents.registry import make_agent
    from experiments.board_study import BoardStudyConfig, run_board_study

    counts, kinds = _grid("board", players, variants, layout=layout)
    _at_least_one(random_games=random_games, search_games=search_games, workers=workers)
    make_agent(search, "board")
    run_board_study(BoardStudyConfig(counts, kinds, random_games, search_games, search, layout, seed), out,
                    workers=workers, progress=progress)
    typer.echo(f"report: {out}/report.md  plot: {out}/board_numbers.png")


@study_app.command("board-skill")
def study_board_skill(
    out: Path = typer.Option(Path("out/study-board-skill"), help="Directory for results.json, report.md and the plot."),
    players: str = typer.Option("2,4,6", help="Seat counts, comma-separated."),
    variants: str = typer.Option("basic,luck,pro,pro-luck", help="Board variants, comma-separated."),
    games: int = typer.Option(48, help="Games per cell (one searcher, P - 1 opponents; whole seat rotations)."),
    search: str = SEARCH,
    heuristic: str = typer.Option("board-safe", help="The heuristic opponents' spec."),
    seed: int = SEED,
    workers: int = WORKERS,
    progress: bool = PROGRESS,
) -> None:
    """Board game only: does the professional side reward skill? One searcher against random and heuristic tables."""
    from agents.registry import make_agent
    from experiments.board_skill import SkillStudyConfig, run_skill_study

    counts, kinds = _grid("board", players, variants)
    _at_least_one(games=games, workers=workers)
    make_agent(search, "board")
    make_agent(heuristic, "board")
    run_skill_study(SkillStudyConfig(counts, kinds, games, search, heuristic, seed), out, workers=workers,
                    progress=progress)
    typer.echo(f"report: {out}/report.md  plot: {out}/board_skill.png")
