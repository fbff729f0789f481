"""Learning from search (training/labels.py, training/imitate.py), training from a fitted
network (init_model), the shipped models' choice by table size, batched mcs and the
guided search (agents/cards/guided.py), all on tiny budgets."""

from __future__ import annotations

import copy
import json
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from sixnimmt_env import ConfigError, RuleConfig

TINY = dict(teacher="mcs:rollouts=4", deal_seats=6, label_minutes=5.0, fit_minutes=0.05, workers=1,
            torch_threads=1, scorer_context=(32,), scorer_hidden=(16,), net_arch=(32,), batch_size=512)


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    """An imitation run over 3 and 5 players: 3 label units, then the fit."""
    from training.imitate import ImitationConfig, imitate
    cfg = ImitationConfig(name="tiny", players=(3, 5), units=3, **TINY)
    return imitate(cfg, runs_dir=tmp_path_factory.mktemp("imitate"), progress=False)


def test_imitation_run_writes_its_config_labels_and_model(tiny_run):
    from training.labels import LabelBatch
    config = json.loads((tiny_run / "config.json").read_text())
    assert config["players"] == [3, 5] and config["teacher"] == "mcs:rollouts=4"
    units = sorted((tiny_run / "labels").glob("unit-*.npz"))
    assert [p.name for p in units] == ["unit-00000.npz", "unit-00001.npz", "unit-00002.npz"]
    batch = LabelBatch.load(units)
    assert set(np.unique(batch.players)) == {3, 5}
    rated = ~np.isnan(batch.q)
    assert (rated.sum(axis=1) >= 2).all()  # only decisions with a choice are labelled
    assert not (rated & ~batch.mask).any()  # the teacher rates legal actions only
    assert (batch.ret >= 0).all() and (batch.ret <= batch.ret_game).all()
    meta = json.loads((tiny_run / "model.json").read_text())
    assert meta["players"] == [3, 5] and meta["trained"] == "imitation" and meta["row_choice"] == "player"
    report = json.loads((tiny_run / "report.json").read_text())
    assert report["fit"]["records"] + report["fit"]["held_out"] >= len(batch) - report["fit"]["held_out"]


def test_label_files_load_in_order_and_a_foreign_file_is_refused(tiny_run, tmp_path):
    """LabelBatch.load fills one array per field from the files in order (what each file
    holds, end to end); a file that is not a label file, or of other shapes, is a ConfigError."""
    from sixnimmt_env.core.errors import ConfigError
    from training.labels import LABEL_FIELDS, LabelBatch
    units = sorted((tiny_run / "labels").glob("unit-*.npz"))
    batch = LabelBatch.load(units[::-1])
    parts = [np.load(u) for u in units[::-1]]
    for k in LABEL_FIELDS:
        assert batch.__dict__[k].dtype == parts[0][k].dtype
        assert np.array_equal(batch.__dict__[k], np.concatenate([z[k] for z in parts]), equal_nan=True)
    (tmp_path / "other.npz").write_bytes(b"not a zip")
    np.savez(tmp_path / "narrow.npz", **{k: v[:, :3] if k == "obs" else v for k, v in parts[0].items()})
    for bad in ("other.npz", "narrow.npz"):
        with pytest.raises(ConfigError, match="label file"):
            LabelBatch.load([units[0], tmp_path / bad])


def test_the_fit_holds_observations_as_the_files_do_and_feeds_float32(tiny_run):
    """The fit keeps the label files' float16 observations (a 45-minute board label stage
    fits in memory only so) and makes each minibatch float32; targets centre on rated actions."""
    import torch as th

    from training.imitate import _minibatch, _tensors
    from training.labels import LabelBatch
    batch = LabelBatch.load(sorted((tiny_run / "labels").glob("unit-*.npz")))
    tensors = _tensors(batch, tau=2.0)
    assert tensors[0].dtype == th.float16 and np.shares_memory(tensors[0].numpy(), batch.obs)
    obs, rated, target, ret = _minibatch(tensors, th.arange(5))
    assert obs.dtype == th.float32 and th.equal(obs, th.from_numpy(batch.obs[:5].astype(np.float32)))
    assert th.equal(rated, th.from_numpy(~np.isnan(batch.q[:5])))
    assert np.allclose(target.numpy()[rated.numpy()], -batch.q[:5][~np.isnan(batch.q[:5])] / 2.0)


