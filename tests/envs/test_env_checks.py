"""The shipped environment checks (sixnimmt_env.testing) catch what they promise to: a
wrapper whose observations leave the space, whose rewards do not sum to the score
changes, or that leaks another seat's hand, each with a one-line message; copies and
seeds that break; things that are not environments. (That every shipped env passes them
is tests/envs/test_env_contracts.py.)"""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from pettingzoo import ParallelEnv
from pettingzoo.utils.wrappers import BaseParallelWrapper
from stable_baselines3.common.vec_env import VecEnvWrapper, VecMonitor

import sixnimmt_env
from sixnimmt_env import SixNimmtEnv, SixNimmtVecEnv
from sixnimmt_env.testing import CHECKS, EnvCheckError, check_env, check_game, env_problems


class ObservationWrapper(BaseParallelWrapper):
    """Passes everything through; subclasses change the observations."""

    def reset(self, seed=None, options=None):
        obs, infos = self.env.reset(seed=seed, options=options)
        return self.change(obs), infos

    def step(self, actions):
        obs, *rest = self.env.step(actions)
        return (self.change(obs), *rest)

    def change(self, obs):
        return obs


class Outside(ObservationWrapper):
    """Observations shifted out of their bounds."""

    def change(self, obs):
        return {a: {**o, "observation": o["observation"] * 3 + 1} for a, o in obs.items()}


class Leak(ObservationWrapper):
    """Each seat sees the next seat's observation: its hand among it."""

    def change(self, obs):
        agents = list(obs)
        return {a: {**o, "observation": obs[agents[(i + 1) % len(agents)]]["observation"]}
                for i, (a, o) in enumerate(obs.items())}


class Scaled(BaseParallelWrapper):
    """Rewards doubled and shifted: no longer the score changes."""

    def step(self, actions):
        obs, rew, *rest = self.env.step(actions)
        return (obs, {a: 2 * r + 0.5 for a, r in rew.items()}, *rest)


class Shift(gymnasium.ObservationWrapper):
    def observation(self, obs):
        return obs - 1


class Half(gymnasium.RewardWrapper):
    def reward(self, reward):
        return reward / 2


class Tripled(VecEnvWrapper):
    def reset(self):
        return self.venv.reset()

    def step_wait(self):
        obs, rewards, dones, infos = self.venv.step_wait()
        return obs, rewards * 3, dones, infos


class Forgetful(BaseParallelWrapper):
    """A copy deals afresh: its state is not copied."""

    def __deepcopy__(self, memo):
        return Forgetful(sixnimmt_env.parallel_env(3))

    def __reduce__(self):
        return (Forgetful, (sixnimmt_env.parallel_env(3),))


class Unseeded(BaseParallelWrapper):
    """Drops the seed."""

    def reset(self, seed=None, options=None):
        return self.env.reset(seed=None, options=options)


class Coins(ParallelEnv):
    """A ParallelEnv that is not the lab's: two players show a coin once."""

    metadata = {"name": "coins_v0"}
    possible_agents = ["a", "b"]

    def __init__(self):
        self.agents = []

    def observation_space(self, agent):
        return self._obs

    def action_space(self, agent):
        return self._act

    _obs = gymnasium.spaces.Box(0, 1, (1,), np.float32)
    _act = gymnasium.spaces.Discrete(2)

    def reset(self, seed=None, options=None):
        self.agents = list(self.possible_agents)
        return {a: np.zeros(1, np.float32) for a in self.agents}, {a: {} for a in self.agents}

    def step(self, actions):
        obs = {a: np.ones(1, np.float32) for a in self.agents}
        same = actions["a"] == actions["b"]
        rew = {"a": 1.0 if same else -1.0, "b": -1.0 if same else 1.0}
        done = dict.fromkeys(self.agents, True)
        infos = {a: {} for a in self.agents}
        self.agents = []
        return obs, rew, done, dict.fromkeys(done, False), infos


