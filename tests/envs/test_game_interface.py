"""The game interface: GameInfo, make_game, and every adapter and tool going through it."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import sixnimmt_env
from sixnimmt_env import ConfigError, Game, RuleConfig, make_game
from sixnimmt_env.cards.encoding import card_layout, penalty_bounds
from sixnimmt_env.cards.rules import VARIANTS, Variant
from sixnimmt_env.cards.single_game import SingleGame
from sixnimmt_env.core.game import as_game
from sixnimmt_env.core.rng import game_seeds


def test_make_game_describes_the_card_games():
    game = make_game("cards", players=5, variant="die-sechste")
    assert isinstance(game, Game)
    info = game.info
    assert (info.game, info.variant, info.players) == ("cards", "die-sechste", 5)
    assert (info.min_players, info.max_players) == (2, 10)
    assert info.n_actions == 104 + 4 + 1 and info.pass_action == 108
    assert info.utility == -1 and info.score_unit == "points"
    assert info.variants == ("classic", "die-sechste")
    assert info.rule_options == ("players", "row_choice", "end_score", "max_rounds", "deck")
    assert info.observations == ("basic", "card-features", "card-history")
    assert make_game().info.n_actions == 109 and make_game().info.score_unit == "bullheads"
    assert as_game(RuleConfig(players=3)) == make_game(players=3)


@pytest.mark.parametrize("call,message", [
    (lambda: make_game("chess"), "unknown game 'chess'; known games: cards, board"),
    (lambda: make_game("cards", colour="red"), "unknown rule option(s) for the card games: colour"),
    (lambda: make_game(make_game(), players=3), "already has its rules"),
    (lambda: make_game("cards", players=11), "players must be 2..10"),
])
def test_bad_games_are_config_errors(call, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        call()


def test_to_act_is_every_seat_then_the_chooser():
    game = make_game(players=3)
    st = game.new_games(game_seeds(1, 8))
    assert game.to_act(st).all()
    rng = np.random.default_rng(0)
    while not (st.phase == 1).any():
        actions = np.stack([game.view(st, [p] * 8).random_legal_actions(rng) for p in range(3)])
        st, _ = game.step(st, actions)
    to_act = game.to_act(st)
    row = st.phase == 1
    assert (to_act[:, row].sum(axis=0) == 1).all()
    assert to_act[st.chooser[row], np.flatnonzero(row)].all()


def test_adapters_take_a_game_by_name_or_object():
    game = make_game("cards", players=3, variant="die-sechste")
    by_name = sixnimmt_env.parallel_env(game="cards", players=3, variant="die-sechste")
    by_object = sixnimmt_env.parallel_env(game=game)
    assert by_name.config == by_object.config == game.rules
    vec = sixnimmt_env.SixNimmtVecEnv(4, game=game)
    assert vec.rules == game.rules and vec.games.game.rules.max_rounds == 1  # one-round episodes
    gym = sixnimmt_env.SixNimmtEnv(game=game)
    assert gym.games.game.info.players == 3


@pytest.mark.parametrize("observation", ["card-features", "card-history"])
def test_card_features_in_every_adapter_agree(observation):
    """The richer observations are selectable in the ParallelEnv and Gym env as in the VecEnv."""
    par = sixnimmt_env.parallel_env(players=4, observation=observation)
    assert not par.fast_path  # the fast path keeps only the basic observation
    obs, _ = par.reset(seed=3)
    layout = card_layout(par.config, observation)
    assert obs["player_0"]["observation"].shape == (layout.size,)
    view = par.game.view(par.state_, np.arange(4), np.zeros(4, dtype=np.intp))
    assert np.array_equal(np.stack([obs[a]["observation"] for a in par.possible_agents]), layout.encode(view))
    gym = sixnimmt_env.SixNimmtEnv(4, observation=observation)
    o, _ = gym.reset(seed=1)
    assert o.shape == (layout.size,) and gym.observation_space.contains(o)


def test_observation_bounds_follow_the_rules():
    """Long games with no end score: totals pass 2 x 66, which the old Box(0, 2) denied."""
    rules = RuleConfig(players=3, end_score=None, max_rounds=40)
    game = make_game(rules=rules)
    layout = game.layout()
    space = layout.space()
    _, round_max, game_max = penalty_bounds(rules)
    assert game_max == 40 * round_max
    st = game.new_games(game_seeds(5, 16))
    rng = np.random.default_rng(5)
    highest = 0.0
    while not game.game_over(st).all():
        view = game.view(st, np.repeat(np.arange(3), 16), np.tile(np.arange(16), 3))
        obs = layout.encode(view)
        assert all(space.contains(o) for o in obs)
        highest = max(highest, float(obs.max()))
        actions = view.random_legal_actions(rng).reshape(3, 16)
        st, _ = game.step(st, actions)
    assert highest > 2.0
    row_bulls = card_layout(RuleConfig()).field("row_bulls").high
    assert row_bulls == pytest.approx((7 + 5 * 4) / 10)  # 55 and four doubles in one row


def test_fast_path_takes_only_the_classic_variant(monkeypatch):
    """A variant without twins is not the classic game: it plays on the engine."""
    classic = VARIANTS["classic"]
    monkeypatch.setitem(VARIANTS, "tiles", Variant("tiles", classic.n_ids, classic.order, classic.bullheads))
    tiles = RuleConfig(variant="tiles")
    assert not SingleGame.supports(tiles)
    assert SingleGame.supports(RuleConfig())
    assert not sixnimmt_env.parallel_env(variant="tiles").fast_path


def test_replay_dispatches_on_the_record_game(tmp_path):
    from sixnimmt_env.core.errors import InvalidRecordError
    from sixnimmt_env.core.records import replay
    with pytest.raises(InvalidRecordError, match="unknown game 'go'"):
        replay({"format": "sixnimmt-record/1", "game": "go"})
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"format": "sixnimmt-record/1", "game": "chess", "rounds": []}))
    proc = subprocess.run([sys.executable, "-m", "experiments.cli", "replay", str(path)],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "unknown game 'chess'" in proc.stderr and "Traceback" not in proc.stderr


def test_cli_game_option():
    ok = subprocess.run([sys.executable, "-m", "experiments.cli", "match", "--game", "cards",
                         "--agents", "random,greedy", "--games", "2", "--no-progress"],
                        capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    bad = subprocess.run([sys.executable, "-m", "experiments.cli", "demo", "--game", "go"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.strip() == "error: unknown game 'go'; known games: cards, board"
