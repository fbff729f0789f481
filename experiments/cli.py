"""The `sixnimmt` command line: one typer app, a subcommand per feature.

Typed errors become one-line messages with an exit code, never tracebacks. Commands
import what they need inside their bodies, so `sixnimmt --help` stays fast. The CLI is
the top layer: it may import every package (sixnimmt_env, agents, training, experiments).
Games are picked with `--game` (default `cards`, or `board`) and built through the game
interface: the rule options default to None ("the game's default") and only those given
reach the game, which refuses in one line an option it does not know. Card-only commands
(baselines, study, bench) say so in their help.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer
import typer.core

from sixnimmt_env.core.errors import ConfigError, InvalidRecordError, SixNimmtError


class _OneLineErrors(typer.core.TyperGroup):
    """The top group: a typed error raised by any command (or sub-command) becomes one
    line on stderr and exit code 2, also when the app runs in process (CliRunner); so
    does a usage error (an unknown option, "abc" for a number), which click would show
    as a box of several lines."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        click = typer.core._click  # the click typer runs on (its own copy in typer >= 0.29)

        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as e:
            typer.echo(e.ctx.get_help())
            sys.exit(e.exit_code)
        except click.exceptions.ClickException as e:
            ctx = getattr(e, "ctx", None)
            where = f"{ctx.command_path}: " if ctx is not None else ""
            hint = f" (see {ctx.command_path} --help)" if ctx is not None else ""
            typer.echo("error: " + " ".join(f"{where}{e.format_message()}{hint}".split()), err=True)
            sys.exit(e.exit_code)
        except typer.core.Abort:  # typer's own (Ctrl-D at a prompt)
            typer.echo("aborted", err=True)
            sys.exit(1)
        sys.exit(rv if isinstance(rv, int) else 0)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except SixNimmtError as e:
            typer.echo(error_line(e), err=True)
            raise typer.Exit(EXIT_INVALID) from None
        except KeyboardInterrupt:  # Ctrl-C: one line (the workers ignore it, their pool ends)
            typer.echo("\ninterrupted (Ctrl-C)", err=True)
            raise typer.Exit(EXIT_INTERRUPTED) from None


def error_line(e: SixNimmtError) -> str:
    """The one line a typed error is shown as."""
    text = " ".join(str(e).split())  # one line, whatever the message held
    return f"invalid record: {text}" if isinstance(e, InvalidRecordError) else f"error: {text}"


app = typer.Typer(cls=_OneLineErrors, add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="sixnimmt lab: 6 nimmt! rules engine, environments, agents and experiments.")
bench_app = typer.Typer(no_args_is_help=True, help="Speed benchmarks (card game only).")
app.add_typer(bench_app, name="bench")
study_app = typer.Typer(no_args_is_help=True, help="Studies of how a game plays (card game only).")
app.add_typer(study_app, name="study")

STANDARD_AGENTS = ("ppo,mcs,bayes,lowest,highest,min-gap,"
                   "safe-high,greedy,random")
EXIT_DIFFERENCES = 1
EXIT_INVALID = 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, the shell's convention for a program stopped by Ctrl-C


# The rule options every playing command shares (one definition each). Each defaults to
# None, "the game's default": `_game` passes a game only the options given, and a game
# that does not know one says so in one line (e.g. --row-choice with --game board).
GAME = typer.Option("cards", "--game", help="The game: cards (classic 6 nimmt! and Die Sechste) or board "
                                            "(6 nimmt! Das Brettspiel, 2019).")
VARIANT = typer.Option(None, help="cards: classic (104 cards, default) or die-sechste (52 playing cards; two "
                                  "decks for 5+ players). board: basic (default), luck (luck cards), pro (action cards, the pro side) or pro-luck.")
ROW_CHOICE = typer.Option(None, help="cards only: player (default: the owner of a too-low card chooses the row) "
                                     "or cheapest (automatic).")
END_SCORE = typer.Option(None, help="cards only: the game ends after the round in which someone reaches this "
                                    "(default 66; 0: unused).")