def one_problem(env, check: str, **kw) -> str:
    """The one problem `check_env` raises, asserted to name `check`."""
    with pytest.raises(EnvCheckError) as caught:
        check_env(env, **kw)
    assert len(caught.value.problems) == 1, caught.value.problems
    line = caught.value.problems[0]
    assert line.startswith(f"{check}: ") and "\n" not in line
    return line


@pytest.mark.parametrize("game", ["cards", "board"])
def test_observations_outside_the_space_are_caught(game):
    line = one_problem(Outside(sixnimmt_env.parallel_env(3, game=game)), "observations", steps=6)
    assert "'observation' outside its bounds in " in line and "player_0" in line and "step 0" in line


@pytest.mark.parametrize("game", ["cards", "board"])
def test_rewards_that_do_not_sum_to_the_scores_are_caught(game):
    line = one_problem(Scaled(sixnimmt_env.parallel_env(3, game=game)), "rewards", steps=30)
    assert "rewards sum to" in line and "its score change gives" in line and "'points'" in line


@pytest.mark.parametrize("game,variant", [("cards", "classic"), ("cards", "die-sechste"), ("board", "pro")])
def test_a_leaked_hand_is_caught(game, variant):
    line = one_problem(Leak(sixnimmt_env.parallel_env(3, game=game, variant=variant)), "hidden", steps=6)
    assert line.startswith("hidden: player_0's observation at reset changes when the other seats' hands are exchanged")


def test_gymnasium_and_vec_env_wrappers_are_caught():
    assert "not within the observation space" in one_problem(Shift(SixNimmtEnv(3)), "api", steps=20)
    assert "the learner's rewards sum to" in one_problem(Half(SixNimmtEnv(3)), "rewards", steps=20)
    assert "slot" in one_problem(Tripled(SixNimmtVecEnv(2, 3, learners=2)), "rewards", steps=20)
    assert env_problems(VecMonitor(SixNimmtVecEnv(2, 3, learners=2)), steps=20) == []  # a faithful wrapper passes


def test_copies_and_seeds_that_break_are_caught():
    problems = env_problems(Forgetful(sixnimmt_env.parallel_env(3)), steps=9, skip=("api",))
    assert [p.split(":")[0] for p in problems] == ["copies"] * 3
    assert "a pickle copy made mid-game plays on differently" in problems[0]

    problems = env_problems(Unseeded(sixnimmt_env.parallel_env(3)), steps=6, skip=("copies", "hidden"))
    assert problems and problems[0].startswith("seeds: seed 0 twice with the same actions plays differently")


def test_check_game_names_the_env_of_each_problem(monkeypatch):
    from sixnimmt_env.adapters import vec_env
    real = vec_env.SixNimmtVecEnv.step_wait

    def doubled(self):
        obs, rewards, dones, infos = real(self)
        return obs, rewards * 2, dones, infos

    monkeypatch.setattr(vec_env.SixNimmtVecEnv, "step_wait", doubled)
    with pytest.raises(EnvCheckError) as caught:
        check_game("cards", players=3, steps=12)
    assert [p.split("] ")[0] for p in caught.value.problems] == ["[cards classic 3p VecEnv"]


def test_what_is_not_an_environment_and_unknown_checks():
    assert env_problems(object()) == ["env: object is not a ParallelEnv, Gymnasium env or SB3 VecEnv "
                                      "(for the AEC form, check the ParallelEnv it wraps)"]
    with pytest.raises(ValueError, match="unknown check"):
        check_env(sixnimmt_env.parallel_env(3), skip=("copys",))
    assert set(CHECKS) == {"api", "seeds", "copies", "rewards", "observations", "infos", "hidden"}
    check_env(sixnimmt_env.parallel_env(3), steps=4, skip=CHECKS)  # nothing to check: passes


def test_an_env_outside_the_lab_gets_the_checks_that_need_no_scores():
    """A ParallelEnv of PettingZoo's own: the reward and hidden checks say they cannot read it."""
    problems = env_problems(Coins(), steps=6, skip=("api", "seeds", "copies"))
    assert problems and all(p.startswith(("rewards: no lab env", "hidden: no lab env")) for p in problems)
    assert np.all([len(p.splitlines()) == 1 for p in problems])
