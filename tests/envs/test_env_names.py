"""The versioned environment names, PettingZoo's way: `sixnimmt_cards_v1` and
`sixnimmt_board_v1` pass PettingZoo's API tests, each module's docstring is its spec sheet
(observation indices and actions generated from the game), and `sixnimmt_v0`, the older
name of both, is the same environment under another name."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import sixnimmt_env
from sixnimmt_env import ConfigError, make_game

ROOT = Path(__file__).resolve().parents[2]
NAMES = {"sixnimmt_cards_v1": ("cards", {"players": 4}), "sixnimmt_board_v1": ("board", {"players": 3})}


@pytest.mark.parametrize("name", sorted(NAMES))
def test_versioned_names_pass_the_parallel_api_test(name):
    from pettingzoo.test import parallel_api_test

    module = getattr(sixnimmt_env, name)
    env = module.parallel_env(**NAMES[name][1])
    assert env.metadata["name"] == name and env.info.game == NAMES[name][0]
    parallel_api_test(env, num_cycles=200)


@pytest.mark.parametrize("name", sorted(NAMES))
def test_versioned_names_keep_the_labs_promises(name):
    """The lab's own checks (sixnimmt_env.testing): seeds, copies (pickle, deepcopy: the
    classes live at module level under their names), reward sums, bounds, infos, hidden cards."""
    from sixnimmt_env.testing import check_env

    check_env(getattr(sixnimmt_env, name).parallel_env(**NAMES[name][1]), steps=40)


@pytest.mark.parametrize("name", sorted(NAMES))
def test_versioned_names_pass_the_aec_api_test(name):
    from pettingzoo.test import api_test

    api_test(getattr(sixnimmt_env, name).env(**NAMES[name][1]), num_cycles=100)


@pytest.mark.parametrize("name, variant", [("sixnimmt_cards_v1", "die-sechste"), ("sixnimmt_board_v1", "pro")])
def test_the_old_name_is_the_same_environment(name, variant):
    """sixnimmt_v0 with game= plays exactly as the versioned env: the same observations,
    masks, rewards and ends from the same seed and actions."""
    kind, options = NAMES[name]
    new = getattr(sixnimmt_env, name).parallel_env(variant=variant, **options)
    old = sixnimmt_env.sixnimmt_v0.parallel_env(game=kind, variant=variant, **options)
    assert old.metadata["name"] == "sixnimmt_v0"
    (obs_new, _), (obs_old, _) = new.reset(seed=3), old.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(60):
        assert all(np.array_equal(obs_new[a][k], obs_old[a][k]) for a in obs_new for k in obs_new[a])
        if not new.agents:
            break
        actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs_new.items()}
        obs_new, rew_new, term_new, *_ = new.step(actions)
        obs_old, rew_old, term_old, *_ = old.step(actions)
        assert rew_new == rew_old and term_new == term_old


def test_each_name_plays_its_own_game_only():
    with pytest.raises(ConfigError, match="sixnimmt_cards_v1 plays the cards game"):
        sixnimmt_env.sixnimmt_cards_v1.parallel_env(game="board")
    with pytest.raises(ConfigError, match="sixnimmt_board_v1 plays the board game, got a cards Game"):
        sixnimmt_env.sixnimmt_board_v1.parallel_env(game=make_game("cards"))
    env = sixnimmt_env.sixnimmt_board_v1.parallel_env(game=make_game("board", variant="luck", players=5))
    assert env.info.variant == "luck" and env.info.players == 5


@pytest.mark.parametrize("name", sorted(NAMES))
def test_each_sheet_is_generated_from_its_game(name):
    """The sheet's index table is the layout's, its action table names every action as
    the game describes it, and no placeholder is left."""
    kind = NAMES[name][0]
    doc = getattr(sixnimmt_env, name).__doc__
    game = make_game(kind, variant="pro" if kind == "board" else "classic")
    assert make_game(kind).layout().markdown() in doc and "<<" not in doc
    for action in (0, game.info.pass_action, game.info.n_actions - 1):
        assert game.describe_action(action) in doc
    for part in ("## Actions", "## Observation", "## Rewards", "## Options", "## Version history", f"`{name}`"):
        assert part in doc, part


def test_docs_name_both_environments():
    page = (ROOT / "docs" / "environments.md").read_text()
    assert all(name in page for name in (*NAMES, "sixnimmt_v0"))
