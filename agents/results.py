"""What a match comes to: per-agent figures, their statistics, rankings and the table.

Per agent (agents listed twice are pooled): mean points per round (bullheads in the card
games; the board game is one long round, so per game), win share (ties split, so the fair
share is 1/P), 95% confidence intervals over independent samples (a deal with all its
seat rotations), and the time per decision. Rankings follow the game's `info.utility`:
fewest points first when the fewest win (the card games), most first when the most win
(the board game); tables name the points by `info.score_unit`.

The arena (`agents.arena`) plays the games; tournament reports and studies
(experiments/) compute their statistics here too.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, fields

import numpy as np

from sixnimmt_env.core.errors import ConfigError

Z95 = 1.959964
# Field names of AgentResult as written before they said points (tournament summaries).
OLD_FIELD_NAMES = {"penalty_per_round": "points_per_round", "penalty_ci": "points_ci"}


@dataclass
class AgentResult:
    """One agent's figures over a match; `points_per_round` and `points_ci` count the
    game's points, which `utility` says are good or bad (see `ranked`)."""

    name: str
    seats: int  # seats it held at the table
    points_per_round: float
    points_ci: float
    win_share: float
    win_ci: float
    ms_per_decision: float
    decisions: int

    def as_dict(self) -> dict:
        return dict(self.__dict__)

    @classmethod
    def from_dict(cls, data: dict) -> "AgentResult":
        """An AgentResult from `as_dict()`, also one written under the old field names
        (`penalty_per_round`, `penalty_ci`); keys that are not fields (a summary's
        `points_per_game`) are left out; a figure written as null (strict JSON: no NaN)
        reads as NaN. ConfigError when a field is missing."""
        given = {OLD_FIELD_NAMES.get(k, k): v for k, v in data.items()}
        names = [f.name for f in fields(cls)]
        missing = [n for n in names if n not in given]
        if missing:
            raise ConfigError(f"an agent's result without {', '.join(missing)}")
        return cls(**{n: _figure(given[n], f.type) for n, f in zip(names, fields(cls))})


def _figure(value, kind):
    """A field's value as read back: a float figure written as null (strict JSON has no NaN:
    core/strict_json.py), as NaN, the figure with no value (one sample's interval)."""
    return float("nan") if value is None and kind in (float, "float") else value


@dataclass
class MatchResult:
    agents: list[AgentResult]
    deals: int
    games: int
    rounds: int
    rules: dict
    seed: int
    seconds: float
    game: str = "cards"  # the game kind (GameInfo.game), its variant, and how its points count
    variant: str = "classic"
    score_unit: str = "bullheads"
    utility: int = -1
    notes: list = field(default_factory=list)  # lines shown under the table (forfeits, time budgets)
    labels: dict = field(default_factory=dict)  # spec -> what the table calls it (agent_labels); missing: the spec
    budgets: list = field(default_factory=list)  # agents playing to a time budget: budget_figures

    def __str__(self) -> str:
        return format_table(self)  # the Python API prints the table the CLI prints

    def as_dict(self) -> dict:
        return {"game": self.game, "variant": self.variant, "rules": self.rules, "seed": self.seed,
                "deals": self.deals, "games": self.games, "rounds": self.rounds,
                "seconds": round(self.seconds, 2), "score_unit": self.score_unit, "utility": self.utility,
                "agents": [a.as_dict() | {"name": self.labels.get(a.name, a.name), "spec": a.name} for a in self.agents],
                "notes": list(self.notes), "budgets": list(self.budgets)}


def ranked(results: list[AgentResult], utility: int = -1) -> list[AgentResult]:
    """Best first: fewest points per round when the fewest win (utility -1), most when
    the most win (+1). Ties keep their order."""
    return sorted(results, key=lambda a: -utility * a.points_per_round)


def better(mine: float, theirs: float, utility: int = -1) -> bool:
    """Whether a total `mine` beats `theirs` under the game's utility."""
    return (mine - theirs) * utility > 0


