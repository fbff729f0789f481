"""Training a belief model on a few games of our agents: the labels are the true deal (a
card's holder as a relative seat, or not dealt), the fitted model saves, loads, and scores
held-out games against the uniform deal."""

from __future__ import annotations

import json

import numpy as np

from sixnimmt_env import RuleConfig


def test_labels_are_the_true_holders():
    from sixnimmt_env.cards.seat_view import SeatView
    from sixnimmt_env.core.game import make_game
    from training.belief import holders

    game = make_game("cards", RuleConfig(players=3, end_score=None, max_rounds=1))
    st = game.new_games(np.arange(2, dtype=np.uint64))
    view = SeatView(st, np.array([0, 1, 2, 0]), np.array([0, 0, 0, 1]))
    label = holders(st, view)
    for e in range(view.n):
        seat, g = int(view.seats[e]), int(view.games[e])
        for j in (1, 2):
            for card in st.hands[(seat + j) % 3, :, g]:
                assert label[e, card] == j - 1
        assert (label[e, view.hand[e]] == 2).all()  # own cards: no other seat holds them


def test_train_belief_end_to_end(tmp_path):
    from agents.cards.belief import BeliefModel
    from training.belief import train_belief

    out = tmp_path / "belief.npz"
    meta = train_belief(["random", "greedy", "random"], games=3, out=str(out), held_out=2, epochs=1, hidden=8)
    assert meta["cards"] > 0 and meta["players"] == 3
    held = meta["held_out"]
    assert held["cards"] > 0 and 0 < held["nats_model"] < 5 and 0 < held["nats_uniform"] < 5
    assert json.loads(out.with_suffix(".json").read_text())["games"] == 3
    assert BeliefModel.load(out).weights["pair_w1"].shape[1] == 8