MAX_ROUNDS = typer.Option(None, help="cards only: the game ends after this many rounds (default: unused).")
DECK = typer.Option(None, help="cards only: full (default), or exact (known deck: cards 1..10*players+4).")
LAYOUT = typer.Option(None, "--layout", metavar="FILE|NAME",
                      help="board only: the board, a shipped layout's name (default basic-default) or a "
                           "TOML/JSON layout file (docs/board-layout.md).")
NEXT_ROW = typer.Option(None, help="board only: where a tile goes after taking a row: scan (default: the first "
                                   "empty row below) or rotate (the first empty row after the last one opened).")
PLAYERS_HELP = "2..10 for cards, 2..6 for board"
# Where work units run (experiments/backends.py): shared by match and tournament.
BACKEND = typer.Option("local", "--backend", help="local (this machine's processes) or ray (Ray tasks: a cluster "
                                                  "joined with --address/RAY_ADDRESS, else a local one).")
ADDRESS = typer.Option(None, "--address", help="ray: the cluster to join, e.g. auto or HOST:6379 (default: "
                                               "RAY_ADDRESS, else start a local cluster and stop it at the end).")


def _rule_options(**given) -> dict:
    """The rule options given on the command line, as make_game keywords: those left None
    are dropped (the game's default); end_score 0 means "no end score" (None)."""
    options = {k: v for k, v in given.items() if v is not None}
    if options.get("end_score") == 0:
        options["end_score"] = None
    return options


def _agent_specs(text: str, option: str) -> list[str]:
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


def _game(game: str, players: int, **given):
    """The Game the rule options name (ConfigError on a bad one, also for an option the
    game does not know); see _rule_options."""
    from sixnimmt_env.core.game import make_game
    return make_game(game, players=players, **_rule_options(**given))


@app.command()
def demo(
    players: int = typer.Option(4, help=f"Seats at the table, {PLAYERS_HELP}."),
    seed: int = typer.Option(7, help="Seed of the game."),
    row_choice: Optional[str] = ROW_CHOICE,
    end_score: Optional[int] = END_SCORE,
    max_rounds: Optional[int] = MAX_ROUNDS,
    deck: Optional[str] = DECK,
    variant: Optional[str] = VARIANT,
    layout: Optional[str] = LAYOUT,
    next_row: Optional[str] = NEXT_ROW,
    game: str = GAME,
    record: Optional[Path] = typer.Option(None, help="Write the game record (JSON) here."),
) -> None:
    """Play a seeded game between built-in players and print it turn by turn (any game)."""
    from experiments.demo import play_demo
    from sixnimmt_env.core.records import write_record

    table = _game(game, players, variant=variant, row_choice=row_choice, end_score=end_score,
                  max_rounds=max_rounds, deck=deck, layout=layout, next_row=next_row)
    rec = play_demo(table, seed, echo=typer.echo)
    if record is not None:
        write_record(rec, record)
        typer.echo(f"record written to {record}")


