"""`sixnimmt study die-sechste`: how Die Sechste plays, next to the classic game.

The rules' authors say Die Sechste is not play-tested. This study plays whole games (to
66, the owner chooses rows, as written) at 2, 4, 6 and 10 players with two kinds of
table — a mix of heuristic players, and `mcs` search players — in both games (plus Die
Sechste's exact card count at 2–4 players), and measures:

- penalty points per round and rounds per game;
- how often each special rule fires, per 100 rounds: too-low cards, sixth cards, twins
  revealed in the same turn, a twin placed on its counterpart, a card behind two rows
  ending in twins (shorter row taken, or equal length: the owner's choice);
- the advantage of a seat by its position counted from the dealer's left (position 0
  places twins first; the dealer is last), as penalty per round minus the table mean;
- how often a game ends with several winners (ties all win).

Mixed tables are played over duplicate deals with seat rotation (every agent in every
seat); ± are 95% confidence intervals over games. Everything is seeded: the same options
give the same numbers. Output: results.json, report.md and plots in the output directory.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from agents.arena import build_agents, play_duplicate
from agents.results import mean_ci
from experiments.figures import pyplot, save_figure
from experiments.studies.runner import Study, fmt_ci, markdown_table, with_figures
from sixnimmt_env.cards.events import RULE_ON_TWIN, RULE_SIXTH, RULE_TOO_LOW, RULE_TWIN_CHOICE, RULE_TWIN_SHORTER
from sixnimmt_env.cards.rules import RuleConfig
from sixnimmt_env.cards.state import PHASE_CARDS, PHASE_OVER
from sixnimmt_env.core.rng import game_seeds

EVENTS = {
    "too_low": "too-low card (its owner takes a row)",
    "sixth": "sixth card (takes a full row)",
    "twins_same_turn": "twins revealed in the same turn",
    "on_twin": "twin placed on its counterpart",
    "twin_rows_shorter": "card behind two twin-ended rows: the shorter taken",
    "twin_rows_equal": "card behind two equally long twin-ended rows: owner's choice",
}
GAMES = [("classic", "full"), ("die-sechste", "full"), ("die-sechste", "exact")]
HEURISTIC_TABLE = ("min-gap", "safe-high", "greedy", "lowest")


@dataclass
class StudyConfig:
    players: list[int] = field(default_factory=lambda: [2, 4, 6, 10])
    heuristic_games: int = 400  # games per (game, players) with the heuristic table
    mcs_games: int = 40  # games per (game, players) with the mcs table
    mcs: str = "mcs:rollouts=30"
    seed: int = 0

    def jobs(self) -> list[tuple[str, str, int, str]]:
        """(variant, deck, players, table) of every cell of the study."""
        out = []
        for table in ("heuristics", "mcs"):
            for variant, deck in GAMES:
                for p in self.players:
                    if deck == "exact" and p > 4:
                        continue  # Die Sechste's exact card count is for 2-4 players
                    out.append((variant, deck, p, table))
        return out


class RuleCounter:
    """Counts, per game, how often each special rule fires, and the penalty by position.

    An observer of play_duplicate: the engine's step events say which rule placed each
    card (StepEvents.rule), so the counter keeps no copy of the rules. Only twins revealed
    in the same turn are read off the played cards, as nothing is placed by that rule.
    """

    # EVENTS entry -> the RULE_* flag it counts. A card that waits for its owner's
    # twin-row choice is flagged once, at its placement in the next step. (Under
    # row_choice="cheapest", which the study does not play, equal twin rows are decided
    # by the rule and count as "twin_rows_shorter".)
    FLAGS = {"too_low": RULE_TOO_LOW, "sixth": RULE_SIXTH, "on_twin": RULE_ON_TWIN,
             "twin_rows_shorter": RULE_TWIN_SHORTER, "twin_rows_equal": RULE_TWIN_CHOICE}

    def __init__(self, rules: RuleConfig, batch: int):
        self.order = rules.variant_data.order.astype(np.int64)
        self.counts = {name: np.zeros(batch, dtype=np.int64) for name in EVENTS}
        self.position_penalty = np.zeros((rules.players, batch))  # by position from dealer's left
        self.rounds = np.zeros(batch, dtype=np.int64)

    def observe(self, before, actions, after, ev) -> None:
        P = before.players
        live = before.phase != PHASE_OVER
        cards_step = live & (before.phase == PHASE_CARDS)
        cards = np.where(cards_step[None, :], actions + 1, 0)  # encoded action a plays card id a + 1
        values = np.sort(self.order[cards], axis=0)
        self.counts["twins_same_turn"] += ((values[1:] == values[:-1]) & (values[1:] > 0)).sum(axis=0)
        for name, bit in self.FLAGS.items():  # ev.rule (P, B) is 0 where nothing was placed
            self.counts[name] += (ev.rule & bit).astype(bool).sum(axis=0)
        ended = ev.round_over & live
        if ended.any():
            g = np.flatnonzero(ended)
            seats = np.arange(P)[:, None]
            pos = (seats - before.dealer[g][None, :].astype(np.int64) - 1) % P
            self.position_penalty[pos, g[None, :]] += ev.round_penalty[:, g]
            self.rounds[g] += 1


def run_cell(job: tuple[str, str, int, str], cfg: StudyConfig) -> dict:
    """Play one cell of the study; its figures as a dict."""
    variant, deck, players, table = job
    rules = RuleConfig(players=players, row_choice="player", variant=variant, deck=deck)
    if table == "heuristics":
        specs = [HEURISTIC_TABLE[i % len(HEURISTIC_TABLE)] for i in range(players)]
        games = cfg.heuristic_games
    else:
        specs = [cfg.mcs] * players
        games = cfg.mcs_games
    deals = max(1, -(-games // players))
    names, agents = build_agents(specs)
    seed = cfg.seed * 1000 + players  # the same deals seeds for every game and table
    counter = RuleCounter(rules, deals * players)
    rows, _, _, _ = play_duplicate(names, agents, rules, game_seeds(seed, deals),
                                   np.random.default_rng(seed), observers=[counter])
    rounds = np.array([r["rounds"] for r in rows], dtype=np.float64)
    totals = np.array([r["totals"] for r in rows], dtype=np.float64)  # (G, P)
    per_round = totals.mean(axis=1) / rounds
    position = counter.position_penalty.T / rounds[:, None]  # (G, P)
    relative = position - position.mean(axis=1, keepdims=True)
    out = {"variant": variant, "deck": deck, "players": players, "table": table,
           "agents": specs, "games": len(rows), "rounds": int(rounds.sum()),
           "penalty_per_round": mean_ci(per_round), "rounds_per_game": mean_ci(rounds),
           "shared_win": mean_ci([len(r["winners"]) > 1 for r in rows]),
           "position_advantage": [mean_ci(relative[:, i]) for i in range(players)],
           "per_100_rounds": {name: mean_ci(100 * counter.counts[name] / rounds) for name in EVENTS}}
    assert (counter.rounds == rounds).all(), "every round's end was seen"
    return out


def _label(r: dict) -> str:
    return r["variant"] + (" (exact)" if r["deck"] == "exact" else "")




def report_markdown(summary: dict, files: list[str]) -> str:
    """Tables of every measure, as markdown."""
    cells = summary["cells"]
    cfg = summary["config"]
    lines = ["# Die Sechste next to the classic game\n",
             f"Whole games to 66, row_choice=player, seed {cfg['seed']}. Tables: heuristics = "
             f"{', '.join(HEURISTIC_TABLE)} in turn, over duplicate deals with seat rotation "
             f"({cfg['heuristic_games']} games per cell); mcs = `{cfg['mcs']}` in every seat "
             f"({cfg['mcs_games']} games per cell). ± = 95% CI over games.\n"]
    lines += ["## Penalty per round and game length\n"]
    lines += markdown_table(["table", "game", "players", "games", "points / round", "rounds / game",
                             "games with shared win"],
                            [[r["table"], _label(r), r["players"], r["games"], fmt_ci(r["penalty_per_round"]),
                              fmt_ci(r["rounds_per_game"]), fmt_ci(r["shared_win"], 3)] for r in cells])
    lines += ["\n## How often the special rules fire (per 100 rounds)\n"]
    lines += markdown_table(["table", "game", "players", *EVENTS.values()],
                            [[r["table"], _label(r), r["players"], *(fmt_ci(r["per_100_rounds"][n], 1) for n in EVENTS)]
                             for r in cells])
    lines += ["\n## Seat position from the dealer's left: points per round minus the table mean\n",
              "Position 0 sits left of the dealer (places twins first); the last position is the dealer.\n"]
    lines += markdown_table(["table", "game", "players", *(f"pos {i}" for i in range(10))],
                            [[r["table"], _label(r), r["players"], *(fmt_ci(a) for a in r["position_advantage"]),
                              *[""] * (10 - r["players"])] for r in cells])
    return with_figures(lines, files)


TABLES = ("heuristics", "mcs")
COLORS = {"classic": "tab:blue", "die-sechste": "tab:red", "die-sechste (exact)": "tab:orange"}


def plot_study(summary: dict, out: Path) -> list[str]:
    """Three figures: points and rounds by players, rule rates, position advantage."""
    cells = summary["cells"]
    return _plot_points(cells, out) + _plot_twin_rules(cells, out) + _plot_positions(cells, out)


def _plot_points(cells: list[dict], out: Path) -> list[str]:
    plt, tables, colors = pyplot(), TABLES, COLORS
    fig, axes = plt.subplots(2, 2, figsize=(11, 8), squeeze=False)
    for col, table in enumerate(tables):
        for row, (measure, title) in enumerate([("penalty_per_round", "points per round"),
                                                ("rounds_per_game", "rounds per game")]):
            ax = axes[row][col]
            for label in colors:
                rs = [r for r in cells if r["table"] == table and _label(r) == label]
                if not rs:
                    continue
                ax.errorbar([r["players"] for r in rs], [r[measure][0] for r in rs],
                            yerr=[np.nan_to_num(r[measure][1]) for r in rs], marker="o", capsize=3,
                            label=label, color=colors[label])
            ax.set_title(f"{title} ({table} table)")
            ax.set_xlabel("players")
            ax.grid(alpha=0.3)
            ax.legend()
    return save_figure(fig, out, "points_and_length.png")


def _plot_twin_rules(cells: list[dict], out: Path) -> list[str]:
    plt, tables = pyplot(), TABLES
    twin_events = ["twins_same_turn", "on_twin", "twin_rows_shorter", "twin_rows_equal"]
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5), squeeze=False)
    for ax, table in zip(axes[0], tables):
        rs = [r for r in cells if r["table"] == table and r["variant"] == "die-sechste" and r["deck"] == "full"]
        x = np.arange(len(rs))
        width = 0.8 / len(twin_events)
        for i, name in enumerate(twin_events):
            ax.bar(x + i * width, [r["per_100_rounds"][name][0] for r in rs], width,
                   yerr=[np.nan_to_num(r["per_100_rounds"][name][1]) for r in rs], capsize=2,
                   label=EVENTS[name])
        ax.set_xticks(x + 0.4 - width / 2, [f"{r['players']} players" for r in rs])
        ax.set_yscale("symlog", linthresh=1)  # the owner's choice is 100x rarer than twins
        ax.set_ylabel("per 100 rounds (log scale)")
        ax.set_title(f"Die Sechste twin rules ({table} table)")
        ax.grid(alpha=0.3, axis="y")
    axes[0][0].legend(fontsize=8)
    return save_figure(fig, out, "twin_rules.png")


def _plot_positions(cells: list[dict], out: Path) -> list[str]:
    plt, colors = pyplot(), COLORS
    players = sorted({r["players"] for r in cells})
    fig, axes = plt.subplots(1, len(players), figsize=(4 * len(players), 4), squeeze=False)
    for ax, p in zip(axes[0], players):
        for label in ("classic", "die-sechste"):
            rs = [r for r in cells if r["table"] == "heuristics" and _label(r) == label and r["players"] == p]
            for r in rs:
                m = [a[0] for a in r["position_advantage"]]
                ci = [np.nan_to_num(a[1]) for a in r["position_advantage"]]
                ax.errorbar(np.arange(p), m, yerr=ci, marker="o", capsize=3, label=label, color=colors[label])
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_xticks(range(p))
        ax.set_title(f"{p} players (heuristics)")
        ax.set_xlabel("position from dealer's left (last = dealer)")
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel("points / round minus table mean")
    axes[0][0].legend()
    return save_figure(fig, out, "seat_position.png")


DIE_SECHSTE_STUDY = Study(run_cell, ("variant", "deck", "players", "table"), plot_study, report_markdown)
"""`sixnimmt study die-sechste`: `DIE_SECHSTE_STUDY.run(StudyConfig(...), out)`."""
