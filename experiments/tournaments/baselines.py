"""The baseline table: each agent in one seat against random opponents.

`sixnimmt baselines --players 4 --row-choice cheapest --deals 250` plays, for every
agent X, the match X, random, ..., random over duplicate deals with seat rotation (so X
plays deals x P rounds, one round per game), and prints X's bullheads per round with a
95% confidence interval, its win share and its time per decision, as a markdown table.
"""

from __future__ import annotations

from agents.arena import run_match
from agents.results import interval_text
from experiments.tournaments.progress import turn_bar
from sixnimmt_env import RuleConfig

DEFAULT_AGENTS = ["random", "lowest", "highest", "min-gap", "safe-high", "greedy", "bayes", "mcs:rollouts=100"]


def baseline_rows(players: int, row_choice: str, deals: int, seed: int,
                  agents: list[str] | None = None, progress: bool = True,
                  variant: str = "classic") -> list[dict]:
    """One result per agent: that agent against players-1 random seats."""
    rules = RuleConfig(players=players, row_choice=row_choice, end_score=None, max_rounds=1,
                       variant=variant)
    rows = []
    for spec in agents or DEFAULT_AGENTS:
        specs = [spec] + ["random"] * (players - 1)
        if spec == "random":  # the baseline itself: a table of random players
            specs = ["random"] * players
        with turn_bar("match", progress) as bar:
            result = run_match(specs, rules, deals, seed, progress=bar)
        me = next(a for a in result.agents if a.name == spec)
        rows.append({"agent": spec, "players": players, "row_choice": row_choice,
                     "rounds": deals * players, **me.as_dict()})
    return rows


def markdown(rows: list[dict]) -> str:
    """The rows as a markdown table."""
    lines = ["| agent | bullheads / round (95% CI) | win share | ms / decision |",
             "| --- | --- | --- | --- |"]
    for r in rows:
        lines.append(f"| `{r['agent']}` | {r['points_per_round']:.2f} ± {interval_text(r['points_ci'])} | "
                     f"{r['win_share']:.3f} | {r['ms_per_decision']:.2f} |")
    return "\n".join(lines)
