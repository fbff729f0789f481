"""The board game's learner (issue 59): the tile-set network (agents/board/tile_set.py) on
the lab's learner (its filled-in rows found by their flag columns, the same as by any
feature), its model files, the quick board recipe, `bench learner --game board`, the
bench's board default learning from every seat of its self-play games (samples per seat),
and a tile-set model beside the shipped tile scorer through `sixnimmt match`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import torch as th

QUICK = Path(__file__).resolve().parents[2] / "training" / "configs" / "quick-board.toml"
QUICK_IMITATE = QUICK.with_name("quick-board-imitate.toml")
BOARD_RUN = ["game=board", "variant=pro", "players=4", "observation=tile-features", "episode=game", "reward=points"]


def _board_model(policy="tile-set", **extra):
    from training.config import TrainConfig
    from training.train import new_model
    items = BOARD_RUN + [f"policy={policy}", "scorer_context=[32]", "scorer_hidden=[16, 16]", "net_arch=[16]",
                         "num_games=6", "n_steps=4", "torch_threads=1"]
    return new_model(TrainConfig.load(None, items + [f"{k}={v}" for k, v in extra.items()]))


def _observations(model, steps=30, seed=0):
    """Observations and masks of random play in the model's env (hand sizes and questions vary)."""
    env, rng = model.get_env(), np.random.default_rng(seed)
    obs, out, masks = env.reset(), [], []
    for _ in range(steps):
        mask = env.action_masks()
        out.append(obs)
        masks.append(mask)
        obs, _, _, _ = env.step(np.array([rng.choice(np.flatnonzero(m)) for m in mask]))
    return np.concatenate(out), np.concatenate(masks)


def test_tile_set_scores_each_sample_on_its_own_and_only_its_tiles():
    """A sample's logits and value are the same alone as in a batch (the packed rows never
    mix samples); the put-out action of a tile the seat does not hold gets no score of its own."""
    from training.lab_ppo import _forward
    model = _board_model()
    obs, _ = _observations(model)
    batch = th.as_tensor(obs)
    with th.no_grad():
        logits, values = _forward(model.policy, batch)
        for i in range(0, len(obs), 17):
            one_logits, one_value = _forward(model.policy, batch[i:i + 1])
            assert th.allclose(one_logits[0], logits[i], atol=1e-5) and th.allclose(one_value[0], values[i], atol=1e-5)
    hand = obs[:, 1:101] > 0  # the layout's `hand` multi-hot: tile t at index t
    scored = logits[:, :100].numpy() != 0
    assert (scored <= hand).all() and (scored == hand).mean() > 0.99


def test_a_row_is_read_as_filled_in_by_its_flags_exactly_when_any_feature_is_set():
    """The encoder finds the filled-in hand slots and option rows by their flag columns
    (`valid`, the one-hot answer) alone: the same rows as any non-zero feature, on the
    observations of random pro play (questions asked included)."""
    from agents.board.tile_set import _groups, _rows
    model = _board_model()
    obs = th.as_tensor(_observations(model, steps=60)[0])
    kwargs = model.policy.saved
    groups, _ = _groups(kwargs["tile_slots"], kwargs.get("options"), kwargs.get("luck_options"))
    assert len(groups) == 2
    for offset, rows, width, flags in groups:
        block = obs[:, offset:offset + rows * width].reshape(len(obs), rows, width)
        sample, row = (block != 0).any(-1).nonzero(as_tuple=True)
        assert len(sample) > 0
        features, got_sample, got_row = _rows(obs, offset, rows, width, flags)
        assert th.equal(got_sample, sample) and th.equal(got_row, row) and th.equal(features, block[sample, row])


