"""`sixnimmt match`: agents at one table over many duplicate deals.

Every deal is played once per seat rotation: agent j sits at seat (j + k) mod P in
rotation k, and all rotations of a deal see the same cards in every round (they share
the game seed). Luck of the deal then cancels out of the comparison. All games run in
one batch; each agent decides for all its seats at once.

Per agent (agents listed twice are pooled): mean bullheads per round, win share (ties
split, so the fair share is 1/P), 95% confidence intervals over deals, and the time per
decision.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sixnimmt_env import RuleConfig, game_seeds, new_games, step
from sixnimmt_env.observation import SeatView
from sixnimmt_env.records import Recorder, write_record
from sixnimmt_env.state import PHASE_CARDS

Z95 = 1.959964


@dataclass
class AgentResult:
    """One agent's figures over a match."""

    name: str
    seats: int  # seats it held at the table
    penalty_per_round: float
    penalty_ci: float
    win_share: float
    win_ci: float
    ms_per_decision: float
    decisions: int

    def as_dict(self) -> dict:
        return dict(self.__dict__)


@dataclass
class MatchResult:
    agents: list[AgentResult]
    deals: int
    games: int
    rounds: int
    rules: dict
    seed: int
    seconds: float
    per_game: list[dict] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"rules": self.rules, "seed": self.seed, "deals": self.deals, "games": self.games,
                "rounds": self.rounds, "seconds": round(self.seconds, 2),
                "agents": [a.as_dict() for a in self.agents]}


def mean_ci(samples: np.ndarray) -> tuple[float, float]:
    """Mean and the half-width of its 95% normal confidence interval."""
    samples = np.asarray(samples, dtype=np.float64)
    if len(samples) < 2:
        return float(samples.mean()), float("nan")
    return float(samples.mean()), float(Z95 * samples.std(ddof=1) / np.sqrt(len(samples)))


def run_match(specs: list, rules: RuleConfig, deals: int, seed: int, *,
              records_dir: str | Path | None = None, progress: bool = True) -> MatchResult:
    """Play `deals` duplicate deals, each in every seat rotation; see the module doc."""
    from agents.registry import make_agent
    from sixnimmt_env.errors import ConfigError

    P = rules.players
    if len(specs) != P:
        raise ConfigError(f"{len(specs)} agents for {P} seats: list one agent per seat")
    if deals < 1:
        raise ConfigError("the number of games must be at least 1")
    built: dict[str, object] = {}
    names_in_order = []
    for item in specs:  # spec strings, or agent objects (named by their .name)
        name = item if isinstance(item, str) else item.name
        if name not in built:
            built[name] = make_agent(item) if isinstance(item, str) else item
        names_in_order.append(name)
    specs = names_in_order
    names = list(dict.fromkeys(specs))
    B = deals * P
    rotation = np.tile(np.arange(P), deals)  # game g = deal g // P, rotation g % P
    seeds = np.repeat(game_seeds(seed, deals), P)
    st = new_games(rules, seeds)
    # seat_agent[s, g]: index into specs of the agent at seat s of game g
    seat_agent = (np.arange(P)[:, None] - rotation[None, :]) % P
    rng = np.random.default_rng(seed)
    recorder = None
    if records_dir is not None:
        recorder = Recorder(st, seeds=[int(s) for s in seeds])
        seat_names = [[specs[seat_agent[s, g]] for s in range(P)] for g in range(B)]
    act_time = dict.fromkeys(names, 0.0)
    decisions = dict.fromkeys(names, 0)
    t_start = time.perf_counter()
    bar = _progress(B, progress)
    done_before = 0
    while not st.game_over().all():
        actions = np.zeros((P, B), dtype=np.int64)
        for name in names:
            seats, games = np.nonzero(np.isin(seat_agent, [i for i, s in enumerate(specs) if s == name]))
            live = ~st.game_over()[games]
            seats, games = seats[live], games[live]
            view = SeatView(st, seats, games)
            deciding = view.must_act
            t0 = time.perf_counter()
            chosen = built[name].act(view, rng)
            act_time[name] += time.perf_counter() - t0
            decisions[name] += int(deciding.sum())
            actions[seats, games] = _engine_actions(st, chosen, games)
        after, events = step(st, actions, report=recorder is not None)
        if recorder is not None:
            recorder.observe(st, actions, after, events)
        st = after
        done = int(st.game_over().sum())
        bar.update(done - done_before)
        done_before = done
    bar.close()
    seconds = time.perf_counter() - t_start
    if recorder is not None:
        _write_records(recorder, st, seat_names, records_dir)
    return _summarize(specs, names, st, seat_agent, deals, act_time, decisions, rules, seed, seconds)


def _engine_actions(st, actions: np.ndarray, games: np.ndarray) -> np.ndarray:
    """Encoded actions -> card ids (cards phase) or rows (row phase)."""
    n_ids = st.config.variant_data.n_ids
    return np.where(st.phase[games] == PHASE_CARDS, actions + 1, actions - n_ids)


def _progress(total: int, enabled: bool):
    from tqdm import tqdm
    return tqdm(total=total, unit="game", desc="match", disable=not enabled, leave=False)


def _write_records(recorder: Recorder, st, seat_names, records_dir) -> None:
    out = Path(records_dir)
    out.mkdir(parents=True, exist_ok=True)
    for g, rec in enumerate(recorder.records(st)):
        rec["seats"] = seat_names[g]
        write_record(rec, out / f"game-{g:05d}.json")


def _summarize(specs, names, st, seat_agent, deals, act_time, decisions, rules, seed, seconds) -> MatchResult:
    P, B = st.players, st.batch_size
    rounds = st.round.astype(np.int64) + 1  # rounds played per game
    totals = st.total().astype(np.float64)  # (P, B)
    winners = st.winners()
    share = winners / winners.sum(axis=0, keepdims=True)
    results = []
    for name in names:
        idx = [i for i, s in enumerate(specs) if s == name]
        here = np.isin(seat_agent, idx)  # (P, B)
        per_round = (totals * here).sum(axis=0) / (here.sum(axis=0) * rounds)  # per game
        wins = (share * here).sum(axis=0) / here.sum(axis=0)
        # deals are the independent samples: average each deal's rotations
        pen, pen_ci = mean_ci(per_round.reshape(deals, P).mean(axis=1))
        win, win_ci = mean_ci(wins.reshape(deals, P).mean(axis=1))
        ms = 1000 * act_time[name] / max(decisions[name], 1)
        results.append(AgentResult(name, len(idx), pen, pen_ci, win, win_ci, ms, decisions[name]))
    return MatchResult(results, deals, B, int(rounds.sum()), rules.to_dict(), seed, seconds)


def format_table(result: MatchResult) -> str:
    """The match result as a plain-text table."""
    P = result.rules["players"]
    lines = [f"{result.deals} deals x {P} seat rotations = {result.games} games, "
             f"{result.rounds} rounds, {result.seconds:.1f} s",
             f"{'agent':32} {'seats':>5} {'bullheads/round':>20} {'win share (fair ' + format(1 / P, '.3f') + ')':>28} {'ms/decision':>12}"]
    for a in sorted(result.agents, key=lambda a: a.penalty_per_round):
        lines.append(f"{a.name:32} {a.seats:>5} {a.penalty_per_round:>11.3f} ± {a.penalty_ci:<6.3f} "
                     f"{a.win_share:>19.3f} ± {a.win_ci:<6.3f} {a.ms_per_decision:>12.2f}")
    return "\n".join(lines)