def test_label_targets_are_the_teachers_estimates_and_the_bullheads_to_come():
    """One unit with the teacher in every seat and no exploration: every labelled card is
    the teacher's own estimate (lower is better); the value targets add up: along a
    seat's round the bullheads still to come never grow."""
    from agents.arena import play_duplicate
    from agents.cards.search import MonteCarloAgent
    from sixnimmt_env.core.game import make_game
    from sixnimmt_env.core.rng import game_seeds
    from training.labels import Labeller

    labeller = Labeller(MonteCarloAgent(rollouts=8), "card-features", explore=0.0)
    game = make_game("cards", players=4, row_choice="player", end_score=30)
    rows, *_ = play_duplicate(["teacher"] * 4, {"teacher": labeller}, game, game_seeds(3, 2),
                              np.random.default_rng(0), observers=labeller.observers)
    batch = labeller.batch(np.array([r["totals"] for r in rows]).T, game)
    assert len(batch) > 100
    games, seats, rounds, so_far = (np.concatenate(p) for p in list(zip(*labeller.records))[3:])
    for g in range(8):
        for s in range(4):
            pick = (games == g) & (seats == s) & (rounds == 0)
            left = batch.ret[pick]
            assert (np.diff(left) <= 0).all() and (np.diff(so_far[pick]) >= 0).all()
            assert np.allclose(left + so_far[pick], labeller.round_ends.totals[(g, 0)][s])


def test_batched_estimates_agree_with_one_entry_at_a_time():
    """card_estimates_many over several entries estimates what card_estimates does for
    each (the same search; only the random draws differ)."""
    from agents.cards.search import MonteCarloAgent
    from sixnimmt_env.cards.engine import new_games
    from sixnimmt_env.cards.seat_view import SeatView

    st = new_games(RuleConfig(players=4), np.arange(3, dtype=np.uint64))
    view = SeatView(st, np.array([0, 1, 2, 3, 0, 1]), np.array([0, 0, 1, 1, 2, 2]))
    mcs = MonteCarloAgent(rollouts=3000)
    many = mcs.card_estimates_many(view, np.arange(6), np.random.default_rng(1))
    for e, (hand, means) in enumerate(many):
        alone_hand, alone = mcs.card_estimates(view, e, np.random.default_rng(2 + e))
        assert (hand == alone_hand).all()
        assert np.abs(means - alone).max() < 1.0


def test_batched_mcs_plays_legal_moves_and_as_well():
    from agents.arena import run_match
    rules = RuleConfig(players=4, row_choice="player", end_score=None, max_rounds=1)
    result = run_match(["mcs:rollouts=20:batched=true", "random", "random", "random"], rules, 40, 1,
                       progress=False)
    me = next(a for a in result.agents if a.name.startswith("mcs"))
    rand = next(a for a in result.agents if a.name == "random")
    assert me.points_per_round + me.points_ci < rand.points_per_round


