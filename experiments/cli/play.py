"""Commands that play or show one game: demo, play, replay, serve."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer

from experiments.cli.app import EXIT_DIFFERENCES, EXIT_INTERRUPTED, app
from experiments.options import GAME_OPTIONS, PLAYERS_HELP, GameOptions, game_options
from sixnimmt_env.core.errors import ConfigError, SixNimmtError
from sixnimmt_env.core.strict_json import json_text

if TYPE_CHECKING:
    from experiments.serve.limits import Limits

EXIT_FAILED = 1  # an unexpected failure (a bug) stopped a terminal game: one line, its record kept


@app.command()
@game_options
def demo(
    players: int = typer.Option(4, help=f"Seats at the table, {PLAYERS_HELP}."),
    seed: int = typer.Option(7, help="Seed of the game."),
    options: GameOptions = GAME_OPTIONS,
    record: Optional[Path] = typer.Option(None, help="Write the game record (JSON) here."),
) -> None:
    """Play a seeded game between built-in players and print it turn by turn (any game)."""
    from experiments.play.demo import play_demo
    from sixnimmt_env.core.records import write_record

    rec = play_demo(options.build(players), seed, echo=typer.echo)
    if record is not None:
        write_record(rec, record)
        typer.echo(f"record written to {record}")


@app.command()
@game_options
def play(
    opponents: Optional[str] = typer.Option(None, help="Agent specs for the other seats, comma-separated "
                                                       "(cycled if fewer than players-1), e.g. mcs,ppo,bayes "
                                                       "(default: mcs where it plays the game, else random)."),
    players: int = typer.Option(4, help=f"Seats at the table, you included, {PLAYERS_HELP}."),
    seed: Optional[int] = typer.Option(None, help="Seed of the deals (default: a fresh one, printed)."),
    options: GameOptions = GAME_OPTIONS,
    hints: bool = typer.Option(False, help="Before each decision, show what mcs would choose and its mean "
                                           "points per choice."),
    record: Optional[Path] = typer.Option(None, help="Write the game record (JSON) here, also when stopped early."),
    join: Optional[str] = typer.Option(None, "--join", help="Instead: take a free seat at a table `sixnimmt serve` "
                                                           "holds, by the link its page shares "
                                                           "(http://HOST:PORT/?table=ID)."),
    name: Optional[str] = typer.Option(None, help="With --join: the name the others see (default: guest)."),
    seat: Optional[int] = typer.Option(None, help="With --join: the seat to take (from 1; default: the first free)."),
) -> None:
    """Play a game in the terminal against agents: you are seat 1, the agents 2.. (cards or board).

    Ctrl-C (or typing quit) stops the game; the turns completed so far are still saved
    when a record file is given. Exit 0 when the game ends or you quit, 130 after Ctrl-C.
    With --join, a seat at a served table (the others people or agents, the server's
    turn clock): exit 0 when the game ends or you leave, 2 when the link, the server or
    a message from it is refused (one line), 130 after Ctrl-C.
    """
    if join is not None:
        if opponents is not None or seed is not None or hints or record is not None:
            raise ConfigError("--join plays the served table's game: --opponents, --seed, --hints and --record "
                              "are the table's (its record: the page's link when the game is over)")
        _join_table(join, name, seat)
    elif name is not None or seat is not None:
        raise ConfigError("--name and --seat are for --join (a served table)")
    else:
        _play_here(options.build(players), opponents, players, seed, hints, record)


def _play_here(game, opponents: Optional[str], players: int, seed: Optional[int], hints: bool,
               record: Optional[Path]) -> None:
    """`play` against agents in this terminal (the game, the options as given)."""
    import secrets
    import signal
    import sys

    from rich.console import Console

    from experiments.play.session import default_opponents, opponent_specs, terminal_game

    specs = opponent_specs(default_opponents(game.info.game) if opponents is None else opponents, players)
    console = Console(highlight=False)
    if seed is None:
        seed = secrets.randbelow(2**31)
    if sys.stdin.isatty():  # the person at the terminal stops the game with Ctrl-C, even when a script
        # started this with SIGINT ignored (a background job of a shell without job control, as CI runs
        # the tests): an ignored SIGINT would leave the game waiting for a line that never comes
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:  # console.input reads with input(): with readline loaded, arrow keys edit the line
        import readline  # noqa: F401
    except ImportError:  # not on every platform; input() then reads plain lines
        pass
    try:
        session = terminal_game(game, specs, seed, console, console.input, hints=hints)
    except KeyboardInterrupt:  # while the agents load, before any turn
        typer.echo("\nstopped before the first turn; nothing to record", err=True)
        raise typer.Exit(EXIT_INTERRUPTED) from None
    try:
        result = session.play()
    except Exception as e:  # a record on any stop: the completed turns are kept, then one line
        if session.saved is None or (isinstance(e, SixNimmtError) and session.saved.turns == 0):
            raise  # refused before the first turn (an agent that cannot play the table): the usual line
        _keep_record(session.saved, record)
        if isinstance(e, SixNimmtError):
            raise
        text = " ".join(f"{type(e).__name__}: {e}".split())[:300]
        typer.echo(f"error: the game stopped on an unexpected failure ({text})", err=True)
        raise typer.Exit(EXIT_FAILED) from None
    _keep_record(result, record)
    if result.interrupted:
        raise typer.Exit(EXIT_INTERRUPTED)


def _join_table(url: str, name: Optional[str], seat: Optional[int]) -> None:
    """`play --join`: a seat at a served table in the terminal (experiments/play/join.py)."""
    import signal
    import sys

    from rich.console import Console

    from experiments.play.join import JoinedTable
    from experiments.serve.setup import person_name

    if seat is not None and not 1 <= seat <= 16:
        raise ConfigError(f"--seat must be 1..16, got {seat}")
    if sys.stdin.isatty():  # as play: Ctrl-C stops, also when started with SIGINT ignored
        signal.signal(signal.SIGINT, signal.default_int_handler)
    console = Console(highlight=False)
    table = JoinedTable(url, person_name(name), seat, console, console.input)
    over = table.play()
    if over is not None and isinstance(over.get("record"), str):
        console.print(f"The game's record: {table.origin}{over['record']} (sixnimmt replay FILE checks it)")


def _keep_record(result, record: Optional[Path]) -> None:
    """Write a terminal game's record (the whole game, or its completed turns) when asked."""
    from sixnimmt_env.core.records import write_record

    if record is not None:
        write_record(result.record, record)
        what = "game" if result.finished else f"{result.turns} completed turns"
        typer.echo(f"record of the {what} written to {record} (sixnimmt replay {record})")
    elif not result.finished:
        typer.echo("(not saved: add --record FILE to keep a game)")


