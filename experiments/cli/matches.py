"""Commands that play agents against each other and rank them: match, tournament,
report, baselines, agents."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from experiments.cli.app import ADDRESS, BACKEND, app
from experiments.options import GAME_OPTIONS, GameOptions, game_options
from sixnimmt_env.core.errors import ConfigError
from sixnimmt_env.core.strict_json import json_text

WORKERS_HELP = "local: worker processes (default 1); ray: CPUs of a local cluster (default all)."


def agent_specs(text: str, option: str) -> list[str]:
    """Comma-separated agent specs, each checked by name and parameters before anything
    else (so `--agents foo` names the unknown agent, not a seat count)."""
    from agents.registry import check_spec

    specs = [s.strip() for s in text.split(",")]
    if not any(specs):
        raise ConfigError(f"{option}: list agent specs, comma-separated, e.g. mcs,random")
    for i, spec in enumerate(specs):
        if not spec:
            raise ConfigError(f"{option}: spec {i + 1} of {len(specs)} is empty ({text!r})")
        check_spec(spec)
    return specs


@app.command()
@game_options
def match(
    agents: str = typer.Option(..., help="One agent spec per seat, comma-separated, e.g. mcs,random,random,random."),
    games: int = typer.Option(100, help="Deals; each is played once per seat rotation."),
    seed: int = typer.Option(0),
    options: GameOptions = GAME_OPTIONS,
    records: Optional[Path] = typer.Option(None, help="Write every game's record into this directory."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    progress: bool = typer.Option(True, help="Show a progress bar."),
    chunk_deals: int = typer.Option(0, help="Deals per work unit (0: the whole match in one batch). The results "
                                            "depend on it and the seed only, not on the backend or workers."),
    backend: str = BACKEND,
    workers: Optional[int] = typer.Option(None, help=WORKERS_HELP),
    address: Optional[str] = ADDRESS,
) -> None:
    """Play agents against each other over duplicate deals with seat rotation (any game)."""
    from agents.arena import run_match
    from agents.results import format_table
    from experiments.backends import init_worker_process, make_backend
    from experiments.tournaments.progress import turn_bar

    specs = agent_specs(agents, "--agents")
    game = options.build(len(specs))
    if chunk_deals < 0:
        raise ConfigError("--chunk-deals must be 0 (one batch) or more")
    runner = make_backend(backend, workers, address)
    if chunk_deals == 0 and (backend != "local" or (workers or 1) > 1):
        typer.echo("note: one work unit (--chunk-deals 0); give --chunk-deals N to spread the match", err=True)
    in_process = not (chunk_deals or backend != "local")
    if in_process:  # set up as a tournament's worker is (one torch thread), so both time a decision alike:
        init_worker_process()  # on a busy 2-core machine torch's two threads made board ppo's ~29x slower
    with turn_bar("match", progress) as bar:
        result = run_match(specs, game, games, seed, records_dir=records, progress=bar, chunk_deals=chunk_deals,
                           backend=None if in_process else runner)
    typer.echo(json_text(result.as_dict(), indent=1) if as_json else format_table(result))
    if records is not None and not as_json:
        typer.echo(f"records written to {records}/")


def _seat_range(players: int, players_range: Optional[str]) -> list[int]:
    """The seat counts of a tournament: --players-range LO-HI, else --players."""
    if not players_range:
        return [players]
    try:
        lo, hi = (int(x) for x in players_range.split("-"))
    except ValueError:
        raise ConfigError(f"--players-range must look like 2-10, got {players_range!r}") from None
    return list(range(lo, hi + 1))


@app.command()
@game_options
def tournament(
    agents: Optional[str] = typer.Option(None, help="Agent specs, comma-separated (default: the game's standard "
                                                    "line-up, agents.registry.STANDARD_LINEUPS: for the cards "
                                                    "ppo,mcs,bayes,lowest,highest,min-gap,safe-high,greedy,random; "
                                                    "for the board ppo,guided,mcs,board-green,board-safe,random)."),
    players: int = typer.Option(4, help="Seats per table."),
    players_range: Optional[str] = typer.Option(None, help="Several seat counts, e.g. 2-10 (overrides --players)."),
    games: int = typer.Option(4, help="Deals per line-up; each is played in every seat rotation."),
    seed: int = typer.Option(0),
    out: Path = typer.Option(Path("out/tournament"), help="Directory for results, report and plots."),
    workers: Optional[int] = typer.Option(None, help=WORKERS_HELP),
    backend: str = BACKEND,
    address: Optional[str] = ADDRESS,
    options: GameOptions = GAME_OPTIONS,
    records: bool = typer.Option(False, help="Also write every game's record to DIR/records/."),
    resume: Optional[Path] = typer.Option(None, help="Finish the interrupted tournament in this directory."),
    progress: bool = typer.Option(True),
) -> None:
    """Round robin over line-ups with duplicate deals; writes results, report and plots (any game)."""
    from agents.registry import standard_lineup
    from experiments.backends import make_backend
    from experiments.tournaments.report import build_report, leaderboards
    from experiments.tournaments.tournament import TournamentConfig, run_tournament

    runner = make_backend(backend, workers, address)
    summary: dict = {}
    report_it = lambda d: summary.update(build_report(d))  # noqa: E731  inside the directory's lock
    if resume is not None:
        target = run_tournament(None, resume, workers=workers or 1, resume=True, progress=progress, backend=runner,
                                then=report_it)
    else:
        counts = _seat_range(players, players_range)
        specs = agent_specs(agents, "--agents") if agents is not None else standard_lineup(options.game)
        cfg = TournamentConfig(agents=specs, players=counts, games=games, seed=seed,
                               game=options.game, rule_options=dict(options.rule_options), records=records)
        target = run_tournament(cfg, out, workers=workers or 1, progress=progress, backend=runner, then=report_it)
    typer.echo(leaderboards(summary))
    typer.echo(f"\nreport: {target}/report.md  plots: {target}/leaderboard.png, head_to_head.png, points.png")


@app.command()
def report(directory: Path = typer.Argument(..., help="A tournament directory.")) -> None:
    """Rebuild a tournament's report and plots from its results alone."""
    from experiments.tournaments.report import build_report
    from experiments.tournaments.tournament import DirectoryLock

    if not (directory / "results.jsonl").exists():
        raise ConfigError(f"{directory} holds no tournament results (results.jsonl)")
    with DirectoryLock(directory):  # not while a tournament writes into it
        build_report(directory)
    typer.echo(f"report: {directory}/report.md")


@app.command()
def baselines(
    players: int = typer.Option(4, help="Seats, 2..10."),
    row_choice: str = typer.Option("cheapest", help="player or cheapest."),
    deals: int = typer.Option(250, help="Deals per agent; each played in every seat rotation (one round each)."),
    seed: int = typer.Option(0),
    agents: Optional[str] = typer.Option(None, help="Comma-separated agent specs (default: all baselines)."),
    variant: str = typer.Option("classic", help="classic (104 cards) or die-sechste (52 playing cards; two "
                                                "decks for 5+ players)."),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Card game only: each agent in one seat against random opponents, bullheads per round (markdown table)."""
    from experiments.tournaments.baselines import baseline_rows, markdown

    specs = [s.strip() for s in agents.split(",")] if agents else None
    rows = baseline_rows(players, row_choice, deals, seed, specs, variant=variant)  # checks the rules first
    typer.echo(json_text(rows, indent=1) if as_json else
               f"{variant}, {players} players, row choice {row_choice}, {deals * players} rounds per agent\n"
               + markdown(rows))


@app.command("agents")
def list_agents() -> None:
    """List the agent specs `match` and the environments accept."""
    from agents.registry import describe

    typer.echo(describe())
