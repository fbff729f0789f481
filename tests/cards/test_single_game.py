"""The ParallelEnv's pure-Python fast path (sixnimmt_env/single_game.py) against the
batched engine path: the same observations, masks, rewards, terminations, infos, engine
state and errors on every step of many random games; and which games take which path."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import sixnimmt_env
from sixnimmt_env import IllegalActionError, RuleConfig, game_seeds, new_games
from sixnimmt_env.cards.engine import deal_ids, first_dealer
from sixnimmt_env.cards.single_game import SingleGame
from sixnimmt_env.core.rng import TAG_DEAL, game_seed_int, round_key_int, round_keys


def pair(players, **options):
    """The same env twice: on the fast path, and on the engine path (rendering needs the
    engine's events, so an ansi env always runs the batched engine)."""
    fast = sixnimmt_env.parallel_env(players, **options)
    engine = sixnimmt_env.parallel_env(players, render_mode="ansi", **options)
    assert fast.fast_path and not engine.fast_path
    return fast, engine


def assert_same_state(a, b):
    for f in dataclasses.fields(a):
        if f.name != "config":
            x, y = getattr(a, f.name), getattr(b, f.name)
            assert x.dtype == y.dtype and np.array_equal(x, y), f"State.{f.name} differs"


def assert_same(out_a, out_b, env_a, env_b):
    """Two step (or reset) results and the envs behind them are identical."""
    assert len(out_a) == len(out_b)
    obs_a, obs_b = out_a[0], out_b[0]
    assert obs_a.keys() == obs_b.keys()
    for agent in obs_a:
        for key in ("observation", "action_mask"):
            x, y = obs_a[agent][key], obs_b[agent][key]
            assert x.dtype == y.dtype and x.shape == y.shape
            assert x.tobytes() == y.tobytes(), f"{agent} {key} differs"  # bit for bit
    for a, b in zip(out_a[1:], out_b[1:]):  # rewards (floats, signs of zero included), ..., infos
        assert repr(a) == repr(b)
    assert env_a.agents == env_b.agents
    assert_same_state(env_a.state_, env_b.state_)


def random_deal(rng, players, deck_size=104):
    cards = (rng.permutation(deck_size) + 1).tolist()
    hands = [sorted(cards[10 * p:10 * p + 10]) for p in range(players)]
    rows = [[c] for c in cards[10 * players:10 * players + 4]]
    return {"hands": hands, "rows": rows, "dealer": int(rng.integers(players))}


@pytest.mark.parametrize("players", range(2, 11))
@pytest.mark.parametrize("row_choice", ["player", "cheapest"])
def test_fast_path_equals_the_engine_path(players, row_choice):
    """Random games through both paths, compared after every reset and step: whole games
    and one-round episodes, games ended by rounds or by a score, every reward kind, both
    decks, seeded and given deals, resets mid-episode."""
    rng = np.random.default_rng(players * 2 + (row_choice == "player"))
    steps = 0
    for case, (episode, reward, deck, end) in enumerate([
            ("game", "penalty", "full", {"max_rounds": 3}), ("round", "relative", "exact", {}),
            ("round", "rank", "full", {}), ("game", "rank", "exact", {"max_rounds": 3}),
            ("game", "relative", "full", {"end_score": 12})]):  # ended by a score
        fast, engine = pair(players, row_choice=row_choice, episode=episode, reward=reward, deck=deck, **end)
        deck_size = 104 if deck == "full" else 10 * players + 4
        for episode_no in range(3):
            if episode_no == 1:  # a given deal
                options = {"deal": random_deal(rng, players, deck_size)}
                outs = fast.reset(options=options), engine.reset(options=options)
            else:  # a new seed, then the seed's next game
                seed = None if episode_no == 2 else 100 * case + players
                outs = fast.reset(seed=seed), engine.reset(seed=seed)
            assert_same(*outs, fast, engine)
            cut = int(rng.integers(5, 40)) if episode_no == 1 else -1  # then a reset mid-episode
            n = 0
            while fast.agents and n != cut:
                obs = outs[0][0]
                actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items()}
                outs = fast.step(actions), engine.step(actions)
                assert_same(*outs, fast, engine)
                n += 1
            steps += n
    assert steps > 100


def test_both_paths_raise_the_same_illegal_action_errors():
    fast, engine = pair(4)
    obs, _ = fast.reset(seed=3)
    engine.reset(seed=3)
    acts = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in obs.items()}
    for seat, bad in ((2, acts["player_1"]), (3, 10**6), (0, 104)):  # another's card, out of range, a row
        wrong = dict(acts, **{f"player_{seat}": bad})
        errors = []
        for env in (fast, engine):
            with pytest.raises(IllegalActionError) as e:
                env.step(wrong)
            errors.append(str(e.value))
        assert errors[0] == errors[1] and f"seat {seat}" in errors[0]


def test_both_paths_penalize_illegal_actions_alike():
    fast, engine = pair(3, illegal_action="penalize", illegal_reward=-4)
    outs = fast.reset(seed=8), engine.reset(seed=8)
    rng = np.random.default_rng(0)
    for _ in range(12):  # into a row phase or past it, then an illegal pass
        actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in outs[0][0].items()}
        outs = fast.step(actions), engine.step(actions)
    actions = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in outs[0][0].items()}
    actions["player_1"] = 10**6
    outs = fast.step(actions), engine.step(actions)
    assert_same(*outs, fast, engine)
    assert fast.agents == [] and "illegal_action" in outs[0][4]["player_1"]


def test_which_games_take_the_fast_path(monkeypatch):
    """Only games SingleGame is proven equal on; twins (two decks) and rendering go
    through the batched engine, which still plays them."""
    assert SingleGame.supports(RuleConfig(players=7, row_choice="cheapest", deck="exact"))
    assert sixnimmt_env.parallel_env(4).fast_path
    assert not sixnimmt_env.parallel_env(4, render_mode="ansi").fast_path

    # Die Sechste has twins (two decks from 5 players) and the twin-row choice.
    assert not SingleGame.supports(RuleConfig(players=4, variant="die-sechste"))
    env = sixnimmt_env.parallel_env(6, variant="die-sechste", episode="round")
    assert not env.fast_path
    with pytest.raises(ValueError):
        SingleGame(env.config, env.layout)
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(1)

    @dataclasses.dataclass(frozen=True)
    class NewRule(RuleConfig):  # a rule option added after SingleGame was written
        twin_rows: str = "owner"

    assert not SingleGame.supports(NewRule(players=4))
    while env.agents:
        obs, *_ = env.step({a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items()})
    assert env.state_.game_over()[0]


def test_scalar_seeding_and_dealing_match_the_batched_ones():
    for players in (2, 4, 10):
        for deck in ("full", "exact"):
            cfg = RuleConfig(players=players, deck=deck)
            seeds = game_seeds(99 + players, 6)
            st = new_games(cfg, seeds)
            for b, seed in enumerate(seeds.tolist()):
                assert game_seed_int(99 + players, b) == seed
                assert round_key_int(seed, TAG_DEAL, 5) == int(round_keys(seeds[b:b + 1], TAG_DEAL,
                                                                          np.array([5]))[0])
                assert first_dealer(cfg, seed) == st.dealer[b]
                ids = deal_ids(cfg, seed, 0)
                assert ids[:10 * players] == st.hands[:, :, b].reshape(-1).tolist()
                assert ids[10 * players:] == st.starters[:, b].tolist()
