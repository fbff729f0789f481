"""The card scorer's attention option (agents/cards/policy.py, `scorer_attention`): the hand's
cards and the rows as one set of tokens mixed by a transformer encoder before they are scored.
Each card's score does not depend on its slot (no positions: the set's order is not a fact of
the game), empty slots are masked out, the option reaches a saved model and back through the
model file's checks (weights only), and a bad option is one line."""

from __future__ import annotations

import json
import zipfile

import numpy as np
import pytest
import torch as th

from sixnimmt_env import ConfigError
from sixnimmt_env.cards.encoding import HAND_SLOT_FEATURES
from sixnimmt_env.cards.rules import HAND_SIZE
from tests.support.model_files import with_data_edit


def _model(attention=(2, 2)):
    from training.config import TrainConfig
    from training.train import new_model
    return new_model(TrainConfig.from_dict(dict(
        name="attn", players=4, row_choice="player", max_rounds=1, observation="card-features",
        policy="card-scorer", scorer_context=[32], scorer_hidden=[16, 8], scorer_attention=list(attention),
        net_arch=[32], num_games=4, n_steps=8, batch_size=32, n_epochs=1)))


def _sharpen(net):
    """Scores are ~0 at init: make them distinct so that a change shows."""
    with th.no_grad():
        for out in (net.card_out[-1], net.row_out[-1]):
            out.weight.normal_(generator=th.Generator().manual_seed(3))
            out.bias.fill_(0.5)


class _Fixed(th.nn.Module):
    """A context module that ignores its input."""

    def __init__(self, ctx):
        super().__init__()
        self.ctx = ctx

    def forward(self, _obs):
        return self.ctx


def _slots(model, obs):
    at = model.policy.action_net.offsets["hand_slots"]
    return at, obs[:, at:at + HAND_SIZE * HAND_SLOT_FEATURES].reshape(len(obs), HAND_SIZE, HAND_SLOT_FEATURES)


def test_a_cards_score_does_not_depend_on_its_slot_and_empty_slots_are_masked():
    """The context MLP reads the flat observation (slot order included), so it is held at
    the first observation's: what is checked is the token encoder and the scatter."""
    model = _model()
    net = model.policy.action_net
    _sharpen(net)
    obs = th.as_tensor(model.env.reset())
    at, slots = _slots(model, obs)
    with th.no_grad():
        net.context = _Fixed(net.context(obs))
        logits = net(obs)
        shuffled = obs.clone()
        order = th.randperm(HAND_SIZE, generator=th.Generator().manual_seed(1))
        shuffled[:, at:at + HAND_SIZE * HAND_SLOT_FEATURES] = slots[:, order].reshape(len(obs), -1)
        assert th.allclose(net(shuffled), logits, atol=1e-5)
        # a card played: its slot emptied (id 0) -> whatever else that slot holds is not read
        emptied = shuffled.clone()
        _, s = _slots(model, emptied)
        s = s.clone()
        s[:, 0, :] = 0.0
        emptied[:, at:at + HAND_SIZE * HAND_SLOT_FEATURES] = s.reshape(len(obs), -1)
        junk = emptied.clone()
        s[:, 0, :] = 0.7
        s[:, 0, 1] = 0.0  # the id feature stays "no card"
        junk[:, at:at + HAND_SIZE * HAND_SLOT_FEATURES] = s.reshape(len(obs), -1)
        assert th.allclose(net(junk), net(emptied), atol=1e-5)
        # and the other cards' scores do read the other cards: the encoder mixes them
        assert not th.allclose(net(emptied), logits, atol=1e-4)


def test_the_option_survives_the_model_file_and_a_bad_one_is_refused(tmp_path):
    from agents.ppo import load_model
    model = _model()
    _sharpen(model.policy.action_net)
    model.learn(64)  # trains
    path = tmp_path / "attn.zip"
    model.save(path)
    loaded, _ = load_model(path)
    assert loaded.policy.action_net.encoder is not None
    obs = th.as_tensor(model.env.reset())
    with th.no_grad():
        assert th.allclose(loaded.policy.action_net(obs), model.policy.action_net(obs), atol=1e-6)

    for bad in ([2, 3], [99, 2], "x", [2]):  # heads not dividing 16, too deep, not a pair
        out = with_data_edit(path, tmp_path / "bad.zip", lambda data: data["policy_kwargs"].update(attention=bad))
        with pytest.raises(ConfigError, match="attention"):
            load_model(out)


@pytest.mark.parametrize("bad, words", [
    (dict(scorer_attention=[2, 3]), "scorer_attention"),
    (dict(scorer_attention=[0, 2]), "scorer_attention"),
    (dict(scorer_attention=[2, 2], policy="mlp"), "option of policy card-scorer"),
])
def test_bad_attention_options_are_one_line(bad, words):
    from training.config import TrainConfig
    fields = dict(name="attn", players=4, observation="card-features", policy="card-scorer",
                  scorer_hidden=[16, 8])
    with pytest.raises(ConfigError, match=words):
        TrainConfig.from_dict({**fields, **bad})


def test_without_the_option_the_scorer_and_its_file_are_as_before(tmp_path):
    model = _model(attention=())
    assert model.policy.action_net.encoder is None
    path = tmp_path / "plain.zip"
    model.save(path)
    with zipfile.ZipFile(path) as z:
        assert "attention" not in json.loads(z.read("data"))["policy_kwargs"]
    assert np.isfinite(model.policy.action_net(th.as_tensor(model.env.reset())).detach().numpy()).all()
