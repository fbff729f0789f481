"""The `study` group: studies of how a game plays, each over a grid of seat counts and
variants (and tables of agents), written to a directory with a report and plots."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

import typer

from experiments.cli.app import app
from experiments.options import GameOptions, Marker, option_group
from sixnimmt_env.core.errors import ConfigError

study_app = typer.Typer(no_args_is_help=True, help="Studies of how the games play: Die Sechste next to the classic "
                                                     "card game, the board game and its professional side.")
app.add_typer(study_app, name="study")

GRID: Any = Marker("GRID")
SEARCH = typer.Option("mcs", help="The search player's spec.")


@dataclass(frozen=True)
class Grid:
    """Where a study writes, its grid (seat counts by variant) and how it runs: the seed,
    the worker processes and the progress bar, options every study command shares."""

    out: Path
    counts: list[int]
    variants: list[str]
    seed: int
    workers: int
    progress: bool

    def check(self, game: str, **options) -> None:
        """ConfigError unless every table of the grid can be played: checked here, before
        the worker processes that build them start."""
        for variant in self.variants:
            GameOptions.given(game, variant=variant, **options).check(self.counts)

    def run(self, study, config, figures: str) -> None:
        """Play `study` (a studies.runner.Study) over `config`, then say where its report
        and its `figures` are."""
        study.run(config, self.out, workers=self.workers, progress=self.progress)
        typer.echo(f"report: {self.out}/report.md  {figures}")


def _grid(out: Path, players: str, seed: int, workers: int, progress: bool, variants: str | None = None) -> Grid:
    try:
        counts = [int(p) for p in players.split(",") if p.strip()]
    except ValueError:
        raise ConfigError(f"--players must list seat counts like 2,4,6, got {players!r}") from None
    _at_least_one(workers=workers)
    variant_list = [v.strip() for v in (variants or "").split(",") if v.strip()]
    return Grid(out, counts, variant_list, seed, workers, progress)


def grid_options(name: str, players: str, variants: str | None = None, what: str = "the plot"):
    """A study's --out (out/NAME), --players, unless None --variants (comma-separated),
    --seed, --workers and --progress, handed over as a Grid."""
    options = {"out": (Path, typer.Option(Path(f"out/{name}"), help=f"Directory for results.json, report.md and "
                                                                      f"{what}.")),
               "players": (str, typer.Option(players, help="Seat counts, comma-separated."))}
    if variants is not None:
        options["variants"] = (str, typer.Option(variants, help="Board variants, comma-separated."))
    options |= {"seed": (int, typer.Option(0, help="Seed of the deals.")),
                "workers": (int, typer.Option(2, help="Worker processes.")),
                "progress": (bool, typer.Option(True))}
    return option_group(GRID, options, _grid)


def _at_least_one(**counts: int) -> None:
    """ConfigError unless every count is at least 1 (the message names them all)."""
    if min(counts.values()) < 1:
        names = [f"--{name.replace('_', '-')}" for name in counts]
        listed = f"{', '.join(names[:-1])} and {names[-1]}" if len(names) > 1 else names[0]
        raise ConfigError(f"{listed} must be at least 1")


@study_app.command("die-sechste")
@grid_options("study-die-sechste", "2,4,6,10", what="plots")
def study_die_sechste(
    grid: Grid = GRID,
    heuristic_games: int = typer.Option(400, help="Games per cell with the heuristic table."),
    mcs_games: int = typer.Option(40, help="Games per cell with the mcs table."),
    mcs: str = typer.Option("mcs:rollouts=30", help="The search player's spec."),
) -> None:
    """Card game only: Die Sechste next to the classic game (points, game length, rule frequencies, seat position)."""
    from agents.registry import make_agent
    from experiments.studies.die_sechste import DIE_SECHSTE_STUDY, StudyConfig

    GameOptions.given("cards", variant="die-sechste").check(grid.counts)
    _at_least_one(heuristic_games=heuristic_games, mcs_games=mcs_games)
    make_agent(mcs)
    grid.run(DIE_SECHSTE_STUDY, StudyConfig(grid.counts, heuristic_games, mcs_games, mcs, grid.seed),
             f"plots: {grid.out}/points_and_length.png, twin_rules.png, seat_position.png")


@study_app.command("board")
@grid_options("study-board", "2,3,4,5,6", "basic,luck")
def study_board(
    grid: Grid = GRID,
    random_games: int = typer.Option(400, help="Games per cell with random players."),
    search_games: int = typer.Option(40, help="Games per cell with the search player in every seat."),
    search: str = SEARCH,
    layout: Optional[str] = typer.Option(None, help="The board: a shipped layout's name or a TOML/JSON file "
                                                    "(default: the variant's side's shipped board)."),
) -> None:
    """Board game only: points per seat, field kinds per game, luck cards, play-two turns."""
    from agents.registry import make_agent
    from experiments.studies.board import BOARD_STUDY, BoardStudyConfig

    grid.check("board", layout=layout)
    _at_least_one(random_games=random_games, search_games=search_games)
    make_agent(search, "board")
    config = BoardStudyConfig(grid.counts, grid.variants, random_games, search_games, search, layout, grid.seed)
    grid.run(BOARD_STUDY, config, f"plot: {grid.out}/board_numbers.png")


@study_app.command("board-skill")
@grid_options("study-board-skill", "2,4,6", "basic,luck,pro,pro-luck")
def study_board_skill(
    grid: Grid = GRID,
    games: int = typer.Option(48, help="Games per cell (one searcher, P - 1 opponents; whole seat rotations)."),
    search: str = SEARCH,
    opponents: str = typer.Option("random,board-safe", help="The opponents' specs, comma-separated: a table of "
                                  "each (e.g. ppo: the variant's shipped network)."),
) -> None:
    """Board game only: does the professional side reward skill? One searcher against tables of random, heuristic
    (or any) opponents."""
    from agents.registry import make_agent
    from experiments.studies.board_skill import SKILL_STUDY, SkillStudyConfig

    grid.check("board")
    _at_least_one(games=games)
    kinds = [o.strip() for o in opponents.split(",") if o.strip()]
    if not kinds or search in kinds or len(set(kinds)) < len(kinds):
        raise ConfigError(f"--opponents {opponents!r}: one or more specs, each once, none the searcher's ({search!r})")
    for spec in [search, *kinds]:
        make_agent(spec, "board")
    grid.run(SKILL_STUDY, SkillStudyConfig(grid.counts, grid.variants, games, search, kinds, grid.seed),
             f"plot: {grid.out}/board_skill.png")
