"""One way of timing a decision (issue 63): an agent's first act call (loading a network,
compiling kernels: once per process) is counted at the rate of its other calls, so a short
`match`, a tournament's units and the docs' tables time the same thing; every table divides
by the decisions with agents.results.ms_per_decision. A fake clock drives the test: no timed
asserts."""

from __future__ import annotations

import numpy as np
import pytest

import agents.arena as arena
from agents.arena import play_duplicate, warm_seconds
from agents.random_agent import RandomAgent
from agents.results import ms_per_decision, summarize
from sixnimmt_env import RuleConfig


class FakeClock:
    """perf_counter for agents.arena: advanced only by the agents' act calls."""

    def __init__(self):
        self.now = 0.0

    def perf_counter(self) -> float:
        return self.now


class SlowStart(RandomAgent):
    """Random play; its first call costs 5 s of the fake clock, every later one 1 ms a decision."""

    def __init__(self, clock: FakeClock, name: str):
        self.clock, self.name, self.calls = clock, name, 0

    def act(self, view, rng):
        self.calls += 1
        self.clock.now += 5.0 if self.calls == 1 else 0.001 * int(view.must_act.sum())
        return super().act(view, rng)


def test_warm_seconds_counts_the_first_call_at_the_others_rate():
    assert warm_seconds(10.0, 100, 9.0, 10) == pytest.approx(1.0 * 100 / 90)
    assert warm_seconds(3.0, 10, 3.0, 10) == 3.0  # the only call: as measured
    assert ms_per_decision(0.5, 250) == 2.0 and ms_per_decision(0.0, 0) == 0.0


def test_a_match_times_a_decision_without_the_first_call(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr(arena, "time", clock)
    slow, plain = SlowStart(clock, "slow"), RandomAgent()
    rules = RuleConfig(players=2, end_score=None, max_rounds=1)
    rows, act_time, decisions, _ = play_duplicate(["slow", "random"], {"slow": slow, "random": plain}, rules,
                                                  [1, 2, 3], np.random.default_rng(0))
    by = {a.name: a for a in summarize(rows, act_time, decisions)}
    assert slow.calls > 1 and by["slow"].decisions == decisions["slow"] > 0  # every decision still counted
    assert by["slow"].ms_per_decision == pytest.approx(1.0)  # 1 ms, not 5 s spread over a short match
