"""Tournament reports, rebuilt from DIR/results.jsonl alone (`sixnimmt report DIR`).

Writes DIR/results.csv (one line per game and seat), DIR/summary.json, DIR/report.md
and three plots: leaderboard.png (points per round with 95% error bars),
head_to_head.png (how often the row agent beat the column agent at the same table) and
points.png (the distribution of points per round in each game).

Any game: the game of DIR/tournament.json says what its points are called
(`info.score_unit`: bullheads, points) and which way is better (`info.utility`: fewest
points win in the card games, most in the board game); rankings, ratings, head-to-head
shares and plots follow it.

A directory written before the points were called points holds penalties.png and a
summary.json with `penalty_per_round`/`penalty_ci`: its report is rebuilt from
results.jsonl like any other, points.png replaces penalties.png, and
`agents.results.AgentResult.from_dict` reads the old summary's fields.

summary.json is strict JSON (core/strict_json.py): a figure with no value, the 95%
interval of one sample (a 1-deal tournament), is `null`, where it was written `NaN` before.
"""

from __future__ import annotations

import csv
from collections import defaultdict
from pathlib import Path

import numpy as np

from agents.results import better, interval_text, mean_ci, ranked, summarize
from experiments.figures import pyplot, save_figure
from sixnimmt_env.core.errors import ConfigError
from sixnimmt_env.core.strict_json import write_json
from sixnimmt_env.core.untrusted import loads_json, read_json, read_text

OLD_POINTS_PLOT = "penalties.png"  # points.png as written before
MAX_RESULTS_BYTES = 1 << 30  # results.jsonl: ~400 bytes a game row, so 2.5 million games
MAX_CONFIG_BYTES = 1 << 20


def tournament_game(config: dict, rows: list[dict]):
    """The game a tournament played (at its smallest table), from its tournament.json
    (old ones included); a directory without one played the card game."""
    from experiments.tournaments.tournament import TournamentConfig
    from sixnimmt_env.core.game import make_game

    players = min(r["players"] for r in rows)
    if not config:
        return make_game("cards", players=players)
    return TournamentConfig(**config).rules(players)


def load_rows(out: Path) -> list[dict]:
    """The game rows of DIR/results.jsonl, sorted; a last line torn by a kill is left out,
    anything else that is not a tournament's game row is a ConfigError naming the line."""
    from experiments.tournaments.tournament import ROW_FIELDS, _is_row

    path = out / "results.jsonl"
    lines = read_text(path, limit=MAX_RESULTS_BYTES).splitlines()
    rows = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = loads_json(line, depth=4, what=f"{path} line {n}")
        except ConfigError:
            if n == len(lines):
                continue
            raise
        if not _is_row(row):
            raise ConfigError(f"{path} line {n} is not a tournament's game row "
                              f"(fields: {', '.join(ROW_FIELDS)})")
        rows.append(row)
    rows.sort(key=lambda r: (r["players"], r["lineup"], r["deal"], r["rotation"]))
    return rows


