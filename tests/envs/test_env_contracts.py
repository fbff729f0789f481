"""What every environment promises, for every game and env kind (issue 25).

- A copy (pickle, cloudpickle, copy.deepcopy) of any env, fresh or mid-game, plays on
  exactly as the original: same observations, masks, rewards and state.
- A seat's rewards summed over an episode are what the reward mode defines.
- Every observation of random games lies inside the declared observation space, for
  every game, variant and player count.
- Infos are numbers with the same keys at every step; the RLlib conventions hold.
"""

from __future__ import annotations

import copy
import pickle

import cloudpickle
import numpy as np
import pytest

import sixnimmt_env
from sixnimmt_env.adapters.gym_env import SixNimmtEnv
from sixnimmt_env.adapters.vec_env import SixNimmtVecEnv
from sixnimmt_env.board.encoding import SCORE_SCALE as BOARD_SCORE_SCALE
from sixnimmt_env.cards.encoding import SCORE_SCALE as CARD_SCORE_SCALE
from sixnimmt_env.core.game import make_game
from sixnimmt_env.core.rewards import REWARDS, rank_rewards
from sixnimmt_env.core.rng import game_seeds

# Every game the envs offer; each plays its own code path (the classic cards game on the
# single-game fast path, the others on the batched engine).
GAMES = {
    "classic": dict(game="cards"),
    "die-sechste": dict(game="cards", variant="die-sechste"),
    "cheapest": dict(game="cards", row_choice="cheapest"),
    "board-basic": dict(game="board", variant="basic"),
    "board-luck": dict(game="board", variant="luck"),
    "board-pro": dict(game="board", variant="pro"),
    "board-pro-luck": dict(game="board", variant="pro-luck"),
}
def most(name: str) -> int:
    """The most players the game takes (10 at the card games, 6 at the board game)."""
    return 10 if GAMES[name]["game"] == "cards" else 6


COPIES = {
    "pickle": lambda env: pickle.loads(pickle.dumps(env)),
    "cloudpickle": lambda env: pickle.loads(cloudpickle.dumps(env)),
    "deepcopy": copy.deepcopy,
}


