"""`guided:others=PATH`: the search's worlds play the other seats by a second network (its
model of the table), the searching seat by its own; with `depth` to the round's end the
search is network rollouts with no value head (agents/cards/guided.py)."""

from __future__ import annotations

import numpy as np
import pytest

from sixnimmt_env import ConfigError, RuleConfig

from .test_belief import mid_round_views

OWN = "agents/models/ppo-4p.zip"
OTHERS = "agents/models/ppo-all.zip"


def asked(monkeypatch, agent, view, seed=0):
    """Run `card_values` on `view`'s seat-0 entries; (who was asked, how many observations)
    for each network call of the worlds, and the values."""
    from agents.cards.guided import GuidedSearchAgent
    calls = []
    policy = GuidedSearchAgent._policy
    own, _ = agent.net.network_for(view.config, view.players)

    def recorded(model, obs, mask):
        calls.append(("own" if model is own else "others", len(obs)))
        return policy(model, obs, mask)

    monkeypatch.setattr(GuidedSearchAgent, "_policy", staticmethod(recorded))
    entries = np.flatnonzero(view.seats == 0)
    hands, values = agent.card_values(view, entries, np.random.default_rng(seed))
    return calls, hands, values


def test_the_worlds_play_the_others_by_the_others_network_and_the_searcher_by_its_own(monkeypatch):
    """Turn one: the P-1 other seats of every world ask `others`; each later turn (depth)
    asks the own network for the searching seat of every game and `others` for the rest."""
    from agents.cards.guided import GuidedSearchAgent
    _, view = mid_round_views(players=4, turns=2, games=3)
    P, worlds, top, depth = 4, 5, 3, 3
    k = int((view.seats == 0).sum())
    W, G = k * worlds, k * worlds * top
    agent = GuidedSearchAgent(path=OWN, worlds=worlds, top=top, depth=depth, others=OTHERS)
    calls, hands, values = asked(monkeypatch, agent, view)
    assert calls == [("others", (P - 1) * W)] + [("own", G), ("others", (P - 1) * G)] * (depth - 1)
    assert values.shape == (k, top, worlds) and np.isfinite(values).all()

    alone = GuidedSearchAgent(path=OWN, worlds=worlds, top=top, depth=depth)
    calls_alone, hands_alone, values_alone = asked(monkeypatch, alone, view)
    assert calls_alone == [("own", (P - 1) * W)] + [("own", P * G)] * (depth - 1)  # one call a turn
    np.testing.assert_array_equal(hands, hands_alone)  # the same candidates, the same worlds ...
    assert not np.array_equal(values, values_alone)  # ... judged with other opponents


def test_a_mix_models_each_seat_of_each_world_as_one_network_throughout(monkeypatch):
    """mix=0.5: some of the other seats of the worlds ask `others`, the rest the own network,
    and the same seats (each world's, for every candidate) on every later turn."""
    from agents.cards.guided import GuidedSearchAgent
    _, view = mid_round_views(players=4, turns=2, games=3)
    P, worlds, top, depth = 4, 8, 3, 3
    k = int((view.seats == 0).sum())
    W, G = k * worlds, k * worlds * top
    agent = GuidedSearchAgent(path=OWN, worlds=worlds, top=top, depth=depth, others=OTHERS, mix=0.5)
    calls, _, _ = asked(monkeypatch, agent, view)
    theirs = calls[0][1]
    assert 0 < theirs < (P - 1) * W
    assert calls == ([("others", theirs), ("own", (P - 1) * W - theirs)]
                     + [("own", G), ("others", theirs * top), ("own", (P - 1) * G - theirs * top)] * (depth - 1))


def test_depth_to_the_rounds_end_reads_no_value_head(monkeypatch):
    """With as many turns as the hand holds the worlds end the round: bullheads taken, whole
    numbers, no value head's estimate."""
    from agents.cards.guided import GuidedSearchAgent
    _, view = mid_round_views(players=4, turns=2, games=3)
    agent = GuidedSearchAgent(path=OWN, worlds=4, depth=10, others=OTHERS)
    monkeypatch.setattr(agent, "_values", lambda *a: pytest.fail("the value head was read"))
    _, _, values = asked(monkeypatch, agent, view)
    assert (values >= 0).all() and np.array_equal(values, np.round(values))


def test_others_plays_through_the_arena_and_bad_specs_are_refused():
    from agents.arena import run_match
    rules = RuleConfig(players=4, row_choice="player", end_score=None, max_rounds=1)
    result = run_match([f"guided:worlds=2:others={OTHERS}", "random", "random", "random"], rules, 1, 0,
                       progress=False)
    assert result.games == 4
    for spec in (f"guided:rollout=mcs:others={OTHERS}", "guided:others=no/such/model.zip",
                 f"guided:others={OTHERS}:mix=1.5", "guided:mix=0.5"):
        with pytest.raises(ConfigError):
            run_match([spec, "random", "random", "random"], rules, 1, 0, progress=False)
