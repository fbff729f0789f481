"""The other players modelled from their play (agents/cards/opponents.py): the mixture's
weights move toward the model that produced a scripted opponent's plays, a new game starts
from the prior, and `guided:others=mixture` plays the other seats of its worlds by it; with
`sample=true` a seat's cards follow the weights' mixture of the candidates' distributions
(scripted weights; fails on argmax play) and a budgeted search with it stops on time (fake
clock); with `slip=p` the candidate `ppo-argmax` (scored by the softmax, played at its argmax
but for a share p of uniform cards) takes `ppo`'s place and an argmax `ppo` seat's weight,
and a bad `slip` is refused with a one-line message."""

from __future__ import annotations

import numpy as np
import pytest

from sixnimmt_env.core.game import make_game


def _watched(players_by_seat, games: int = 3, rounds: int = 2, seed: int = 1, slip: float | None = None):
    """A mixture (with `slip`: and its `ppo-argmax`) that watched seat 0's view of `games`
    games whose seats are played by `players_by_seat` (agents), and the final view."""
    from agents.cards.opponents import OpponentMixture
    game = make_game("cards", players=len(players_by_seat), max_rounds=rounds, end_score=None)
    mixture = OpponentMixture(slip=slip)
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


def test_the_weight_of_an_argmax_ppo_seat_moves_to_ppo_argmax():
    """With `slip`, `ppo-argmax` stands in the mixture for `ppo`, and a seat played by `ppo`
    (its argmax every time) gives it most of that seat's weight; a random seat's stays off it."""
    from agents.ppo import PPOAgent
    from agents.random_agent import RandomAgent
    mixture, view = _watched([RandomAgent(), PPOAgent(""), PPOAgent(""), RandomAgent()], slip=0.05)
    names = [c.name for c in mixture.candidates]
    assert names == ["ppo-argmax", "ppo-all", "min-gap", "greedy", "random"]
    weights = mixture.weights(view, np.arange(view.n)).mean(axis=0)  # (P-1, M): relative seats 1..3
    for seat in (0, 1):  # the two ppo seats
        w = dict(zip(names, weights[seat]))
        assert w["ppo-argmax"] > 0.5 and weights[seat].argmax() == 0, w
    assert weights[2].argmax() == names.index("random")


def test_ppo_argmax_is_scored_by_the_softmax_and_plays_the_argmax_with_its_slip():
    """`ppo-argmax` scores a play as `ppo` does (its softmax), plays the network's best card
    at its best, and with `sample` draws that card at 1 - slip + slip / n of n legal ones
    and each other at slip / n (within 4 standard errors over 4,000 draws); `ppo` itself
    draws from its softmax (the check fails on it)."""
    from agents.cards.opponents import ARGMAX, Candidate
    from agents.ppo import PPOAgent

    from .test_belief import mid_round_views
    _, view = mid_round_views(players=4, turns=2, games=3)
    rng, slip, N = np.random.default_rng(3), 0.05, 4000
    candidate, softmax = Candidate(ARGMAX, slip), Candidate("ppo")
    assert np.allclose(candidate.probabilities(view, rng), softmax.probabilities(view, rng))
    best = PPOAgent("").act(view, rng)
    assert (candidate.play(view, rng) == best).all()
    one = view.subset(np.zeros(N, int))
    mask = one.action_mask()[0].astype(bool)
    expected = mask * slip / mask.sum()
    expected[best[0]] += 1 - slip
    tolerance = 4 * np.sqrt(slip / N)
    drawn = np.bincount(candidate.draw(one, rng), minlength=len(expected)) / N
    assert np.abs(drawn - expected).max() < tolerance
    assert np.abs(np.bincount(softmax.draw(one, rng), minlength=len(expected)) / N - expected).max() > tolerance
    for name, bad in ((ARGMAX, None), (ARGMAX, 1.0), (ARGMAX, 0.0), ("ppo", 0.05)):
        with pytest.raises(ValueError, match="slip"):
            Candidate(name, bad)


@pytest.mark.parametrize("spec, message", [
    ("guided:others=mixture:slip=1", "slip must be in 0..1"),
    ("guided:others=mixture:slip=-0.1", "slip must be in 0..1"),
    ("guided:others=mixture:slip=often", "not a valid float"),
    ("guided:slip=0.05", "slip needs others=mixture"),
    ("guided:others=agents/models/ppo-all.zip:slip=0.05", "slip needs others=mixture"),
])
def test_slip_is_refused_cleanly_when_bad(spec, message):
    from agents.registry import make_agent
    from sixnimmt_env.core.errors import ConfigError
    with pytest.raises(ConfigError, match=message):
        make_agent(spec, game="cards")


