"""The belief model of who holds each unseen card: per card a probability over the other
seats and "not dealt" that sums to one, nothing for a card no other seat can hold (own
hand, rows, revealed cards, ids out of the deck), the hand sizes kept in expectation and
exactly in the worlds it deals; its file refused when broken; `guided:belief=...` plays."""

from __future__ import annotations

import numpy as np
import pytest

from sixnimmt_env import ConfigError, RuleConfig
from sixnimmt_env.cards.belief_features import CARD_FEATURES, PAIR_FEATURES, belief_inputs
from sixnimmt_env.core.game import make_game


def random_weights(seed: int = 0, hidden: int = 8) -> dict:
    from agents.cards.belief import LAYERS
    rng = np.random.default_rng(seed)
    shapes = [(PAIR_FEATURES, hidden), (hidden,), (hidden, hidden), (hidden,), (hidden, 1), (1,),
              (CARD_FEATURES, hidden), (hidden,), (hidden, 1), (1,)]
    return {k: rng.normal(0, 1.0, s).astype(np.float32) for k, s in zip(LAYERS, shapes)}


def mid_round_views(players: int = 4, turns: int = 4, deck: str = "full", games: int = 6):
    """Every seat's view of `games` one-round games after `turns` turns of random play."""
    from agents.random_agent import RandomAgent
    rules = RuleConfig(players=players, row_choice="cheapest", end_score=None, max_rounds=1, deck=deck)
    game = make_game("cards", rules)
    st = game.new_games(np.arange(games, dtype=np.uint64))
    rng = np.random.default_rng(1)
    P = players
    for _ in range(turns):
        view = game.view(st, np.repeat(np.arange(P), games), np.tile(np.arange(games), P))
        st, _ = game.step(st, RandomAgent().act(view, rng).reshape(P, games))
    return st, game.view(st, np.repeat(np.arange(P), games), np.tile(np.arange(games), P))


@pytest.mark.parametrize("deck, players, turns", [("full", 4, 4), ("exact", 4, 2), ("full", 2, 7), ("full", 6, 0)])
def test_probabilities_sum_to_one_and_give_nothing_impossible(deck, players, turns):
    from agents.cards.belief import BeliefModel

    st, view = mid_round_views(players, turns, deck)
    inputs = belief_inputs(view)
    for model in (BeliefModel(random_weights()), BeliefModel(None)):
        p = model.probabilities(inputs)  # (n, N+1, P)
        assert p.shape == (view.n, view.config.variant_data.n_ids + 1, players)
        assert (p >= 0).all()
        rows = p.sum(axis=2)
        np.testing.assert_allclose(rows[inputs.possible], 1.0, atol=1e-9)
        assert (rows[~inputs.possible] == 0).all()
        entry = np.arange(view.n)[:, None]
        assert (p[entry, view.hand] == 0).all() and (p[view.seen] == 0).all() and (p[:, 0] == 0).all()
        columns = p.sum(axis=1)
        np.testing.assert_allclose(columns[:, :-1], np.repeat(view.hand_size[:, None], players - 1, axis=1), atol=0.02)
        np.testing.assert_allclose(columns[:, -1], inputs.left_out, atol=0.02)
        if deck == "exact":
            assert (inputs.left_out == 0).all() and (p[:, :, -1] == 0).all()


def test_uniform_belief_is_the_uniform_deal():
    from agents.cards.belief import BeliefModel

    _, view = mid_round_views()
    inputs = belief_inputs(view)
    p = BeliefModel(None).probabilities(inputs)
    unseen = inputs.possible.sum(axis=1)
    e, c = np.nonzero(inputs.possible)
    np.testing.assert_allclose(p[e, c, 0], (view.hand_size / unseen)[e], atol=1e-9)


def test_sampled_worlds_deal_each_seat_its_hand_from_the_unseen_cards():
    from agents.cards.belief import BeliefModel

    _, view = mid_round_views(turns=3)
    entries = np.arange(view.n)
    count, worlds, P = int(view.hand_size[0]), 50, view.players
    belief = BeliefModel(random_weights(3)).of_view(view)
    st = view.worlds(entries, worlds, np.random.default_rng(0), deal=belief)
    assert st.batch_size == view.n * worlds
    for w in range(st.batch_size):
        seat = int(view.seats[w // worlds])
        dealt = st.hands[[(seat + j) % P for j in range(1, P)], :, w]
        cards = dealt[dealt > 0]
        assert (dealt > 0).sum(axis=1).tolist() == [count] * (P - 1)
        assert len(set(cards.tolist())) == cards.size  # no card twice in a world
        assert view.unseen[w // worlds, cards].all()  # only cards another seat can hold


def test_belief_files(tmp_path):
    from agents.cards.belief import BeliefModel

    path = tmp_path / "b.npz"
    BeliefModel(random_weights()).save(path, {"players": 4})
    loaded = BeliefModel.load(path)
    assert loaded.meta == {"players": 4}
    _, view = mid_round_views()
    np.testing.assert_allclose(loaded.of_view(view), BeliefModel(random_weights()).of_view(view))
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(ConfigError, match="not a belief model file"):
        BeliefModel.load(tmp_path / "junk.npz")
    short = random_weights()
    short["pair_w1"] = short["pair_w1"][:3]
    np.savez(tmp_path / "short.npz", **short)
    with pytest.raises(ConfigError, match="made for other features"):
        BeliefModel.load(tmp_path / "short.npz")


def test_features_read_no_hidden_hand():
    """Swapping two seats' hands changes nothing the belief reads from the other seats."""
    st, view = mid_round_views(turns=2, games=3)
    before = belief_inputs(view)
    st.hands[[1, 2]] = st.hands[[2, 1]]
    after = belief_inputs(make_game("cards", view.config).view(st, view.seats, view.games))
    observers = np.isin(view.seats, [0, 3])  # the seats whose own hands stayed
    assert observers.sum() == 6
    for field in ("pair", "card", "possible", "holds", "left_out"):
        np.testing.assert_array_equal(getattr(before, field)[observers], getattr(after, field)[observers])


def test_guided_samples_its_worlds_from_a_belief(tmp_path):
    from agents.arena import run_match
    from agents.cards.belief import BeliefModel

    path = tmp_path / "b.npz"
    BeliefModel(random_weights()).save(path)
    rules = RuleConfig(players=4, row_choice="player", end_score=None, max_rounds=1)
    result = run_match([f"guided:worlds=4:belief={path}", "random", "random", "random"], rules, 2, 0, progress=False)
    assert result.games == 8
    with pytest.raises(ConfigError):
        run_match([f"guided:rollout=mcs:belief={path}", "random"], RuleConfig(players=2, max_rounds=1), 1, 0,
                  progress=False)