@app.command()
def play(
    opponents: Optional[str] = typer.Option(None, help="Agent specs for the other seats, comma-separated "
                                                       "(cycled if fewer than players-1), e.g. mcs,ppo,bayes "
                                                       "(default: mcs where it plays the game, else random)."),
    players: int = typer.Option(4, help=f"Seats at the table, you included, {PLAYERS_HELP}."),
    variant: Optional[str] = VARIANT,
    seed: Optional[int] = typer.Option(None, help="Seed of the deals (default: a fresh one, printed)."),
    row_choice: Optional[str] = ROW_CHOICE,
    end_score: Optional[int] = END_SCORE,
    max_rounds: Optional[int] = MAX_ROUNDS,
    deck: Optional[str] = DECK,
    layout: Optional[str] = LAYOUT,
    next_row: Optional[str] = NEXT_ROW,
    game: str = GAME,
    hints: bool = typer.Option(False, help="cards only: before each decision, show what mcs would play and "
                                           "its expected penalty per choice."),
    record: Optional[Path] = typer.Option(None, help="Write the game record (JSON) here, also when stopped early."),
) -> None:
    """Play a game in the terminal against agents: you are seat 0 (cards or board).

    Ctrl-C (or typing quit) stops the game; the turns completed so far are still saved
    when a record file is given. Exit 0 when the game ends or you quit, 130 after Ctrl-C.
    """
    import secrets

    from rich.console import Console

    from experiments.play import default_opponents, opponent_specs, terminal_game
    from sixnimmt_env.core.records import write_record

    rules = _game(game, players, variant=variant, row_choice=row_choice, end_score=end_score,
                  max_rounds=max_rounds, deck=deck, layout=layout, next_row=next_row)
    specs = opponent_specs(default_opponents(rules.info.game) if opponents is None else opponents, players)
    console = Console(highlight=False)
    if seed is None:
        seed = secrets.randbelow(2**31)
    try:
        game = terminal_game(rules, specs, seed, console, console.input, hints=hints)
        result = game.play()
    except KeyboardInterrupt:  # while the agents load, before any turn
        typer.echo("\nstopped before the first turn; nothing to record", err=True)
        raise typer.Exit(EXIT_INTERRUPTED) from None
    if record is not None:
        write_record(result.record, record)
        what = "game" if result.finished else f"{result.turns} completed turns"
        typer.echo(f"record of the {what} written to {record} (sixnimmt replay {record})")
    elif not result.finished:
        typer.echo("(not saved: add --record FILE to keep a game)")
    if result.interrupted:
        raise typer.Exit(EXIT_INTERRUPTED)


@app.command()
def replay(
    file: Path = typer.Argument(..., help="A game record (sixnimmt-record/1 JSON)."),
    as_json: bool = typer.Option(False, "--json", help="Print the record with outputs filled in."),
) -> None:
    """Check a game record against the rules and recompute its scores.

    Exit 0: valid; 1: the record's penalties, totals or winners differ from the replay;
    2: invalid record (the message names the round, turn and seat).
    """
    from sixnimmt_env.core.records import load_record, replay as run_replay

    result = run_replay(load_record(file))  # the record's "game" picks the rules
    if as_json:
        typer.echo(json.dumps(result.completed(), indent=1))
    else:
        for line in result.summary_lines():
            typer.echo(line)
    for diff in result.differences:
        typer.echo(f"difference: {diff}", err=True)
    if result.differences:
        raise typer.Exit(EXIT_DIFFERENCES)


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on (127.0.0.1: this machine only)."),
    port: int = typer.Option(8000, help="Port to listen on (0: any free one)."),
    idle_minutes: float = typer.Option(30.0, help="A game nobody touched for this long is dropped."),
    log_level: str = typer.Option("warning", help="uvicorn's log level: critical, error, warning, info, debug."),
) -> None:
    """Play in the browser against the agents, or watch them: a local web server and its page (any game)."""
    import uvicorn

    from experiments.serve.app import create_app

    if not 0 <= port <= 65535:
        raise ConfigError(f"--port must be 0..65535, got {port}")
    if not 0 < idle_minutes < float("inf"):
        raise ConfigError("--idle-minutes must be > 0")
    levels = ("critical", "error", "warning", "info", "debug")
    if log_level not in levels:
        raise ConfigError(f"--log-level must be one of {', '.join(levels)}")
    shown = f"[{host}]" if ":" in host else host
    typer.echo(f"sixnimmt serve: open http://{shown}:{port}/ in a browser (Ctrl-C stops)")
    uvicorn.run(create_app(idle_seconds=idle_minutes * 60), host=host, port=port, log_level=log_level)