def ratings(rows: list[dict], utility: int = -1) -> dict[str, dict]:
    """PlackettLuce (openskill) ratings over all games in a fixed order (rank 1: the
    fewest points when utility is -1, the most when +1)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current: dict = {}
    for row in rows:
        seats = row["seats"]
        for name in seats:
            current.setdefault(name, model.rating(name=name))
        totals = row["totals"]
        ranks = [1 + sum(better(t, mine, utility) for t in totals) for mine in totals]
        new = model.rate([[current[n]] for n in seats], ranks=ranks)
        updates = defaultdict(list)
        for name, (r,) in zip(seats, new):
            updates[name].append(r)
        for name, rs in updates.items():  # an agent seated twice: average its updates
            current[name] = model.rating(mu=float(np.mean([r.mu for r in rs])),
                                         sigma=float(np.mean([r.sigma for r in rs])), name=name)
    return {n: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()} for n, r in current.items()}


def head_to_head(rows: list[dict], utility: int = -1) -> tuple[list[str], np.ndarray, np.ndarray]:
    """(names, share of meetings where the row agent did better than the column agent —
    fewer points when utility is -1, more when +1 — (ties count half), number of meetings).
    Names in rank order, the best first (by mean points per round), as the leaderboard."""
    per_round = defaultdict(list)
    for r in rows:
        for n, total in zip(r["seats"], r["totals"]):
            per_round[n].append(total / r.get("rounds", 1))
    names = sorted(per_round, key=lambda n: (-utility * np.mean(per_round[n]), n))
    idx = {n: i for i, n in enumerate(names)}
    won = np.zeros((len(names), len(names)))
    met = np.zeros((len(names), len(names)))
    for row in rows:
        for a, ta in zip(row["seats"], row["totals"]):
            for b, tb in zip(row["seats"], row["totals"]):
                if a == b:
                    continue
                met[idx[a], idx[b]] += 1
                won[idx[a], idx[b]] += 1.0 if better(ta, tb, utility) else (0.5 if ta == tb else 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return names, won / met, met


def period(game: str) -> str:
    """What the game's points are counted per in words: a round of the card games, a game of
    the board game (it has no rounds). The data keep their `points_per_round` keys (a board
    game is one round), so older files and scripts read on."""
    return "game" if game == "board" else "round"


SHORT_NAME = 16
"""Longer agent names are plotted as A, B, ... with the names in a legend below."""


def plot_names(names: list[str], everyone: list[str] | None = None) -> tuple[list[str], str]:
    """Short names for a plot's ticks and the legend text that spells out the long ones. The
    letters follow `everyone`'s order (default: `names`'), so that the plots of one report,
    each drawing its agents in its own order, give an agent the same letter."""
    letter, tags = iter("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), {}
    for n in everyone or names:
        if len(n) > SHORT_NAME and n not in tags:
            tags[n] = next(letter, n[:SHORT_NAME])
    shown = set(names)
    return [tags.get(n, n) for n in names], "\n".join(f"{tags[n]} = {n}" for n in tags if n in shown)


def _plots(out: Path, by_players: dict[int, list], rows: list[dict], h2h, unit: str = "bullheads",
           utility: int = -1, per: str = "round") -> list[str]:
    plt = pyplot()
    files = []
    everyone = h2h[0]  # every agent, best first: the order the letters of long names follow
    fig, axes = plt.subplots(1, len(by_players), figsize=(6 * len(by_players), 0.45 * max(
        len(v) for v in by_players.values()) + 1.5), squeeze=False)
    for ax, (p, results) in zip(axes[0], sorted(by_players.items())):
        results = ranked(results, utility)[::-1]  # barh draws bottom up: the best on top
        short, legend = plot_names([a.name for a in results], everyone)
        ax.barh(short, [a.points_per_round for a in results],
                xerr=[a.points_ci for a in results], color="#4c72b0", capsize=3)
        ax.set_xlabel(f"{unit} per {per} (95% CI), {'lower' if utility < 0 else 'higher'} is better")
        if legend:
            ax.text(0, -0.25, legend, transform=ax.transAxes, va="top", fontsize=8, family="monospace")
        ax.set_title(f"{p} players")
        ax.grid(axis="x", alpha=0.3)
    files += save_figure(fig, out, "leaderboard.png")

    names, share, met = h2h
    short, legend = plot_names(names, everyone)
    fig, ax = plt.subplots(figsize=(max(5.0, 1.0 + 0.7 * len(names)), 1.6 + 0.6 * len(names)))
    im = ax.imshow(share, cmap="RdYlGn", vmin=0, vmax=1)
    ax.set_xticks(range(len(names)), short, rotation=45, ha="right")
    ax.set_yticks(range(len(names)), short)
    for i in range(len(names)):
        for j in range(len(names)):
            if met[i, j]:
                ax.text(j, i, f"{share[i, j]:.2f}", ha="center", va="center", fontsize=8)
    ax.set_title("row agent beat column agent\n(share of shared games)")
    fig.colorbar(im, ax=ax, shrink=0.8)
    if legend:  # the specs in full below the map and its ticks (an axis label: the layout makes room)
        ax.set_xlabel(legend, fontsize=8, family="monospace", loc="left", multialignment="left")
    files += save_figure(fig, out, "head_to_head.png")

    per_agent = defaultdict(list)
    for row in rows:
        for name, total in zip(row["seats"], row["totals"]):
            per_agent[name].append(total / row["rounds"])
    order = sorted(per_agent, key=lambda n: -utility * np.mean(per_agent[n]))  # the best first
    fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(order)), 4))
    ax.boxplot([per_agent[n] for n in order], showfliers=False)
    short, legend = plot_names(order, everyone)
    ax.set_xticks(range(1, len(order) + 1), short, rotation=45, ha="right")
    if legend:
        ax.set_xlabel(legend, fontsize=8, family="monospace", loc="left", multialignment="left")
    ax.set_ylabel(f"{unit} per {per} in a game" if per == "round" else f"{unit} per game")
    ax.set_title(f"{unit} distributions")
    ax.grid(axis="y", alpha=0.3)
    files += save_figure(fig, out, "points.png")
    (out / OLD_POINTS_PLOT).unlink(missing_ok=True)  # this plot under its name of before
    return files


def build_report(out: str | Path, plots: bool = True) -> dict:
    """Write results.csv, summary.json, report.md and the plots; returns the summary.
    A write that fails (read-only, disk full) is an OutputError; results.jsonl is only read."""
    from sixnimmt_env.core.errors import writing

    out = Path(out)
    with writing(f"the report in {out}"):
        return _build_report(out, plots)


def _build_report(out: Path, plots: bool) -> dict:
    rows = load_rows(out)
    if not rows:
        raise ConfigError(f"{out}/results.jsonl holds no games yet")
    config = {}
    if (out / "tournament.json").exists():
        from experiments.tournaments.tournament import read_config
        read_config(out)  # ConfigError for a broken one
        config = read_json(out / "tournament.json", limit=MAX_CONFIG_BYTES)
    game = tournament_game(config, rows)
    info = game.info
    score_unit, utility = info.score_unit, info.utility
    with (out / "results.csv").open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["players", "lineup", "deal", "rotation", "seat", "agent", "total", "rounds",
                    f"{score_unit}_per_round", "win_share"])
        for r in rows:
            winners = set(r["winners"])
            for s, (name, total) in enumerate(zip(r["seats"], r["totals"])):
                w.writerow([r["players"], r["lineup"], r["deal"], r["rotation"], s, name, total, r["rounds"],
                            round(total / r["rounds"], 4), round(1 / len(winners), 4) if s in winners else 0])
    unit = lambda r: (r["lineup"], r["deal"])  # noqa: E731  one deal of one line-up: a sample
    by_players = {}
    ms = defaultdict(list)
    for r in rows:
        for n, v in r.get("ms", {}).items():
            ms[n].append(v)
    for p in sorted({r["players"] for r in rows}):
        results = summarize([r for r in rows if r["players"] == p], unit=unit)
        for a in results:
            a.ms_per_decision = float(np.mean(ms[a.name])) if ms[a.name] else 0.0
        by_players[p] = results
    rating = ratings(rows, utility)
    h2h = head_to_head(rows, utility)
    per_game = defaultdict(list)
    for r in rows:
        for name, total in zip(r["seats"], r["totals"]):
            per_game[name].append(total)
    summary = {
        "config": config, "game": info.game, "variant": info.variant, "score_unit": score_unit, "utility": utility,
        "rules": {k: v for k, v in game.rules.to_dict().items() if k != "players"},
        "games": len(rows), "rounds": sum(r["rounds"] for r in rows),
        "by_players": {str(p): [a.as_dict() | {"points_per_game": mean_ci(per_game[a.name])[0]}
                                for a in res] for p, res in by_players.items()},
        "ratings": rating,
        # a pair that never met (an agent and itself, two agents never at one table)
        # has no share: NaN, which write_json writes as null (it was -1 before 2026-12-07)
        "head_to_head": {"agents": h2h[0], "share": h2h[1].round(4).tolist(),
                         "games": h2h[2].astype(int).tolist()},
    }
    write_json(out / "summary.json", summary)  # strict JSON: a 1-deal interval (NaN) is null
    files = _plots(out, by_players, rows, h2h, score_unit, utility, period(info.game)) if plots else []
    (out / "report.md").write_text(_markdown(summary, by_players, rating, files))
    return summary


# Why the rating column may order agents differently from the rank (which is by points).
RATING_NOTE = ("rank: by mean points (a round; a game in the board game) at this seat count. rating: PlackettLuce (openskill) over every "
               "game of the tournament, by finishing order only (not by how many points), ordinal = mu - 3 sigma: "
               "it can order two agents differently from the rank, and it is lower for an agent with fewer games.")


def leaderboard_markdown(results, rating: dict, players: int, unit: str = "bullheads", utility: int = -1,
                         per: str = "round") -> str:
    """The agents of one seat count as a markdown table, best first (by `utility`); `per`:
    what the points are counted per (period)."""
    lines = [f"| rank | agent | {unit} / {per} (95% CI) | win share (fair " + f"{1 / players:.3f}" +
             ") | rating (ordinal) | ms / decision |", "| --- | --- | --- | --- | --- | --- |"]
    from agents.results import agent_labels

    label = agent_labels([a.name for a in results], {})  # a cmd: bot by a short form, a py: agent by its class
    for i, a in enumerate(ranked(results, utility), 1):
        r = rating.get(a.name, {})
        lines.append(f"| {i} | `{label[a.name]}` | {a.points_per_round:.2f} ± {interval_text(a.points_ci)} | "
                     f"{a.win_share:.3f} ± {interval_text(a.win_ci, '.3f')} | {r.get('ordinal', float('nan')):.2f} | "
                     f"{a.ms_per_decision:.2f} |")
    lines += [f"\n`{shown}` is `{spec}`" for spec, shown in label.items() if shown != spec]  # each spec once
    return "\n".join(lines)


def leaderboards(summary: dict) -> str:
    """Every seat count's leaderboard of a summary (build_report's, or summary.json), as
    `sixnimmt tournament` prints them at the end; keys of an agent's row that AgentResult
    does not hold (the summary's points per game) are left out."""
    from agents.results import AgentResult

    parts = []
    for p, rows in summary["by_players"].items():
        results = [AgentResult.from_dict(a) for a in rows]
        table = leaderboard_markdown(results, summary["ratings"], int(p), summary["score_unit"], summary["utility"],
                                     period(summary.get("game", "cards")))
        parts.append(f"\n{p} players ({summary['games']} games in all):\n{table}")
    parts.append(RATING_NOTE)
    return "\n".join(parts)


def _markdown(summary: dict, by_players: dict, rating: dict, files: list[str]) -> str:
    cfg = summary["config"]
    unit, utility = summary["score_unit"], summary["utility"]
    # the game's rules, and options given that its rules do not list (the board's layout)
    extra = {k: v for k, v in cfg.get("rule_options", {}).items() if k not in summary["rules"] and k != "variant"}
    options = {**summary["rules"], **extra}
    rules = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in options.items())
    parts = ["# Tournament report\n",
             f"{summary['games']} games, {summary['rounds']} rounds. Agents: "
             f"{', '.join('`' + a + '`' for a in cfg.get('agents', []))}. Game {summary['game']}, variant "
             f"{summary['variant']}, seed {cfg.get('seed')}, {rules}; {cfg.get('games')} deals per line-up, "
             f"each in every seat rotation. {unit.capitalize()} per {period(summary['game'])}: "
             f"{'fewer' if utility < 0 else 'more'} is better. ± is a 95% confidence interval over deals (n/a: one deal gives none). "
             + RATING_NOTE.replace("mu - 3 sigma", "mu − 3 sigma") + " The head-to-head plot lists the agents in "
             "rank order.\n"]
    for p, results in sorted(by_players.items()):
        parts.append(f"## {p} players\n\n{leaderboard_markdown(results, rating, p, unit, utility, period(summary['game']))}\n")
    for f in files:
        parts.append(f"![{f}]({f})\n")
    return "\n".join(parts)
