"""The environment adapters: PettingZoo conformance, information, rewards, Gymnasium,
SB3 VecEnv, and one encoding shared by all of them."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest

import sixnimmt_env
from sixnimmt_env import ConfigError, IllegalActionError, RuleConfig, game_seeds, new_games
from sixnimmt_env.cards.actions import action_size, pass_action
from sixnimmt_env.cards.encoding import card_layout
from sixnimmt_env.cards.seat_view import SeatView
from sixnimmt_env.core.rewards import rank_rewards

warnings.filterwarnings("ignore", message=".*render_mode.*")


def random_legal(obs: dict, rng: np.random.Generator) -> dict:
    return {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items()}


# ---------------------------------------------------------------------- PettingZoo

def test_pettingzoo_parallel_api():
    from pettingzoo.test import parallel_api_test
    parallel_api_test(sixnimmt_env.parallel_env(4), num_cycles=300)


def test_pettingzoo_aec_api():
    from pettingzoo.test import api_test
    api_test(sixnimmt_env.env(3), num_cycles=300)


def test_pettingzoo_parallel_seed():
    from pettingzoo.test import parallel_seed_test
    parallel_seed_test(lambda: sixnimmt_env.parallel_env(4, illegal_action="penalize"))


def test_pettingzoo_render(capsys):
    from pettingzoo.test import render_test
    render_test(lambda render_mode=None: sixnimmt_env.env(4, render_mode=render_mode))
    ansi = sixnimmt_env.parallel_env(4, render_mode="ansi")
    ansi.reset(seed=1)
    text = ansi.render()
    assert "row 1:" in text and "scores:" in text


def test_metadata_and_spaces():
    env = sixnimmt_env.parallel_env(5)
    assert env.metadata["name"] == "sixnimmt_v0" and env.metadata["is_parallelizable"]
    assert set(env.metadata["render_modes"]) == {"ansi", "human"}
    assert env.action_space("player_0").n == 104 + 4 + 1
    assert env.observation_space("player_0")["observation"].shape == (card_layout(env.config).size,)


@pytest.mark.parametrize("row_choice", ["player", "cheapest"])
def test_same_seed_same_game_over_many_steps(row_choice):
    def run():
        env = sixnimmt_env.parallel_env(4, row_choice=row_choice)
        rng = np.random.default_rng(3)
        obs, _ = env.reset(seed=11)
        trace = []
        while env.agents:
            actions = random_legal(obs, rng)
            obs, rew, *_ = env.step(actions)
            trace.append((actions, rew, {a: o["observation"].tobytes() for a, o in obs.items()}))
        return trace
    a, b = run(), run()
    assert len(a) >= 30 and a == b  # several rounds


def test_masks_never_empty_and_row_choice_is_a_real_step():
    env = sixnimmt_env.parallel_env(4)
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=2)
    layout, n = env.layout, 104
    row_steps = 0
    while env.agents:
        for a, o in obs.items():
            assert o["action_mask"].any()
        masks = {a: o["action_mask"] for a, o in obs.items()}
        choosers = [a for a, m in masks.items() if m[n:n + 4].any()]
        if choosers:
            row_steps += 1
            (chooser,) = choosers
            for a, m in masks.items():
                if a != chooser:
                    assert np.flatnonzero(m).tolist() == [n + 4], "others may only pass"
            revealed = layout.decode(obs[chooser]["observation"])["revealed"]
            assert revealed.sum() == 4, "the turn's four cards are visible to the chooser"
            assert layout.decode(obs[chooser]["observation"])["phase"].tolist() == [0, 1]
        obs, *_ = env.step(random_legal(obs, rng))
    assert row_steps > 0

    auto = sixnimmt_env.parallel_env(4, row_choice="cheapest")
    obs, _ = auto.reset(seed=2)
    while auto.agents:
        assert not any(o["action_mask"][n:n + 5].any() for o in obs.values())
        obs, *_ = auto.step(random_legal(obs, rng))


def deal(hands, rows=(10, 40, 70, 100), dealer=0):
    return {"deal": {"hands": [list(h) for h in hands], "rows": [[r] for r in rows], "dealer": dealer}}


def test_observation_hides_other_hands():
    """Two deals that differ only in other seats' cards look the same to seat 0."""
    mine = [1, 5, 12, 23, 34, 45, 56, 67, 78, 89]
    others_a = [[2, 6, 13, 24, 35, 46, 57, 68, 79, 90], [3, 7, 14, 25, 36, 47, 58, 69, 80, 91]]
    others_b = [[3, 7, 14, 25, 36, 47, 58, 69, 80, 91], [104, 103, 102, 99, 98, 97, 96, 95, 94, 93]]
    env = sixnimmt_env.parallel_env(3)
    obs_a, _ = env.reset(seed=0, options=deal([mine] + others_a))
    obs_b, _ = env.reset(seed=0, options=deal([mine] + others_b))
    assert np.array_equal(obs_a["player_0"]["observation"], obs_b["player_0"]["observation"])
    assert np.array_equal(obs_a["player_0"]["action_mask"], obs_b["player_0"]["action_mask"])
    assert not np.array_equal(obs_a["player_1"]["observation"], obs_b["player_1"]["observation"])


