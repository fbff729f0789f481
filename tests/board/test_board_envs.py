"""The board game through every adapter (nothing board-specific in them): PettingZoo's
and Gymnasium's checkers, the SB3 VecEnv, the information test, batch independence."""

from __future__ import annotations

import numpy as np
import pytest

import sixnimmt_env
from sixnimmt_env import make_game
from sixnimmt_env.board.state import PHASE_ASK
from sixnimmt_env.core.rng import game_seeds


@pytest.mark.parametrize("variant", ["basic", "luck"])
def test_pettingzoo_checkers(variant):
    from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test
    parallel_api_test(sixnimmt_env.parallel_env(game="board", players=3, variant=variant), num_cycles=200)
    parallel_seed_test(lambda: sixnimmt_env.parallel_env(game="board", players=3, variant=variant,
                                                         illegal_action="penalize"))
    api_test(sixnimmt_env.env(game="board", players=4, variant=variant), num_cycles=200)


def test_gymnasium_and_sb3_checkers():
    from gymnasium.utils.env_checker import check_env
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    from sixnimmt_env.adapters.gym_env import SixNimmtEnv
    check_env(SixNimmtEnv(game="board", players=4, variant="luck"))
    sb3_check_env(SixNimmtEnv(game="board", players=2))


def test_vec_env_plays_whole_board_games():
    from sixnimmt_env.adapters.vec_env import SixNimmtVecEnv
    env = SixNimmtVecEnv(64, game="board", players=4, variant="luck", seed=3)
    obs = env.reset()
    assert env.observation_space.contains(obs[0])
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(200):
        mask = env.action_masks()
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        obs, rewards, dones, infos = env.step(actions)
        ended += int(dones.sum())
        assert all(env.observation_space.contains(o) for o in obs[:4])
    assert ended >= 64  # games end and restart by themselves


def test_an_observation_hides_the_other_hands():
    """Two deals that differ only in another seat's tiles (and the supply) look the same."""
    game = make_game("board", players=3, variant="luck")
    st = game.new_games(game_seeds(9, 1))
    other = st.copy()
    # swap seat 1's hand with part of the supply
    other.hands[1, :, 0], other.supply[:12, 0] = st.supply[:12, 0], st.hands[1, :, 0]
    layout = game.layout()
    a = layout.encode(game.view(st, [0]))
    b = layout.encode(game.view(other, [0]))
    assert np.array_equal(a, b)
    assert not np.array_equal(layout.encode(game.view(st, [1])), layout.encode(game.view(other, [1])))


def test_a_game_is_the_same_alone_or_in_a_batch():
    game = make_game("board", players=4, variant="luck")
    seeds = game_seeds(5, 300)
    big = game.new_games(seeds)
    alone = game.new_games(seeds[[123]])
    rng_big, rng_alone = np.random.default_rng(1), np.random.default_rng(1)
    # the same actions for game 123 in both: drawn from game 123's own view
    while not game.game_over(alone)[0]:
        acts = np.stack([game.view(alone, [p]).random_legal_actions(rng_alone) for p in range(4)])
        full = np.stack([game.view(big, [p] * 300).random_legal_actions(rng_big) for p in range(4)])
        full[:, 123] = acts[:, 0]
        big, _ = game.step(big, full)
        alone, _ = game.step(alone, acts)
        assert np.array_equal(big.take([123]).score, alone.score)
        assert np.array_equal(big.take([123]).tiles, alone.tiles)


def test_questions_reach_the_mask_and_observation():
    game = make_game("board", players=4, variant="luck")
    st = game.new_games(game_seeds(2, 256))
    rng = np.random.default_rng(2)
    seen = set()
    while not game.game_over(st).all():
        for g in np.flatnonzero(st.phase == PHASE_ASK)[:5]:
            seat = int(st.asker[g])
            view = game.view(st, [seat], [g])
            mask = view.action_mask()[0]
            legal = np.flatnonzero(mask).tolist()
            assert legal in ([100, 101], [102, 103], [102], [103]), legal
            obs = game.layout().decode(game.layout().encode(view)[0])
            assert obs["phase"].tolist() == [0, 0, 1] and obs["ask"].sum() == 1
            # the question is about the tile being placed, whichever of the turn's it is
            # (the observation once showed tile 0 for all but the turn's first)
            asked = int(st.queue[st.at[g], g])
            assert view.revealed[0, 0] == asked and np.flatnonzero(obs["current"]).tolist() == [asked]
            later = st.queue[st.at[g]:, g]
            assert view.revealed[0, :len(later)].tolist() == later.tolist()
            at_least_one_later = bool(st.at[g] > 0)
            seen.add(("later", at_least_one_later))
            seen.add(int(st.ask[g]))
            others = game.view(st, [(seat + 1) % 4], [g]).action_mask()[0]
            assert np.flatnonzero(others).tolist() == [104]  # pass only
        acts = np.stack([game.view(st, [p] * 256).random_legal_actions(rng) for p in range(4)])
        st, _ = game.step(st, acts)
    assert {1, 2, 3} <= seen  # every question was asked somewhere
    assert ("later", True) in seen  # also about a tile that was not the turn's first
