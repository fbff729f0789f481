"""`guided:ms=N` (agents/cards/budget.py): a budgeted decision searches as many worlds as
fit and stops on time, breadth first, on a slow table (10 players); a call's mean stays
within 1.1 N when further turns cost more than the first and when the call spends time
outside its plan. The clock is a fake one that the search's batches advance by a fixed
cost a world, candidate and turn, so the test reads the stop logic, not a machine's speed; no batch holds more than
`BATCH_GAMES` simulated games."""

from __future__ import annotations

import numpy as np
import pytest

from sixnimmt_env.core.errors import ConfigError

from .test_guided_recipe import views

UNIT = 20e-6  # fake seconds a world and candidate cost at the first turn
FURTHER = 2.5  # a further turn's cost against the first's (as measured at 4 players)
OVERHEAD = 2e-3  # and a batch's fixed cost


class FakeClock:
    """Seconds that pass only when a batch of the search says so."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def budgeted(ms: float, players: int):
    """A `guided:ms=` agent whose search costs UNIT a world and candidate (FURTHER times
    that each further turn) on a fake clock (the values are random: the decisions do not
    matter here), and its batches."""
    from agents.cards.guided import GuidedSearchAgent
    agent = GuidedSearchAgent(ms=ms)
    clock = FakeClock()
    agent.budget.clock = clock
    batches = []

    def card_values(view, entries, rng, model=None, layout=None, worlds=None, depth=None):
        n = int(view.hand_size[entries[0]])
        m = min(n, agent.top or n)
        clock.now += OVERHEAD + UNIT * len(entries) * m * worlds * (1 + FURTHER * (min(depth, n) - 1))
        batches.append((len(entries), worlds, depth))
        hands = np.sort(view.hand[entries], axis=1)[:, -m:]
        return hands, rng.random((len(entries), m, worlds))

    agent.card_values = card_values
    return agent, clock, batches


@pytest.mark.parametrize("ms", [10, 100, 1000])
def test_a_budgeted_decision_on_a_ten_player_table_stops_on_time(ms):
    agent, clock, batches = budgeted(ms, 10)
    view = views("classic", 10, turns=2, games=3)
    rng = np.random.default_rng(0)
    for _ in range(4):  # the first call learns the cost; the later ones plan with it
        before, batches[:] = clock.now, []
        agent.act(view, rng)
        spent = (clock.now - before) / int(view.must_act.sum())
    assert spent <= 1.1 * ms / 1000  # the mean of a call's decisions within the budget (the arena's figure)
    assert spent >= 0.5 * ms / 1000  # and most of it spent: the worlds that fit were searched
    from agents.cards.budget import BATCH_GAMES
    k, m = len(view.seats), int(view.hand_size.max())  # every seat decides, every card (10 players: top=0)
    size_bound = sum(w for _, w, _ in batches) * k * m // BATCH_GAMES
    assert len(batches) <= 3 + size_bound  # a few batches (each pays a fixed cost), more only for their size
    assert all(e * m * w <= BATCH_GAMES for e, w, _ in batches)  # none larger than the fastest size
    assert agent.budget.spent[-1] == pytest.approx(1000 * spent)
    assert max(agent.budget.spent[1:]) <= 1.1 * ms  # no call over, deeper lookaheads included (its first learns)


@pytest.mark.parametrize("ms, outside", [(100, 0.0), (100, 0.3), (1000, 0.0)])
def test_the_mean_stays_within_the_budget_when_a_call_spends_outside_its_plan(ms, outside):
    """A call that spends `outside` of N a decision after its search (here the trust
    check's logits, made costly) plans less from then on: the mean over the calls is within
    1.1 N, none over 3 N, and most of the budget is spent. Without the call's pace the mean
    would be about 1 + `outside` N. With nothing outside, no call after the first is over
    1.1 N, those that buy a deeper lookahead (1000 ms) included: planned at the first
    turn's cost a turn, they took up to 2.5 N."""
    agent, clock, batches = budgeted(ms, 4)  # 4 players: the trusting recipe checks the network's card

    def net_best(view, entries, hands, model, layout):
        clock.now += outside * ms / 1000 * len(entries)
        return np.zeros(len(entries), dtype=np.intp)

    agent._net_best = net_best
    view = views("classic", 4, turns=2, games=2)
    rng = np.random.default_rng(0)
    for _ in range(12):
        agent.act(view, rng)
    budget = agent.budget
    mean = 1000 * budget.seconds_total / budget.decisions_total
    assert 0.6 * ms <= mean <= 1.1 * ms
    assert max(budget.spent) <= 3 * ms
    assert budget.pace == pytest.approx(1 + outside, rel=0.15)
    if not outside:
        assert max(budget.spent[1:]) <= 1.1 * ms
        assert max(d for _, _, d in batches) > 1 or ms < 1000  # the deeper lookahead was bought


def test_breadth_first_then_depth():
    """A small budget searches one turn ahead in as many worlds as fit; only one that buys
    BREADTH worlds at one turn goes deeper, and never past the round's end."""
    from agents.cards.budget import BREADTH
    view = views("classic", 10, turns=2, games=3)
    rng = np.random.default_rng(0)
    depths = {}
    for ms in (30, 3000):
        agent, clock, batches = budgeted(ms, 10)
        for _ in range(3):
            batches[:] = []
            agent.act(view, rng)
        depths[ms] = {d for _, _, d in batches}
        worlds = sum(w for _, w, _ in batches)
        assert worlds >= (BREADTH if max(depths[ms]) > 1 else 1)
    assert depths[30] == {1} and 1 < max(depths[3000]) <= int(view.hand_size.max())  # the round's end


def test_a_budget_is_given_alone():
    from agents.registry import make_agent
    for spec in ("guided:ms=10:worlds=8", "guided:ms=10:depth=3", "guided:ms=10:rollout=mcs", "guided:ms=0"):
        if spec.endswith("ms=0"):  # 0: no budget, the plain recipe
            assert make_agent(spec, game="cards").budget is None
            continue
        with pytest.raises(ConfigError, match="ms decides worlds and depth"):
            make_agent(spec, game="cards")
    with pytest.raises(ConfigError, match="ms must be > 0"):
        make_agent("guided:ms=-5", game="cards")


def test_match_reports_a_budgeted_agents_cpu_a_decision():
    """`sixnimmt match` gives each time-budgeted agent's own CPU record (the figure a
    report's budget rows pick), and a line under its table."""
    import json
    import subprocess
    import sys

    from agents.results import budget_notes
    proc = subprocess.run([sys.executable, "-m", "experiments.cli", "match", "--agents", "guided:ms=5,random",
                           "--games", "1", "--max-rounds", "1", "--json", "--no-progress"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    [figure] = data["budgets"]
    assert figure["spec"] == "guided:ms=5" and figure["ms"] == 5
    guided = next(a for a in data["agents"] if a["spec"] == "guided:ms=5")
    assert figure["decisions"] == guided["decisions"] >= 20  # every decision (2 rotations x 10 turns, and rows)
    assert 0 < figure["cpu_ms_mean"] <= figure["cpu_ms_worst"]
    assert figure["mean_n"] == pytest.approx(figure["cpu_ms_mean"] / 5, abs=0.01)
    assert budget_notes([figure])[0] in data["notes"]


def test_a_budgeted_decision_runs_the_network_on_one_thread():
    """The budget is one core's CPU time: the search runs torch on one thread (a second one
    busy-waits between the many small network calls, and its time counts), and the
    process's threads are as they were after the call."""
    import torch
    agent, clock, batches = budgeted(50, 10)
    inner = agent.card_values
    seen = []

    def card_values(*args, **kwargs):
        seen.append(torch.get_num_threads())
        return inner(*args, **kwargs)

    agent.card_values = card_values
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        agent.act(views("classic", 10, turns=2, games=3), np.random.default_rng(0))
        assert seen and set(seen) == {1}
        assert torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(before)
