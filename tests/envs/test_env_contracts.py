"""What every environment promises, for every game, variant, table size and env kind
(issue 25), checked by the shipped checks (sixnimmt_env.testing, issue 46).

- `check_game` on every game, variant and table size: observation bounds over whole
  random games, API conformance, seeds, copies (pickle, cloudpickle, deepcopy; fresh and
  mid-game), reward sums, infos and hidden information at reset, for the ParallelEnv,
  the Gymnasium env and the VecEnv.
- Under every reward mode, longer plays: a seat's rewards over an episode sum to what
  the reward mode makes of its score change.
- What the checks do not cover: the AEC form's copies and rewards, the infos' keys and
  phases, the RLlib conventions, the board's turn bound and to_act.
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
from sixnimmt_env.core.game import make_game
from sixnimmt_env.core.rewards import REWARD_ALIASES, REWARDS, rank_rewards
from sixnimmt_env.core.rng import game_seeds
from sixnimmt_env.testing import check_env, check_game

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


# ---------------------------------------------------------------------- the shipped checks, every table

CARD_CASES = [dict(game="cards", players=p, variant=v, row_choice=r) for v in ("classic", "die-sechste")
              for r in ("player", "cheapest") for p in range(2, 11)]
BOARD_CASES = [dict(game="board", players=p, variant=v) for v in ("basic", "luck", "pro", "pro-luck") for p in range(2, 7)]


def _case_id(case: dict) -> str:
    return "-".join(str(v) for k, v in case.items() if k != "players") + f"-{case['players']}p"


@pytest.mark.parametrize("case", CARD_CASES + BOARD_CASES, ids=_case_id)
def test_every_env_of_every_table_passes_the_shipped_checks(case):
    """Few steps per env (the checks' own tests show what they catch); whole random games
    for the observation bounds, under every observation variant. Seeds and copies do not
    depend on the table size: checked at 3 players."""
    check_game(steps=8, games=12, skip=() if case["players"] == 3 else ("seeds", "copies"), **case)


def test_a_new_game_kind_registered_by_name_is_checked(monkeypatch):
    """A game kind registered in GAMES (here the card games' module under another name) is
    checked through the game interface like the shipped ones."""
    from sixnimmt_env.core import game as game_module
    monkeypatch.setitem(game_module.GAMES, "my-cards", "sixnimmt_env.cards.game")
    check_game("my-cards", players=3, steps=8)


# ---------------------------------------------------------------------- rewards, every mode

SHORT_CARDS = dict(end_score=30)  # whole card games, a few rounds each
ONLY_REWARDS = ("api", "seeds", "copies", "hidden")


def _kw(name):
    return dict(GAMES[name], **(SHORT_CARDS if GAMES[name]["game"] == "cards" else {}))


@pytest.mark.parametrize("reward", [r for r in REWARDS if r not in REWARD_ALIASES])  # test_envs: the alias
@pytest.mark.parametrize("name", sorted(GAMES))
def test_rewards_add_up_to_the_reward_mode_in_every_env(name, reward):
    """Whole episodes at the smallest and largest table (the ParallelEnv), a whole game
    (the Gymnasium env), several episodes of 3 games x 2 learners (the VecEnv)."""
    for players in (2, most(name)):
        check_env(sixnimmt_env.parallel_env(players, reward=reward, **_kw(name)), steps=60, skip=ONLY_REWARDS)
    check_env(SixNimmtEnv(3, reward=reward, episode="game", **_kw(name)), steps=60, skip=ONLY_REWARDS)
    check_env(SixNimmtVecEnv(3, most(name), reward=reward, learners=2, seed=2, **_kw(name)), steps=60,
              skip=ONLY_REWARDS)


# ---------------------------------------------------------------------- the AEC form

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


def expected_returns(kind: str, totals: np.ndarray, utility: int) -> np.ndarray:
    """(P,) what a seat's rewards over an episode add up to, from the episode's (P,)
    change of every seat's points (written out here, not through step_rewards)."""
    P = len(totals)
    if kind in ("points", "penalty"):  # "penalty" is the alias of "points"
        return utility * totals
    if kind == "relative":
        return utility * (totals - (totals.sum() - totals) / (P - 1))
    return rank_rewards(totals[:, None], utility)[:, 0]


@pytest.mark.parametrize("reward", REWARDS)
@pytest.mark.parametrize("name", sorted(GAMES))
def test_aec_rewards_add_up_to_the_reward_mode(name, reward):
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
    if reward != "rank":
        assert np.abs(list(got.values())).sum() > 0, "a whole game scores something"


# ---------------------------------------------------------------------- observation bounds

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
def test_infos_name_the_phase_round_turn_and_reach_over(name):
    """The checks see the same keys, numbers only; these are the keys the spec sheet names."""
    env = sixnimmt_env.parallel_env(3, **GAMES[name])
    obs, infos = env.reset(seed=0)
    assert set(infos["player_0"]) == {"phase", "round", "turn", "illegal_action"}
    rng = np.random.default_rng(0)
    phases = set()
    while True:
        phases |= {env.info.phases[info["phase"]] for info in infos.values()}
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
