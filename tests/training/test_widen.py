"""Starting a card-history network from a card-features one: the same function at first
(zero weights on the new inputs), and a network of an observation the run's does not
extend refused in one line."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from agents.ppo import action_logits, load_model
from sixnimmt_env.adapters.vec_env import SixNimmtVecEnv
from sixnimmt_env.core.errors import ConfigError
from training.config import TrainConfig
from training.train import new_model, start_from

SHIPPED = "agents/models/ppo-4p.zip"


def config(observation: str) -> TrainConfig:
    return TrainConfig.load(None, ["num_games=2", "policy=card-scorer", f"observation={observation}",
                                   "row_choice=player", "players=4", "episode=round"])


def test_a_card_history_run_starts_as_the_card_features_network():
    cfg = config("card-history")
    model = new_model(cfg)
    start_from(model, SHIPPED, cfg)
    source, _ = load_model(SHIPPED)
    env = SixNimmtVecEnv(16, rules=cfg.game_rules(4), episode="round", seed=3, observation="card-history")
    obs = env.reset()
    for _ in range(4):  # a few turns in, so the history holds cards
        obs, *_ = env.step(np.array([np.flatnonzero(m)[0] for m in env.action_masks()]))
    D = source.observation_space.shape[0]
    assert obs[:, D:].any()
    assert np.array_equal(action_logits(model.policy, obs), action_logits(source.policy, obs[:, :D]))
    with torch.no_grad():
        assert torch.equal(model.policy.predict_values(torch.as_tensor(obs)),
                           source.policy.predict_values(torch.as_tensor(obs[:, :D])))
    # the new inputs are learnable weights, zero at the start
    first = model.policy.action_net.context[0].weight
    assert first.shape[1] == obs.shape[1] and not first[:, D:].any() and first.requires_grad


def test_a_wider_network_does_not_start_a_narrower_run(tmp_path):
    wide = config("card-history")
    model = new_model(wide)
    model.save(tmp_path / "wide.zip")
    (tmp_path / "wide.json").write_text('{"game": "cards", "players": 4, "observation": "card-history"}\n')
    narrow = config("card-features")
    with pytest.raises(ConfigError, match="does not extend") as err:
        start_from(new_model(narrow), tmp_path / "wide.zip", narrow)
    assert len(str(err.value).splitlines()) == 1