def test_seat_view_of_batch_ignores_hidden_cards():
    """Batched: a seat's encoded view depends only on what it may know."""
    cfg = RuleConfig(players=4)
    st = new_games(cfg, game_seeds(0, 2))
    other = st.copy()
    other.hands[1:, :, :] = st.hands[[2, 3, 1], :, :]  # reshuffle the other seats' hands
    layout = card_layout(cfg)
    assert np.array_equal(SeatView(st, 0).encode(layout), SeatView(other, 0).encode(layout))
    assert not np.array_equal(SeatView(st, 1).encode(layout), SeatView(other, 1).encode(layout))


def test_reset_from_a_record_round_and_bad_deals():
    from experiments.play.demo import play_demo
    record = play_demo(RuleConfig(players=4), 3, echo=lambda s: None)
    first = record["rounds"][0]
    env = sixnimmt_env.parallel_env(4)
    obs, _ = env.reset(options={"deal": first})
    hand = card_layout(env.config).decode(obs["player_2"]["observation"])["hand"]
    assert np.flatnonzero(hand).tolist() == sorted(first["hands"][2])
    with pytest.raises(ConfigError, match="invalid deal"):
        env.reset(options=deal([[1] * 10] * 4))
    with pytest.raises(ConfigError, match="invalid deal"):
        env.reset(options=deal([list(range(1, 11))] * 4))


def test_illegal_action_raises_with_seat_action_and_legal_set():
    env = sixnimmt_env.parallel_env(3)
    obs, _ = env.reset(options=deal([[1, 5, 12, 23, 34, 45, 56, 67, 78, 89],
                                     [2, 6, 13, 24, 35, 46, 57, 68, 79, 90],
                                     [3, 7, 14, 25, 36, 47, 58, 69, 80, 91]]))
    with pytest.raises(IllegalActionError) as e:
        env.step({"player_0": 0, "player_1": 1, "player_2": 5})  # card 6 is seat 1's
    msg = str(e.value)
    assert "seat 2" in msg and "action 5 (play card 6)" in msg and "2 (play card 3)" in msg


def test_illegal_action_penalize_ends_episode():
    env = sixnimmt_env.parallel_env(3, illegal_action="penalize", illegal_reward=-7)
    obs, _ = env.reset(seed=0)
    legal = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in obs.items()}
    legal["player_1"] = pass_action(env.config)
    _, rew, term, _, infos = env.step(legal)
    assert rew == {"player_0": 0.0, "player_1": -7.0, "player_2": 0.0}
    assert all(term.values()) and env.agents == []
    assert [i["illegal_action"] for i in infos.values()] == [0, 1, 0]  # infos stay numbers
    assert "seat 1" in env.illegal_message and "is illegal" in env.illegal_message


@pytest.mark.parametrize("reward", ["points", "relative", "rank"])
def test_rewards(reward):
    env = sixnimmt_env.parallel_env(4, reward=reward)
    rng = np.random.default_rng(1)
    obs, _ = env.reset(seed=5)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    last = None
    while env.agents:
        obs, rew, term, *_ = env.step(random_legal(obs, rng))
        for a, r in rew.items():
            totals[a] += r
        last = rew
    scores = env.state_.total()[:, 0]
    values = np.array([totals[a] for a in env.possible_agents])
    if reward == "points":
        assert np.allclose(values, -scores)
    elif reward == "relative":
        assert abs(values.sum()) < 1e-9 and np.argmax(values) == np.argmin(scores)
    else:
        assert np.allclose(values, rank_rewards(scores.astype(float)))
        assert np.allclose([last[a] for a in env.possible_agents], values), "all at the end"


def test_reward_penalty_is_an_alias_of_points():
    """"points" is what any game's step scores (signed so that more is better: minus the
    bullheads, plus the board's won points); "penalty", its card-game name, gives the same."""
    from sixnimmt_env.core.rewards import step_rewards, step_rewards_one

    seen = {}
    for reward in ("points", "penalty"):
        env = sixnimmt_env.parallel_env(3, reward=reward)
        rng = np.random.default_rng(2)
        obs, _ = env.reset(seed=4)
        rewards = []
        while env.agents:
            obs, rew, *_ = env.step(random_legal(obs, rng))
            rewards.append(rew)
        seen[reward] = rewards
    assert seen["points"] == seen["penalty"] and any(any(r.values()) for r in seen["points"])
    before, after = np.array([[1], [5]]), np.array([[4], [5]])
    for utility in (-1, 1):  # the card games, the board game
        for kind in ("points", "penalty"):
            assert step_rewards(kind, before, after, np.array([False]), utility)[:, 0].tolist() == [3.0 * utility, 0.0]
            assert step_rewards_one(kind, [1, 5], [4, 5], False, utility) == [3.0 * utility, 0.0]