@app.command()
def replay(
    file: Path = typer.Argument(..., help="A game record (sixnimmt-record/1 JSON)."),
    as_json: bool = typer.Option(False, "--json", help="Print the record with outputs filled in."),
) -> None:
    """Check a game record against the rules and recompute its scores.

    Exit 0: valid; 1: the record's penalties, totals or winners differ from the replay;
    2: invalid record (the message names the round, turn and seat).
    """
    from sixnimmt_env.core.records import load_record
    from sixnimmt_env.core.records import replay as run_replay

    result = run_replay(load_record(file))  # the record's "game" picks the rules
    if as_json:
        typer.echo(json_text(result.completed(), indent=1))
    else:
        for line in result.summary_lines():
            typer.echo(line)
    for diff in result.differences:
        typer.echo(f"difference: {diff}", err=True)
    if result.differences:
        raise typer.Exit(EXIT_DIFFERENCES)


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on (127.0.0.1: this machine only; any other "
                                               "needs --public)."),
    port: int = typer.Option(8000, help="Port to listen on (0: any free one)."),
    idle_minutes: float = typer.Option(30.0, help="A game nobody touched for this long is dropped."),
    allow: Optional[list[str]] = typer.Option(None, "--allow", help="An agent a page may seat (repeatable), numeric "
                                              "parameters as ranges, e.g. --allow mcs:rollouts=1..400; 'default' is "
                                              "the shipped list (heuristics, random, bayes, mcs up to 400 rollouts, "
                                              "ppo, guided), also when none is given."),
    allow_origin: Optional[list[str]] = typer.Option(None, "--allow-origin", help="A page address besides this "
                                                     "machine's (repeatable), e.g. http://192.168.1.5:8000: its "
                                                     "Host and Origin are accepted."),
    public: bool = typer.Option(False, "--public", help="Allow a --host other than loopback (read the Security "
                                                        "section of docs/robustness.md first)."),
    log_level: str = typer.Option("warning", help="uvicorn's log level: critical, error, warning, info, debug."),
    data: Optional[Path] = typer.Option(None, help="The folder of the database where every game is kept (made if "
                                                   "missing; default: $XDG_DATA_HOME/sixnimmt, else "
                                                   "~/.local/share/sixnimmt). A restart continues the games."),
    memory: bool = typer.Option(False, "--memory", help="Keep nothing: games in memory only, lost when the "
                                                        "server stops."),
    max_connections: int = typer.Option(100, help="Pages connected at once (all addresses)."),
    connections_per_address: int = typer.Option(20, help="Pages connected at once from one address."),
    tables_per_address: int = typer.Option(10, help="Open tables for several people made from one address."),
) -> None:
    """Play in the browser against the agents, or watch them: a local web server and its page (any game).

    The server decides what runs: opponents only from the allow-list, requests only from
    this machine's address (or --allow-origin), every page within fixed bounds.
    """
    from experiments.serve.allowed import AllowList
    from experiments.serve.app import create_app
    from experiments.serve.db import Database, default_data_dir
    from experiments.serve.server import run

    _check_serve_options(port, idle_minutes, log_level)
    shown, origins = _serve_origins(host, port, public, allow_origin or [])
    limits = _serve_limits(idle_minutes, max_connections, connections_per_address, tables_per_address)
    if memory and data is not None:
        raise ConfigError("--memory keeps nothing: give it or --data, not both")
    db = None if memory else Database(data or default_data_dir(), max_bytes=limits.db_bytes)
    app = create_app(limits=limits, allowed=AllowList(allow or ["default"]), origins=origins, db=db)
    kept = "games kept in memory only" if db is None else f"games kept in {db.path}"
    typer.echo(f"sixnimmt serve: open http://{shown}:{port}/ in a browser (Ctrl-C stops; {kept})")
    try:
        run(app, host, port, log_level, limits)
    finally:
        if db is not None:
            db.close()


