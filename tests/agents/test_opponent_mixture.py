"""The other players modelled from their play (agents/cards/opponents.py): the mixture's
weights move toward the model that produced a scripted opponent's plays, a new game starts
from the prior, and `guided:others=mixture` plays the other seats of its worlds by it."""

from __future__ import annotations

import numpy as np
import pytest

from sixnimmt_env.core.game import make_game


def _watched(players_by_seat, games: int = 3, rounds: int = 2, seed: int = 1):
    """A mixture that watched seat 0's view of `games` games whose seats are played by
    `players_by_seat` (agents), and the final view."""
    from agents.cards.opponents import OpponentMixture
    game = make_game("cards", players=len(players_by_seat), max_rounds=rounds, end_score=None)
    mixture = OpponentMixture()
    st = game.new_games(np.arange(games) + 100 * seed)
    rng = np.random.default_rng(seed)
    while not game.game_over(st).all():
        mixture.observe(game.view(st, np.zeros(games, int)), rng)
        actions = [agent.act(game.view(st, np.full(games, s)), rng) for s, agent in enumerate(players_by_seat)]
        st, _ = game.step(st, np.stack(actions))
    view = game.view(st, np.zeros(games, int))
    return mixture, view


def test_the_weights_move_toward_the_model_that_played():
    from agents.cards.heuristics import HeuristicAgent
    from agents.ppo import PPOAgent
    from agents.random_agent import RandomAgent
    mixture, view = _watched([RandomAgent(), PPOAgent(""), RandomAgent(), HeuristicAgent("greedy")])
    names = [c.name for c in mixture.candidates]
    weights = mixture.weights(view, np.arange(view.n)).mean(axis=0)  # (P-1, M): relative seats 1..3
    prior = 1 / len(names)
    for seat, truth in ((0, "ppo"), (1, "random"), (2, "greedy")):
        w = weights[seat]
        true = w[names.index(truth)]
        assert true > prior and true > np.delete(w, names.index(truth)).mean(), (truth, dict(zip(names, w)))
    assert weights[1].argmax() == names.index("random")


def test_a_new_game_in_an_entrys_place_starts_from_the_prior():
    from agents.random_agent import RandomAgent
    mixture, view = _watched([RandomAgent()] * 4, games=1, rounds=1)
    assert not np.allclose(mixture.weights(view, [0]), 1 / len(mixture.candidates))
    game = make_game("cards", players=4, max_rounds=1)
    mixture.observe(game.view(game.new_games([7]), [0]), np.random.default_rng(0))  # game 0 dealt anew
    assert np.allclose(mixture.weights(view, [0]), 1 / len(mixture.candidates))


def test_guided_plays_the_other_seats_by_the_mixture(monkeypatch):
    from agents.cards.opponents import OpponentMixture
    from agents.registry import make_agent
    from sixnimmt_env.core.errors import ConfigError
    agent = make_agent("guided:others=mixture:worlds=3", game="cards")
    played = []
    original = OpponentMixture.play

    def recorded(self, view, which, rng):
        played.append(which.copy())
        return original(self, view, which, rng)

    monkeypatch.setattr(OpponentMixture, "play", recorded)
    game = make_game("cards", players=4, max_rounds=1)
    st = game.new_games(np.arange(2))
    actions = agent.act(game.view(st, [0, 1]), np.random.default_rng(0))
    assert game.view(st, [0, 1]).action_mask()[np.arange(2), actions].all()
    assert played and set(np.concatenate(played).tolist()) <= set(range(len(agent.mixture.candidates)))
    with pytest.raises(ConfigError, match="mixture"):
        make_agent("guided:others=mixture:mix=0.5", game="cards")
