"""The lab's learner (training/lab_ppo.py), all-seat self-play, `bench learner` and
`distill` (issue 59)."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
import torch as th


def _all_seat_env(n=8, seed=3):
    from sixnimmt_env.adapters.vec_env import SixNimmtVecEnv
    return SixNimmtVecEnv(n, players=4, learners=4, reward="penalty", episode="round", seed=seed,
                          observation="card-features", row_choice="player")


def test_every_seat_learns_and_its_rewards_sum_to_its_points():
    """In a self-play game every seat is a slot; over an episode a slot's rewards sum to
    minus the bullheads its seat took, and its observation holds its own hand only."""
    env = _all_seat_env()
    assert env.num_envs == 8 * 4
    layout = env.games.layout
    obs, rng = env.reset(), np.random.default_rng(0)
    sums = np.zeros(env.num_envs)
    checked = 0
    while checked < 2 * env.num_envs:
        seats, games = env.games.slot_seats.copy(), env.games.slot_games.copy()
        hands = env.games.game.view(env.games.state, seats, games).hand  # (slots, H) each slot's own hand
        held = obs[:, layout.slice("hand")]
        for i in range(env.num_envs):
            mine = set(int(c) for c in hands[i] if c > 0)
            assert set(np.flatnonzero(held[i]).tolist()) == mine  # its own cards, nobody else's
        mask = env.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        obs, rewards, dones, infos = env.step(actions)
        sums += rewards
        for i in np.flatnonzero(dones):
            assert sums[i] == pytest.approx(-infos[i]["final_totals"][seats[i]])
            sums[i] = 0
            checked += 1


def _tiny_cfg(**extra):
    from training.config import TrainConfig
    items = ["players=4", "row_choice=player", "observation=card-features", "policy=card-scorer", "learner=lab",
             "self_play_games=8", "num_games=4", "n_steps=8", "batch_size=128", "n_epochs=2", "eval_deals=2",
             "checkpoint_every=400", "eval_every=800", "snapshot_every=600", "torch_threads=1",
             'pool_weights={"random": 1.0}']
    return TrainConfig.load(None, items + [f"{k}={v}" for k, v in extra.items()])


def test_the_update_learns_from_real_decisions_only():
    """Forced decisions (one legal action) are collected but not trained on."""
    from stable_baselines3.common.callbacks import BaseCallback

    from training import lab_ppo
    from training.mixed_env import training_env
    from training.pool import OpponentPool
    from training.train import new_model

    cfg = _tiny_cfg()
    env = training_env(cfg, OpponentPool({"random": 1}, {"random": ["random"]}, 4), seed=0)
    model = new_model(cfg, env)

    class Go(BaseCallback):
        def _on_step(self):
            return True

    model._setup_learn(10**6, Go(), True, "t", False)
    rollout = lab_ppo.Rollout(cfg.n_steps, env.num_envs, env.observation_space.shape[0], env.action_space.n, "cpu")
    callback = Go()
    callback.init_callback(model)
    obs, stop = lab_ppo.collect(model, env, rollout, callback, model._last_obs)
    assert not stop and model.num_timesteps == cfg.n_steps * env.num_envs
    real = int((rollout.masks.sum(-1) > 1).sum())
    before = [p.detach().clone() for p in model.policy.parameters()]
    stats = lab_ppo.update(model, rollout, obs, cfg)
    assert stats["samples"] == real < cfg.n_steps * env.num_envs  # some forced, dropped
    assert any(not th.equal(a, b) for a, b in zip(before, model.policy.parameters()))


def test_a_lab_run_resumes_with_its_sample_count(tmp_path):
    """A lab-learner run, resumed with a larger budget, goes on from its checkpoint's
    sample count and evaluates each step once."""
    from training.train import train

    run = train(_tiny_cfg(name="lab", total_timesteps=1200), runs_dir=tmp_path, progress=False)
    first = json.loads((run / (run / "latest").read_text() / "state.json").read_text())["timesteps"]
    assert first >= 1200
    train(resume=run, overrides=["total_timesteps=2400"], progress=False)
    state = json.loads((run / (run / "latest").read_text() / "state.json").read_text())
    assert state["timesteps"] >= 2400 and state["timesteps"] % first == 0 or state["timesteps"] > first
    steps = [int(line.split(",")[0]) for line in (run / "eval.csv").read_text().splitlines()[1:]]
    assert steps == sorted(set(steps)) and steps[-1] == state["timesteps"]
    # a complete run's resume trains nothing more
    train(resume=run, progress=False)
    again = json.loads((run / (run / "latest").read_text() / "state.json").read_text())
    assert again["timesteps"] == state["timesteps"]


def test_a_student_learns_a_fixed_teachers_moves():
    """The distillation fit brings a tiny student to the teacher's moves on a handful of positions."""
    from sixnimmt_env.adapters.vec_env import SixNimmtVecEnv
    from training.distill import DistillConfig, _fit
    from training.lab_ppo import masked_log_probs
    from training.train import new_model

    th.manual_seed(0)
    cfg = DistillConfig(scorer_attention=(), scorer_context=(32, 16), scorer_hidden=(16, 8), net_arch=(16,),
                        n_epochs=100, batch_size=64, learning_rate=3e-3, row_choice="player")
    env = SixNimmtVecEnv(8, players=4, learners=4, reward="penalty", episode="round", seed=5,
                         observation="card-features", row_choice="player")
    student = new_model(cfg.train_config(), env)
    for group in student.policy.optimizer.param_groups:
        group["lr"] = cfg.learning_rate
    obs, mask = th.as_tensor(env.reset()), th.as_tensor(env.action_masks())
    # a fixed teacher that prefers low cards: logits falling with the action (card id - 1)
    logits = -0.5 * th.arange(mask.shape[1], dtype=th.float32).expand(mask.shape[0], -1)
    # a value in whole-round bullheads (squared errors in the hundreds): it must not hold the policy back
    data = {"obs": obs, "mask": mask, "logp": masked_log_probs(logits, mask), "value": th.full((len(obs),), -40.0)}
    _, before, _ = _fit(student.policy, student.policy.optimizer, data, cfg)
    for _ in range(2):
        _fit(student.policy, student.policy.optimizer, data, cfg)
    kl, after, _ = _fit(student.policy, student.policy.optimizer, data, cfg)
    assert after >= 0.9 > before


