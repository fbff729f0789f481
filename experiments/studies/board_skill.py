"""`sixnimmt study board-skill`: does the board game's professional side reward skill, as the
review claims ("from luck to strategy")?

For each of the four variants at 2, 4 and 6 players, one search player (`mcs`) sits at a
table with P - 1 players of each opponent kind — by default random players, and the best
heuristic (`board-safe`) — over duplicate deals with seat rotation. The gap between the
searcher's points and its opponents' mean, and its win share, say how much a better
player gains in that variant: if the professional variants reward skill more, the gap
grows from basic to pro. With strong players on both sides (e.g. `--search guided
--opponents ppo`: the shipped network of each variant as the opponents, the search
guided by it as the searcher) it asks whether skill still pays when everybody is strong.
Beside it: the spread of final scores, game length in turns,
how often each field kind and each action card fires, how often a "2x" take pays off
(the take scores at least 0 thanks to it).

± are 95% confidence intervals over games (the gap is paired per game). Everything is
seeded. Output: results.json, report.md and a plot. The counts come from the engine's
events and the actions taken, so nothing re-derives a rule. What depends on the
approximated boards (every field's kind and value) is said in the report.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from agents.arena import build_agents, play_duplicate
from agents.results import mean_ci, ms_per_decision
from experiments.figures import pyplot, save_figure
from experiments.studies.runner import Study, fmt_ci, markdown_table, with_figures
from sixnimmt_env.board.actioncards import decode_play
from sixnimmt_env.board.layout import KIND_NAMES, TAKE
from sixnimmt_env.board.rules import ACTION_KINDS
from sixnimmt_env.board.state import ASK_ACTION, NO_CARD, PHASE_ASK
from sixnimmt_env.core.game import make_game
from sixnimmt_env.core.rng import game_seeds

VARIANTS = ("basic", "luck", "pro", "pro-luck")


@dataclass
class SkillStudyConfig:
    players: list[int] = field(default_factory=lambda: [2, 4, 6])
    variants: list[str] = field(default_factory=lambda: list(VARIANTS))
    games: int = 48  # games per cell (rounded up to whole rotations of a deal)
    search: str = "mcs"
    # the opponent kinds, a table of each: random and the best heuristic (README: board-game agents)
    opponents: list[str] = field(default_factory=lambda: ["random", "board-safe"])
    seed: int = 0

    def jobs(self) -> list[tuple[str, int, str]]:
        """(variant, players, opponents) of every cell."""
        return [(v, p, o) for v in self.variants for p in self.players for o in self.opponents]


class SkillCounter:
    """Per game: field kinds acting, action cards played by kind, "2x" takes and how many
    paid off, turns. An observer of play_duplicate."""

    def __init__(self, batch: int):
        self.kinds = np.zeros((len(KIND_NAMES), batch), dtype=np.int64)
        self.cards = np.zeros((len(ACTION_KINDS), batch), dtype=np.int64)
        self.double = np.zeros(batch, dtype=np.int64)
        self.double_paid = np.zeros(batch, dtype=np.int64)
        self.turns = np.zeros(batch, dtype=np.int64)

    def observe(self, before, actions, after, ev) -> None:
        placed = ev.tile > 0
        for k in range(len(KIND_NAMES)):
            self.kinds[k] += (placed & (ev.kind == k)).sum(axis=0)
        self.double += ev.double.sum(axis=0)
        self.double_paid += (ev.double & (ev.points >= 0)).sum(axis=0)
        self.turns += ev.turn_over
        asked = np.flatnonzero((before.phase == PHASE_ASK) & (before.ask == ASK_ACTION))
        if len(asked):
            kind, _ = decode_play(actions[before.asker[asked].astype(np.intp), asked])
            played = kind != NO_CARD
            np.add.at(self.cards, (kind[played].astype(np.intp), asked[played]), 1)


def run_cell(job: tuple[str, int, str], cfg: SkillStudyConfig) -> dict:
    """One table: the searcher and P - 1 opponents of one kind."""
    variant, players, opponents = job
    game = make_game("board", players=players, variant=variant)
    lineup = [cfg.search] + [opponents] * (players - 1)
    deals = max(1, -(-cfg.games // players))
    names, agents = build_agents(lineup, "board")
    seed = cfg.seed * 1000 + players * 10 + VARIANTS.index(variant)
    counter = SkillCounter(deals * players)
    rows, act_time, decisions, _ = play_duplicate(names, agents, game, game_seeds(seed, deals),
                                                  np.random.default_rng(seed), observers=[counter])
    search = names[0]
    own, others, wins, spread = [], [], [], []
    for r in rows:
        seat = r["seats"].index(search)
        totals = np.array(r["totals"], dtype=np.float64)
        own.append(totals[seat])
        others.append(np.delete(totals, seat).mean())
        wins.append((seat in r["winners"]) / len(r["winners"]))
        spread.append(totals.std())
    own, others = np.array(own), np.array(others)
    kinds = {KIND_NAMES[k]: mean_ci(counter.kinds[k]) for k in range(len(KIND_NAMES)) if counter.kinds[k].any()}
    return {
        "variant": variant, "players": players, "opponents": opponents, "search": cfg.search, "games": len(rows),
        "search_points": mean_ci(own), "opponent_points": mean_ci(others), "gap": mean_ci(own - others),
        "win_share": mean_ci(wins), "fair_share": 1 / players, "score_spread": mean_ci(spread),
        "turns": mean_ci(counter.turns), "field_kinds_per_game": kinds,
        "cards_per_game": {ACTION_KINDS[k]: mean_ci(counter.cards[k]) for k in range(len(ACTION_KINDS))},
        "double_per_game": mean_ci(counter.double),
        "double_paid_share": float(counter.double_paid.sum() / max(counter.double.sum(), 1)),
        "takes_per_game": mean_ci(counter.kinds[TAKE]),
        "ms_per_decision": {n: round(ms_per_decision(act_time[n], decisions[n]), 2) for n in act_time},
    }


def report_markdown(summary: dict, files: list[str]) -> str:
    """Tables of every measure, as markdown."""
    cfg, cells = summary["config"], summary["cells"]
    lines = ["# Does the professional side reward skill?\n",
             f"One `{cfg['search']}` against P − 1 {' or P − 1 '.join(f'`{o}`' for o in cfg['opponents'])}, "
             f"{cfg['games']} games per cell (duplicate deals, every seat rotation), seed {cfg['seed']}, the shipped default boards (both "
             "APPROXIMATIONS of the printed board). Gap = the searcher's points minus its opponents' mean, "
             "paired per game. ± = 95% CI over games.\n",
             "## The gap\n"]
    lines += markdown_table(["variant", "players", "opponents", "searcher", "opponents", "gap", "win share (fair)",
                             "score spread", "turns"],
                            [[r["variant"], r["players"], r["opponents"], fmt_ci(r["search_points"], 1),
                              fmt_ci(r["opponent_points"], 1), f"**{fmt_ci(r['gap'], 1)}**",
                              f"{fmt_ci(r['win_share'], 2)} ({r['fair_share']:.2f})", fmt_ci(r["score_spread"], 1),
                              fmt_ci(r["turns"], 1)] for r in cells])
    lines += ["\n## What fires per game\n"]
    lines += markdown_table(["variant", "players", "opponents", "takes", *ACTION_KINDS, "2x", "2x paid off"],
                            [[r["variant"], r["players"], r["opponents"], fmt_ci(r["takes_per_game"], 1),
                              *(fmt_ci(r["cards_per_game"][k], 1) for k in ACTION_KINDS),
                              fmt_ci(r["double_per_game"], 1), f"{r['double_paid_share']:.2f}"] for r in cells])
    lines += ["\n## Field kinds acting per game\n"]
    for r in cells:
        kinds = ", ".join(f"{k} {fmt_ci(v, 1)}" for k, v in r["field_kinds_per_game"].items())
        lines.append(f"- {r['variant']}, {r['players']} players, vs {r['opponents']}: {kinds}")
    return with_figures(lines, files)


def plot_skill(summary: dict, out: Path) -> list[str]:
    """The gap by variant (one line per table size and opponent), with CIs."""
    plt = pyplot()

    cells = summary["cells"]
    variants = summary["config"]["variants"]
    sizes, kinds = sorted({r["players"] for r in cells}), summary["config"]["opponents"]
    tables = sorted({(r["players"], r["opponents"]) for r in cells}, key=lambda c: (c[0], kinds.index(c[1])))
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5), squeeze=False)
    for ax, key, title in ((axes[0][0], "gap", "searcher's points minus its opponents' mean"),
                           (axes[0][1], "win_share", "searcher's win share")):
        for players, opponents in tables:  # a marker per table size, a line style per opponent kind
            style = "os^dv<>p"[sizes.index(players) % 8] + ["-", "--", ":", "-."][kinds.index(opponents) % 4]
            rs = [next((r for r in cells if r["variant"] == v and r["players"] == players
                        and r["opponents"] == opponents), None) for v in variants]
            xs = [i for i, r in enumerate(rs) if r]
            ax.errorbar(xs, [rs[i][key][0] for i in xs], yerr=[np.nan_to_num(rs[i][key][1]) for i in xs],
                        fmt=style, capsize=3, label=f"{players} players, vs {opponents}")
        ax.set_xticks(range(len(variants)), variants)
        ax.set_title(title)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    axes[0][0].axhline(0, color="grey", lw=0.8)
    return save_figure(fig, out, "board_skill.png")


SKILL_STUDY = Study(run_cell, ("variant", "players", "opponents"), plot_skill, report_markdown, "board skill study")
"""`sixnimmt study board-skill`: `SKILL_STUDY.run(SkillStudyConfig(...), out)`."""