SERVE_LOG_LEVELS = ("critical", "error", "warning", "info", "debug")  # uvicorn's


def _check_serve_options(port: int, idle_minutes: float, log_level: str) -> None:
    """ConfigError (one line) for a port, idle time or log level serve cannot use."""
    if not 0 <= port <= 65535:
        raise ConfigError(f"--port must be 0..65535, got {port}")
    if not 0 < idle_minutes < float("inf"):
        raise ConfigError("--idle-minutes must be > 0")
    if log_level not in SERVE_LOG_LEVELS:
        raise ConfigError(f"--log-level must be one of {', '.join(SERVE_LOG_LEVELS)}")


def _serve_origins(host: str, port: int, public: bool, allow_origin: list[str]) -> tuple[str, list[str]]:
    """The host as an address shows it (IPv6 in brackets) and the page origins accepted.

    A host beyond loopback needs --public; it then adds its own origin and is warned about
    on stderr, since anyone who reaches it can play.
    """
    from experiments.serve.guard import origin_of
    from experiments.serve.server import is_loopback

    shown = f"[{host}]" if ":" in host else host
    origins = [origin_of(o) for o in allow_origin]
    if not is_loopback(host):
        if not public:
            raise ConfigError(f"--host {host} listens beyond this machine: add --public to mean it "
                              "(docs/robustness.md, Security: what a page on the network can then do)")
        if host not in ("0.0.0.0", "::") and port:
            origins.append(f"http://{shown}:{port}")
        typer.echo(f"warning: sixnimmt serve listens on {host}: anyone who reaches this address can play "
                   f"(no login, no TLS); pages accepted from: {', '.join(origins) or 'this machine only'}", err=True)
    return shown, origins


def _serve_limits(idle_minutes: float, max_connections: int, connections_per_address: int,
                  tables_per_address: int) -> Limits:
    """The server's Limits from the options, checked: 1 <= per address <= max <= 10000."""
    from experiments.serve.limits import Limits

    if not 1 <= connections_per_address <= max_connections <= 10_000 or not 1 <= tables_per_address <= 10_000:
        raise ConfigError("--connections-per-address, --max-connections, --tables-per-address: "
                          "1 <= per address <= max <= 10000")
    return Limits(idle_seconds=idle_minutes * 60, max_connections=max_connections,
                  connections_per_address=connections_per_address, tables_per_address=tables_per_address,
                  max_games=max(Limits.max_games, max_connections * Limits.games_per_connection))


@app.command()
def results(
    data: Optional[Path] = typer.Option(None, help="The folder of `sixnimmt serve`'s database (default: its "
                                                   "default, $XDG_DATA_HOME/sixnimmt or ~/.local/share/sixnimmt)."),
    as_json: bool = typer.Option(False, "--json", help="Print the results as JSON."),
) -> None:
    """How the agents fare against people: the finished games `sixnimmt serve` kept.

    Per agent spec: games against people, its and the people's points a round (95%
    intervals), win shares, a rating on the tournament's scale; per person (by the name
    they typed) the same.
    """
    from experiments.serve.db import DB_NAME, Database, default_data_dir
    from experiments.serve.results import results as summary_of
    from experiments.serve.results import results_table

    folder = (data or default_data_dir()).expanduser()
    if not (folder / DB_NAME).is_file():
        raise ConfigError(f"no sixnimmt serve database in {folder} (no {DB_NAME}): give --data DIR")
    db = Database(folder)
    try:
        summary = summary_of(db)
    finally:
        db.close()
    typer.echo(json_text(summary, indent=1) if as_json else results_table(summary))