def test_a_wider_student_starts_as_its_teacher():
    """init_from_teacher: the teacher's weights inside a wider card scorer give the same
    logits and value (and a student it cannot hold is refused)."""
    from sixnimmt_env.adapters.vec_env import SixNimmtVecEnv
    from sixnimmt_env.core.errors import ConfigError
    from training.distill import DistillConfig, _start_from
    from training.lab_ppo import _forward
    from training.train import new_model

    th.manual_seed(1)
    env = SixNimmtVecEnv(8, players=4, learners=4, reward="penalty", episode="round", seed=5,
                         observation="card-features", row_choice="player")
    small = dict(scorer_attention=(), scorer_context=(32, 16), scorer_hidden=(16, 8), net_arch=(16,))
    teacher = new_model(DistillConfig(**small).train_config(), env).policy
    with th.no_grad():  # a teacher with a say: a fresh network's logits are all near 0
        for p in teacher.parameters():
            p.add_(0.3 * th.randn_like(p))
    wide = dict(small, scorer_context=(48, 24), scorer_hidden=(24, 12))
    student = new_model(DistillConfig(**wide).train_config(), env).policy
    obs = th.as_tensor(env.reset())
    with th.no_grad():
        want, before = _forward(teacher, obs), _forward(student, obs)
        _start_from(student, teacher, "teacher")
        got = _forward(student, obs)
    assert not th.allclose(before[0], want[0], atol=1e-3)
    assert th.allclose(got[0], want[0], atol=1e-5) and th.allclose(got[1], want[1], atol=1e-5)
    narrow = new_model(DistillConfig(**dict(small, scorer_hidden=(8, 8))).train_config(), env).policy
    with pytest.raises(ConfigError, match="init_from_teacher"):
        _start_from(narrow, teacher, "teacher")


