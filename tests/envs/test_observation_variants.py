"""The card-features observation (known numbers on a hand-built position, information
filter, VecEnv agreement) and the card-scorer policy that reads it."""

from __future__ import annotations

import numpy as np
import pytest

from sixnimmt_env import ConfigError, RuleConfig, game_seeds, new_games
from sixnimmt_env.cards.encoding import HAND_SLOT_FIELDS, card_layout
from sixnimmt_env.cards.engine import from_deal
from sixnimmt_env.cards.seat_view import SeatView

CFG = RuleConfig(players=4, row_choice="cheapest")
FEATURE = {name: k for k, (name, _) in enumerate(HAND_SLOT_FIELDS)}
MINE = [103, 5, 15, 20, 41, 55, 75, 80, 101, 102]  # any order: slots are sorted
ROWS = [[100, 0, 0, 0, 0], [10, 11, 12, 13, 14], [70, 72, 0, 0, 0], [40, 0, 0, 0, 0]]
OTHERS = [[1, 2, 3, 4, 6, 7, 8, 9, 16, 17], [21, 22, 23, 24, 25, 26, 27, 28, 29, 30],
          [31, 32, 33, 34, 35, 36, 37, 38, 39, 42]]


def features(hands, seat=0):
    st = from_deal(CFG, [hands], [ROWS])
    layout = card_layout(CFG, "card-features")
    parts = layout.decode(SeatView(st, seat).encode(layout)[0])
    return parts["hand_slots"].reshape(10, -1), parts["sorted_rows"].reshape(4, -1)


def test_card_features_of_a_known_position():
    slots, rows = features([MINE] + OTHERS)
    by_id = {round(s[FEATURE["id"]] * 104): s for s in slots}
    assert [round(s[FEATURE["id"]] * 104) for s in slots] == sorted(MINE)
    N = 104
    # 5 is too low: it takes a row; the cheapest row (100 or 40) has 3 bullheads
    assert by_id[5][FEATURE["too_low"]] == 1 and by_id[5][FEATURE["row_bulls"]] == pytest.approx(0.3)
    assert by_id[5][FEATURE["unseen_gap"]] == pytest.approx(4 / N)  # 1..4 lie below 5, unseen
    # 15 is the sixth card of the full row 10..14 (3+5+1+1+1 = 11 bullheads)
    s = by_id[15]
    assert (s[FEATURE["too_low"]], s[FEATURE["sixth"]], s[FEATURE["row_count"]]) == (0, 1, 1.0)
    assert s[FEATURE["row_bulls"]] == pytest.approx(1.1) and s[FEATURE["gap"]] == pytest.approx(1 / N)
    # 80 joins 70 72: gap 8; unseen in between: 73 74 76 77 78 79 (75 is in hand)
    s = by_id[80]
    assert s[FEATURE["gap"]] == pytest.approx(8 / N) and s[FEATURE["unseen_gap"]] == pytest.approx(6 / N)
    assert s[FEATURE["row_count"]] == pytest.approx(0.4) and s[FEATURE["sixth"]] == 0
    # 103 joins 100, and 101 102 are its own: nothing unseen in the gap
    assert by_id[103][FEATURE["unseen_gap"]] == 0 and by_id[103][FEATURE["gap"]] == pytest.approx(3 / N)
    assert by_id[55][FEATURE["bulls"]] == pytest.approx(1.0)  # 7 bullheads / 7
    # rows sorted by last card: 14 (5 cards), 40, 72 (2 cards), 100
    assert np.round(rows[:, 0] * N).tolist() == [14, 40, 72, 100]
    assert np.round(rows[:, 1] * 5).tolist() == [5, 1, 2, 1]
    assert rows[2, 3] == pytest.approx(25 / N)  # 73..99 without its own 75 and 80


def test_card_features_see_only_what_the_seat_may_know():
    """Two deals that differ only in the other hands encode the same for seat 0."""
    shuffled = [OTHERS[2], [1, 2, 3, 4, 6, 7, 8, 9, 16, 104], OTHERS[1]]
    # 104 for 17: a card the seat has not seen either way, so its unseen set is unchanged
    a, _ = features([MINE] + OTHERS)
    b, _ = features([MINE] + shuffled)
    assert np.array_equal(a, b)
    st = new_games(CFG, game_seeds(0, 3))
    other = st.copy()
    other.hands[1:] = st.hands[[2, 3, 1]]
    layout = card_layout(CFG, "card-features")
    assert np.array_equal(SeatView(st, 0).encode(layout), SeatView(other, 0).encode(layout))