def test_a_tile_set_model_file_reads_back_to_the_same_network(tmp_path):
    """Saved as every model is, read by the agents' model reader (nothing unpickled): the same logits."""
    from agents.board.tile_set import TileSetPolicy
    from agents.model_file import read_model
    from training.lab_ppo import _forward
    model = _board_model()
    obs = th.as_tensor(_observations(model, steps=5)[0])
    model.save(tmp_path / "m.zip")
    read = read_model(tmp_path / "m.zip")
    assert isinstance(read.policy, TileSetPolicy)
    with th.no_grad():
        assert th.allclose(_forward(read.policy, obs)[0], _forward(model.policy, obs)[0], atol=1e-6)


def test_a_tile_set_model_with_a_table_past_its_observation_is_refused(tmp_path):
    """The table's parts are read from the file: one past the observation is refused in one line."""
    import zipfile

    import pytest

    from agents.model_file import read_model
    from sixnimmt_env.core.errors import ConfigError
    model = _board_model()
    model.save(tmp_path / "m.zip")
    with zipfile.ZipFile(tmp_path / "m.zip") as z:
        entries = {name: z.read(name) for name in z.namelist()}
    data = json.loads(entries["data"])
    data["policy_kwargs"]["table"] = [[0, 10**6]]
    entries["data"] = json.dumps(data).encode()
    with zipfile.ZipFile(tmp_path / "bad.zip", "w") as z:
        for name, blob in entries.items():
            z.writestr(name, blob)
    with pytest.raises(ConfigError, match="tile-scorer options out of range"):
        read_model(tmp_path / "bad.zip")