def test_slip_puts_ppo_argmax_in_guideds_mixture():
    from agents.registry import make_agent
    mixture = make_agent("guided:ms=100:others=mixture:slip=0.05:sample=true", game="cards").mixture
    assert mixture.candidates[0].name == "ppo-argmax" and mixture.candidates[0].slip == 0.05
    assert [c.name for c in make_agent("guided:others=mixture", game="cards").mixture.candidates][0] == "ppo"


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

    def recorded(self, view, which, rng, sample=False):
        played.append(which.copy())
        return original(self, view, which, rng, sample=sample)

    monkeypatch.setattr(OpponentMixture, "play", recorded)
    game = make_game("cards", players=4, max_rounds=1)
    st = game.new_games(np.arange(2))
    actions = agent.act(game.view(st, [0, 1]), np.random.default_rng(0))
    assert game.view(st, [0, 1]).action_mask()[np.arange(2), actions].all()
    assert played and set(np.concatenate(played).tolist()) <= set(range(len(agent.mixture.candidates)))
    with pytest.raises(ConfigError, match="mixture"):
        make_agent("guided:others=mixture:mix=0.5", game="cards")


def test_the_mixtures_sampled_cards_follow_its_weights():
    """With `sample`, a seat of the worlds plays a card drawn from the distribution of the
    candidate drawn for it: over many worlds each candidate plays its weight's share and the
    cards follow the weights' mixture of the candidates' distributions (within 4 standard
    errors over 6,000 draws). Played at their best instead (the argmax of a network, a
    heuristic's rule every time), the cards would not: the check fails on that."""
    from agents.cards.opponents import OpponentMixture

    from .test_belief import mid_round_views
    mixture = OpponentMixture(("ppo-all", "greedy", "min-gap", "random"))
    _, view = mid_round_views(players=4, turns=3, games=1)
    weights = np.array([[[0.4, 0.3, 0.2, 0.1]] * 3])  # (1 entry, 3 other seats, 4 candidates): scripted
    N, rng = 6000, np.random.default_rng(5)
    which = mixture.assign(weights, N, rng)  # (3, N)
    seat = 2  # the seat two to the left of seat 0 (relative seat 2), game 0
    others = view.subset(np.full(N, int(np.flatnonzero(view.seats == seat)[0])))
    cards = mixture.play(others, which[seat - 1], rng, sample=True)
    assert others.action_mask()[np.arange(N), cards].all()
    tolerance = 4 * np.sqrt(0.25 / N)
    assert np.abs(np.bincount(which[seat - 1], minlength=4) / N - weights[0, seat - 1]).max() < tolerance
    one = others.subset([0])
    expected = sum(w * c.probabilities(one, rng)[0] for w, c in zip(weights[0, seat - 1], mixture.candidates))
    assert np.abs(np.bincount(cards, minlength=len(expected)) / N - expected).max() < tolerance
    best = mixture.play(others, which[seat - 1], rng)  # without sample: each candidate's best card
    assert np.abs(np.bincount(best, minlength=len(expected)) / N - expected).max() > tolerance



def test_assign_keeps_its_seeded_draws():
    """`assign` draws through `opponents.drawn` (one draw helper): a seed's candidates and the
    generator's state after them are the ones the former inline draw gave (pinned), so a
    seeded search plays the same worlds; a zero weight is never drawn."""
    from agents.cards.opponents import OpponentMixture
    mixture = OpponentMixture(("random",))  # assign reads only the weights it is given
    weights = np.array([[[0.5, 0.25, 0.25], [0.1, 0.6, 0.3]], [[1 / 3, 1 / 3, 1 / 3], [0.0, 0.5, 0.5]]])
    rng = np.random.default_rng(2026)
    which = mixture.assign(weights, 6, rng)  # (2 other seats, 2 entries x 6 worlds)
    assert which.tolist() == [[0, 0, 0, 2, 1, 2, 1, 1, 1, 0, 1, 1], [1, 1, 2, 1, 1, 2, 2, 2, 1, 1, 1, 1]]
    assert rng.random() == 0.4477019015387208  # as many uniforms consumed as before

def test_a_budgeted_search_with_the_sampled_mixture_stops_on_time(monkeypatch):
    """`guided:ms=100:others=mixture:sample=true` on a fake clock that every candidate's
    distribution advances by a fixed cost a row (the draws in the worlds and the scoring of
    the plays): the mean of the calls after the first within 1.1 N, none over 3 N, most of
    the budget spent; every simulated turn of the others drew (`sample`), none took a best card."""
    from agents.cards.opponents import Candidate
    from agents.registry import make_agent

    from .test_guided_budget import FakeClock
    from .test_guided_recipe import views
    ms, unit = 100, 300e-6  # fake seconds a row of a candidate's distribution
    agent = make_agent(f"guided:ms={ms}:others=mixture:sample=true", game="cards")
    clock = FakeClock()
    agent.budget.clock = clock
    probabilities, draw, drew, best = Candidate.probabilities, Candidate.draw, [], []

    def costly(self, view, rng):
        clock.now += unit * view.n
        return probabilities(self, view, rng)

    monkeypatch.setattr(Candidate, "probabilities", costly)
    monkeypatch.setattr(Candidate, "draw", lambda self, view, rng: drew.append(view.n) or draw(self, view, rng))
    monkeypatch.setattr(Candidate, "play", lambda self, view, rng: best.append(view.n))
    view = views("classic", 4, turns=2, games=2)
    rng = np.random.default_rng(0)
    for _ in range(5):
        actions = agent.act(view, rng)
    assert view.action_mask()[np.arange(view.n), actions].all()
    spent = agent.budget.spent[1:]
    assert max(spent) <= 3 * ms and 0.5 * ms <= np.mean(spent) <= 1.1 * ms
    assert drew and not best

