"""Model files never run code: a MaskablePPO zip is read as JSON and tensors only, wherever
it is loaded (the CLI, the agent registry the server uses, guided, training's init_model,
the league pool), and a crafted file is refused in one line (README "Security")."""

from __future__ import annotations

import base64
import json
import pickle
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from sixnimmt_env import ConfigError
from tests.support.model_files import with_data_edit

SHIPPED = Path(__file__).resolve().parents[2] / "agents" / "models" / "ppo-all.zip"


class Payload:
    """Unpickling this creates the marker file: the proof that a loader ran the file's code."""

    def __init__(self, marker: Path):
        self.marker = str(marker)

    def __reduce__(self):
        return (open, (self.marker, "w"))


def craft(tmp_path: Path, how: str) -> tuple[Path, Path]:
    """A copy of a shipped model with a payload: in the pickled part of `data` (what SB3's
    own load unpickles), as the weights, or as an extra entry; (zip, marker)."""
    marker = tmp_path / f"ran-{how}"
    bomb = pickle.dumps(Payload(marker))
    out = tmp_path / f"crafted-{how}.zip"
    with zipfile.ZipFile(SHIPPED) as z, zipfile.ZipFile(out, "w") as w:
        for name in z.namelist():
            raw = z.read(name)
            if name == "data" and how == "data":
                data = json.loads(raw)
                data["observation_space"][":serialized:"] = base64.b64encode(bomb).decode()
                raw = json.dumps(data).encode()
            if name == "policy.pth" and how == "weights":
                raw = bomb
            w.writestr(name, raw)
        if how == "extra":
            w.writestr("extra.pkl", bomb)
    out.with_suffix(".json").write_text(SHIPPED.with_suffix(".json").read_text())
    return out, marker


HOW = ["data", "weights", "extra"]


@pytest.mark.parametrize("how", HOW)
def test_the_cli_refuses_a_crafted_model_and_runs_none_of_it(tmp_path, how):
    model, marker = craft(tmp_path, how)
    result = subprocess.run([sys.executable, "-m", "experiments.cli", "match", "--agents",
                             f"ppo:path={model},random,random,random", "--games", "1", "--max-rounds", "1"],
                            capture_output=True, text=True, timeout=300)
    assert not marker.exists()
    if how == "data":  # the pickled fields are never read: the weights are fine, it plays
        assert result.returncode == 0, result.stderr
    else:
        assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert "agent ppo:" in result.stderr


@pytest.mark.parametrize("how", HOW)
def test_every_loader_refuses_or_ignores_the_payload(tmp_path, how):
    """The registry (what the server builds agents with), guided, init_model and the pool."""
    from agents.registry import make_agent
    from training.config import TrainConfig
    from training.pool import OpponentPool
    from training.train import new_model, start_from

    model, marker = craft(tmp_path, how)
    cfg = TrainConfig.load(None, ["num_games=2", "policy=card-scorer", "observation=card-features",
                                  "row_choice=player", "players=4", "net_arch=[256, 256]"])
    loads = [lambda: make_agent(f"ppo:path={model}"), lambda: make_agent(f"guided:path={model}"),
             lambda: start_from(new_model(cfg), model),
             lambda: OpponentPool({}, {}, 4).add_snapshot(model)]
    for load in loads:
        if how == "data":
            load()
        else:
            with pytest.raises(ConfigError, match="agent ppo"):
                load()
    assert not marker.exists()


def test_the_read_policy_plays_as_the_saved_one():
    """The rebuilt network gives the saved policy's actions (the shipped model's argmax on
    a batch of observations, against its own value head as a second check)."""
    import numpy as np
    import torch

    from agents.ppo import load_model

    model, _ = load_model(SHIPPED)
    obs = np.random.default_rng(0).random((64, model.observation_space.shape[0]), dtype=np.float32)
    masks = np.ones((64, model.action_space.n), dtype=bool)
    actions, _ = model.predict(obs, deterministic=True, action_masks=masks)
    logits = model.policy.get_distribution(torch.as_tensor(obs), action_masks=masks).distribution.logits
    assert (actions == logits.argmax(dim=1).numpy()).all()


def test_a_model_of_another_architecture_is_refused(tmp_path):
    out = with_data_edit(SHIPPED, tmp_path / "other.zip",
                         lambda data: data["policy_kwargs"].update(activation_fn="<class 'torch.nn.ReLU'>"))
    from agents.ppo import load_model
    with pytest.raises(ConfigError, match="policy options activation_fn"):
        load_model(out)


def test_a_huge_network_is_refused_before_it_is_built(tmp_path, monkeypatch):
    """A 1.9 MB zip whose data asks for `net_arch = [8192] * 4` cost minutes and ~3 GB
    before its weights failed to fit: it is refused from its data alone, before the weights
    are read or a layer is made (torch's Linear and the zip reader are watched); and a zip
    whose directory lists an entry past the limits is refused before any entry is read."""
    import torch

    from agents import model_file
    from agents.ppo import load_model

    out = with_data_edit(SHIPPED, tmp_path / "huge.zip",
                         lambda data: data.update(policy_kwargs={"net_arch": [8192] * 4}))
    made, read = [], []
    real_init, real_open = torch.nn.Linear.__init__, zipfile.ZipFile.open
    monkeypatch.setattr(torch.nn.Linear, "__init__", lambda self, *a, **k: made.append(a) or real_init(self, *a, **k))
    monkeypatch.setattr(zipfile.ZipFile, "open", lambda self, name, *a, **k: read.append(str(name)) or real_open(self, name, *a, **k))
    with pytest.raises(ConfigError, match="network of at least .* weights"):
        load_model(out)
    assert made == [] and "policy.pth" not in read and read.count("data") == 1
    big = tmp_path / "big.zip"
    with zipfile.ZipFile(SHIPPED) as z, zipfile.ZipFile(big, "w", zipfile.ZIP_DEFLATED) as w:
        for name in z.namelist():
            raw = z.read(name)
            w.writestr(name, raw + b"\0" * (model_file.MAX_WEIGHTS_BYTES if name == "policy.pth" else 0))
    read.clear()
    with pytest.raises(ConfigError, match="policy.pth unpacks to more than"):
        load_model(big)
    assert read == [] and made == []