def test_imitation_resumes_after_a_kill(tmp_path):
    """SIGKILL during the label stage: the units on disk are kept and the resumed run
    adds the rest, then fits."""
    args = [sys.executable, "-m", "experiments.cli", "imitate", "--runs-dir", str(tmp_path), "--no-progress",
            "--set", "name=killed", "--set", "units=3", "--set", "players=[4]"]
    for key, value in TINY.items():
        args += ["--set", f"{key}={json.dumps(list(value)) if isinstance(value, tuple) else value}"]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    labels = tmp_path / "killed" / "labels"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not list(labels.glob("unit-*.npz")):
        time.sleep(0.2)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    kept = {p.name: p.stat().st_mtime for p in labels.glob("unit-*.npz") if ".tmp" not in p.name}
    assert kept and not (tmp_path / "killed" / "model.zip").exists()
    out = subprocess.run([sys.executable, "-m", "experiments.cli", "imitate", "--resume", str(tmp_path / "killed"),
                          "--no-progress"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    after = {p.name: p.stat().st_mtime for p in labels.glob("unit-*.npz")}
    assert sorted(after) == [f"unit-{i:05d}.npz" for i in range(3)]
    assert all(after[name] == mtime for name, mtime in kept.items())  # not labelled again
    assert (tmp_path / "killed" / "model.zip").exists()


def test_imitation_config_errors():
    from training.imitate import ImitationConfig
    for bad, fragment in [(dict(players=(1,)), "table sizes 2..10"), (dict(teacher="greedy"), "teacher must be an mcs or guided spec"),
                          (dict(teacher="mcs:rollouts=x"), "not a valid int"), (dict(field=("nobody",)), "unknown agent"),
                          (dict(explore=2.0), "explore"), (dict(units=0), "units"), (dict(name="a/b"), "directory")]:
        with pytest.raises(ConfigError, match=fragment):
            ImitationConfig(**bad)
    with pytest.raises(ConfigError, match="unknown imitation option"):
        ImitationConfig.load(None, ["rollouts=3"])
    with pytest.raises(ConfigError, match="players must be a list, got 4"):
        ImitationConfig.load(None, ["players=4"])
    with pytest.raises(ConfigError, match="workers must be a whole number"):
        ImitationConfig.from_dict({"workers": 1.5})


def test_fitted_model_plays_legal_moves_at_its_table_sizes_rows_included(tiny_run):
    from agents.arena import run_match
    from agents.ppo import PPOAgent
    agent = PPOAgent(str(tiny_run / "model.zip"))
    for players in (3, 5):
        rules = RuleConfig(players=players, row_choice="player", end_score=None, max_rounds=2)
        result = run_match([agent] + ["random"] * (players - 1), rules, 6, 0, progress=False)
        assert result.games == 6 * players  # run_match refuses illegal actions
    with pytest.raises(ConfigError, match="trained for 3, 5 players, the table has 4"):
        run_match([agent, "random", "random", "random"], RuleConfig(players=4), 1, 0, progress=False)


def test_the_model_makes_its_own_row_choices(tiny_run):
    """Under row_choice=player the network is asked for rows: at a chooser's turn its
    actions are row actions among the allowed rows."""
    from agents.ppo import PPOAgent
    from sixnimmt_env.cards.engine import new_games
    from sixnimmt_env.cards.seat_view import SeatView
    from sixnimmt_env.core.game import make_game
    agent = PPOAgent(str(tiny_run / "model.zip"))
    rules = RuleConfig(players=3, row_choice="player")
    game = make_game("cards", rules)
    st = new_games(rules, np.arange(64, dtype=np.uint64))
    asked = 0
    for _ in range(40):
        views = [SeatView(st, s) for s in range(3)]
        actions = np.stack([agent.act(v, np.random.default_rng(0)) for v in views])
        for v, a in zip(views, actions):
            rows = np.flatnonzero(v.is_chooser)
            assert v.action_mask()[rows, a[rows]].all() and (a[rows] >= rules.variant_data.n_ids).all()
            asked += len(rows)
        st = game.step(st, actions)[0]
    assert asked > 0


def test_training_starts_from_a_fitted_network(tiny_run, tmp_path):
    import torch as th

    from agents.ppo import load_model
    from training.config import TrainConfig
    from training.train import new_model, start_from
    base = dict(players=3, row_choice="player", observation="card-features", policy="card-scorer",
                scorer_context=(32,), scorer_hidden=(16,), net_arch=(32,))
    model = new_model(TrainConfig(**base), num_games=4)
    start_from(model, tiny_run / "model.zip")
    source, _ = load_model(tiny_run / "model.zip")
    for (name, a), b in zip(model.policy.state_dict().items(), source.policy.state_dict().values()):
        assert th.equal(a, b), name
    other = new_model(TrainConfig(**{**base, "scorer_hidden": (8,)}), num_games=4)
    with pytest.raises(ConfigError, match="does not match"):
        start_from(other, tiny_run / "model.zip")
    with pytest.raises(ConfigError, match="no model at"):
        start_from(other, tmp_path / "none.zip")


def test_an_epoch_bound_makes_the_fit_the_same_steps_whatever_the_clock(tiny_run, tmp_path):
    """fit_epochs: the fit stops after that many passes over the labels, not at the minutes, so
    two fits of the same labels take the same steps and end with the same weights; without it
    the minutes decide (0.05 min here: a step count the clock picks)."""
    import shutil

    import torch as th

    from agents.ppo import load_model
    from training.imitate import ImitationConfig, fit
    cfg = ImitationConfig(name="tiny", players=(3, 5), units=3, **{**TINY, "fit_minutes": 30.0}, fit_epochs=2.5)
    runs = []
    for name in ("a", "b"):
        run = tmp_path / name
        shutil.copytree(tiny_run / "labels", run / "labels")
        runs.append((run, fit(cfg, run, progress=False)))
    (a, first), (b, second) = runs
    batches = -(-first["records"] // cfg.batch_size)
    assert first["steps"] == second["steps"] == -(-5 * batches // 2)  # 2.5 passes, rounded up
    wa, wb = (load_model(r / "model.zip")[0].policy.state_dict() for r in (a, b))
    assert all(th.equal(wa[k], wb[k]) for k in wa)
    with pytest.raises(ConfigError, match="fit_epochs"):
        ImitationConfig(fit_epochs=-1.0)


def test_plain_ppo_picks_the_shipped_model_for_the_table(tmp_path, monkeypatch, tiny_run):
    import shutil

    import agents.ppo as ppo
    monkeypatch.setattr(ppo, "SHIPPED_DIR", tmp_path)
    shutil.copy(tiny_run / "model.zip", tmp_path / "wide.zip")
    shutil.copy(tiny_run / "model.json", tmp_path / "wide.json")  # players 3, 5
    shutil.copy(tiny_run / "model.zip", tmp_path / "three.zip")
    (tmp_path / "three.json").write_text(json.dumps({**json.loads((tiny_run / "model.json").read_text()),
                                                    "players": 3}))
    assert ppo.shipped_model_for(3) == tmp_path / "three.zip"  # the most specialised first
    assert ppo.shipped_model_for(5) == tmp_path / "wide.zip"
    with pytest.raises(ConfigError, match=r"no shipped model plays 'cards' at 4 players in classic \(shipped: three.zip"):
        ppo.shipped_model_for(4)
    with pytest.raises(ConfigError, match="no shipped model plays 'board'"):
        ppo.shipped_model_for(3, "board")
    agent = ppo.PPOAgent()
    for players in (3, 5):
        view_rules = RuleConfig(players=players)
        from sixnimmt_env.cards.engine import new_games
        from sixnimmt_env.cards.seat_view import SeatView
        st = new_games(view_rules, np.arange(2, dtype=np.uint64))
        assert agent.act(SeatView(st, 0), np.random.default_rng(0)).shape == (2,)
    assert len(agent._shipped) == 2


def test_shipped_models_cover_the_documented_table_sizes():
    from agents.ppo import shipped_model_for
    assert shipped_model_for(4).name == "ppo-4p.zip"
    for players in range(2, 11):
        meta = json.loads(shipped_model_for(players).with_suffix(".json").read_text())
        assert meta["row_choice"] == "player" and meta["observation"] == "card-features"


def test_from_deal_seen_gives_the_simulated_seat_the_real_seats_knowledge():
    from agents.cards.search import sim_config
    from sixnimmt_env.cards.engine import from_deal, new_games
    from sixnimmt_env.cards.seat_view import SeatView
    from sixnimmt_env.core.game import make_game
    rules = RuleConfig(players=4)
    game = make_game("cards", rules)
    st = new_games(rules, np.arange(16, dtype=np.uint64))
    rng = np.random.default_rng(0)
    for _ in range(6):
        st = game.step(st, np.stack([SeatView(st, s).random_legal_actions(rng) for s in range(4)]))[0]
    view = SeatView(st, 1)
    n = int(view.hand_size[0])
    others = np.stack([SeatView(st, s).hand[:, :n] for s in (2, 3, 0)], axis=1)
    sim = from_deal(sim_config(rules), np.concatenate([view.hand[:, None, :n], others], axis=1), view.rows,
                    seen=view.seen)
    mirror = SeatView(sim, 0)
    assert (mirror.seen == view.seen).all() and (mirror.unseen == view.unseen).all()
    with pytest.raises(ConfigError, match="seen must have shape"):
        from_deal(sim_config(rules), np.concatenate([view.hand[:, None, :n], others], axis=1), view.rows,
                  seen=view.seen[:, :10])


def test_guided_search_plays_legal_moves_and_never_reads_hidden_cards(tiny_run):
    """The same seat view with the other seats' hands swapped among them gives the same
    decisions (same random draws): the search reads only what the seat may know."""
    from agents.arena import run_match
    from agents.registry import make_agent
    from sixnimmt_env.cards.engine import new_games
    from sixnimmt_env.cards.seat_view import SeatView
    from sixnimmt_env.core.game import make_game
    spec = f"guided:path={tiny_run / 'model.zip'}:worlds=4"
    rules = RuleConfig(players=3, row_choice="player", end_score=None, max_rounds=1)
    result = run_match([spec, "random", "mcs:rollouts=4"], rules, 4, 0, progress=False)
    assert result.games == 12
    agent = make_agent(spec + ":depth=2")
    game = make_game("cards", players=3, row_choice="player")
    st = new_games(game.rules, np.arange(8, dtype=np.uint64))
    rng = np.random.default_rng(5)
    for turn in range(4):
        mine = agent.act(SeatView(st, 0), np.random.default_rng(turn))
        swapped = copy.deepcopy(st)
        swapped.hands[1], swapped.hands[2] = st.hands[2].copy(), st.hands[1].copy()
        assert (agent.act(SeatView(swapped, 0), np.random.default_rng(turn)) == mine).all()
        others = [SeatView(st, s).random_legal_actions(rng) for s in (1, 2)]
        st = game.step(st, np.stack([mine, *others]))[0]
    with pytest.raises(ConfigError, match="trained for 3, 5 players, the table has 4"):
        run_match([spec, "random", "random", "random"], RuleConfig(players=4), 1, 0, progress=False)
    with pytest.raises(ConfigError, match="worlds must be >= 1"):
        make_agent(spec.replace("worlds=4", "worlds=0"))


def test_a_run_from_a_fitted_network_holds_its_policy_while_the_value_learns(tiny_run, tmp_path):
    """init_model + freeze_policy_steps: after a run inside the frozen steps the actor's
    weights are the fitted ones, the value network's have moved."""
    import torch as th

    from agents.ppo import load_model
    from training.config import TrainConfig
    from training.train import train
    cfg = TrainConfig(name="warm", players=3, row_choice="player", episode="game", observation="card-features",
                      policy="card-scorer", scorer_context=(32,), scorer_hidden=(16,), net_arch=(32,),
                      init_model=str(tiny_run / "model.zip"), freeze_policy_steps=10**6, num_games=32,
                      n_steps=16, batch_size=256, n_epochs=2, total_timesteps=1500, eval_deals=2,
                      eval_every=10**6, checkpoint_every=10**6, snapshot_every=10**6, torch_threads=1)
    run = train(cfg, runs_dir=tmp_path, progress=False)
    fitted, _ = load_model(tiny_run / "model.zip")
    trained, _ = load_model(run / (run / "latest").read_text() / "model.zip")
    before, after = fitted.policy.state_dict(), trained.policy.state_dict()
    actor = [k for k in before if k.startswith("action_net.")]
    value = [k for k in before if k.startswith(("value_net.", "mlp_extractor.value_net."))]
    assert actor and value
    assert all(th.equal(before[k], after[k]) for k in actor)
    assert not all(th.equal(before[k], after[k]) for k in value)


def test_cli_imitate_and_guided_smoke(tiny_run):
    """(The CLI's imitate runs end to end in the kill-and-resume test.)"""
    from tests.support.fuzz_support import run_cli
    code, _, err = run_cli("imitate", "--runs-dir", tiny_run.parent, "--set", "name=tiny")
    assert code == 2 and "already holds a run" in err
    code, _, err = run_cli("imitate", "--resume", tiny_run.parent / "nothing")
    assert code == 2 and "no imitation run to resume" in err
    code, out, err = run_cli("match", "--agents", f"guided:path={tiny_run / 'model.zip'}:worlds=2,random,random",
                             "--games", "2", "--max-rounds", "1", "--no-progress")
    assert code == 0, err
    assert "guided" in out


def test_guided_rollout_mcs_is_mcs_and_top_keeps_the_networks_best_cards():
    """guided:rollout=mcs estimates exactly as mcs does (same worlds and rollouts); with
    top=K it rolls out only the K cards the table's shipped network's logits rate best;
    swapping the other hands changes nothing; with the network's search (value head) top=K
    judges the same K cards."""
    from agents.cards.guided import GuidedSearchAgent
    from agents.cards.search import MonteCarloAgent
    from sixnimmt_env.cards.engine import new_games
    from sixnimmt_env.cards.seat_view import SeatView
    rules = RuleConfig(players=4, row_choice="player")
    st = new_games(rules, np.arange(6, dtype=np.uint64))
    view = SeatView(st, 0)
    entries = np.arange(6)
    full, top = GuidedSearchAgent(worlds=8, rollout="mcs", top=0), GuidedSearchAgent(worlds=8, rollout="mcs", top=3)
    model, layout = full.net.network_for(rules, 4)
    cards, values = full.rollout_values(view, entries, np.random.default_rng(1), model, layout)
    for (c, v), hand, vals in zip(MonteCarloAgent(rollouts=8).card_estimates_many(view, entries, np.random.default_rng(1)),
                                  cards, values):
        assert c.tolist() == hand.tolist() and np.allclose(v, vals)
    best, _ = top.rollout_values(view, entries, np.random.default_rng(1), model, layout)
    from agents.ppo import action_logits
    all_logits = action_logits(model.policy, layout.encode(view))
    for e in entries:
        hand = cards[e]
        rated = all_logits[e, hand - 1]
        assert best[e].tolist() == sorted(hand[np.argsort(-rated, kind="stable")[:3]].tolist())
    mine = top.act(view, np.random.default_rng(2))
    swapped = copy.deepcopy(st)
    swapped.hands[1], swapped.hands[3] = st.hands[3].copy(), st.hands[1].copy()
    assert (top.act(SeatView(swapped, 0), np.random.default_rng(2)) == mine).all()
    assert np.isin(mine + 1, best).all()  # one of the three
    net_top = GuidedSearchAgent(worlds=8, top=3, trust=0.0)
    judged, net_values = net_top.card_values(view, entries, np.random.default_rng(1), model, layout)
    assert judged.tolist() == best.tolist() and net_values.shape == (6, 3, 8) and np.isfinite(net_values).all()
    assert np.isin(net_top.act(view, np.random.default_rng(2)) + 1, best).all()
    with pytest.raises(ValueError, match="top must be"):
        GuidedSearchAgent(top=-1)


def test_guided_trust_keeps_the_networks_card_unless_another_is_clearly_better():
    """trust=Z: the network's own card unless another card's mean over the same worlds is
    lower by Z standard errors of the paired difference; a very high trust plays the
    network's cards, trust=0 the least mean."""
    from agents.cards.guided import GuidedSearchAgent
    from sixnimmt_env.cards.engine import new_games
    from sixnimmt_env.cards.seat_view import SeatView
    agent = GuidedSearchAgent(worlds=8, trust=2.0)
    noise = np.array([0.5, -0.5] * 4)
    values = np.stack([np.stack([np.full(8, 3.0), 3.0 + noise, np.full(8, 2.9) + noise]),  # card 2 a little lower, noisy
                       np.stack([np.full(8, 3.0), np.full(8, 1.0) + noise * 0.1, np.full(8, 4.0)])])  # card 1 clearly
    assert agent._trusted(values, np.array([0, 0])).tolist() == [0, 1]
    assert agent._trusted(values, np.array([2, 2])).tolist() == [2, 1]  # the network's own kept; a clear find taken
    assert values.mean(axis=2).argmin(axis=1).tolist() == [2, 1]  # what trust=0 plays
    rules = RuleConfig(players=4, row_choice="player")
    st = new_games(rules, np.arange(6, dtype=np.uint64))
    view = SeatView(st, 0)
    stubborn = GuidedSearchAgent(worlds=4, trust=100.0)
    model, layout = stubborn.net.network_for(rules, 4)
    net_cards, _ = model.predict(layout.encode(view), deterministic=True, action_masks=view.action_mask())
    assert (stubborn.act(view, np.random.default_rng(3)) == net_cards).all()
    for bad in (dict(trust=-1.0), dict(trust=1.0, rollout="mcs")):
        with pytest.raises(ValueError, match="trust"):
            GuidedSearchAgent(**bad)


def test_default_guided_is_the_measured_recipe_on_the_tables_ppo_network():
    """Without options guided searches the 3 cards its network rates best in 96 worlds and
    trusts the network (trust=2; with mcs rollouts, whose estimates are not paired by
    world, trust 0); its network is the one `ppo` plays at the table: ppo-4p at 4 classic
    players (no longer the imitation network), imitate-2p at 2, ppo-all at 6."""
    from agents.cards.guided import GuidedSearchAgent
    from agents.ppo import PPOAgent, shipped_model_for
    from agents.registry import make_agent
    agent = make_agent("guided")
    assert (agent.top, agent.worlds, agent.trust, agent.depth) == (3, 96, 2.0, 1)
    assert GuidedSearchAgent(rollout="mcs").trust == 0.0
    plain = PPOAgent()
    for players, name in ((4, "ppo-4p.zip"), (2, "imitate-2p.zip"), (6, "ppo-all.zip")):
        assert shipped_model_for(players).name == name
        model, _ = agent.net.network_for(RuleConfig(players=players, row_choice="player"), players)
        assert model is agent.net.model_for(players)[0]
        assert agent.net.model_for(players)[1] == plain.model_for(players)[1]  # the same file's meta
