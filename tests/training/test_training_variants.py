"""Training in another variant of the card game: `imitate` and `train` take the card
rules' options (variant, deck, row_choice, end_score, max_rounds), label and train in
them, and record them in the model's meta; models refuse a variant they were not
trained for, and plain `ppo`/`guided` pick a shipped model by game, variant and size.
Tiny budgets."""

from __future__ import annotations

import json
import shutil

import pytest

from sixnimmt_env import ConfigError, RuleConfig
from tests.training.test_imitation import TINY

SECHSTE = RuleConfig(players=4, variant="die-sechste", end_score=None, max_rounds=1)
CLASSIC = RuleConfig(players=4, end_score=None, max_rounds=1)
FIRST_DECK = 52  # Die Sechste at 2-4 players: one deck, card ids 1..52 (actions 0..51)


@pytest.fixture(scope="module")
def sechste_run(tmp_path_factory):
    """A Die Sechste imitation run at 4 players: 2 label units, then the fit."""
    from training.imitate import ImitationConfig, imitate
    cfg = ImitationConfig(name="sechste", players=(4,), units=2, variant="die-sechste", **TINY)
    return imitate(cfg, runs_dir=tmp_path_factory.mktemp("imitate-sechste"), progress=False)


def test_a_die_sechste_imitation_labels_die_sechste_games(sechste_run):
    from training.imitate import ImitationConfig, unit_files
    from training.labels import LabelBatch
    config = json.loads((sechste_run / "config.json").read_text())
    assert config["variant"] == "die-sechste" and config["deck"] == "full"
    assert ImitationConfig.from_dict(config).card_rules(4).variant == "die-sechste"
    batch = LabelBatch.load(unit_files(sechste_run))
    cards = batch.mask[:, :104]
    # one deck at 4 players: a classic deal would hand out cards 53..104 too
    assert cards[:, :FIRST_DECK].any() and not cards[:, FIRST_DECK:].any()
    meta = json.loads((sechste_run / "model.json").read_text())
    assert meta["variant"] == "die-sechste" and meta["deck"] == "full" and meta["players"] == [4]


def test_a_die_sechste_training_run_from_the_fitted_network(sechste_run, tmp_path):
    from agents.arena import run_match
    from agents.ppo import PPOAgent
    from training.config import TrainConfig
    from training.train import train
    cfg = TrainConfig(name="sechste-ppo", players=4, variant="die-sechste", row_choice="player", episode="game",
                      observation="card-features", policy="card-scorer", scorer_context=(32,), scorer_hidden=(16,),
                      net_arch=(32,), init_model=str(sechste_run / "model.zip"), num_games=16, n_steps=8,
                      batch_size=128, n_epochs=1, total_timesteps=300, eval_deals=2, eval_every=10**6,
                      checkpoint_every=10**6, snapshot_every=100, torch_threads=1)
    run = train(cfg, runs_dir=tmp_path, progress=False)
    assert json.loads((run / "config.json").read_text())["variant"] == "die-sechste"
    for meta in (run / "best.json", *sorted((run / "snapshots").glob("*.json"))):
        assert json.loads(meta.read_text())["variant"] == "die-sechste", meta
    agent = PPOAgent(str(run / "best.zip"))
    assert run_match([agent, "random", "random", "random"], SECHSTE, 2, 0, progress=False).games == 8
    with pytest.raises(ConfigError, match="trained for die-sechste, the table plays classic"):
        run_match([agent, "random", "random", "random"], CLASSIC, 1, 0, progress=False)


def test_a_model_refuses_a_variant_it_was_not_trained_for(sechste_run, tmp_path):
    """A classic model (its meta naming classic, or, from before the variants, no
    variant at all) is refused at a Die Sechste table; a Die Sechste model at a classic one."""
    from agents.arena import run_match
    from agents.ppo import PPOAgent
    meta = json.loads((sechste_run / "model.json").read_text())
    shutil.copy(sechste_run / "model.zip", tmp_path / "old.zip")
    (tmp_path / "old.json").write_text(json.dumps({k: v for k, v in meta.items() if k not in ("variant", "deck")}))
    old = PPOAgent(str(tmp_path / "old.zip"))
    assert run_match([old, "random", "random", "random"], CLASSIC, 1, 0, progress=False).games == 4
    with pytest.raises(ConfigError, match="trained for classic, the table plays die-sechste"):
        run_match([old, "random", "random", "random"], SECHSTE, 1, 0, progress=False)
    with pytest.raises(ConfigError, match="trained for die-sechste, the table plays classic"):
        run_match([f"guided:path={sechste_run / 'model.zip'}:worlds=2", "random", "random", "random"], CLASSIC, 1, 0,
                  progress=False)


