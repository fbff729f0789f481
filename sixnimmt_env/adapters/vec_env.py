"""A Stable-Baselines3 VecEnv over the batched engine: B games stepped per call.

`SixNimmtVecEnv(num_games, players, learners=1, opponents=None, game="cards", ...)` has
`num_envs = num_games * learners` sub-environments (slots), the same observation
vector and action encoding as the PettingZoo env (one encoder, the game's `layout().encode`),
`action_masks()` for sb3-contrib's MaskablePPO, automatic reset (the final observation
is in `infos[i]["terminal_observation"]`, every seat's final points, by seat, in
`infos[i]["final_totals"]`) and episode ends that `VecMonitor` counts.
`observation` picks the observation variant (the game's `info.observations`); further
keywords are the game's rule options.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from ..core.errors import IllegalActionError
from ..core.game import Game, make_game
from ..core.perf import tune_allocator
from .checks import action_array, seed_int
from .learner import LearnerGames


class SixNimmtVecEnv(VecEnv):
    """num_games games, `learners` learning seats each (see sixnimmt_env.learner)."""

    render_mode = None  # no rendering of 4096 games; SB3 asks for the attribute

    def __init__(self, num_games: int = 4096, players: int | None = None, *, game: str | Game = "cards",
                 rules=None, learners: int = 1, opponents=None, reward: str = "points",
                 episode: str = "round", seed: int = 0, observation: str | None = None, **rule_options):
        tune_allocator()  # large batches: see sixnimmt_env.core.perf
        if players is not None:
            rule_options["players"] = players
        base = make_game(game, rules, **rule_options)
        self.rules = base.rules
        self.games = LearnerGames(base.episode(episode), num_games, learners=learners,
                                  opponents=opponents, reward=reward, seed=seed_int(seed),
                                  observation=observation)
        obs_space = self.games.layout.space()
        act_space = gymnasium.spaces.Discrete(self.games.n_actions)
        super().__init__(self.games.num_slots, obs_space, act_space)
        self._actions: np.ndarray | None = None
        self._obs, self._mask = self.games.observe()
        self._seed: int | None = None

    # ------------------------------------------------------------------ VecEnv API

    def reset(self) -> np.ndarray:
        if self._seed is not None:
            self.games.reset(self._seed)
            self._seed = None
        else:
            self.games.reset(self.games.seed)
        self._obs, self._mask = self.games.observe()
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return self._obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = action_array(actions, self.num_envs)

    def step_wait(self):
        actions, self._actions = self._actions, None
        legal = self.games.check(actions, self._mask)
        if not legal.all():
            slot = int(np.flatnonzero(~legal)[0])
            raise IllegalActionError(self.games.illegal_message(slot, int(actions[slot]), self._mask))
        rewards, dones = self.games.apply(actions)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if dones.any():
            done_slots = np.flatnonzero(dones)
            final_obs = self.games.layout.encode(self.games.view(done_slots))
            totals = self.games.game.totals(self.games.state)  # (P, B), read before the restart
            for j, i in enumerate(done_slots):
                infos[i]["terminal_observation"] = final_obs[j]
                infos[i]["final_totals"] = totals[:, self.games.slot_games[i]].tolist()
            self.games.restart(np.unique(self.games.slot_games[dones]))
        self._obs, self._mask = self.games.observe()
        return self._obs, rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        """(num_envs, A) legal actions of every slot (MaskablePPO calls this)."""
        return self._mask

    def seed(self, seed: int | None = None):
        self._seed = seed_int(seed)
        return [seed] * self.num_envs

    def close(self) -> None:
        pass

    def get_attr(self, attr_name: str, indices=None) -> list:
        if attr_name == "action_masks":  # sb3-contrib asks sub-envs for their masks
            return [None] * len(self._indices(indices))
        return [getattr(self, attr_name)] * len(self._indices(indices))

    def set_attr(self, attr_name: str, value, indices=None) -> None:
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *args, indices=None, **kwargs) -> list:
        if method_name == "action_masks":
            idx = self._indices(indices)
            return [self._mask[i] for i in idx]
        return [getattr(self, method_name)(*args, **kwargs)] * len(self._indices(indices))

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return [False] * len(self._indices(indices))

    def _indices(self, indices) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)
