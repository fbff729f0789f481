"""Labels from a stronger teacher: `guided` as the label stage's teacher (training/labels.py
with agents/cards/guided.py `batched_estimates`) and a fit that starts from a network
(`init_model`): one step of search distillation, on tiny budgets."""

from __future__ import annotations

import numpy as np
import pytest

from sixnimmt_env import ConfigError

from .test_imitation import TINY, tiny_run  # noqa: F401 (the fixture: a fitted tiny network)


def test_guided_estimates_are_paired_differences_to_the_networks_card_with_the_trust_margin():
    """Each card's mean difference to the network's card over the same worlds plus `trust`
    standard errors; the network's own is 0; their least is the card trust plays."""
    from agents.cards.guided import GuidedSearchAgent
    agent = GuidedSearchAgent(worlds=8, trust=2.0)
    noise = np.array([0.5, -0.5] * 4)
    values = np.stack([np.stack([np.full(8, 3.0), 3.0 + noise, np.full(8, 2.9) + noise]),  # no clear find
                       np.stack([np.full(8, 3.0), np.full(8, 1.0) + noise * 0.1, np.full(8, 4.0)])])  # card 1 clearly
    net = np.array([0, 0])
    q = agent._judged(values, net)
    se = noise.std(ddof=1) / np.sqrt(8)
    assert np.allclose(q[0], [0.0, 2 * se, -0.1 + 2 * se]) and np.allclose(q[1, [0, 2]], [0.0, 1.0])
    assert q.argmin(axis=1).tolist() == agent._trusted(values, net).tolist() == [0, 1]
    assert np.allclose(GuidedSearchAgent(worlds=8, trust=0.0)._judged(values, net),
                       values.mean(axis=2) - values[:, :1].mean(axis=2))  # trust 0: the mean differences


def test_guided_teacher_labels_every_card_and_plays_its_own_rows(tiny_run, tmp_path):  # noqa: F811
    """A label unit with guided (every card searched) as teacher: every record rates all its
    legal cards, the network's card at 0 and the least at most 0; the teacher's row choices
    (not rated) are played by its network, and the games end (values to come recorded)."""
    from training.labels import label_unit
    teacher = f"guided:path={tiny_run / 'model.zip'}:worlds=4:top=0:trust=2"
    rules = dict(row_choice="player", end_score=66, max_rounds=1)
    _, batch, _, _ = label_unit(0, 3, 4, teacher, ("random",), 0, 0.0, "card-features", rules, seed=5)
    assert len(batch) > 0
    rated = ~np.isnan(batch.q)
    legal_cards = batch.mask[:, :104]
    assert (rated[:, :104] == legal_cards).all() and not rated[:, 104:].any()  # every card, never a row
    assert ((batch.q[rated.any(axis=1)] == 0) | ~rated).any(axis=1).all()  # the network's own card: 0
    assert (np.nanmin(batch.q, axis=1) <= 0).all() and (batch.ret >= 0).all()


def test_a_fit_from_init_model_starts_at_its_weights(tiny_run, tmp_path):  # noqa: F811
    """With init_model the fit starts from that network (at a vanishing step size it ends
    there too); a network of another shape is refused before the label stage; a missing
    file, a board run's guided teacher, a non-search teacher: one ConfigError each."""
    import torch as th

    from agents.ppo import load_model
    from training.imitate import ImitationConfig, imitate
    cfg = ImitationConfig(name="from", players=(3,), units=1, **{**TINY, "learning_rate": 1e-12},
                          init_model=str(tiny_run / "model.zip"))
    run = imitate(cfg, runs_dir=tmp_path, progress=False)
    fitted, _ = load_model(run / "model.zip")
    source, _ = load_model(tiny_run / "model.zip")
    for (name, a), b in zip(fitted.policy.state_dict().items(), source.policy.state_dict().values()):
        assert th.allclose(a, b, atol=1e-6), name
    fresh, _ = load_model(imitate(ImitationConfig(name="fresh", players=(3,), units=1, **TINY), runs_dir=tmp_path,
                                  progress=False) / "model.zip")
    assert not all(th.allclose(a, b, atol=1e-6) for a, b in zip(fresh.policy.state_dict().values(),
                                                                source.policy.state_dict().values()))
    other = ImitationConfig(name="other", players=(3,), units=1, **{**TINY, "scorer_hidden": (8,)},
                            init_model=str(tiny_run / "model.zip"))
    with pytest.raises(ConfigError, match="does not match"):  # before any label is made
        imitate(other, runs_dir=tmp_path, progress=False)
    assert not list((tmp_path / "other").glob("labels/unit-*.npz"))
    for bad, fragment in [(dict(init_model=str(tmp_path / "none.zip")), "no such file"),
                          (dict(game="board", teacher="guided"), "teacher must be an mcs spec"),
                          (dict(teacher="greedy"), "teacher must be an mcs or guided spec")]:
        with pytest.raises(ConfigError, match=fragment):
            ImitationConfig.from_dict(bad)