def test_distill_command_writes_a_student_that_plays(tmp_path):
    from agents.ppo import PPOAgent
    done = subprocess.run([sys.executable, "-m", "experiments.cli", "distill", "--runs-dir", str(tmp_path),
                           "--no-progress", "--set", "minutes=0.05", "--set", "num_games=8", "--set", "n_steps=2",
                           "--set", "batch_size=64", "--set", "scorer_attention=[]"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "fine-tune" in done.stdout
    _assert_hint_builds_the_student(done.stdout.split("fine-tune it with PPO: ", 1)[1],
                                    json.loads((tmp_path / "distill" / "config.json").read_text()))
    rows = (tmp_path / "distill" / "distill.csv").read_text().splitlines()
    assert rows[0] == "samples,wall_s,kl,agreement,value_mse,play_s,fit_s" and len(rows) >= 2
    assert PPOAgent(str(tmp_path / "distill" / "model.zip")).meta["distilled_from"].endswith("ppo-4p.zip")



def _assert_hint_builds_the_student(hint: str, student: dict) -> None:
    """The fine-tune command `hint` builds the student's network for the student's games and
    starts from its model.zip."""
    import shlex

    from training.config import TrainConfig
    from training.distill import FINETUNE_MATCH_KEYS, DistillConfig
    words = shlex.split(hint)
    assert words[:2] == ["sixnimmt", "train"]
    config = words[words.index("--config") + 1] if "--config" in words else None
    sets = [words[i + 1] for i, w in enumerate(words) if w == "--set"]
    built = TrainConfig.load(config, sets).to_dict()
    want = DistillConfig.from_dict(student).train_config().to_dict()
    assert {k: built[k] for k in FINETUNE_MATCH_KEYS} == {k: want[k] for k in FINETUNE_MATCH_KEYS}
    assert built["init_model"].endswith("/model.zip")


@pytest.mark.parametrize("distill_config, finetune", [("distill-4p.toml", "finetune-4p.toml"),
                                                      ("distill-4p-b.toml", "finetune-4p-b.toml"),
                                                      ("distill-4p-c.toml", "finetune-4p-b.toml"),
                                                      (None, "finetune-4p.toml")])
def test_distills_closing_hint_names_the_finetune_of_its_student(distill_config, finetune):
    """`sixnimmt distill`'s closing hint fine-tunes the student it made: the wider MLP student
    (distill-4p-b/-c) gets finetune-4p-b.toml (whose network is its own), the attention one
    finetune-4p.toml, and a student no config fits gets `--set` for what differs."""
    from training.distill import DistillConfig, finetune_command
    path = None if distill_config is None else f"training/configs/{distill_config}"
    sets = [] if path else ["scorer_attention=[]", "scorer_hidden=[64]"]  # an odd student
    cfg = DistillConfig.load(path, sets)
    hint = finetune_command(cfg, f"runs/{cfg.name}")
    assert f"--config training/configs/{finetune}" in hint and f"init_model=runs/{cfg.name}/model.zip" in hint
    assert hint.count("--set") == (3 if path is None else 1)  # the odd student's two differences, init_model
    _assert_hint_builds_the_student(hint, cfg.to_dict())

def test_bench_learner_prints_both_recipes():
    done = subprocess.run([sys.executable, "-m", "experiments.cli", "bench", "learner", "--seconds", "0.01",
                           "--threads", "1", "--scale", "0.005", "--json"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["recipe"] for r in rows] == ["default", "2026-12-06"]
    assert [r["learner"] for r in rows] == ["lab", "sb3"] and all(r["samples_per_s"] > 0 for r in rows)


def test_bench_learner_refuses_a_bad_recipe():
    done = subprocess.run([sys.executable, "-m", "experiments.cli", "bench", "learner", "--recipe", "nope"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "unknown recipe" in done.stderr and "Traceback" not in done.stderr


def test_device_flag_is_saved_and_checked(tmp_path):
    """`train --device cpu` trains there and says so in config.json; an unknown device is one line."""
    base = [sys.executable, "-m", "experiments.cli", "train", "--runs-dir", str(tmp_path), "--no-progress"]
    tiny = ["--set", "name=dev", "--set", "learner=lab", "--set", "self_play_games=4", "--set", "num_games=2",
            "--set", "n_steps=4", "--set", "batch_size=64", "--set", "eval_deals=1", "--set", "total_timesteps=100",
            "--set", "torch_threads=1"]
    done = subprocess.run(base + ["--device", "cpu"] + tiny, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads((tmp_path / "dev" / "config.json").read_text())["device"] == "cpu"
    bad = subprocess.run(base + ["--device", "gpu"] + tiny[:-2], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "device must be one of" in bad.stderr and "Traceback" not in bad.stderr
