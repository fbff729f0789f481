"""`guided:sample=true`: the other seats of the search's worlds draw their card from their
network's softmax instead of playing its best (a model of a table of players who play
another card on a second try, such as `mcs:rollouts=100`; agents/cards/lookahead.py)."""

from __future__ import annotations

import numpy as np
import pytest

from sixnimmt_env import ConfigError, RuleConfig

from .test_belief import mid_round_views

OWN = "agents/models/ppo-4p.zip"
OTHERS = "agents/models/ppo-all.zip"


def test_sampled_cards_follow_the_softmax_and_stay_legal():
    """Draws of one observation match its masked softmax's probabilities (within sampling
    error over 4,000 draws) and never a masked card."""
    from agents.cards.lookahead import sampled_cards
    from agents.ppo import PPOAgent, action_logits
    _, view = mid_round_views(players=4, turns=2, games=1)
    model, layout = PPOAgent(OTHERS).network_for(view.config, view.players)
    obs, mask = layout.encode(view)[:1], view.action_mask()[:1]
    logits = np.where(mask, action_logits(model.policy, obs), -np.inf)[0]
    p = np.exp(logits - logits.max())
    p /= p.sum()
    draws = sampled_cards(model, np.repeat(obs, 4000, axis=0), np.repeat(mask, 4000, axis=0),
                          np.random.default_rng(3))
    assert mask[0, draws].all()
    share = np.bincount(draws, minlength=len(p)) / len(draws)
    assert np.abs(share - p).max() < 4 * np.sqrt(0.25 / len(draws))


def test_sampled_others_draw_from_their_network_every_turn_and_the_searcher_plays_its_best(monkeypatch):
    """Turn one: the P-1 other seats of every world draw from `others`; each later turn the
    searching seat asks its own network's best card and the others draw again."""
    import agents.cards.lookahead as lookahead
    from agents.cards.guided import GuidedSearchAgent
    _, view = mid_round_views(players=4, turns=2, games=3)
    P, worlds, top, depth = 4, 5, 3, 3
    entries = np.flatnonzero(view.seats == 0)
    W, G = len(entries) * worlds, len(entries) * worlds * top
    agent = GuidedSearchAgent(path=OWN, worlds=worlds, top=top, depth=depth, others=OTHERS, sample=True)
    own, _ = agent.net.network_for(view.config, view.players)
    calls = []
    drawn, best = lookahead.sampled_cards, GuidedSearchAgent._policy

    def sampled(model, obs, mask, rng):
        calls.append(("drawn", "own" if model is own else "others", len(obs)))
        return drawn(model, obs, mask, rng)

    def policy(model, obs, mask):
        calls.append(("best", "own" if model is own else "others", len(obs)))
        return best(model, obs, mask)

    monkeypatch.setattr(lookahead, "sampled_cards", sampled)
    monkeypatch.setattr(GuidedSearchAgent, "_policy", staticmethod(policy))
    _, values = agent.card_values(view, entries, np.random.default_rng(0))
    assert calls == ([("drawn", "others", (P - 1) * W)]
                     + [("best", "own", G), ("drawn", "others", (P - 1) * G)] * (depth - 1))
    assert values.shape == (len(entries), top, worlds) and np.isfinite(values).all()


def test_sample_plays_through_the_arena_and_bad_specs_are_refused():
    from agents.arena import run_match
    rules = RuleConfig(players=4, row_choice="player", end_score=None, max_rounds=1)
    result = run_match([f"guided:worlds=2:others={OTHERS}:sample=true", "random", "random", "random"], rules, 1, 0,
                       progress=False)
    assert result.games == 4
    with pytest.raises(ConfigError):
        run_match(["guided:rollout=mcs:sample=true", "random", "random", "random"], rules, 1, 0, progress=False)