def test_rank_rewards_ties_share():
    assert rank_rewards(np.array([10, 20, 20, 30])).tolist() == [1.0, 0.0, 0.0, -1.0]


def test_episode_round_is_one_round():
    env = sixnimmt_env.parallel_env(4, episode="round", row_choice="cheapest")
    obs, _ = env.reset(seed=0)
    steps = 0
    while env.agents:
        obs, *_ = env.step(random_legal(obs, np.random.default_rng(steps)))
        steps += 1
    assert steps == 10


def test_bad_env_options():
    with pytest.raises(ConfigError):
        sixnimmt_env.parallel_env(4, reward="win")
    with pytest.raises(ConfigError):
        sixnimmt_env.parallel_env(11)
    with pytest.raises(ConfigError):
        sixnimmt_env.parallel_env(4, episode="turn")


def test_layout_table_drives_docs_and_decoder():
    from sixnimmt_env.adapters import sixnimmt_cards_v1
    layout = card_layout(RuleConfig())
    assert layout.markdown() in sixnimmt_cards_v1.__doc__  # the card env's sheet
    vec = np.arange(layout.size, dtype=np.float32)
    parts = layout.decode(vec)
    assert sum(p.size for p in parts.values()) == layout.size
    assert np.concatenate([p.ravel() for p in parts.values()]).tolist() == vec.tolist()
    assert parts["row_cards"].shape == (4, 5) and parts["hand"].shape == (105,)


# ---------------------------------------------------------------------- Gymnasium

def test_gymnasium_and_sb3_checkers():
    from gymnasium.utils.env_checker import check_env
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    import sixnimmt_env.adapters.gym_env  # noqa: F401  (registers SixNimmt-v0)
    check_env(gymnasium.make("SixNimmt-v0", players=4).unwrapped)
    sb3_check_env(sixnimmt_env.adapters.gym_env.SixNimmtEnv(3))


def test_gym_env_learner_is_asked_only_for_decisions():
    from sixnimmt_env.adapters.gym_env import SixNimmtEnv
    env = SixNimmtEnv(4, learner_seat=2)
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(0)
    total, done, steps = 0.0, False, 0
    while not done:
        mask = env.action_masks()
        assert not mask[pass_action(env.games.config)], "never a pass-only step"
        obs, r, done, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        total += r
        steps += 1
    assert 10 <= steps <= 20 and info["seat"] == 2
    assert total == -env.games.state.total()[2, 0]


# ---------------------------------------------------------------------- VecEnv

def test_vec_env_matches_the_single_game_encoder_and_auto_resets():
    pass
    from stable_baselines3.common.vec_env import VecMonitor

    from sixnimmt_env.adapters.vec_env import SixNimmtVecEnv
    env = VecMonitor(SixNimmtVecEnv(16, 4, learners=2, seed=3))
    obs = env.reset()
    inner = env.venv
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(40):
        games = inner.games
        for i in (0, 5, 31):  # the batched observation equals the one-seat encoding
            single = SeatView(games.state, [games.slot_seats[i]], [games.slot_games[i]]).encode(games.layout)
            assert np.array_equal(obs[i], single[0])
        masks = inner.action_masks()
        assert masks.any(axis=1).all()
        obs, rew, dones, infos = env.step(games.view().random_legal_actions(rng))
        for i in np.flatnonzero(dones):
            assert "terminal_observation" in infos[i] and "episode" in infos[i]
            episodes += 1
    assert episodes >= 16


def test_vec_env_rejects_illegal_actions():
    from sixnimmt_env.adapters.vec_env import SixNimmtVecEnv
    env = SixNimmtVecEnv(4, 3)
    env.reset()
    with pytest.raises(IllegalActionError, match="slot 0"):
        env.step(np.full(4, pass_action(env.games.config)))


def test_maskable_ppo_runs_on_the_vec_env():
    from sb3_contrib import MaskablePPO

    from sixnimmt_env.adapters.vec_env import SixNimmtVecEnv
    env = SixNimmtVecEnv(8, 4)
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=64, n_epochs=1, verbose=0, seed=0)
    model.learn(total_timesteps=256)
    obs = env.reset()
    actions, _ = model.predict(obs, action_masks=env.action_masks())
    assert env.games.check(actions, env.action_masks()).all()


def test_action_size():
    assert action_size(RuleConfig()) == 109
