"""Property-based tests of the environments: action sequences mixing legal actions with
every kind of bad one (out of range, illegal, NaN, float, string, bool, array, unknown
or missing agents). A legal action steps; a bad one raises IllegalActionError and
leaves the game as it was (the next legal step gives what it would have given)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sixnimmt_env
from sixnimmt_env.core.errors import ConfigError, IllegalActionError
from tests.support.fuzz_support import count

BAD_ACTIONS = ["out_of_range", "illegal", "nan", "float", "string", "bool", "array", "none"]
BAD_DICTS = ["unknown_agent", "missing_agent", "not_a_dict"]
ENVS = [dict(game="cards", players=3), dict(game="cards", players=4, row_choice="cheapest"),
        dict(game="cards", players=5, variant="die-sechste"), dict(game="board", players=3),
        dict(game="board", players=2, variant="luck")]


def _bad(kind: str, mask: np.ndarray, n: int, rng):
    if kind == "out_of_range":
        return int(rng.choice([-1, n, n + 7, -(10**6), 10**20]))
    if kind == "illegal":
        illegal = np.flatnonzero(mask == 0)
        return int(illegal[rng.integers(len(illegal))]) if len(illegal) else -1
    return {"nan": float("nan"), "float": 1.5, "string": "3", "bool": True,
            "array": np.array([0, 1]), "none": None}[kind]


def _legal(obs, agents, rng):
    return {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in agents}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(env_kw=st.sampled_from(ENVS), seed=st.integers(0, 2**32),
       plan=st.lists(st.sampled_from(["legal"] * 3 + BAD_ACTIONS + BAD_DICTS), min_size=5, max_size=40))
def test_parallel_env_action_sequences(env_kw, seed, plan):
    env = sixnimmt_env.parallel_env(**env_kw)
    twin = sixnimmt_env.parallel_env(**env_kw)  # gets only the legal steps
    obs, _ = env.reset(seed=seed)
    twin.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for kind in plan:
        if not env.agents:
            obs, _ = env.reset(seed=seed + 1)
            twin.reset(seed=seed + 1)
        count(f"ParallelEnv.step ({env_kw['game']})", kind)
        actions = _legal(obs, env.agents, rng)
        if kind == "legal":
            obs, rew, term, trunc, info = env.step(actions)
            obs2, rew2, *_ = twin.step(actions)
            for a in obs:
                assert np.array_equal(obs[a]["observation"], obs2[a]["observation"])
            assert rew == rew2
            continue
        if kind in BAD_ACTIONS:
            who = env.agents[rng.integers(len(env.agents))]
            actions[who] = _bad(kind, obs[who]["action_mask"], env.n_actions, rng)
        elif kind == "unknown_agent":
            actions["player_99"] = 0
        elif kind == "missing_agent":
            del actions[env.agents[0]]
        else:
            actions = list(actions.values())
        with pytest.raises(IllegalActionError):
            env.step(actions)


@settings(max_examples=20, deadline=None)
@given(seed=st.one_of(st.integers(-10**6, -1), st.floats(allow_nan=True), st.text(max_size=3), st.just(True)),
       options=st.one_of(st.integers(), st.lists(st.integers(), max_size=2), st.text(max_size=3)))
def test_parallel_env_reset_bad_seeds_and_options(seed, options):
    env = sixnimmt_env.parallel_env(players=3)
    count("ParallelEnv.reset", "bad seed")
    with pytest.raises(ConfigError):
        env.reset(seed=seed)
    count("ParallelEnv.reset", "bad options")
    with pytest.raises(ConfigError):
        env.reset(seed=0, options=options)


def test_reset_deal_options_and_unknown_keys():
    env = sixnimmt_env.parallel_env(players=3)
    for deal in (5, "x", {"hands": "x"}, {"hands": [[1] * 10] * 3}, {"hands": [[200] * 10] * 3, "rows": [1, 2, 3, 4]}):
        count("ParallelEnv.reset", "bad deal")
        with pytest.raises(ConfigError):
            env.reset(options={"deal": deal})
    with pytest.warns(UserWarning, match="dael"):
        env.reset(options={"dael": 1})


@settings(max_examples=25, deadline=None)
@given(kind=st.sampled_from(["nan", "float", "string", "array", "bool", "none", "big"]))
def test_gym_env_bad_actions(kind):
    import gymnasium

    import sixnimmt_env.adapters.gym_env  # noqa: F401  registers SixNimmt-v0

    env = gymnasium.make("SixNimmt-v0", players=4).unwrapped
    env.reset(seed=0)
    value = {"nan": float("nan"), "float": 2.5, "string": "1", "array": np.array([1, 2]), "bool": False,
             "none": None, "big": 10**30}[kind]
    count("Gymnasium env.step", kind)
    with pytest.raises(IllegalActionError):
        env.step(value)


@settings(max_examples=25, deadline=None)
@given(shape=st.sampled_from([(3,), (5,), (4, 2), (2, 2), (0,)]),
       dtype=st.sampled_from([np.int64, np.float64, np.int8, object]))
def test_vec_env_bad_action_arrays(shape, dtype):
    vec = sixnimmt_env.SixNimmtVecEnv(num_games=4, players=4)
    vec.reset()
    actions = np.zeros(shape, dtype=dtype)
    count("SixNimmtVecEnv.step", f"shape {shape} {np.dtype(dtype).name}")
    with pytest.raises(IllegalActionError):
        vec.step(actions)


@pytest.mark.parametrize("make", [
    lambda: sixnimmt_env.parallel_env(players="4"),
    lambda: sixnimmt_env.parallel_env(players=11),
    lambda: sixnimmt_env.parallel_env(reward="win"),
    lambda: sixnimmt_env.parallel_env(illegal_reward=float("nan")),
    lambda: sixnimmt_env.parallel_env(variant=["classic"]),
    lambda: sixnimmt_env.parallel_env(game=5),
    lambda: sixnimmt_env.parallel_env(game="board", row_choice="player"),
    lambda: sixnimmt_env.SixNimmtVecEnv(num_games=4, players=4, seed=-1),
    lambda: sixnimmt_env.RuleConfig(players=4, end_score=66.5),
    lambda: sixnimmt_env.RuleConfig(players=4, deck=None),
])
def test_bad_constructor_arguments_are_config_errors(make):
    count("API constructors (RuleConfig, parallel_env, VecEnv)", "bad argument")
    with pytest.raises(ConfigError):
        make()
