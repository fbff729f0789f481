"""Run directories of train and imitate through one module, and one network config.

No training here: the stages are stubbed where a run directory is all that is checked.
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from sixnimmt_env import RuleConfig
from sixnimmt_env.core.errors import ConfigError
from training.config import NETWORK_KEYS, NetworkConfig, TrainConfig
from training.imitate import ImitationConfig
from training.runs import new_run, read_run_json, resume_run, write_json


def test_new_run_writes_config_and_versions_and_refuses_a_second(tmp_path):
    cfg = TrainConfig(name="a", seed=7)
    run = new_run(tmp_path / "a", cfg)
    assert TrainConfig.from_dict(json.loads((run / "config.json").read_text())) == cfg
    versions = json.loads((run / "versions.json").read_text())
    assert versions["seed"] == 7 and "sixnimmt-lab" in versions and "python" in versions
    assert sorted(p.name for p in run.iterdir()) == ["config.json", "versions.json"]  # no temporary files
    with pytest.raises(ConfigError, match="already holds a run: resume it with --resume"):
        new_run(run, cfg)
    assert resume_run(run, TrainConfig, "training") == (run, cfg)
    with pytest.raises(ConfigError, match="holds no imitation run to resume"):
        resume_run(tmp_path / "none", ImitationConfig, "imitation")


def test_write_json_is_atomic_and_run_json_is_checked(tmp_path):
    write_json(tmp_path / "x.json", {"a": [1, 2]})
    assert read_run_json(tmp_path / "x.json", dict) == {"a": [1, 2]}
    (tmp_path / "torn.json").write_text('{"a": ')
    with pytest.raises(ConfigError, match="damaged or foreign run directory.*not JSON"):
        read_run_json(tmp_path / "torn.json", dict)
    with pytest.raises(ConfigError, match="does not hold a JSON list"):
        read_run_json(tmp_path / "x.json", list)


def test_imitation_runs_write_versions_json(tmp_path, monkeypatch):
    """An imitation run starts its directory as training does (it wrote no versions.json,
    and its config.json not atomically)."""
    import training.imitate as imitate_mod
    monkeypatch.setattr(imitate_mod, "label", lambda cfg, run, progress, backend: {"units": 0})
    monkeypatch.setattr(imitate_mod, "fit", lambda cfg, run, progress: {})
    cfg = ImitationConfig(name="im", seed=3)
    run = imitate_mod.imitate(cfg, runs_dir=tmp_path, progress=False)
    assert json.loads((run / "versions.json").read_text())["seed"] == 3
    assert ImitationConfig.from_dict(json.loads((run / "config.json").read_text())) == cfg
    assert imitate_mod.imitate(resume=run, progress=False) == run
    with pytest.raises(ConfigError, match="already holds a run"):
        imitate_mod.imitate(cfg, runs_dir=tmp_path, progress=False)


def test_one_network_config_for_training_and_imitation():
    """The network's fields and checks are written once; an imitation run's network is the
    one its PPO stage would build."""
    assert [f.name for f in dataclasses.fields(NetworkConfig)] == list(NETWORK_KEYS)
    for cls in (TrainConfig, ImitationConfig):
        assert issubclass(cls, NetworkConfig)
        assert not {"net_arch", "scorer_context", "scorer_hidden"} & set(vars(cls).get("__annotations__", {}))
    imitation = ImitationConfig(net_arch=(32,), scorer_hidden=(16,))
    assert imitation.network == imitation.train_config().network == NetworkConfig(
        policy="card-scorer", observation="card-features", net_arch=(32,), scorer_hidden=(16,))
    for cls in (TrainConfig, ImitationConfig, NetworkConfig):
        with pytest.raises(ConfigError, match="net_arch must list layer sizes"):
            cls(net_arch=(0,))
        with pytest.raises(ConfigError, match="scorer_hidden must list layer sizes"):
            cls(scorer_hidden=(True,))
    with pytest.raises(ConfigError, match="policy must be card-scorer"):
        ImitationConfig(policy="mlp")
    with pytest.raises(ConfigError, match="needs observation card-features"):
        TrainConfig(policy="card-scorer")


# A run directory's config.json as the code before NetworkConfig wrote it (flat keys, its
# order), and an imitation config.json without the policy key it did not have.
OLD_TRAIN = {"name": "old", "players": 3, "row_choice": "player", "episode": "game", "reward": "penalty",
             "num_games": 8, "net_arch": [32], "observation": "card-features", "policy": "card-scorer",
             "scorer_context": [16], "scorer_hidden": [8], "seed": 1}
OLD_IMITATION = {"name": "old-im", "players": [3, 4], "observation": "card-features", "scorer_context": [16],
                 "scorer_hidden": [8], "net_arch": [32], "seed": 2}


def test_old_configs_and_set_keys_still_work(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps(OLD_TRAIN))
    _, cfg = resume_run(tmp_path, TrainConfig, "training")
    assert cfg.network == NetworkConfig("card-scorer", "card-features", (32,), (16,), (8,))
    # from before the card rules were options: classic, the full deck, games to 66
    assert cfg.card_rules(3) == RuleConfig(players=3, row_choice="player")
    old = ImitationConfig.from_dict(OLD_IMITATION)
    assert old.policy == "card-scorer" and old.net_arch == (32,)
    assert old.card_rules(4) == RuleConfig(players=4) and old.train_config().card_rules(4) == RuleConfig(players=4)
    cfg = TrainConfig.load(None, ["net_arch=[64, 64]", "observation=card-features", "policy=card-scorer"])
    assert cfg.network.net_arch == (64, 64) and cfg.to_dict()["net_arch"] == (64, 64)
    toml = tmp_path / "im.toml"
    toml.write_text('name = "t"\nscorer_context = [8]\nplayers = [2, 10]\n')
    assert ImitationConfig.load(toml, ["scorer_hidden=[4]"]).network.scorer_hidden == (4,)
    with pytest.raises(ConfigError, match="players must list table sizes 2..10"):
        ImitationConfig(players=(11,))
