"""Learning the board game (issue 27's pipeline): `imitate` and `train` with
`game = "board"` (training/game_rules.py, training/board_labels.py,
training/board_training.py), board models played by `ppo`, and their errors. Tiny
budgets: labels from a 2-rollout search, a few hundred PPO steps."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from sixnimmt_env import ConfigError
from sixnimmt_env.board.actions import FREE_ROW_ACTION, LUCK_ACTION, N_TILES, PASS_ACTION
from sixnimmt_env.board.rules import PLUS5
from sixnimmt_env.board.state import ASK_LUCK_CARD, ASK_NAMES
from sixnimmt_env.core.game import make_game
from tests.support.fuzz_support import error_lines, run_cli

TINY_IMITATION = ["game=board", "variant=pro-luck", "players=[3,4]", "units=2", "deal_seats=4", "workers=1",
                  "teacher=mcs:rollouts=2:horizon=1", "fit_minutes=0.02", "torch_threads=1", "net_arch=[32]",
                  "batch_size=256"]
TINY_PPO = ["num_games=8", "n_steps=8", "batch_size=64", "n_epochs=1", "eval_deals=1", "torch_threads=1",
            "net_arch=[32]", "pool_search=[\"mcs:rollouts=2:horizon=1\"]"]
PRO_LUCK = make_game("board", players=4, variant="pro-luck")


def set_args(options: list[str]) -> list[str]:
    return [arg for option in options for arg in ("--set", option)]


@pytest.fixture(scope="module")
def imitation_run(tmp_path_factory) -> Path:
    """`sixnimmt imitate` of the board game in pro-luck (every question kind) at 3 and 4
    players (one network: the observation does not depend on the seat count): 2 label units, the fit."""
    runs = tmp_path_factory.mktemp("board-imitate")
    code, out, err = run_cli("imitate", "--runs-dir", runs, "--no-progress", *set_args(["name=bi", *TINY_IMITATION]))
    assert code == 0, err
    return runs / "bi"


def test_the_board_reward_is_the_points_won_and_not_zero():
    """A board run's default reward (a past bug: always 0): the learner's rewards add up to its score."""
    from sixnimmt_env.adapters.vec_env import SixNimmtVecEnv
    from training.config import TrainConfig
    cfg = TrainConfig.from_dict({"game": "board"})
    assert (cfg.variant, cfg.reward, cfg.policy) == ("basic", "points", "mlp")
    env = SixNimmtVecEnv(4, game="board", rules=cfg.game_rules(4), reward=cfg.reward, episode=cfg.episode, seed=3)
    env.reset()
    rng, returns, seen = np.random.default_rng(0), np.zeros(4), []
    for _ in range(200):
        mask = env.action_masks()
        _, reward, done, _ = env.step((rng.random(mask.shape) * mask).argmax(axis=1))
        seen.append(reward)
        returns = np.where(done, 0.0, returns + reward)
        live = ~done
        score = env.games.state.score[env.games.slot_seats, env.games.slot_games]
        np.testing.assert_allclose(returns[live], score[live])
    assert np.abs(np.concatenate(seen)).sum() > 0


def test_board_imitation_labels_every_decision_kind_with_the_searchs_sign(imitation_run):
    from training.imitate import unit_files
    from training.labels import LabelBatch
    config = json.loads((imitation_run / "config.json").read_text())
    assert (config["game"], config["variant"], config["policy"], config["observation"]) == ("board", "pro-luck",
                                                                                            "mlp", "basic")
    batch = LabelBatch.load(unit_files(imitation_run))
    rated = ~np.isnan(batch.q)
    assert (rated.sum(axis=1) >= 2).all() and not (rated & ~batch.mask).any()
    assert rated[:, :N_TILES].any(axis=1).any()  # tiles
    assert rated[:, FREE_ROW_ACTION:].any(axis=1).any()  # the pro questions (action cards, free rows)
    assert rated[:, N_TILES:N_TILES + 4].any(axis=1).any()  # the luck questions
    meta = json.loads((imitation_run / "model.json").read_text())
    assert (meta["game"], meta["variant"], meta["players"], meta["trained"]) == ("board", "pro-luck", [3, 4],
                                                                                 "imitation")
    assert set(np.unique(batch.players)) == {3, 4}
    assert meta["value"] == "points to the game's end"


def test_the_labeller_plays_what_the_search_plays_and_stores_costs():
    """Lower q is better in a label file: the board labeller (explore 0) plays the search's
    best action (the most points), and its q is minus the search's means; value targets
    are minus the points still to win."""
    from agents.board.search import BoardMonteCarloAgent
    from training.board_labels import BoardLabeller
    game = make_game("board", players=4, variant="pro-luck")
    st = game.new_games(np.arange(6, dtype=np.uint64))
    teacher = BoardMonteCarloAgent(rollouts=3, horizon=1, tie_break="none")
    for _ in range(60):  # into the game, through questions of every kind
        to_act = game.to_act(st)
        seats, games = np.nonzero(to_act)
        view = game.view(st, seats, games)
        labeller = BoardLabeller(teacher, "basic", explore=0.0)
        mine = labeller.act(view, np.random.default_rng(7))
        estimates = teacher.estimates(view, np.random.default_rng(7))
        theirs = teacher.act(view, np.random.default_rng(7))
        mask = view.action_mask()
        for e, (cands, means) in estimates.items():
            if mask[e, cands].sum() > 1 and mask[e, cands].all():
                assert mine[e] == theirs[e]
        for obs, rmask, q, g, s, _ in labeller.records:
            for row, game_index, seat in zip(q, g, s):
                e = int(np.flatnonzero((view.games == game_index) & (view.seats == seat))[0])
                cands, means = estimates[e]
                legal = mask[e, cands]
                np.testing.assert_allclose(row[cands[legal]], -np.asarray(means)[legal], rtol=1e-6)
        actions = np.zeros((4, st.batch_size), dtype=np.int64) + 104
        actions[seats, games] = mine
        st, _ = game.step(st, actions)
        if game.game_over(st).all():
            break
    labeller = BoardLabeller(teacher, "basic", 0.0)
    labeller.records = [(np.zeros((1, 3), np.float16), np.ones((1, 2), bool), np.zeros((1, 2), np.float32),
                         np.array([0]), np.array([1]), np.array([5]))]
    totals = np.zeros((4, 1))
    totals[1, 0] = 12
    assert labeller.batch(totals, game).ret.tolist() == [-7.0]  # won 7 more points: a cost of -7


class AskRecorder:
    """Plays `inner`, and notes the question kinds it was asked and that its answers are
    legal. Every other luck card it is offered is the "+5" (when that stack holds one): a
    fitted network may always take one kind, and then is never asked whether to use the other."""

    def __init__(self, inner, steer: bool = True):
        self.inner, self.name, self.asks, self.tiles, self.offers = inner, "recorded", set(), 0, 0
        self.steer = steer

    def check(self, game):
        self.inner.check(game)

    def act(self, view, rng):
        actions = self.inner.act(view, rng)
        mask = view.action_mask()
        assert mask[np.arange(view.n), actions].all()
        self.asks |= {ASK_NAMES[a] for a in view.ask[view.is_asker]}
        self.tiles += int(view.picking.sum())
        if not self.steer:
            return actions
        offered = np.flatnonzero(view.is_asker & (view.ask == ASK_LUCK_CARD) & mask[:, LUCK_ACTION[PLUS5]])
        take = offered[(self.offers + np.arange(len(offered))) % 2 == 0]  # every other offer
        self.offers += len(offered)
        actions[take] = LUCK_ACTION[PLUS5]
        return actions


def test_the_fitted_board_model_plays_every_question_kind(imitation_run):
    """The fitted network answers legally in the positions of random pro-luck games (every
    question kind comes up there, whatever the network plays), and plays whole games."""
    from agents.arena import run_match
    from agents.ppo import PPOAgent
    model = PPOAgent(str(imitation_run / "model.zip"))
    st = PRO_LUCK.new_games(np.arange(8, dtype=np.uint64))
    rng, asks = np.random.default_rng(0), set()
    while not PRO_LUCK.game_over(st).all():
        seats, games = np.nonzero(PRO_LUCK.to_act(st))
        view = PRO_LUCK.view(st, seats, games)
        chosen = model.act(view, rng)
        assert view.action_mask()[np.arange(view.n), chosen].all()
        asks |= {ASK_NAMES[a] for a in view.ask[view.is_asker]}
        actions = np.full((4, st.batch_size), PASS_ACTION, dtype=np.int64)
        actions[seats, games] = view.random_legal_actions(rng)
        st, _ = PRO_LUCK.step(st, actions)
    assert asks == set(ASK_NAMES[1:]), asks
    agent = AskRecorder(model)
    result = run_match([agent, "mcs:rollouts=1:horizon=1", "board-safe", "random"], PRO_LUCK, 2, 0, progress=False)
    assert result.games == 8 and agent.tiles > 0 and agent.asks


def test_board_training_runs_resume_after_a_kill_and_play(tmp_path):
    """`sixnimmt train --set game=board --set variant=basic`: killed after its first
    checkpoint (an evaluation raises), resumed by the CLI, then its model plays."""
    from agents.arena import run_match
    from agents.ppo import PPOAgent
    from training.config import TrainConfig
    from training.train import train
    cfg = TrainConfig.load(None, ["game=board", "variant=basic", "name=bt", *TINY_PPO, "total_timesteps=200",
                                  "checkpoint_every=40", "eval_every=80", "snapshot_every=40"])

    def killed(row):
        raise KeyboardInterrupt  # mid-run: after the checkpoint at 40 steps, before the next

    with pytest.raises(KeyboardInterrupt):
        train(cfg, runs_dir=tmp_path, progress=False, on_eval=killed)
    run = tmp_path / "bt"
    assert (run / "latest").read_text() == "ckpt-40"
    code, _, err = run_cli("train", "--resume", run, "--no-progress")
    assert code == 0, err
    saved = json.loads((run / "config.json").read_text())
    assert (saved["game"], saved["variant"], saved["policy"], saved["eval_opponent"]) == ("board", "basic", "mlp",
                                                                                         "board-safe")
    pool = json.loads((run / (run / "latest").read_text() / "pool.json").read_text())
    assert pool["members"]["search"] == ["mcs:rollouts=2:horizon=1"] and "board-safe" in pool["members"]["heuristics"]
    assert pool["snapshots"]
    steps = [int(line.split(",")[0]) for line in (run / "eval.csv").read_text().splitlines()[1:]]
    assert steps == sorted(set(steps)) and steps[-1] >= 200
    meta = json.loads((run / "best.json").read_text())
    assert (meta["game"], meta["variant"], meta["players"]) == ("board", "basic", 4)
    basic = make_game("board", players=4, variant="basic")
    assert run_match([PPOAgent(str(run / "best.zip")), "board-green", "random", "random"], basic, 2, 0,
                     progress=False).games == 8


def test_board_ppo_starts_from_the_fitted_network(imitation_run, tmp_path):
    """`sixnimmt train --set game=board ... --set init_model=...` from the imitation run;
    a network of another shape, game or variant is refused."""
    init = f"init_model={imitation_run / 'model.zip'}"
    code, _, err = run_cli("train", "--runs-dir", tmp_path, "--no-progress",
                           *set_args(["game=board", "variant=pro-luck", "name=bp", *TINY_PPO, "total_timesteps=64", init]))
    assert code == 0, err
    assert json.loads((tmp_path / "bp" / "best.json").read_text())["init_model"].endswith("model.zip")
    for i, (options, message) in enumerate([(["variant=pro-luck", "net_arch=[16]"], "its network does not match"),
                                            (["variant=pro"], "a model of the pro-luck variant, this run plays pro")]):
        code, _, err = run_cli("train", "--runs-dir", tmp_path, "--no-progress",
                               *set_args(["game=board", f"name=bq{i}", *TINY_PPO, *options, init]))
        assert code == 2 and message in err, err
    code, _, err = run_cli("train", "--runs-dir", tmp_path, "--no-progress",
                           *set_args(["name=bc", "num_games=8", "torch_threads=1", init]))
    assert code == 2 and "a model of the 'board' game, this run's game is 'cards'" in err, err


def test_board_models_refuse_another_game_variant_or_size(imitation_run):
    from agents.arena import run_match
    from agents.ppo import PPOAgent
    path = imitation_run / "model.zip"
    cases = [(make_game("board", players=4, variant="pro"), "trained for pro-luck, the table plays pro"),
             (make_game("board", players=5, variant="pro-luck"), "trained for 3, 4 players, the table has 5"),
             (make_game("cards", players=4), "trained for the 'board' game, the table plays 'cards'")]
    for game, message in cases:
        with pytest.raises(ConfigError, match=message):
            run_match([PPOAgent(str(path))] + ["random"] * (game.info.players - 1), game, 1, 0, progress=False)
    with pytest.raises(ConfigError, match="trained for the 'cards' game, the table plays 'board'"):
        run_match(["ppo:path=agents/models/ppo-4p.zip", "random", "random", "random"], PRO_LUCK, 1, 0, progress=False)
    with pytest.raises(ConfigError, match=r"no shipped model plays 'board' at 5 players in pro-luck "
                                          r"\(shipped: .*ppo-4p.zip \(cards classic, 4 players\)"):
        run_match(["ppo"] + ["random"] * 4, make_game("board", players=5, variant="pro-luck"), 1, 0, progress=False)


def test_plain_ppo_plays_a_shipped_board_model(imitation_run, tmp_path, monkeypatch):
    import shutil

    import agents.ppo as ppo
    from agents.arena import run_match
    monkeypatch.setattr(ppo, "SHIPPED_DIR", tmp_path)
    for name in ("model.zip", "model.json"):
        shutil.copy(imitation_run / name, tmp_path / name.replace("model", "board-pro-luck"))
    assert ppo.shipped_model_for(4, "board", "pro-luck") == tmp_path / "board-pro-luck.zip"
    assert run_match(["ppo", "random", "random", "random"], PRO_LUCK, 1, 0, progress=False).games == 4
    with pytest.raises(ConfigError, match="no shipped model plays 'board' at 4 players in basic"):
        ppo.shipped_model_for(4, "board", "basic")


def test_board_run_options_are_checked(tmp_path):
    from training.config import TrainConfig
    from training.imitate import ImitationConfig
    cases = [(["game=board", "policy=card-scorer", "observation=card-features"], "policy card-scorer scores cards"),
             (["game=board", "variant=classic"], "variant must be one of basic, luck, pro, pro-luck"),
             (["game=board", "deck=exact"], "deck is a card game option"),
             (["next_row=rotate"], "next_row is a board game option"),
             (["game=board", "players=7"], "players"),
             (["game=board", "pool_heuristics=[\"lowest\"]"], "agent 'lowest' plays cards, not 'board'"),
             (["game=chess"], "game must be one of cards, board")]
    for options, message in cases:
        with pytest.raises(ConfigError, match=message):
            TrainConfig.load(None, options)
    with pytest.raises(ConfigError, match="policy must be mlp"):
        ImitationConfig.load(None, ["game=board", "policy=card-scorer"])
    with pytest.raises(ConfigError, match="agent 'greedy' plays cards"):
        ImitationConfig.load(None, ["game=board", "field=[\"greedy\"]"])
    board = TrainConfig.load(None, ["game=board", "variant=luck", "plus5_cards=3", "next_row=rotate"])
    rules = board.game_rules(5)
    assert (rules.players, rules.variant, rules.plus5_cards, rules.next_row) == (5, "luck", 3, "rotate")
    old = {k: v for k, v in TrainConfig().to_dict().items()
           if k not in ("game", "next_row", "layout", "plus5_cards", "double_cards", "action_cards")}
    assert TrainConfig.from_dict(old).game == "cards"  # a config.json from before the option
    for path in sorted(Path("training/configs").glob("*board*.toml")):
        config = (ImitationConfig if "imitate" in path.stem else TrainConfig).load(path)  # quick-board-imitate too
        assert config.game == "board", path
    code, _, err = run_cli("train", "--runs-dir", tmp_path, "--set", "game=board", "--set", "policy=card-scorer",
                           "--set", "observation=card-features")
    assert code == 2 and error_lines(err) == [
        "error: policy card-scorer scores cards from the card game's features; the board game's networks are "
        "policy=mlp and tile-scorer"]


def test_guided_board_search_never_reads_hidden_tiles_and_answers_every_question(imitation_run):
    """The guided search (agents/board/guided.py) with the fitted network: the other hands,
    face-down tiles and the supply dealt anew give the same decisions; it answers
    questions legally; plain `guided` says no board model fits at 5 players."""
    from agents.arena import run_match
    from agents.registry import make_agent
    from tests.board.test_board_agents import blind
    spec = f"guided:path={imitation_run / 'model.zip'}:worlds=2"
    agent = AskRecorder(make_agent(spec, "board"), steer=False)  # (it checks that every answer is legal)
    assert blind(agent, 4, "pro-luck")
    # the positions of blind's random games (whatever the network plays): every question
    # kind but use_double comes up for the seats it asks (the network alone meets all five above)
    assert agent.asks >= {"luck_card", "use_plus5", "action", "free_row"}, agent.asks
    assert run_match([agent, "board-safe", "random", "random"], PRO_LUCK, 1, 0, progress=False).games == 4
    with pytest.raises(ConfigError, match="no shipped model plays 'board' at 5 players in pro-luck"):
        run_match(["guided"] + ["random"] * 4, make_game("board", players=5, variant="pro-luck"), 1, 0, progress=False)
