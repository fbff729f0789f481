"""Tournament reports, rebuilt from DIR/results.jsonl alone (`sixnimmt report DIR`).

Writes DIR/results.csv (one line per game and seat), DIR/summary.json, DIR/report.md
and three plots: leaderboard.png (bullheads per round with 95% error bars),
head_to_head.png (how often the row agent beat the column agent at the same table) and
penalties.png (the distribution of bullheads per round in each game).
"""

from __future__ import annotations

import csv
import json
from collections import defaultdict
from pathlib import Path

import numpy as np

from agents.arena import mean_ci, summarize


def load_rows(out: Path) -> list[dict]:
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines() if line.strip()]
    rows.sort(key=lambda r: (r["players"], r["lineup"], r["deal"], r["rotation"]))
    return rows


def ratings(rows: list[dict]) -> dict[str, dict]:
    """PlackettLuce (openskill) ratings over all games in a fixed order."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current: dict = {}
    for row in rows:
        seats = row["seats"]
        for name in seats:
            current.setdefault(name, model.rating(name=name))
        totals = row["totals"]
        ranks = [1 + sum(t < mine for t in totals) for mine in totals]  # fewer bullheads rank first
        new = model.rate([[current[n]] for n in seats], ranks=ranks)
        updates = defaultdict(list)
        for name, (r,) in zip(seats, new):
            updates[name].append(r)
        for name, rs in updates.items():  # an agent seated twice: average its updates
            current[name] = model.rating(mu=float(np.mean([r.mu for r in rs])),
                                         sigma=float(np.mean([r.sigma for r in rs])), name=name)
    return {n: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()} for n, r in current.items()}


def head_to_head(rows: list[dict]) -> tuple[list[str], np.ndarray, np.ndarray]:
    """(names, share of meetings where row agent had fewer bullheads than column agent
    (ties count half), number of meetings)."""
    names = sorted({n for r in rows for n in r["seats"]})
    idx = {n: i for i, n in enumerate(names)}
    won = np.zeros((len(names), len(names)))
    met = np.zeros((len(names), len(names)))
    for row in rows:
        for a, ta in zip(row["seats"], row["totals"]):
            for b, tb in zip(row["seats"], row["totals"]):
                if a == b:
                    continue
                met[idx[a], idx[b]] += 1
                won[idx[a], idx[b]] += 1.0 if ta < tb else (0.5 if ta == tb else 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return names, won / met, met


def _plots(out: Path, by_players: dict[int, list], rows: list[dict], h2h) -> list[str]:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    files = []
    fig, axes = plt.subplots(1, len(by_players), figsize=(6 * len(by_players), 0.45 * max(
        len(v) for v in by_players.values()) + 1.5), squeeze=False)
    for ax, (p, results) in zip(axes[0], sorted(by_players.items())):
        results = sorted(results, key=lambda a: -a.penalty_per_round)
        ax.barh([a.name for a in results], [a.penalty_per_round for a in results],
                xerr=[a.penalty_ci for a in results], color="#4c72b0", capsize=3)
        ax.set_xlabel("bullheads per round (95% CI), lower is better")
        ax.set_title(f"{p} players")
        ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(out / "leaderboard.png", dpi=110)
    plt.close(fig)
    files.append("leaderboard.png")

    names, share, met = h2h
    fig, ax = plt.subplots(figsize=(1.0 + 0.7 * len(names), 0.8 + 0.6 * len(names)))
    im = ax.imshow(share, cmap="RdYlGn", vmin=0, vmax=1)
    ax.set_xticks(range(len(names)), names, rotation=45, ha="right")
    ax.set_yticks(range(len(names)), names)
    for i in range(len(names)):
        for j in range(len(names)):
            if met[i, j]:
                ax.text(j, i, f"{share[i, j]:.2f}", ha="center", va="center", fontsize=8)
    ax.set_title("row agent beat column agent (share of shared games)")
    fig.colorbar(im, ax=ax, shrink=0.8)
    fig.tight_layout()
    fig.savefig(out / "head_to_head.png", dpi=110)
    plt.close(fig)
    files.append("head_to_head.png")

    per_agent = defaultdict(list)
    for row in rows:
        for name, total in zip(row["seats"], row["totals"]):
            per_agent[name].append(total / row["rounds"])
    order = sorted(per_agent, key=lambda n: np.mean(per_agent[n]))
    fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(order)), 4))
    ax.boxplot([per_agent[n] for n in order], showfliers=False)
    ax.set_xticks(range(1, len(order) + 1), order, rotation=45, ha="right")
    ax.set_ylabel("bullheads per round in a game")
    ax.set_title("penalty distributions")
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(out / "penalties.png", dpi=110)
    plt.close(fig)
    files.append("penalties.png")
    return files


def build_report(out: str | Path, plots: bool = True) -> dict:
    """Write results.csv, summary.json, report.md and the plots; returns the summary."""
    out = Path(out)
    rows = load_rows(out)
    if not rows:
        from sixnimmt_env.core.errors import ConfigError
        raise ConfigError(f"{out}/results.jsonl holds no games yet")
    config = json.loads((out / "tournament.json").read_text()) if (out / "tournament.json").exists() else {}
    with (out / "results.csv").open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["players", "lineup", "deal", "rotation", "seat", "agent", "total", "rounds",
                    "bullheads_per_round", "win_share"])
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
    rating = ratings(rows)
    h2h = head_to_head(rows)
    per_game = defaultdict(list)
    for r in rows:
        for name, total in zip(r["seats"], r["totals"]):
            per_game[name].append(total)
    summary = {
        "config": config, "games": len(rows), "rounds": sum(r["rounds"] for r in rows),
        "by_players": {str(p): [a.as_dict() | {"penalty_per_game": mean_ci(per_game[a.name])[0]}
                                for a in res] for p, res in by_players.items()},
        "ratings": rating,
        "head_to_head": {"agents": h2h[0], "share": np.nan_to_num(h2h[1], nan=-1).round(4).tolist(),
                         "games": h2h[2].astype(int).tolist()},
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    files = _plots(out, by_players, rows, h2h) if plots else []
    (out / "report.md").write_text(_markdown(summary, by_players, rating, files))
    return summary


def leaderboard_markdown(results, rating: dict, players: int) -> str:
    lines = ["| rank | agent | bullheads / round (95% CI) | win share (fair " + f"{1 / players:.3f}" +
             ") | rating (ordinal) | ms / decision |", "| --- | --- | --- | --- | --- | --- |"]
    for i, a in enumerate(sorted(results, key=lambda a: a.penalty_per_round), 1):
        r = rating.get(a.name, {})
        lines.append(f"| {i} | `{a.name}` | {a.penalty_per_round:.2f} ± {a.penalty_ci:.2f} | "
                     f"{a.win_share:.3f} ± {a.win_ci:.3f} | {r.get('ordinal', float('nan')):.2f} | "
                     f"{a.ms_per_decision:.2f} |")
    return "\n".join(lines)


def _markdown(summary: dict, by_players: dict, rating: dict, files: list[str]) -> str:
    cfg = summary["config"]
    parts = ["# Tournament report\n",
             f"{summary['games']} games, {summary['rounds']} rounds. Agents: "
             f"{', '.join('`' + a + '`' for a in cfg.get('agents', []))}. Variant "
             f"{cfg.get('variant', 'classic')}, seed {cfg.get('seed')}, "
             f"row choice {cfg.get('row_choice')}, end score {cfg.get('end_score')}, "
             f"max rounds {cfg.get('max_rounds')}; {cfg.get('games')} deals per line-up, each in every "
             "seat rotation. ± is a 95% confidence interval over deals. Ratings: PlackettLuce "
             "(openskill) over all games, ordinal = mu − 3 sigma.\n"]
    for p, results in sorted(by_players.items()):
        parts.append(f"## {p} players\n\n{leaderboard_markdown(results, rating, p)}\n")
    for f in files:
        parts.append(f"![{f}]({f})\n")
    return "\n".join(parts)