def test_basic_fields_are_unchanged_by_the_variant():
    st = new_games(CFG, game_seeds(1, 5))
    basic, rich = card_layout(CFG), card_layout(CFG, "card-features")
    assert np.array_equal(SeatView(st, 2).encode(rich)[:, :basic.size], SeatView(st, 2).encode(basic))
    with pytest.raises(ConfigError, match="observation must be one of"):
        card_layout(CFG, "sorted")


def test_vec_env_uses_the_chosen_observation():
    pass
    from sixnimmt_env.adapters.vec_env import SixNimmtVecEnv
    env = SixNimmtVecEnv(8, 4, seed=1, row_choice="player", observation="card-features")
    games = env.games
    assert env.observation_space.shape == (card_layout(games.config, "card-features").size,)
    obs = env.reset()
    rng = np.random.default_rng(0)
    for _ in range(25):
        for i in (0, 7):
            single = SeatView(games.state, [games.slot_seats[i]], [games.slot_games[i]]).encode(games.layout)
            assert np.array_equal(obs[i], single[0])
        obs, *_ = env.step(games.view().random_legal_actions(rng))


def test_card_scorer_puts_each_slot_score_on_its_card():
    import torch as th
    from sb3_contrib import MaskablePPO

    from agents.cards.policy import CardScorerPolicy, scorer_kwargs
    from sixnimmt_env.adapters.vec_env import SixNimmtVecEnv

    env = SixNimmtVecEnv(4, 4, seed=2, row_choice="cheapest", observation="card-features")
    kwargs = {"net_arch": {"pi": [], "vf": [32]}, **scorer_kwargs(env.games.layout, (16,), (8,))}
    model = MaskablePPO(CardScorerPolicy, env, n_steps=8, batch_size=32, n_epochs=1, seed=0,
                        policy_kwargs=kwargs, device="cpu")
    net = model.policy.action_net
    with th.no_grad():  # scores are ~0 at init: make them distinct to see where they land
        net.card_out[-1].weight.normal_()
        net.card_out[-1].bias.fill_(1.0)
    obs = th.as_tensor(env.reset())
    with th.no_grad():
        logits = net(obs)
        slots = env.games.layout.decode(obs.numpy())["hand_slots"].reshape(4, 10, -1)
        ctx = net.context(obs)
        expected = net.card_out(net.card_in(th.as_tensor(slots)) + net.card_ctx(ctx)[:, None, :]).squeeze(-1)
    for i, hand in enumerate(np.sort(env.games.view().hand, axis=1)):
        assert np.allclose(logits[i, hand - 1].numpy(), expected[i].numpy(), atol=1e-6)
        others = np.setdiff1d(np.arange(104), hand - 1)
        assert not logits[i, others].any()
    model.learn(64)  # trains and acts legally


def test_tiny_card_scorer_run_loads_as_an_agent_that_builds_its_observation(tmp_path):
    """The model's meta records the observation; the agent builds it at any row rule."""
    import json

    from agents.arena import run_match
    from agents.ppo import PPOAgent
    from training.config import TrainConfig
    from training.train import train

    cfg = TrainConfig.load(None, ["name=tiny", "total_timesteps=1500", "num_games=32", "n_steps=16",
                                  "batch_size=256", "n_epochs=1", "eval_deals=2", "eval_every=1000",
                                  "checkpoint_every=1000", "snapshot_every=1000", "torch_threads=1",
                                  "observation=card-features", "policy=card-scorer",
                                  "net_arch=[16]", "scorer_context=[16]", "scorer_hidden=[8]"])
    run = train(cfg, runs_dir=tmp_path, progress=False)
    assert json.loads((run / "best.json").read_text())["observation"] == "card-features"
    agent = PPOAgent(str(run / "best.zip"))
    for rule in ("cheapest", "player"):  # player: the scorer's row actions are played too
        result = run_match([agent, "random", "random", "random"],
                           RuleConfig(players=4, row_choice=rule, max_rounds=1), 3, 0, progress=False)
        assert result.games == 12
    (run / "best.json").write_text(json.dumps({"players": 4}))  # a meta without observation
    with pytest.raises(ConfigError, match="expects observations of size"):
        run_match([PPOAgent(str(run / "best.zip")), "random", "random", "random"],
                  RuleConfig(players=4, max_rounds=1), 1, 0, progress=False)
    with pytest.raises(ConfigError, match="policy card-scorer needs observation card-features"):
        TrainConfig(policy="card-scorer")
