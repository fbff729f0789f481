"""The training env of a run: one VecEnv of the run's table, or (`game_share` > 0) the
games split between one-round episodes and whole games in one VecEnv.

Why both in one run (issue 47): a network trained on single rounds gains at one round and
forgets whole games (the standard tournament to 66); a later whole-game stage mends the
games but gives back part of the round's gain. One run with both kinds of episode learns
both at once, from one pool of opponents. The observation does not tell the two kinds of
episode apart (a one-round game and a whole game's first round look alike), so the value
of such a state is their mixture: a baseline error shared by every action there, which
adds variance to the policy's gradient but no bias.
"""

from __future__ import annotations

import gymnasium
import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from sixnimmt_env.adapters.vec_env import SixNimmtVecEnv

GAME_SEED_OFFSET = 1_000_003
"""The whole-game part's seed is the run's plus this: its deals differ from the rounds'."""
SELF_PLAY_SEED_OFFSET = 2_000_003
"""The self-play part's seed is the run's plus this (`self_play_games`)."""


class ConcatVecEnv(VecEnv):
    """Several VecEnvs of the same spaces as one: slots of the first, then the second's..."""

    render_mode = None

    def __init__(self, parts: list[VecEnv]):
        """`parts`: VecEnvs with equal observation and action spaces."""
        first = parts[0]
        for part in parts[1:]:
            same = (part.observation_space.shape == first.observation_space.shape
                    and part.observation_space.dtype == first.observation_space.dtype)
            if not same or part.action_space != first.action_space:
                raise ValueError("ConcatVecEnv: the parts' observation and action spaces differ")
        self.parts = parts
        self.bounds = np.cumsum([0] + [p.num_envs for p in parts])
        super().__init__(int(self.bounds[-1]), _union([p.observation_space for p in parts]), first.action_space)

    def _split(self, x) -> list:
        return [x[a:b] for a, b in zip(self.bounds[:-1], self.bounds[1:])]

    def reset(self) -> np.ndarray:
        out = [p.reset() for p in self.parts]
        self.reset_infos = [info for p in self.parts for info in p.reset_infos]
        return np.concatenate(out)

    def step_async(self, actions: np.ndarray) -> None:
        for part, a in zip(self.parts, self._split(np.asarray(actions))):
            part.step_async(a)

    def step_wait(self):
        obs, rewards, dones, infos = zip(*(p.step_wait() for p in self.parts))
        return np.concatenate(obs), np.concatenate(rewards), np.concatenate(dones), [i for part in infos for i in part]

    def action_masks(self) -> np.ndarray:
        """(num_envs, A) legal actions of every slot (MaskablePPO calls this)."""
        return np.concatenate([p.action_masks() for p in self.parts])

    def seed(self, seed: int | None = None):
        return [s for k, p in enumerate(self.parts) for s in p.seed(None if seed is None else seed + k * GAME_SEED_OFFSET)]

    def close(self) -> None:
        for p in self.parts:
            p.close()

    def _where(self, indices) -> list[tuple[int, int]]:
        """(part, index in the part) of each of `indices` (None: every slot)."""
        if indices is None:
            indices = range(self.num_envs)
        elif isinstance(indices, int):
            indices = [indices]
        out = []
        for i in indices:
            k = int(np.searchsorted(self.bounds, i, side="right")) - 1
            if not 0 <= i < self.num_envs:
                raise IndexError(f"slot {i} out of range 0..{self.num_envs - 1}")
            out.append((k, i - int(self.bounds[k])))
        return out

    def get_attr(self, attr_name: str, indices=None) -> list:
        return [self.parts[k].get_attr(attr_name, j)[0] for k, j in self._where(indices)]

    def set_attr(self, attr_name: str, value, indices=None) -> None:
        for k, j in self._where(indices):
            self.parts[k].set_attr(attr_name, value, j)

    def env_method(self, method_name: str, *args, indices=None, **kwargs) -> list:
        return [self.parts[k].env_method(method_name, *args, indices=j, **kwargs)[0] for k, j in self._where(indices)]

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return [self.parts[k].env_is_wrapped(wrapper_class, j)[0] for k, j in self._where(indices)]


def _union(spaces: list[gymnasium.spaces.Space]) -> gymnasium.spaces.Space:
    """The space holding each of `spaces`: Boxes of one shape get the widest bounds (a
    whole game's points reach higher than a round's); other spaces must be equal."""
    first = spaces[0]
    if not all(isinstance(s, gymnasium.spaces.Box) for s in spaces):
        if any(s != first for s in spaces):
            raise ValueError("ConcatVecEnv: the parts' observation spaces differ")
        return first
    low = np.min([s.low for s in spaces], axis=0)
    high = np.max([s.high for s in spaces], axis=0)
    return gymnasium.spaces.Box(low, high, dtype=first.dtype)


def training_env(cfg, pool, seed: int) -> VecEnv:
    """The VecEnv a run of `cfg` learns on, with `pool`'s opponents: `cfg.num_games` games of
    `cfg.episode`, or with `cfg.game_share` > 0 that share of them whole games (at least one
    of each kind), whose opponents are drawn by `cfg.game_pool_weights` when given. With
    `cfg.self_play_games`, those all-seat self-play games come first, split by the same
    share (the learner then meets whole games at every seat as well as against the league)."""
    def part(num_games: int, episode: str, part_seed: int, opponents=None, learners: int = 1) -> SixNimmtVecEnv:
        return SixNimmtVecEnv(num_games, game=cfg.game, rules=cfg.game_rules(cfg.players), opponents=opponents,
                              learners=learners, reward=cfg.reward, episode=episode, seed=part_seed,
                              observation=cfg.observation)

    parts: list[VecEnv] = []
    if cfg.self_play_games:  # every seat learns in these games: the current policy everywhere
        whole = whole_games(cfg.self_play_games, cfg.game_share)
        parts.append(part(cfg.self_play_games - whole, cfg.episode, seed + SELF_PLAY_SEED_OFFSET, learners=cfg.players))
        if whole:
            parts.append(part(whole, "game", seed + SELF_PLAY_SEED_OFFSET + GAME_SEED_OFFSET, learners=cfg.players))
    whole = whole_games(cfg.num_games, cfg.game_share)
    parts.append(part(cfg.num_games - whole, cfg.episode, seed, pool))
    if whole:
        game_pool = pool.weighted(cfg.game_pool_weights) if cfg.game_pool_weights else pool
        parts.append(part(whole, "game", seed + GAME_SEED_OFFSET, game_pool))
    return parts[0] if len(parts) == 1 else ConcatVecEnv(parts)


def whole_games(num_games: int, share: float) -> int:
    """How many of `num_games` play whole games at `share`: 0 without a share, else at least
    one and at most all but one (both kinds of episode are always there)."""
    if not share:
        return 0
    return min(max(round(num_games * share), 1), num_games - 1)
