"""The `bench` group: speed benchmarks of the engines, the environments and the web server."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from experiments.cli.app import app
from experiments.serve.bench import PACED_THINK_MS
from sixnimmt_env.core.errors import ConfigError
from sixnimmt_env.core.strict_json import json_text

bench_app = typer.Typer(no_args_is_help=True, help="Speed benchmarks: the card and board engines, the "
                                                   "environments, the web server.")
app.add_typer(bench_app, name="bench")

BATCH = typer.Option(4096, help="Games stepped at once.")
SEED = typer.Option(0)
AS_JSON = typer.Option(False, "--json", help="Print the results as JSON, one line each.")


def _check_window(batch: int, seconds: float) -> None:
    if batch < 1 or not 0 < seconds < float("inf"):
        raise ConfigError("batch must be >= 1 and seconds > 0")


@bench_app.command("engine")
def bench_engine_cmd(
    players: int = typer.Option(4, help="Seats, 2..10."),
    batch: int = BATCH,
    seconds: float = typer.Option(5.0, help="Timed seconds (split into 3 windows; the median counts)."),
    seed: int = SEED,
    limit: bool = typer.Option(True, help="Also run the C speed limit (docs/bench.md) and print the ratio."),
    limit_script: Optional[Path] = typer.Option(None, help="The C speed limit's limit.sh (default: "
                                                           "../shared/bench/limit.sh beside the checkout)."),
    as_json: bool = AS_JSON,
) -> None:
    """Card game only: random play on the batched engine (the work unit of docs/bench.md), rounds/s."""
    from experiments.bench.engine import DEFAULT_LIMIT_SCRIPT, bench_engine, run_limit

    _check_window(batch, seconds)
    script = limit_script or DEFAULT_LIMIT_SCRIPT
    if limit_script is not None and not limit_script.exists():
        raise ConfigError(f"--limit-script {limit_script}: no such file")
    ours = bench_engine(players, batch, seconds, seed)  # checks the seat count before it times anything
    results = [ours]
    if limit and script.exists():
        c = run_limit(players, script, seconds)
        ours["limit_rounds_per_s"] = c["rounds_per_s"]
        ours["ratio_to_limit"] = round(ours["rounds_per_s"] / c["rounds_per_s"], 3)
        results.append(c)
    if as_json:
        for r in results:
            typer.echo(json_text(r))
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
    seed: int = SEED,
    as_json: bool = AS_JSON,
) -> None:
    """Card game only: random legal play through an environment adapter, env steps/s."""
    from experiments.bench.engine import bench_parallel_env, bench_vec_env

    if kind not in ("parallel", "vec"):
        raise ConfigError(f"--kind must be parallel or vec, got {kind!r}")
    _check_window(batch, seconds)
    if kind == "parallel":  # each env checks its rule options when it is made, before the clock starts
        result = bench_parallel_env(players, seconds, seed, row_choice)
        text = (f"ParallelEnv P={players}: {result['rounds_per_s']:,.0f} rounds/s, "
                f"{result['env_steps_per_s']:,.0f} env steps/s (time inside reset/step); "
                f"{result['with_sampler_rounds_per_s']:,.0f} rounds/s with the random sampler")
    else:
        result = bench_vec_env(players, batch, seconds, seed, row_choice)
        text = (f"VecEnv P={players} B={batch}: {result['learner_steps_per_s']:,.0f} learner steps/s "
                f"(mean return per episode {result['mean_return_per_episode']})")
    typer.echo(json_text(result) if as_json else text)


@bench_app.command("board")
def bench_board_cmd(
    players: int = typer.Option(4, help="Seats, 2..6."),
    batch: int = BATCH,
    seconds: float = typer.Option(5.0, help="Timed seconds for each engine (5 windows each, taking turns; the "
                                            "median ratio counts)."),
    variant: str = typer.Option("basic", help="basic, luck, pro or pro-luck."),
    seed: int = SEED,
    as_json: bool = AS_JSON,
) -> None:
    """Board game: whole random games through the public API (make_game, view, random legal actions, step),
    next to the card game through the same API in the same run; then the kernel-only figure."""
    from experiments.bench.engine import bench_board_against_cards

    _check_window(batch, seconds)
    board = bench_board_against_cards(players, batch, seconds, seed, variant)
    if as_json:
        typer.echo(json_text(board))
        return
    typer.echo(f"board P={players} B={batch} {variant}, through the game API: {board['games_per_s']:,.0f} games/s, "
               f"{board['turns_per_s']:,.0f} turns/s; the card game (P=4) through the same API "
               f"{board['card_turns_per_s']:,.0f} turns/s -> per-turn ratio {board['ratio_to_card_turns']:.3f} "
               f"(median of {len(board['ratios'])} interleaved pairs: {', '.join(f'{r:.3f}' for r in board['ratios'])})")
    typer.echo(f"kernel only (engine.play_random, all cores): {board['kernel_turns_per_s']:,.0f} turns/s; the card "
               f"engine's play_slots {board['engine_card_turns_per_s']:,.0f} turns/s -> ratio "
               f"{board['kernel_ratio_to_card_engine']:.3f}")


@bench_app.command("cold")
def bench_cold_cmd(
    variant: str = typer.Option("pro", help="basic, luck, pro or pro-luck."),
    players: int = typer.Option(4, help="Seats, 2..6."),
    seed: int = typer.Option(1, help="Seed of the demo game."),
    as_json: bool = AS_JSON,
) -> None:
    """Board game: the first start, a demo game in a fresh process with an empty numba cache (a temporary
    one; yours is not touched): the CPU it costs, mostly compiling the kernels."""
    from experiments.bench.cold import cold_start

    result = cold_start(variant, players, seed)
    if as_json:
        typer.echo(json_text(result))
        return
    kernels = ", ".join(f"{name} {s} s" for name, s in result["kernels"].items()) or "none compiled"
    typer.echo(f"first board game ({variant}, P={players}) with an empty cache: {result['cpu_s']:.1f} s of CPU "
               f"({result['user_s']:.1f} user + {result['system_s']:.1f} system), {result['wall_s']:.0f} s wall at "
               f"a load of {result['load_before']:.1f}-{result['load_after']:.1f}; kernels: {kernels}")


# Alike by design (repeated-code scan): each bench command's typer options; the shared ones are the constants above.
@bench_app.command("serve")
def bench_serve_cmd(
    moves: int = typer.Option(60, help="Timed moves of the single game (round trip)."),
    games: int = typer.Option(20, help="Games played at once in the concurrency run."),
    opponents: str = typer.Option("mcs,mcs,mcs", help="The agents of every game (4 seats with you)."),
    tables: int = typer.Option(0, help="Then this many one-round tables at once, each two scripted people and "
                                       "the --table-agents, the database on (0: none)."),
    table_agents: str = typer.Option("random,random", help="The agents of every table of --tables."),
    think_ms: float = typer.Option(PACED_THINK_MS, help="The paced run of --tables: each scripted person takes this "
                                                      "long to answer, in ms (times 0.5..1.5 at random), after the "
                                                      "closed loop (people answering at once); 0: the closed loop only."),
    seed: int = SEED,
    as_json: bool = AS_JSON,
) -> None:
    """The web server (`sixnimmt serve`, started here on a free port): a move's round trip over its
    WebSocket, then `--games` one-round games at once (cards, classic), then `--tables` tables."""
    from experiments.serve.bench import bench_serve, bench_tables

    if moves < 1 or games < 1 or tables < 0:
        raise ConfigError("--moves and --games must be >= 1, --tables >= 0")
    result = bench_serve(moves, games, [s.strip() for s in opponents.split(",")], seed)
    if tables:
        agents = [s.strip() for s in table_agents.split(",")]
        result["tables"] = bench_tables(tables, agents, seed)  # the closed loop: the server's most load
        if think_ms:
            result["tables_paced"] = bench_tables(tables, agents, seed, think_ms)
    if as_json:
        typer.echo(json_text(result))
        return
    rt, cc = result["round_trip_ms"], result["concurrent"]
    typer.echo(f"round trip against {opponents} ({moves} moves): median {rt['median']:.1f} ms, "
               f"p90 {rt['p90']:.1f} ms, max {rt['max']:.1f} ms")
    typer.echo(f"{cc['games']} games at once: {cc['finished']} finished, {cc['errors']} errors, "
               f"{cc['moves']} moves in {cc['seconds']:.1f} s; round trip median {cc['median_ms']:.1f} ms, "
               f"p90 {cc['p90_ms']:.1f} ms")
    for key, how in (("tables", "closed loop: 2 people answering at once"),
                     ("tables_paced", f"paced: 2 people answering after {think_ms / 2:g}-{1.5 * think_ms:g} ms")):
        if key in result:
            t = result[key]
            typer.echo(f"{t['tables']} tables at once ({how}, + {table_agents}, database on): {t['finished']} finished, "
                       f"{t['errors']} errors, {t['answers']} answers in {t['seconds']:.1f} s = {t['answers_per_s']:.1f}/s; "
                       f"a person's answer: p50 {t['median_ms']:.1f} ms, p90 {t['p90_ms']:.1f} ms, p99 {t['p99_ms']:.1f} ms"
                       + ("" if t["server_cpu_ms_per_answer"] is None
                          else f"; the server's CPU {t['server_cpu_ms_per_answer']:.2f} ms an answer"))


@bench_app.command("labels")
def bench_labels_cmd(
    nodes: str = typer.Option("1,2", help="Node counts to measure, comma-separated (one CPU per node, "
                                          "a fresh local cluster for each)."),
    minutes: float = typer.Option(3.0, help="Label minutes per cluster."),
    config: Optional[Path] = typer.Option(Path("training/configs/imitate-all.toml"),
                                          help="The imitation config whose label stage is measured."),
    set_: list[str] = typer.Option([], "--set", help="Override a config option: --set key=value."),
    progress: bool = typer.Option(False, help="Show the label progress bar."),
    as_json: bool = AS_JSON,
) -> None:
    """The label stage of `imitate --backend ray` on local Ray clusters of 1, 2, ... nodes: labels/s
    and the ratio to one node."""
    from experiments.bench.labels import MAX_NODES, bench_ray_labels
    from training.imitate import ImitationConfig

    try:
        counts = [int(n) for n in nodes.split(",")]
    except ValueError:
        raise ConfigError(f"--nodes {nodes!r}: comma-separated node counts") from None
    if not counts or not all(1 <= n <= MAX_NODES for n in counts):
        raise ConfigError(f"--nodes: counts from 1 to {MAX_NODES}")
    if not 0 < minutes <= 120:
        raise ConfigError("--minutes must be in (0, 120]")
    cfg = ImitationConfig.load(config, [*set_, f"label_minutes={minutes}"])
    rows = bench_ray_labels(cfg, counts, progress)
    if as_json:
        typer.echo(json_text(rows))
        return
    one = next((r["labels_per_s"] for r in rows if r["nodes"] == 1), None)
    for r in rows:
        ratio = f", {r['labels_per_s'] / one:.2f}x one node" if one else ""
        typer.echo(f"{r['nodes']} node(s): {r['labels']:,} labels in {r['seconds']:.0f} s = "
                   f"{r['labels_per_s']:,.1f} labels/s{ratio} (per node: "
                   f"{', '.join(f'{v:,.0f}' for v in r['per_node'])} labels/s)")


@bench_app.command("learner")
def bench_learner_cmd(
    game: str = typer.Option("cards", help="cards or board."),
    variant: Optional[str] = typer.Option(None, help="The game's variant (board default: pro)."),
    seconds: float = typer.Option(60.0, help="Timed seconds per recipe, after one warm-up rollout."),
    threads: int = typer.Option(2, help="torch threads of each recipe."),
    recipe: list[str] = typer.Option([], help="Only these recipes (default: all of the game's)."),
    scale: float = typer.Option(1.0, help="Multiply every recipe's game counts (a smoke run: 0.01)."),
    as_json: bool = AS_JSON,
) -> None:
    """Learner samples a second of the default training recipe and of the 2026-12-06 one, side by side."""
    from experiments.bench.learner import bench_learner, recipes

    if game not in ("cards", "board"):
        raise ConfigError(f"--game must be cards or board, got {game!r}")
    if not 0 < seconds < 1e6 or not 1 <= threads <= 256 or not 0 < scale <= 16:
        raise ConfigError("--seconds must be > 0, --threads in 1..256 and --scale in (0, 16]")
    unknown = set(recipe) - set(recipes(game, variant))
    if unknown:
        raise ConfigError(f"unknown recipe(s) {', '.join(sorted(unknown))}; {game} has {', '.join(recipes(game, variant))}")
    results = bench_learner(game, variant, seconds, threads, recipe or None, scale)
    if as_json:
        for r in results:
            typer.echo(json_text(r))
        return
    for r in results:
        typer.echo(f"{r['recipe']:>11}  {r['game']} {r['variant']}  {r['learner']:>3} learner, {r['policy']}  "
                   f"{r['samples_per_s']:>9,.0f} samples/s, {r['samples_per_cpu_s']:,.0f} a CPU second  "
                   f"({r['samples']:,} samples in {r['seconds']} s, {r['slots']} slots, {r['n_epochs']} epochs, "
                   f"minibatch {r['batch_size']})")
    by = {r["recipe"]: r for r in results}
    if len(by) == 2 and by.get("2026-12-06", {}).get("samples_per_s") and by["2026-12-06"]["samples_per_cpu_s"]:
        new, old = by["default"], by["2026-12-06"]
        typer.echo(f"ratio default / 2026-12-06: {new['samples_per_s'] / old['samples_per_s']:.1f}x "
                   f"({new['samples_per_cpu_s'] / old['samples_per_cpu_s']:.1f}x a CPU second)")