@app.command()
def match(
    agents: str = typer.Option(..., help="One agent spec per seat, comma-separated, e.g. mcs,random,random,random."),
    games: int = typer.Option(100, help="Deals; each is played once per seat rotation."),
    seed: int = typer.Option(0),
    row_choice: Optional[str] = ROW_CHOICE,
    end_score: Optional[int] = END_SCORE,
    max_rounds: Optional[int] = MAX_ROUNDS,
    deck: Optional[str] = DECK,
    variant: Optional[str] = VARIANT,
    layout: Optional[str] = LAYOUT,
    next_row: Optional[str] = NEXT_ROW,
    game: str = GAME,
    records: Optional[Path] = typer.Option(None, help="Write every game's record into this directory."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    progress: bool = typer.Option(True, help="Show a progress bar."),
    chunk_deals: int = typer.Option(0, help="Deals per work unit (0: the whole match in one batch). The results "
                                            "depend on it and the seed only, not on the backend or workers."),
    backend: str = BACKEND,
    workers: Optional[int] = typer.Option(None, help="local: worker processes (default 1); ray: CPUs of a "
                                                     "local cluster (default all)."),
    address: Optional[str] = ADDRESS,
) -> None:
    """Play agents against each other over duplicate deals with seat rotation (any game)."""
    from agents.arena import format_table, run_match
    from experiments.backends import make_backend

    specs = _agent_specs(agents, "--agents")
    table = _game(game, len(specs), variant=variant, row_choice=row_choice, end_score=end_score,
                  max_rounds=max_rounds, deck=deck, layout=layout, next_row=next_row)
    if chunk_deals < 0:
        raise ConfigError("--chunk-deals must be 0 (one batch) or more")
    runner = make_backend(backend, workers, address)
    if chunk_deals == 0 and (backend != "local" or (workers or 1) > 1):
        typer.echo("note: one work unit (--chunk-deals 0); give --chunk-deals N to spread the match", err=True)
    result = run_match(specs, table, games, seed, records_dir=records, progress=progress, chunk_deals=chunk_deals,
                       backend=runner if (chunk_deals or backend != "local") else None)
    typer.echo(json.dumps(result.as_dict(), indent=1) if as_json else format_table(result))
    if records is not None and not as_json:
        typer.echo(f"records written to {records}/")


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
    from experiments.baselines import baseline_rows, markdown

    _game("cards", players, row_choice=row_choice, end_score=0, max_rounds=1, deck="full",
          variant=variant)  # validates the options
    specs = [s.strip() for s in agents.split(",")] if agents else None
    rows = baseline_rows(players, row_choice, deals, seed, specs, variant=variant)
    typer.echo(json.dumps(rows, indent=1) if as_json else
               f"{variant}, {players} players, row choice {row_choice}, {deals * players} rounds per agent\n"
               + markdown(rows))


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
    config: Optional[Path] = typer.Option(None, help="A JSON or TOML file of training options."),
    set_: list[str] = typer.Option([], "--set", help="Override an option: --set key=value (repeatable)."),
    resume: Optional[Path] = typer.Option(None, help="Continue the run in this directory from its last checkpoint."),
    runs_dir: Path = typer.Option(Path("runs"), help="Where new runs go (runs/<name>/)."),
    progress: bool = typer.Option(True, help="Show a progress bar."),
) -> None:
    """Train MaskablePPO on the batched env against a self-play league (see training/)."""
    from training.config import TrainConfig
    from training.train import train as run_training

    run = _start_or_resume(run_training, TrainConfig, config, set_, resume, runs_dir, progress)
    typer.echo(f"run in {run}/ (best model: {run}/best.zip, evaluations: {run}/eval.csv)")