def test_plain_ppo_and_guided_pick_a_shipped_model_by_variant(sechste_run, tmp_path, monkeypatch):
    """The classic models are not picked for Die Sechste: with none shipped for it plain
    `ppo` and `guided` say what is; with one shipped, they play it."""
    import agents.ppo as ppo
    from agents.arena import run_match
    # what ships: per game, variant and size the most specialised model
    assert ppo.shipped_model_for(4).name == "ppo-4p.zip"
    assert [ppo.shipped_model_for(p).name for p in (2, 3)] == ["imitate-2p.zip", "ppo-all.zip"]
    assert [ppo.shipped_model_for(p, variant="die-sechste").name for p in (4, 3, 10)] == \
        ["ppo-sechste-4p.zip", "imitate-sechste.zip", "imitate-sechste.zip"]
    assert ppo.shipped_model_for(4, variant="die-sechste", trained="imitation").name == "imitate-sechste.zip"
    classic_only = tmp_path / "classic"
    classic_only.mkdir()
    for name in ("ppo-4p.zip", "ppo-4p.json"):
        shutil.copy(ppo.SHIPPED_DIR / name, classic_only / name)
    monkeypatch.setattr(ppo, "SHIPPED_DIR", classic_only)
    for spec in ("ppo", "guided:worlds=2"):
        with pytest.raises(ConfigError, match=r"no shipped model plays 'cards' at 4 players in die-sechste.*"
                                              r"shipped: ppo-4p.zip \(cards classic, 4 players\)"):
            run_match([spec, "random", "random", "random"], SECHSTE, 1, 0, progress=False)
    sechste_only = tmp_path / "sechste"
    sechste_only.mkdir()
    monkeypatch.setattr(ppo, "SHIPPED_DIR", sechste_only)
    for name in ("model.zip", "model.json"):
        shutil.copy(sechste_run / name, sechste_only / name.replace("model", "sechste"))
    assert ppo.shipped_model_for(4, variant="die-sechste") == sechste_only / "sechste.zip"
    with pytest.raises(ConfigError, match="in classic"):
        ppo.shipped_model_for(4)
    for spec in ("ppo", "guided:worlds=2"):
        assert run_match([spec, "random", "random", "random"], SECHSTE, 1, 0, progress=False).games == 4


def test_rule_options_of_runs_are_checked_by_the_rules(tmp_path):
    from tests.support.fuzz_support import run_cli
    from training.config import TrainConfig
    from training.game_rules import RULE_KEYS
    from training.imitate import ImitationConfig
    for command in ("train", "imitate"):
        code, _, err = run_cli(command, "--runs-dir", tmp_path, "--set", "variant=nope")
        assert code == 2 and err.strip().splitlines() == [
            "error: invalid rule option: variant must be one of classic, die-sechste, got 'nope'"], err
    code, _, err = run_cli("imitate", "--runs-dir", tmp_path, "--backend", "nope")
    assert code == 2 and "--backend must be one of local, ray" in err
    code, _, err = run_cli("imitate", "--runs-dir", tmp_path, "--address", "auto")
    assert code == 2 and "it needs --backend ray" in err
    # the exact Die Sechste deck is one deck: for 2..4 players (each table size is checked)
    with pytest.raises(ConfigError, match="exact card count of die-sechste is for 2..4 players"):
        ImitationConfig(variant="die-sechste", deck="exact", players=(4, 5))
    with pytest.raises(ConfigError, match="set end_score or max_rounds"):
        TrainConfig(end_score=0)
    cfg = TrainConfig.load(None, ["variant=die-sechste", "deck=exact", "end_score=0", "max_rounds=3"])
    assert cfg.card_rules(4) == RuleConfig(players=4, variant="die-sechste", deck="exact", end_score=None,
                                           max_rounds=3, row_choice="cheapest")
    imitation = ImitationConfig(variant="die-sechste", max_rounds=2, players=(3,))
    assert {k: getattr(imitation.train_config(), k) for k in RULE_KEYS} == imitation.rule_fields()
    assert imitation.rule_options() == {"variant": "die-sechste", "deck": "full", "row_choice": "player",
                                        "end_score": 66, "max_rounds": 2}