def test_the_quick_board_recipe_fits_the_tile_set_network_then_trains_from_it_and_plays(tmp_path):
    """The quick board recipe's two stages at a tiny scale: quick-board-imitate.toml fits the
    tile-set network to the search's labels, quick-board.toml goes on with the lab's learner
    from that model (its init_model), evaluated against board-safe; the model then plays."""
    base = [sys.executable, "-m", "experiments.cli"]
    labels = ["--set", "name=qbi", "--set", "units=1", "--set", "deal_seats=4", "--set", "workers=1",
              "--set", "teacher=mcs:rollouts=2:horizon=1", "--set", "fit_epochs=1", "--set", "batch_size=64"]
    done = subprocess.run(base + ["imitate", "--config", str(QUICK_IMITATE), "--runs-dir", str(tmp_path),
                                  "--no-progress", *labels], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    fitted = json.loads((tmp_path / "qbi" / "model.json").read_text())
    assert (fitted["game"], fitted["variant"], fitted["trained"]) == ("board", "pro", "imitation")
    assert QUICK.read_text().count('init_model = "runs/quick-board-imitate/model.zip"') == 1
    tiny = ["--set", "name=qb", "--set", "self_play_games=4", "--set", "num_games=2", "--set", "n_steps=4",
            "--set", "batch_size=64", "--set", "eval_deals=1", "--set", "total_timesteps=150",
            "--set", "torch_threads=1", "--set", "checkpoint_every=100",
            "--set", f"init_model={tmp_path / 'qbi' / 'model.zip'}"]
    done = subprocess.run(base + ["train", "--config", str(QUICK), "--runs-dir", str(tmp_path), "--no-progress", *tiny],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    cfg = json.loads((tmp_path / "qb" / "config.json").read_text())
    assert (cfg["game"], cfg["variant"], cfg["learner"], cfg["policy"]) == ("board", "pro", "lab", "tile-set")
    assert cfg["init_model"].endswith("qbi/model.zip")
    header, row = (tmp_path / "qb" / "eval.csv").read_text().splitlines()
    assert header.split(",")[2] == "points_per_game" and row  # the board has no rounds (issue 63)
    from agents.arena import run_match
    from sixnimmt_env import make_game
    result = run_match([f"ppo:path={tmp_path / 'qb' / 'best.zip'}", "random", "random", "random"],
                       make_game("board", variant="pro", players=4), deals=1, seed=1)
    assert result.games == 4


def test_bench_learner_compares_the_board_recipes():
    """`bench learner --game board` at a tiny scale: the lab's tile-set recipe and the 2026-12-06 one."""
    done = subprocess.run([sys.executable, "-m", "experiments.cli", "bench", "learner", "--game", "board", "--variant",
                           "pro", "--seconds", "0.01", "--threads", "1", "--scale", "0.01", "--json"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["recipe"] for r in rows] == ["default", "2026-12-06"]
    assert [(r["learner"], r["policy"]) for r in rows] == [("lab", "tile-set"), ("sb3", "tile-scorer")]
    assert all(r["samples_per_s"] > 0 and r["samples_per_cpu_s"] > 0 and r["variant"] == "pro" for r in rows)


def test_the_board_default_recipe_learns_from_every_seat_of_its_self_play_games():
    """`bench learner`'s board default (the lab's learner, the tile-set network) at a tiny
    scale: every seat of each self-play game is a learner slot, a rollout counts a sample
    per slot and step, and the update trains on the real decisions of every seat."""
    from stable_baselines3.common.callbacks import BaseCallback

    from experiments.bench.learner import recipes, scaled
    from training import lab_ppo
    from training.config import TrainConfig
    from training.mixed_env import training_env
    from training.pool import OpponentPool
    from training.train import new_model

    small = ["scorer_context=[32]", "scorer_hidden=[16, 16]", "net_arch=[16]", "n_steps=6", "batch_size=64",
             "torch_threads=1", "pool_weights={\"random\": 1.0}"]
    cfg = TrainConfig.load(None, scaled(recipes("board", "pro")["default"], 0.01) + small)
    assert (cfg.learner, cfg.policy, cfg.self_play_games, cfg.num_games) == ("lab", "tile-set", 3, 1)
    env = training_env(cfg, OpponentPool.for_run(cfg), seed=5)
    selfplay = env.parts[0].games
    assert env.num_envs == 3 * 4 + 1
    for game in range(3):  # the four seats of every self-play game learn
        assert sorted(selfplay.slot_seats[selfplay.slot_games == game]) == [0, 1, 2, 3]
    model = new_model(cfg, env)

    class Go(BaseCallback):
        def _on_step(self):
            return True

    model._setup_learn(10**6, Go(), True, "t", False)
    callback = Go()
    callback.init_callback(model)
    rollout = lab_ppo.Rollout(cfg.n_steps, env.num_envs, env.observation_space.shape[0], env.action_space.n, "cpu")
    obs, stop = lab_ppo.collect(model, env, rollout, callback, model._last_obs)
    assert not stop and model.num_timesteps == cfg.n_steps * env.num_envs
    real = (rollout.masks.sum(-1) > 1).numpy()  # (n_steps, slots) decisions the update trains on
    per_seat = np.bincount(np.tile(selfplay.slot_seats, cfg.n_steps), weights=real[:, :12].reshape(-1), minlength=4)
    assert (per_seat > 0).all(), per_seat  # every seat's decisions are samples
    stats = lab_ppo.update(model, rollout, obs, cfg)
    assert stats["samples"] == int(real.sum())


def test_a_tile_set_model_and_a_shipped_tile_scorer_play_through_match(tmp_path):
    """A saved tile-set model plays through `sixnimmt match` beside the shipped board pro
    network (a tile scorer: the older networks still load and play)."""
    from agents.ppo import write_model_meta
    from training.bookkeeping import model_meta
    from training.config import TrainConfig
    model = _board_model()
    model.save(tmp_path / "m.zip")  # with its record, as a run writes it
    write_model_meta(tmp_path / "m.zip", model_meta(TrainConfig.load(None, BOARD_RUN + ["policy=tile-set"]), 0))
    shipped = Path(__file__).resolve().parents[2] / "agents" / "models" / "board-pro-4p.zip"
    agents = f"ppo:path={tmp_path / 'm.zip'},ppo:path={shipped},board-safe,random"
    done = subprocess.run([sys.executable, "-m", "experiments.cli", "match", "--game", "board", "--variant", "pro",
                           "--agents", agents, "--games", "1", "--seed", "3"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "m.zip" in done.stdout and "board-pro-4p.zip" in done.stdout