@app.command()
def imitate(
    config: Optional[Path] = typer.Option(None, help="A JSON or TOML file of imitation options."),
    set_: list[str] = typer.Option([], "--set", help="Override an option: --set key=value (repeatable)."),
    resume: Optional[Path] = typer.Option(None, help="Continue the run in this directory (its labels are kept)."),
    runs_dir: Path = typer.Option(Path("runs"), help="Where new runs go (runs/<name>/)."),
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


@app.command()
def tournament(
    agents: str = typer.Option(STANDARD_AGENTS, help="Agent specs, comma-separated."),
    players: int = typer.Option(4, help="Seats per table."),
    players_range: Optional[str] = typer.Option(None, help="Several seat counts, e.g. 2-10 (overrides --players)."),
    games: int = typer.Option(4, help="Deals per line-up; each is played in every seat rotation."),
    seed: int = typer.Option(0),
    out: Path = typer.Option(Path("out/tournament"), help="Directory for results, report and plots."),
    workers: Optional[int] = typer.Option(None, help="local: worker processes (default 1); ray: CPUs of a "
                                                     "local cluster (default all)."),
    backend: str = BACKEND,
    address: Optional[str] = ADDRESS,
    row_choice: Optional[str] = ROW_CHOICE,
    end_score: Optional[int] = END_SCORE,
    max_rounds: Optional[int] = MAX_ROUNDS,
    deck: Optional[str] = DECK,
    variant: Optional[str] = VARIANT,
    layout: Optional[str] = LAYOUT,
    next_row: Optional[str] = NEXT_ROW,
    game: str = GAME,
    records: bool = typer.Option(False, help="Also write every game's record to DIR/records/."),
    resume: Optional[Path] = typer.Option(None, help="Finish the interrupted tournament in this directory."),
    progress: bool = typer.Option(True),
) -> None:
    """Round robin over line-ups with duplicate deals; writes results, report and plots (any game)."""
    from experiments.report import build_report, leaderboard_markdown
    from experiments.tournament import TournamentConfig, run_tournament

    from experiments.backends import make_backend

    runner = make_backend(backend, workers, address)
    summary: dict = {}
    report_it = lambda d: summary.update(build_report(d))  # noqa: E731  inside the directory's lock
    if resume is not None:
        target = run_tournament(None, resume, workers=workers or 1, resume=True, progress=progress, backend=runner,
                                then=report_it)
    else:
        counts = [players]
        if players_range:
            try:
                lo, hi = (int(x) for x in players_range.split("-"))
            except ValueError:
                raise ConfigError(f"--players-range must look like 2-10, got {players_range!r}") from None
            counts = list(range(lo, hi + 1))
        options = _rule_options(variant=variant, row_choice=row_choice, end_score=end_score,
                                max_rounds=max_rounds, deck=deck, layout=layout, next_row=next_row)
        cfg = TournamentConfig(agents=_agent_specs(agents, "--agents"), players=counts,
                               games=games, seed=seed, game=game, rule_options=options, records=records)
        target = run_tournament(cfg, out, workers=workers or 1, progress=progress, backend=runner, then=report_it)
    from agents.arena import AgentResult
    for p, results in summary["by_players"].items():
        res = [AgentResult(**{k: v for k, v in a.items() if k != "penalty_per_game"}) for a in results]
        typer.echo(f"\n{p} players ({summary['games']} games in all):")
        typer.echo(leaderboard_markdown(res, summary["ratings"], int(p), summary["score_unit"], summary["utility"]))
    typer.echo(f"\nreport: {target}/report.md  plots: {target}/leaderboard.png, head_to_head.png, penalties.png")


@app.command()
def report(directory: Path = typer.Argument(..., help="A tournament directory.")) -> None:
    """Rebuild a tournament's report and plots from its results alone."""
    from experiments.report import build_report
    from experiments.tournament import DirectoryLock

    if not (directory / "results.jsonl").exists():
        raise ConfigError(f"{directory} holds no tournament results (results.jsonl)")
    with DirectoryLock(directory):  # not while a tournament writes into it
        build_report(directory)
    typer.echo(f"report: {directory}/report.md")


@app.command("agents")
def list_agents() -> None:
    """List the agent specs `match` and the environments accept."""
    from agents.registry import describe

    typer.echo(describe())


def _seat_counts(players: str) -> list[int]:
    """--players of a study: seat counts, comma-separated (ConfigError otherwise)."""
    try:
        return [int(p) for p in players.split(",") if p.strip()]
    except ValueError:
        raise ConfigError(f"--players must list seat counts like 2,4,6, got {players!r}") from None


@study_app.command("die-sechste")
def study_die_sechste(
    out: Path = typer.Option(Path("out/study-die-sechste"), help="Directory for results.json, report.md and plots."),
    players: str = typer.Option("2,4,6,10", help="Seat counts, comma-separated."),
    heuristic_games: int = typer.Option(400, help="Games per cell with the heuristic table."),
    mcs_games: int = typer.Option(40, help="Games per cell with the mcs table."),
    mcs: str = typer.Option("mcs:rollouts=30", help="The search player's spec."),
    seed: int = typer.Option(0),
    workers: int = typer.Option(2, help="Worker processes."),
    progress: bool = typer.Option(True),
) -> None:
    """Card game only: Die Sechste next to the classic game (points, game length, rule frequencies, seat position)."""
    from agents.registry import make_agent
    from experiments.study import StudyConfig, run_study

    counts = _seat_counts(players)
    for p in counts:
        _game("cards", p, variant="die-sechste")
    if heuristic_games < 1 or mcs_games < 1 or workers < 1:
        raise ConfigError("--heuristic-games, --mcs-games and --workers must be at least 1")
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
    search: str = typer.Option("mcs", help="The search player's spec."),
    layout: Optional[str] = typer.Option(None, help="The board: a shipped layout's name or a TOML/JSON file "
                                                    "(default: the variant's side's shipped board)."),
    seed: int = typer.Option(0),
    workers: int = typer.Option(2, help="Worker processes."),
    progress: bool = typer.Option(True),
) -> None:
    """Board game only: points per seat, field kinds per game, luck cards, play-two turns."""
    from agents.registry import make_agent
    from experiments.board_study import BoardStudyConfig, run_board_study

    counts = _seat_counts(players)
    kinds = [v.strip() for v in variants.split(",") if v.strip()]
    for p in counts:
        for v in kinds:
            _game("board", p, variant=v, layout=layout)
    if random_games < 1 or search_games < 1 or workers < 1:
        raise ConfigError("--random-games, --search-games and --workers must be at least 1")
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
    search: str = typer.Option("mcs", help="The search player's spec."),
    heuristic: str = typer.Option("board-safe", help="The heuristic opponents' spec."),
    seed: int = typer.Option(0),
    workers: int = typer.Option(2, help="Worker processes."),
    progress: bool = typer.Option(True),
) -> None:
    """Board game only: does the professional side reward skill? One searcher against random and heuristic tables."""
    from agents.registry import make_agent
    from experiments.board_skill import SkillStudyConfig, run_skill_study

    counts = _seat_counts(players)
    kinds = [v.strip() for v in variants.split(",") if v.strip()]
    for p in counts:
        for v in kinds:
            _game("board", p, variant=v)
    if games < 1 or workers < 1:
        raise ConfigError("--games and --workers must be at least 1")
    make_agent(search, "board")
    make_agent(heuristic, "board")
    run_skill_study(SkillStudyConfig(counts, kinds, games, search, heuristic, seed), out, workers=workers,
                    progress=progress)
    typer.echo(f"report: {out}/report.md  plot: {out}/board_skill.png")


