"""The envs driven by the RL libraries researchers bring, through each library's own
PettingZoo wrapper and nothing else: the scripts of docs/examples/, run on a tiny budget,
on the card game and the board game (issue 25)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
GAMES = [("cards", {}), ("board", {})]


def example(name: str):
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(autouse=True)
def _one_thread():
    torch = pytest.importorskip("torch")
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.mark.parametrize("game,rules", GAMES, ids=[g for g, _ in GAMES])
def test_supersuit_vector_env_and_sb3_ppo(game, rules):
    pytest.importorskip("supersuit")
    ss_example = example("supersuit_sb3")
    vec = ss_example.make_vec_env(game, 3, copies=2, **rules)
    obs = vec.reset()
    # concat_vec_envs copies the env: the copies must still see their games
    assert obs["observation"].shape[0] == 6 and obs["observation"].any(axis=1).all()
    assert obs["action_mask"].any(axis=1).all()
    rng = np.random.default_rng(0)
    for _ in range(5):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, rew, done, _ = vec.step(acts)
        assert obs["observation"].any(axis=1).all()
    vec.close()
    model = ss_example.main(game, 3, steps=64, n_steps=16, **rules)
    assert model.num_timesteps >= 64


@pytest.mark.parametrize("parallel", [True, False], ids=["parallel", "aec"])
@pytest.mark.parametrize("game,rules", GAMES, ids=[g for g, _ in GAMES])
def test_torchrl_pettingzoo_wrapper_masked_rollouts(game, rules, parallel):
    pytest.importorskip("torchrl")
    td = example("torchrl_rollout").main(game, 3, steps=40, parallel=parallel, **rules)
    groups = [k for k in td.keys() if k.startswith("player")]  # parallel: one group; AEC: one per seat
    acting = []
    for name in groups:
        group = td[name]
        chosen = group["action_mask"].gather(-1, group["action"].unsqueeze(-1)).squeeze(-1)  # (T, n)
        live = group["mask"] if "mask" in group.keys() else chosen.new_ones(chosen.shape, dtype=bool)
        assert chosen[live].all(), "every acting seat's random action is legal under its mask"
        acting.append(live.sum(dim=-1))
        assert td["next", name, "info", "phase"].shape[:2] == chosen.shape
    if not parallel:  # AEC: one seat acts at a time
        assert (sum(acting) == 1).all()


@pytest.mark.parametrize("game,rules", GAMES, ids=[g for g, _ in GAMES])
def test_tianshou_masked_random_policies_and_dqn(game, rules):
    pytest.importorskip("tianshou")
    returns = example("tianshou_dqn").main(game, 3, steps=128, envs=2, **rules)
    assert set(returns) == {"dqn", "random"} and all(np.isfinite(v) for v in returns.values())


@pytest.mark.parametrize("game,rules", GAMES, ids=[g for g, _ in GAMES])
def test_cleanrl_style_ppo_on_the_vec_env(game, rules):
    history = example("cleanrl_ppo").main(game, 3, steps=1024, games=8, n_steps=16 if game == "cards" else 8,
                                          **rules)
    assert history and all(np.isfinite(history))


def test_rllib_action_masking_ppo():
    pytest.importorskip("ray.rllib", reason="RLlib is not installed (its pins clash with this venv's gymnasium)")
    results = example("rllib_ppo").main("cards", 3, iterations=1, batch=256)
    assert len(results) == 1