def mean_ci(samples) -> tuple[float, float]:
    """Mean and the half-width of its 95% normal confidence interval."""
    samples = np.asarray(samples, dtype=np.float64)
    if len(samples) < 2:
        return float(samples.mean()), float("nan")
    return float(samples.mean()), float(Z95 * samples.std(ddof=1) / np.sqrt(len(samples)))



def interval_text(ci: float, spec: str = ".2f") -> str:
    """A 95% interval's half-width as printed after "±" (format `spec`), or "n/a" when it is
    not finite or None (null in a JSON file): one sample (a 1-deal match or tournament)
    gives no interval (`mean_ci`)."""
    return format(ci, spec) if ci is not None and np.isfinite(ci) else "n/a"


def ms_per_decision(seconds: float, decisions: int) -> float:
    """Milliseconds a decision: an agent's acting time (play_duplicate's, its first call at
    the others' rate: agents.arena.warm_seconds) over its decisions. Every table of the lab
    (match, tournament, the studies, exploit's report) times a decision with this."""
    return 1000.0 * seconds / max(decisions, 1)


def summarize(rows: list[dict], act_time: dict | None = None, decisions: dict | None = None,
              unit=lambda row: row["deal"]) -> list[AgentResult]:
    """Per agent figures from game rows; `unit(row)` groups games into independent samples
    (a deal with all its rotations), over which the confidence intervals are taken."""
    points = defaultdict(lambda: defaultdict(list))
    win = defaultdict(lambda: defaultdict(list))
    seats: dict[str, int] = {}
    for row in rows:
        winners = set(row["winners"])
        for s, name in enumerate(row["seats"]):
            points[name][unit(row)].append(row["totals"][s] / row["rounds"])
            win[name][unit(row)].append((1 / len(winners)) if s in winners else 0.0)
            seats[name] = max(seats.get(name, 0), row["seats"].count(name))
    results = []
    for name in points:
        p, p_ci = mean_ci([np.mean(v) for v in points[name].values()])
        w, w_ci = mean_ci([np.mean(v) for v in win[name].values()])
        t = (act_time or {}).get(name, 0.0)
        d = (decisions or {}).get(name, 0)
        results.append(AgentResult(name, seats[name], p, p_ci, w, w_ci, ms_per_decision(t, d), d))
    return results


def agent_labels(specs: list[str], agents: dict, shipped=frozenset()) -> dict[str, str]:
    """What tables call each agent spec: a `py:` or plug-in agent by its `name` attribute,
    a `cmd:` bot by a short form (`cmd:` and its program's file name), any other by its spec
    (short, and it says the parameters). Two specs never share a label (" #2" is added);
    format_table prints each label's full spec once below the table. `shipped`: the
    registry's own agent names (a spec whose name is not one is a plug-in)."""
    labels: dict[str, str] = {}
    for spec in dict.fromkeys(specs):
        agent = agents.get(spec)
        name = getattr(type(agent), "name", None)  # the class's own: the registry sets the instance's to the spec
        head = spec.split(":", 1)[0]
        if spec.startswith("cmd:"):
            words = spec[4:].split(":")[0].split()
            label = "cmd:" + (words[-1].replace("\\", "/").rsplit("/", 1)[-1] if words else "")
        elif spec.startswith("py:") and agent is None:  # not loaded (a report from results.jsonl): its class
            label = (spec.split(":") + [""])[2] or spec
        elif spec.startswith("py:") or (head not in shipped and agent is not None):
            label = name if isinstance(name, str) and name else type(agent).__name__
        else:
            label = spec
        taken = set(labels.values())
        labels[spec] = label if label not in taken else next(f"{label} #{i}" for i in range(2, len(specs) + 2)
                                                              if f"{label} #{i}" not in taken)
    return labels