def legal(mask: np.ndarray, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def same(a, b) -> None:
    """Equal nested dicts/lists/arrays (arrays compared bit for bit)."""
    if isinstance(a, dict):
        assert a.keys() == b.keys()
        for k in a:
            same(a[k], b[k])
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            same(x, y)
    elif isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
    else:
        assert a == b


def same_state(a, b) -> None:
    for name, value in vars(a).items():
        if isinstance(value, np.ndarray):
            same(value, getattr(b, name))


# ---------------------------------------------------------------------- copies

def _parallel_trace(env, obs, rng, steps):
    trace = []
    for _ in range(steps):
        if not env.agents:
            obs, _ = env.reset()
        acts = {a: legal(o["action_mask"], rng) for a, o in obs.items()}
        obs, *rest = env.step(acts)
        trace.append((obs, *rest))
    return trace


@pytest.mark.parametrize("how", sorted(COPIES))
@pytest.mark.parametrize("name", sorted(GAMES))
def test_parallel_env_copies_play_on_identically(name, how):
    env = sixnimmt_env.parallel_env(3, **GAMES[name])
    fresh = COPIES[how](env)  # as SuperSuit's concat_vec_envs copies an env before reset
    obs, _ = env.reset(seed=5)
    obs_fresh, _ = fresh.reset(seed=5)
    same(obs, obs_fresh)
    assert any(o["observation"].any() and o["action_mask"].any() for o in obs_fresh.values())
    rng = np.random.default_rng(1)
    _parallel_trace(env, obs, rng, 7)
    twin = COPIES[how](env)  # mid-game
    same_state(env.state_, twin.state_)
    obs = env._observations()
    same(obs, twin._observations())
    same(_parallel_trace(env, obs, np.random.default_rng(2), 40),
         _parallel_trace(twin, obs, np.random.default_rng(2), 40))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_aec_env_copies_play_on_identically(name):
    env = sixnimmt_env.env(most(name), **GAMES[name])
    env.reset(seed=4)
    rng = np.random.default_rng(0)

    def play(e, r, steps):
        trace = []
        for _ in range(steps):
            if all(e.terminations.values()) and e.terminations:
                e.reset()
            agent = e.agent_selection
            obs = e.observe(agent)
            e.step(legal(obs["action_mask"], r) if not e.terminations[agent] else None)
            trace.append((agent, obs, dict(e.rewards), dict(e.infos)))
        return trace

    play(env, rng, 10)
    for how, copier in COPIES.items():
        twin = copier(env)
        assert twin.agent_selection == env.agent_selection
        same(play(copy.deepcopy(env), np.random.default_rng(3), 30), play(twin, np.random.default_rng(3), 30))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_gym_env_copies_play_on_identically(name):
    env = SixNimmtEnv(2, **GAMES[name])
    obs, info = env.reset(seed=2)
    rng = np.random.default_rng(0)

    def play(e, obs, info, r, steps):
        trace = []
        for _ in range(steps):
            obs, reward, done, trunc, info = e.step(legal(info["action_mask"], r))
            trace.append((obs, reward, done, info))
            if done:
                obs, info = e.reset()
        return trace

    for _ in range(3):
        obs, _, done, _, info = env.step(legal(info["action_mask"], rng))
        if done:
            obs, info = env.reset()
    for copier in COPIES.values():
        twin = copier(env)
        same_state(env.games.state, twin.games.state)
        same(play(copy.deepcopy(env), obs, info, np.random.default_rng(5), 30),
             play(twin, obs, info, np.random.default_rng(5), 30))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_vec_env_copies_play_on_identically(name):
    env = SixNimmtVecEnv(4, most(name), seed=1, **GAMES[name])
    env.reset()
    rng = np.random.default_rng(0)

    def play(e, r, steps):
        trace = []
        for _ in range(steps):
            mask = e.action_masks()
            acts = (r.random(mask.shape) * mask).argmax(axis=1)
            trace.append(e.step(acts) + (e.action_masks().copy(),))
        return trace

    play(env, rng, 3)
    for copier in COPIES.values():
        twin = copier(env)
        same(env.action_masks(), twin.action_masks())
        same_state(env.games.state, twin.games.state)
        same(play(copy.deepcopy(env), np.random.default_rng(7), 30), play(twin, np.random.default_rng(7), 30))


# ---------------------------------------------------------------------- rewards

def expected_returns(kind: str, totals: np.ndarray, utility: int) -> np.ndarray:
    """(P,) what a seat's rewards over an episode add up to, from the episode's (P,)
    change of every seat's points."""
    P = len(totals)
    if kind in ("points", "penalty"):  # "penalty" is the alias of "points"
        return utility * totals
    if kind == "relative":
        return utility * (totals - (totals.sum() - totals) / (P - 1))
    return rank_rewards(totals[:, None], utility)[:, 0]


SCALES = {"cards": CARD_SCORE_SCALE, "board": BOARD_SCORE_SCALE}
SHORT_CARDS = dict(end_score=30)  # whole card games, a few rounds each


def _kw(name):
    return dict(GAMES[name], **(SHORT_CARDS if GAMES[name]["game"] == "cards" else {}))


@pytest.mark.parametrize("reward", REWARDS)
@pytest.mark.parametrize("name", sorted(GAMES))
def test_parallel_and_aec_rewards_add_up_to_the_reward_mode(name, reward):
    for players in (2, most(name)):
        env = sixnimmt_env.parallel_env(players, reward=reward, **_kw(name))
        rng = np.random.default_rng(players)
        obs, _ = env.reset(seed=players)
        got = np.zeros(players)
        while env.agents:
            obs, rew, *_ = env.step({a: legal(o["action_mask"], rng) for a, o in obs.items()})
            got += [rew[a] for a in env.possible_agents]
        totals = env.game.totals(env.state_)[:, 0].astype(np.float64)
        np.testing.assert_allclose(got, expected_returns(reward, totals, env.info.utility), atol=1e-9)
        if reward != "rank":
            assert np.abs(got).sum() > 0, "a whole game scores something"
    aec = sixnimmt_env.env(3, reward=reward, **_kw(name))
    aec.reset(seed=9)
    got = dict.fromkeys(aec.possible_agents, 0.0)
    rng = np.random.default_rng(0)
    for agent in aec.agent_iter():
        obs, r, term, trunc, _ = aec.last()
        got[agent] += r
        aec.step(None if term or trunc else legal(obs["action_mask"], rng))
    par = aec.unwrapped
    totals = par.game.totals(par.state_)[:, 0].astype(np.float64)
    np.testing.assert_allclose([got[a] for a in aec.possible_agents],
                               expected_returns(reward, totals, par.info.utility), atol=1e-9)


@pytest.mark.parametrize("reward", REWARDS)
@pytest.mark.parametrize("name", sorted(GAMES))
def test_gym_and_vec_env_rewards_add_up_to_the_reward_mode(name, reward):
    kw = dict(_kw(name), episode="game")
    env = SixNimmtEnv(3, reward=reward, **kw)
    rng = np.random.default_rng(0)
    for seed in range(2):
        obs, info = env.reset(seed=seed)
        got, done = 0.0, False
        while not done:
            obs, r, done, _, info = env.step(legal(info["action_mask"], rng))
            got += r
        totals = env.games.game.totals(env.games.state)[:, 0].astype(np.float64)
        want = expected_returns(reward, totals, env.games.game.info.utility)[info["seat"]]
        assert got == pytest.approx(want, abs=1e-6)
    # The VecEnv restarts a finished game at once: the final scores are read from the
    # terminal observation (every seat's points, relative to the slot's seat).
    vec = SixNimmtVecEnv(3, most(name), reward=reward, learners=2, seed=2, **kw)
    vec.reset()
    layout, utility = vec.games.layout, vec.games.game.info.utility
    scale = SCALES[GAMES[name]["game"]]
    got = np.zeros(vec.num_envs)
    checked = 0
    for _ in range(3000):
        mask = vec.action_masks()
        _, rew, dones, infos = vec.step((rng.random(mask.shape) * mask).argmax(axis=1))
        got += rew
        for slot in np.flatnonzero(dones):
            scores = layout.decode(infos[slot]["terminal_observation"][None])["scores"][0, :most(name)]
            want = expected_returns(reward, np.rint(scores * scale), utility)[0]
            assert got[slot] == pytest.approx(want, abs=1e-4)
            got[slot] = 0.0
            checked += 1
        if checked >= 8:
            break
    assert checked >= 8


# ---------------------------------------------------------------------- observation bounds

CARD_CASES = [dict(players=p, variant=v, row_choice=r) for v in ("classic", "die-sechste")
              for r in ("player", "cheapest") for p in range(2, 11)]
BOARD_CASES = [dict(players=p, variant=v) for v in ("basic", "luck", "pro", "pro-luck") for p in range(2, 7)]


def _outside(layout, obs: np.ndarray) -> list[str]:
    """The fields of `layout` where some row of obs (n, D) leaves [low, high]."""
    low, high = layout.low(), layout.high()
    bad = (obs < low) | (obs > high) | ~np.isfinite(obs)
    return [name for name, part in layout.decode(bad).items() if part.any()]


def _check_random_games(game_name: str, rules: dict, observation: str, games: int, seed: int) -> int:
    """Plays `games` random games to their end; every seat's observation at every step
    must lie inside the space. Returns the number of observations checked."""
    game = make_game(game_name, **rules)
    layout = game.layout(observation)
    env_space = sixnimmt_env.parallel_env(game=game, observation=observation).observation_space("player_0")
    assert env_space["observation"] == layout.space()
    P = game.info.players
    st = game.new_games(game_seeds(seed, games))
    seats, cols = np.repeat(np.arange(P), games), np.tile(np.arange(games), P)
    rng = np.random.default_rng(seed)
    checked = 0
    while True:
        view = game.view(st, seats, cols)
        obs = layout.encode(view)
        assert not _outside(layout, obs), f"{game_name} {rules} {observation}: outside in {_outside(layout, obs)}"
        checked += len(obs)
        live = ~game.game_over(st)
        if not live.any():
            return checked
        actions = view.random_legal_actions(rng).reshape(P, games)
        game.step(st, actions, inplace=True, games=live)


@pytest.mark.parametrize("rules", CARD_CASES, ids=lambda r: f"{r['variant']}-{r['row_choice']}-{r['players']}p")
def test_card_observations_stay_inside_their_space(rules):
    for observation in ("basic", "card-features"):
        assert _check_random_games("cards", rules, observation, 12, rules["players"]) > 0


@pytest.mark.parametrize("rules", BOARD_CASES, ids=lambda r: f"{r['variant']}-{r['players']}p")
def test_board_observations_stay_inside_their_space(rules):
    for observation, games in (("basic", 48), ("tile-features", 12)):
        assert _check_random_games("board", rules, observation, games, rules["players"]) > 0
    if "luck" in rules["variant"]:  # elsewhere tile-answers is tile-features
        assert _check_random_games("board", rules, "tile-answers", 12, rules["players"]) > 0


def test_board_turn_feature_counts_to_its_rule_bound():
    """The pro side's long 2-player games pass the basic side's 24 turns (what the old
    bound of 1.0 refused) and stay within 96 / P."""
    from sixnimmt_env.board.encoding import MAX_TURNS, turn_bound
    game = make_game("board", players=2, variant="pro")
    layout = game.layout()
    at = layout.offsets["turn"]
    assert layout.high()[at] == pytest.approx(48 / MAX_TURNS)
    assert turn_bound(make_game("board", players=4).rules) == 12
    assert turn_bound(make_game("board", players=3, variant="luck").rules) == 24
    st = game.new_games(game_seeds(0, 64))
    rng = np.random.default_rng(0)
    while not game.game_over(st).all():
        view = game.view(st, np.repeat(np.arange(2), 64), np.tile(np.arange(64), 2))
        game.step(st, view.random_legal_actions(rng).reshape(2, 64), inplace=True, games=~game.game_over(st))
    assert st.turn.max() > MAX_TURNS


# ---------------------------------------------------------------------- infos and conventions

@pytest.mark.parametrize("name", sorted(GAMES))
def test_infos_are_numbers_with_the_same_keys_every_step(name):
    env = sixnimmt_env.parallel_env(3, **GAMES[name])
    obs, infos = env.reset(seed=0)
    keys = set(infos["player_0"])
    assert keys == {"phase", "round", "turn", "illegal_action"}
    rng = np.random.default_rng(0)
    phases = set()
    while True:
        for info in infos.values():
            assert set(info) == keys
            assert all(isinstance(v, int) and not isinstance(v, bool) for v in info.values()), info
            phases.add(env.info.phases[info["phase"]])
        if not env.agents:
            break
        obs, _, _, _, infos = env.step({a: legal(o["action_mask"], rng) for a, o in obs.items()})
    assert "over" in phases and len(phases) >= 2


def test_rllib_conventions_observation_key_and_unmasked_checks():
    """RLlib's action-masking module reads "observations"; its env pre-check steps once with
    actions sampled from the action space, which "penalize" takes (ending the episode)."""
    env = sixnimmt_env.parallel_env(3, observation_key="observations", illegal_action="penalize")
    space = env.observation_space("player_0")
    assert set(space.spaces) == {"observations", "action_mask"}
    obs, _ = env.reset(seed=42, options={})
    assert all(space.contains(o) for o in obs.values())
    for _ in range(20):  # whatever the sample, the step returns well-formed dicts
        obs, _ = env.reset()
        actions = {a: env.action_space(a).sample() for a in env.agents}
        obs, rew, term, trunc, infos = env.step(actions)
        assert all(space.contains(o) for o in obs.values()) and set(rew) == set(env.possible_agents)
    with pytest.raises(sixnimmt_env.ConfigError):
        sixnimmt_env.parallel_env(3, observation_key="action_mask")


@pytest.mark.parametrize("variant", ["basic", "pro", "pro-luck"])
def test_board_to_act_is_what_each_seat_is_asked(variant):
    """to_act, which the learner seats' loop and the web page read, agrees with each seat's
    view at every step (on the pro side hands differ: each seat's own hand counts)."""
    P, B = 3, 24
    game = make_game("board", players=P, variant=variant)
    st = game.new_games(game_seeds(7, B))
    seats, cols = np.repeat(np.arange(P), B), np.tile(np.arange(B), P)
    rng = np.random.default_rng(0)
    while not game.game_over(st).all():
        view = game.view(st, seats, cols)
        live = ~game.game_over(st)
        want = view.must_act.reshape(P, B) & live[None, :]
        np.testing.assert_array_equal(game.to_act(st) & live[None, :], want)
        game.step(st, view.random_legal_actions(rng).reshape(P, B), inplace=True, games=live)
