"""`sixnimmt study board`: the numbers people ask about the 2019 board game.

For 2-6 players, both implemented variants and two kinds of table (random players; a
search player in every seat), whole games over duplicate deals with seat rotation:

- points per seat at the end of a game (mean, spread, the winner's score);
- how often each field kind acts, per game (plain, green, red, fixed, play two, take),
  and how many tiles a take removes;
- how many luck cards a game sees, how many "+5" and "2x" cards are played;
- how many turns are played with two tiles each (play two).

± are 95% confidence intervals over games. Everything is seeded: the same options give
the same numbers. Output: results.json, report.md and a plot in the output directory.
The events come from the engine (BoardEvents), so nothing here re-derives a rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from agents.arena import build_agents, play_duplicate
from agents.results import mean_ci, ms_per_decision
from experiments.figures import pyplot, save_figure
from experiments.studies.runner import Study, fmt_ci, markdown_table, with_figures
from sixnimmt_env.board.layout import KIND_NAMES, TAKE
from sixnimmt_env.core.game import make_game
from sixnimmt_env.core.rng import game_seeds

BASIC_KINDS = ("plain", "green", "red", "fixed", "play two", "take")


@dataclass
class BoardStudyConfig:
    players: list[int] = field(default_factory=lambda: [2, 3, 4, 5, 6])
    variants: list[str] = field(default_factory=lambda: ["basic", "luck"])
    random_games: int = 400  # games per (variant, players) with the random table
    search_games: int = 40  # games per (variant, players) with the search table
    search: str = "mcs"  # the search player's spec
    layout: str | None = None  # None: the variant's side's shipped board
    seed: int = 0

    def jobs(self) -> list[tuple[str, int, str]]:
        """(variant, players, table) of every cell."""
        return [(v, p, t) for t in ("random", "search") for v in self.variants for p in self.players]


class EventCounter:
    """Counts, per game, what the engine's events say: field kinds, takes, luck cards,
    play-two turns. An observer of play_duplicate."""

    def __init__(self, batch: int):
        self.kinds = np.zeros((len(KIND_NAMES), batch), dtype=np.int64)
        self.taken = np.zeros(batch, dtype=np.int64)
        self.luck_gained = np.zeros(batch, dtype=np.int64)
        self.plus5 = np.zeros(batch, dtype=np.int64)
        self.double = np.zeros(batch, dtype=np.int64)
        self.two_turns = np.zeros(batch, dtype=np.int64)

    def observe(self, before, actions, after, ev) -> None:
        placed = ev.tile > 0  # (Q, B)
        for k in range(len(KIND_NAMES)):
            self.kinds[k] += (placed & (ev.kind == k)).sum(axis=0)
        self.taken += ev.taken.sum(axis=0)
        self.luck_gained += ev.luck_gained.sum(axis=0)
        self.plus5 += ev.plus5.sum(axis=0)
        self.double += ev.double.sum(axis=0)
        self.two_turns += ev.turn_over & (before.picks == 2)


def run_cell(job: tuple[str, int, str], cfg: BoardStudyConfig) -> dict:
    """Play one cell; its figures as a dict."""
    variant, players, table = job
    game = make_game("board", players=players, variant=variant, layout=cfg.layout)
    spec = "random" if table == "random" else cfg.search
    games = cfg.random_games if table == "random" else cfg.search_games
    deals = max(1, -(-games // players))
    names, agents = build_agents([spec] * players)
    seed = cfg.seed * 1000 + players
    counter = EventCounter(deals * players)
    rows, act_time, decisions, _ = play_duplicate(names, agents, game, game_seeds(seed, deals),
                                                  np.random.default_rng(seed), observers=[counter])
    scores = np.array([r["totals"] for r in rows], dtype=np.float64)  # (G, P)
    per_game = {name: counter.kinds[k] for k, name in enumerate(KIND_NAMES) if name in BASIC_KINDS}
    return {
        "variant": variant, "players": players, "table": table, "agent": spec, "games": len(rows),
        "score_per_seat": mean_ci(scores.ravel()), "score_sd": float(scores.std()),
        "winner_score": mean_ci(scores.max(axis=1)), "shared_win": mean_ci([len(r["winners"]) > 1 for r in rows]),
        "field_kinds_per_game": {name: mean_ci(v) for name, v in per_game.items()},
        "tiles_taken_per_take": float(counter.taken.sum() / max(counter.kinds[TAKE].sum(), 1)),
        "luck_cards_per_game": mean_ci(counter.luck_gained),
        "plus5_played_per_game": mean_ci(counter.plus5), "double_played_per_game": mean_ci(counter.double),
        "play_two_turns_per_game": mean_ci(counter.two_turns),
        "ms_per_decision": round(ms_per_decision(sum(act_time.values()), sum(decisions.values())), 3),
    }


def report_markdown(summary: dict, files: list[str]) -> str:
    """Tables of every measure, as markdown."""
    cfg, cells = summary["config"], summary["cells"]
    lines = ["# The board game in numbers\n",
             f"Layout `{cfg['layout'] or 'the variant side’s shipped default'}` (the shipped defaults are "
             "approximations of the printed board), "
             f"seed {cfg['seed']}. Tables: `random` in every seat ({cfg['random_games']} games per cell), "
             f"`{cfg['search']}` in every seat ({cfg['search_games']} games per cell), duplicate deals with "
             "seat rotation. ± = 95% CI over games (over seat-games for points per seat).\n",
             "## Points\n"]
    lines += markdown_table(["table", "variant", "players", "games", "points per seat", "sd", "winner's points",
                             "shared wins", "ms / decision"],
                            [[r["agent"], r["variant"], r["players"], r["games"], fmt_ci(r["score_per_seat"], 1),
                              f"{r['score_sd']:.1f}", fmt_ci(r["winner_score"], 1), fmt_ci(r["shared_win"], 2),
                              f"{r['ms_per_decision']:.2f}"] for r in cells])
    lines += ["\n## Field kinds acting per game (tiles landing on them; take: rows taken)\n"]
    lines += markdown_table(["table", "variant", "players", *BASIC_KINDS, "tiles per take", "play-two turns"],
                            [[r["agent"], r["variant"], r["players"],
                              *(fmt_ci(r["field_kinds_per_game"][k], 1) for k in BASIC_KINDS),
                              f"{r['tiles_taken_per_take']:.2f}", fmt_ci(r["play_two_turns_per_game"], 1)]
                             for r in cells])
    luck = [r for r in cells if r["variant"] == "luck"]
    if luck:
        lines += ["\n## Luck cards per game (variant luck)\n"]
        lines += markdown_table(["table", "players", "gained", "+5 played", "2x played"],
                                [[r["agent"], r["players"], fmt_ci(r["luck_cards_per_game"], 1),
                                  fmt_ci(r["plus5_played_per_game"], 1), fmt_ci(r["double_played_per_game"], 1)]
                                 for r in luck])
    return with_figures(lines, files)


def plot_board_study(summary: dict, out: Path) -> list[str]:
    """Points per seat by players, and field kinds per game, for each table and variant."""
    plt = pyplot()

    cells = summary["cells"]
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5), squeeze=False)
    ax = axes[0][0]
    for (variant, table), style in zip([(v, t) for t in ("random", "search") for v in ("basic", "luck")],
                                       ["o-", "s-", "o--", "s--"]):
        rs = [r for r in cells if r["variant"] == variant and r["table"] == table]
        if rs:
            ax.errorbar([r["players"] for r in rs], [r["score_per_seat"][0] for r in rs],
                        yerr=[np.nan_to_num(r["score_per_seat"][1]) for r in rs], fmt=style, capsize=3,
                        label=f"{rs[0]['agent']}, {variant}")
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("players")
    ax.set_ylabel("points per seat")
    ax.set_title("points at the end of a game")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    ax = axes[0][1]
    rs = [r for r in cells if r["table"] == "random" and r["variant"] == "basic"]
    x = np.arange(len(rs))
    width = 0.8 / len(BASIC_KINDS)
    for i, kind in enumerate(BASIC_KINDS):
        ax.bar(x + i * width, [r["field_kinds_per_game"][kind][0] for r in rs], width, label=kind)
    ax.set_xticks(x + 0.4 - width / 2, [f"{r['players']} players" for r in rs])
    ax.set_ylabel("per game")
    ax.set_title("field kinds acting (random table, basic)")
    ax.grid(alpha=0.3, axis="y")
    ax.legend(fontsize=8)
    return save_figure(fig, out, "board_numbers.png")


BOARD_STUDY = Study(run_cell, ("variant", "players", "table"), plot_board_study, report_markdown, "board study")
"""`sixnimmt study board`: `BOARD_STUDY.run(BoardStudyConfig(...), out)`."""