def format_table(result: MatchResult) -> str:
    """The match result as a plain-text table, best agent first (by the game's utility);
    agents by their labels (agent_labels), each shortened one's spec once below."""
    P = result.rules["players"]
    # a game of one round (the board game; one-round card games): its points are per game
    per = "game" if result.rounds == result.games else "round"
    label = {a.name: result.labels.get(a.name, a.name) for a in result.agents}
    w = max([32] + [len(x) for x in label.values()])
    lines = [f"{result.deals} deals x {P} seat rotations = {result.games} games, "
             + (f"{result.rounds} rounds, " if per == "round" else "") + f"{result.seconds:.1f} s",
             f"{'agent':{w}} {'seats':>5} {result.score_unit + '/' + per:>20} "
             f"{'win share (fair ' + format(1 / P, '.3f') + ')':>28} {'ms/decision':>12}"]
    for a in ranked(result.agents, result.utility):
        lines.append(f"{label[a.name]:{w}} {a.seats:>5} {a.points_per_round:>11.3f} ± {interval_text(a.points_ci, '.3f'):<6} "
                     f"{a.win_share:>19.3f} ± {interval_text(a.win_ci, '.3f'):<6} {a.ms_per_decision:>12.2f}")
    specs = [f"  {shown} = {spec}" for spec, shown in label.items() if shown != spec]
    return "\n".join(lines + list(result.notes) + (["agents:"] + specs if specs else []))


def forfeit_notes(rows: list[dict], results: list[AgentResult], agents: dict | None = None) -> list[str]:
    """One line per agent with forfeited decisions (rows' "forfeits"; agents.external has
    the rule), with the reason its agent object gives, else the first a row holds (the
    rows of work units played in other processes)."""
    counts: dict[str, int] = {}
    reasons: dict[str, str] = {}
    for row in rows:
        for name, n in row.get("forfeits", {}).items():
            counts[name] = counts.get(name, 0) + n
        for name, why in row.get("forfeit_reasons", {}).items():
            reasons.setdefault(name, why)
    decisions = {a.name: a.decisions for a in results}
    notes = []
    for name, n in counts.items():
        why = getattr((agents or {}).get(name), "fault_text", lambda: None)() or reasons.get(name)
        notes.append(f"FORFEITS {name}: {n} of {decisions.get(name, n)} decisions played as its lowest legal "
                     f"action" + (f" ({why})" if why else ""))
    return notes


def budget_figures(agents: dict, labels: dict | None = None) -> list[dict]:
    """The CPU record of every agent that plays to a time budget (its `budget`, e.g.
    `guided:ms=N`, agents/cards/budget.py) over its decisions in this process: N, the mean
    CPU milliseconds a decision, the worst call's (a call: one `act` over all the agent's
    games at once; its mean a decision), that of the worst call but the first (which pays
    for the network's first runs), in ms and in N. None for agents whose games were
    played in other processes (their budgets stayed there)."""
    figures = []
    for spec, agent in agents.items():
        budget = getattr(agent, "budget", None)
        if budget is None or not getattr(budget, "decisions_total", 0):
            continue
        mean = 1000.0 * budget.seconds_total / budget.decisions_total
        worst, later = max(budget.spent), max(budget.spent[1:], default=0.0)
        figures.append({"spec": spec, "name": (labels or {}).get(spec, spec), "ms": budget.ms,
                        "cpu_ms_mean": round(mean, 2), "cpu_ms_worst": round(worst, 2),
                        "cpu_ms_worst_after_first": round(later, 2), "mean_n": round(mean / budget.ms, 3),
                        "worst_n": round(worst / budget.ms, 3), "calls": len(budget.spent),
                        "decisions": budget.decisions_total})
    return figures


def budget_notes(figures: list[dict]) -> list[str]:
    """One line under the table per budgeted agent (`budget_figures`)."""
    return [f"BUDGET {f['name']}: {f['cpu_ms_mean']:.1f} ms of CPU a decision ({f['mean_n']:.2f} N, N = "
            f"{f['ms']:g} ms), the worst call {f['cpu_ms_worst']:.1f} ({f['worst_n']:.2f} N; "
            f"after the first {f['cpu_ms_worst_after_first']:.1f}), {f['decisions']} decisions in {f['calls']} calls"
            for f in figures]
