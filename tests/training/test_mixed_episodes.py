"""`game_share`: one run whose games are split between one-round episodes and whole games
(training/mixed_env.py). The round slots end after one round, the game slots only at the
game's end; the run trains, resumes and records the share; bad shares are refused."""

from __future__ import annotations

import json

import numpy as np
import pytest

from sixnimmt_env import ConfigError

TINY = ["num_games=8", "n_steps=16", "batch_size=128", "n_epochs=1", "eval_deals=2",
        "checkpoint_every=500", "eval_every=1000", "snapshot_every=800", "torch_threads=1"]


def _cfg(*more):
    from training.config import TrainConfig
    return TrainConfig.load(None, TINY + ["name=mixed", "players=4", *more])


def _random_legal(masks, rng):
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


def test_round_slots_end_each_round_and_game_slots_play_to_the_end():
    from training.mixed_env import ConcatVecEnv, training_env
    from training.pool import OpponentPool

    cfg = _cfg("game_share=0.25", "max_rounds=3")
    pool = OpponentPool({"random": 1.0}, {"random": ["random"], "heuristics": [], "search": []}, 4, 1)
    env = training_env(cfg, pool, seed=7)
    assert isinstance(env, ConcatVecEnv) and env.num_envs == 8
    env.reset()
    rng = np.random.default_rng(0)
    lengths, steps = {i: [] for i in range(8)}, np.zeros(8, int)
    totals = {i: [] for i in range(8)}
    for _ in range(120):
        _, _, dones, infos = env.step(_random_legal(env.action_masks(), rng))
        assert len(infos) == 8 and env.env_method("action_masks", indices=[0, 7])[1].shape == (env.action_space.n,)
        steps += 1
        for i in np.flatnonzero(dones):
            lengths[i].append(int(steps[i]))
            totals[i].append(sum(infos[i]["final_totals"]))
            assert "terminal_observation" in infos[i]
            steps[i] = 0
    round_slots, game_slots = range(6), range(6, 8)  # 0.25 of 8 games play whole games, the last slots
    # a round is 10 decisions of the learner; a whole game here is up to 3 rounds (max_rounds)
    assert all(n == 10 for i in round_slots for n in lengths[i]) and all(lengths[i] for i in round_slots)
    game_lengths = [n for i in game_slots for n in lengths[i]]
    assert game_lengths and all(n in (10, 20, 30) for n in game_lengths)  # whole rounds, 66 may end it early
    assert game_lengths.count(30) >= len(game_lengths) // 2
    # the penalty points of a whole game are those of several rounds: more than one round can give
    assert max(t for i in game_slots for t in totals[i]) > max(t for i in round_slots for t in totals[i]) / 2
    env.close()


def test_a_mixed_run_trains_resumes_and_records_its_share(tmp_path):
    from training.train import train

    run = train(_cfg("game_share=0.5", "total_timesteps=1000"), runs_dir=tmp_path, progress=False)
    assert json.loads((run / "config.json").read_text())["game_share"] == 0.5
    assert json.loads((run / "best.json").read_text())["game_share"] == 0.5
    rows = (run / "eval.csv").read_text().strip().splitlines()
    assert len(rows) >= 2
    run = train(resume=run, progress=False, overrides=["total_timesteps=2000"])
    assert int((run / "eval.csv").read_text().strip().splitlines()[-1].split(",")[0]) >= 2000


def test_the_whole_games_draw_their_opponents_by_their_own_weights():
    from training.mixed_env import training_env
    from training.pool import OpponentPool

    cfg = _cfg("game_share=0.5", 'pool_weights={"random": 1}', 'game_pool_weights={"heuristics": 1}')
    pool = OpponentPool(cfg.pool_weights, {"random": ["random"], "heuristics": ["lowest", "greedy"], "search": []}, 4, 2)
    env = training_env(cfg, pool, seed=3)
    rounds, games = (p.games.opponent_index for p in env.parts)
    assert {pool.group_of[i] for i in rounds.ravel()} == {"random"}
    assert {pool.group_of[i] for i in games.ravel()} == {"heuristics"}
    # the view shares the pool's agents (append-only): a later snapshot is drawable by it too
    assert env.parts[1].games.opponents.agents is pool.agents


def test_self_play_games_split_by_the_share_too():
    """With all-seat self-play games, the share applies to them as well: some of them play
    whole games at every seat, the rest one round; the league's games split as before."""
    from training.mixed_env import ConcatVecEnv, training_env
    from training.pool import OpponentPool

    cfg = _cfg("game_share=0.25", "max_rounds=3", "self_play_games=4")
    pool = OpponentPool({"random": 1.0}, {"random": ["random"], "heuristics": [], "search": []}, 4, 1)
    env = training_env(cfg, pool, seed=11)
    assert isinstance(env, ConcatVecEnv)
    # self-play: 3 round games and 1 whole game, 4 learning seats each; league: 6 rounds, 2 games
    assert [p.num_envs for p in env.parts] == [12, 4, 6, 2]
    assert [p.games.learners for p in env.parts] == [4, 4, 1, 1]
    env.reset()
    rng = np.random.default_rng(1)
    lengths, steps = {i: [] for i in range(env.num_envs)}, np.zeros(env.num_envs, int)
    for _ in range(100):
        _, _, dones, _ = env.step(_random_legal(env.action_masks(), rng))
        steps += 1
        for i in np.flatnonzero(dones):
            lengths[i].append(int(steps[i]))
            steps[i] = 0
    rounds = [n for i in (*range(0, 12), *range(16, 22)) for n in lengths[i]]
    games = [n for i in (*range(12, 16), *range(22, 24)) for n in lengths[i]]
    assert rounds and set(rounds) == {10}
    assert games and all(n in (10, 20, 30) for n in games) and 30 in games
    env.close()


@pytest.mark.parametrize("options, message", [
    (["game_share=1.0"], r"game_share must be in \[0, 1\)"),
    (["game_share=-0.1"], r"game_share must be in \[0, 1\)"),
    (["game_share=0.5", "episode=game"], "game_share needs episode"),
    (["game_share=0.5", "num_games=1"], "num_games >= 2"),
    (["game_share=0.5", "self_play_games=1"], "self_play_games = 0 or >= 2"),
    (['game_pool_weights={"heuristics": 1}'], "game_pool_weights needs game_share"),
    (["game_share=0.5", 'game_pool_weights={"heuristic": 1}'], "unknown pool group.*game_pool_weights"),
    (["game_share=0.5", 'game_pool_weights={"random": 0}'], "game_pool_weights must give"),
])
def test_bad_shares_are_refused(options, message):
    with pytest.raises(ConfigError, match=message):
        _cfg(*options)