@bench_app.command("board")
def bench_board_cmd(
    players: int = typer.Option(4, help="Seats, 2..6."),
    batch: int = typer.Option(4096, help="Games stepped at once."),
    seconds: float = typer.Option(5.0, help="Timed seconds for each engine (5 windows each, taking turns; the "
                                            "median ratio counts)."),
    variant: str = typer.Option("basic", help="basic, luck, pro or pro-luck."),
    seed: int = typer.Option(0),
    as_json: bool = typer.Option(False, "--json", help="Print JSON lines."),
) -> None:
    """Board game: whole random games on the batched board engine, next to the card engine in the same run."""
    import numpy as np

    from experiments.bench import bench_board_engine, bench_engine

    PAIRS = 5

    if batch < 1 or not 0 < seconds < float("inf"):
        raise ConfigError("batch must be >= 1 and seconds > 0")
    _game("board", players, variant=variant)  # validates the options
    # The two engines take turns, window by window, and each pair of windows gives a
    # ratio: on a shared machine the load drifts, and a drift between two long runs
    # would show up as a speed difference. The median pair counts.
    pairs = [(bench_board_engine(players, batch, seconds / PAIRS, seed, variant, repeats=1),
              bench_engine(4, batch, seconds / PAIRS, seed, repeats=1)) for _ in range(PAIRS)]
    ratios = [b["turns_per_s"] / (c["rounds_per_s"] * 10) for b, c in pairs]  # ten turns a card round
    board = pairs[int(np.argsort(ratios)[len(ratios) // 2])][0]
    board["card_turns_per_s"] = round(float(np.median([c["rounds_per_s"] * 10 for _, c in pairs])), 1)
    board["ratio_to_card_turns"] = round(float(np.median(ratios)), 3)
    # Per tile placed: play-two turns place two tiles a seat, so a board game has fewer
    # turns than tiles per seat (the "12 turns" counts tiles); a card turn places
    # one card a seat, P = 4 in the card run.
    tile_ratios = [b["tiles_per_s"] / (c["rounds_per_s"] * 10 * 4) for b, c in pairs]
    board["ratio_to_card_placements"] = round(float(np.median(tile_ratios)), 3)
    board["ratios"] = [round(r, 3) for r in ratios]
    if as_json:
        typer.echo(json.dumps(board))
        return
    typer.echo(f"board engine P={players} B={batch} {variant}: {board['games_per_s']:,.0f} games/s, "
               f"{board['turns_per_s']:,.0f} turns/s (through the game interface: "
               f"{board['interface_games_per_s']:,.0f} games/s, {board['interface_turns_per_s']:,.0f} turns/s)")
    typer.echo(f"card engine P=4 B={batch}: {board['card_turns_per_s']:,.0f} turns/s -> per-turn ratio "
               f"{board['ratio_to_card_turns']:.3f} (median of {PAIRS} interleaved pairs: "
               f"{', '.join(f'{r:.3f}' for r in board['ratios'])}); per tile placed vs per card placed "
               f"{board['ratio_to_card_placements']:.3f} ({board['tiles_per_s']:,.0f} tiles/s)")


@bench_app.command("serve")
def bench_serve_cmd(
    moves: int = typer.Option(60, help="Timed moves of the single game (round trip)."),
    games: int = typer.Option(20, help="Games played at once in the concurrency run."),
    opponents: str = typer.Option("mcs,mcs,mcs", help="The agents of every game (4 seats with you)."),
    seed: int = typer.Option(0),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """The web server (`sixnimmt serve`, started here on a free port): a move's round trip over its
    WebSocket, then `--games` one-round games at once (cards, classic)."""
    from experiments.serve.bench import bench_serve

    if moves < 1 or games < 1:
        raise ConfigError("--moves and --games must be >= 1")
    result = bench_serve(moves, games, [s.strip() for s in opponents.split(",")], seed)
    if as_json:
        typer.echo(json.dumps(result))
        return
    rt, cc = result["round_trip_ms"], result["concurrent"]
    typer.echo(f"round trip against {opponents} ({moves} moves): median {rt['median']:.1f} ms, "
               f"p90 {rt['p90']:.1f} ms, max {rt['max']:.1f} ms")
    typer.echo(f"{cc['games']} games at once: {cc['finished']} finished, {cc['errors']} errors, "
               f"{cc['moves']} moves in {cc['seconds']:.1f} s; round trip median {cc['median_ms']:.1f} ms, "
               f"p90 {cc['p90_ms']:.1f} ms")


@bench_app.command("engine")
def bench_engine_cmd(
    players: int = typer.Option(4, help="Seats, 2..10."),
    batch: int = typer.Option(4096, help="Games stepped at once."),
    seconds: float = typer.Option(5.0, help="Timed seconds (split into 3 windows; the median counts)."),
    seed: int = typer.Option(0),
    limit: bool = typer.Option(True, help="Also run the C speed limit (docs/bench.md) and print the ratio."),
    limit_script: Optional[Path] = typer.Option(None, help="The C speed limit's limit.sh (default: ../shared/bench/limit.sh beside the checkout)."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON lines."),
) -> None:
    """Card game only: random play on the batched engine (the work unit of docs/bench.md), rounds/s."""
    from experiments.bench import DEFAULT_LIMIT_SCRIPT, bench_engine, run_limit

    if batch < 1 or not 0 < seconds < float("inf"):
        raise ConfigError("batch must be >= 1 and seconds > 0")
    _game("cards", players, row_choice="cheapest", end_score=0, max_rounds=1)  # validates players
    script = limit_script or DEFAULT_LIMIT_SCRIPT
    if limit_script is not None and not limit_script.exists():
        raise ConfigError(f"--limit-script {limit_script}: no such file")
    ours = bench_engine(players, batch, seconds, seed)
    results = [ours]
    if limit and script.exists():
        c = run_limit(players, script, seconds)
        ours["limit_rounds_per_s"] = c["rounds_per_s"]
        ours["ratio_to_limit"] = round(ours["rounds_per_s"] / c["rounds_per_s"], 3)
        results.append(c)
    if as_json:
        for r in results:
            typer.echo(json.dumps(r))
        return
    typer.echo(f"engine  P={players} B={batch}: {ours['rounds_per_s']:,.0f} rounds/s, "
               f"{ours['decisions_per_s']:,.0f} decisions/s "
               f"(penalty per player-round {ours['pen_per_player_round']})")
    if "ratio_to_limit" in ours:
        typer.echo(f"C limit P={players}: {ours['limit_rounds_per_s']:,.0f} rounds/s -> "
                   f"ratio {ours['ratio_to_limit']:.3f}")
    elif limit:
        typer.echo(f"(C limit not run: {script} not found)")


@bench_app.command("env")
def bench_env_cmd(
    kind: str = typer.Option("vec", help="parallel (PettingZoo, one game) or vec (SB3 VecEnv, batched)."),
    players: int = typer.Option(4, help="Seats, 2..10."),
    batch: int = typer.Option(4096, help="Games per VecEnv step (vec only)."),
    seconds: float = typer.Option(5.0, help="Timed seconds."),
    row_choice: str = typer.Option("player", help="player or cheapest."),
    seed: int = typer.Option(0),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON line."),
) -> None:
    """Card game only: random legal play through an environment adapter, env steps/s."""
    from experiments.bench import bench_parallel_env, bench_vec_env

    if kind not in ("parallel", "vec"):
        raise ConfigError(f"--kind must be parallel or vec, got {kind!r}")
    if batch < 1 or not 0 < seconds < float("inf"):
        raise ConfigError("batch must be >= 1 and seconds > 0")
    _game("cards", players, row_choice=row_choice)  # validates the options
    if kind == "parallel":
        result = bench_parallel_env(players, seconds, seed, row_choice)
        text = (f"ParallelEnv P={players}: {result['rounds_per_s']:,.0f} rounds/s, "
                f"{result['env_steps_per_s']:,.0f} env steps/s (time inside reset/step); "
                f"{result['with_sampler_rounds_per_s']:,.0f} rounds/s with the random sampler")
    else:
        result = bench_vec_env(players, batch, seconds, seed, row_choice)
        text = (f"VecEnv P={players} B={batch}: {result['learner_steps_per_s']:,.0f} learner steps/s "
                f"(mean return per episode {result['mean_return_per_episode']})")
    typer.echo(json.dumps(result) if as_json else text)


def main() -> None:
    """Console entry point: run the app, turning our typed errors into one-line messages."""
    from sixnimmt_env.core.perf import tune_allocator

    tune_allocator()
    try:
        app()  # standalone: click reports usage errors itself, with exit code 2
    except SixNimmtError as e:  # raised outside a command (the group handles those)
        typer.echo(error_line(e), err=True)
        sys.exit(EXIT_INVALID)


if __name__ == "__main__":  # python -m experiments.cli
    main()
