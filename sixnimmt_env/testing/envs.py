"""The entry points of the environment checks: `check_env`, `env_problems`, `check_game`
and `bounds_problems` (the package docstring lists what each check covers)."""

from __future__ import annotations

import numpy as np

from ..core.game import Game, make_game
from ..core.rng import game_seeds
from ._gym import gym_problems
from ._parallel import parallel_problems
from ._shared import inner
from ._vec import vec_problems

CHECKS = ("api", "seeds", "copies", "rewards", "observations", "infos", "hidden")


class EnvCheckError(AssertionError):
    """What a check found wrong, one problem a line (also in `problems`)."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__(f"{len(self.problems)} problem(s):\n" + "\n".join(self.problems))


def check_env(env, *, steps: int = 40, seed: int = 0, skip: tuple[str, ...] = ()) -> None:
    """Check a ParallelEnv, Gymnasium env or SB3 VecEnv (ours, or a wrapper around ours)
    over `steps` steps of random legal actions from `seed`; EnvCheckError on any problem.
    `skip` names checks not to run (see CHECKS)."""
    problems = env_problems(env, steps=steps, seed=seed, skip=skip)
    if problems:
        raise EnvCheckError(problems)


def env_problems(env, *, steps: int = 40, seed: int = 0, skip: tuple[str, ...] = ()) -> list[str]:
    """The problems `check_env` would raise, one line each ([] when there are none)."""
    unknown = sorted(set(skip) - set(CHECKS))
    if unknown:
        raise ValueError(f"unknown check(s) {', '.join(unknown)}; the checks: {', '.join(CHECKS)}")
    from ..adapters.pettingzoo_env import SixNimmtParallelEnv  # the adapters load gymnasium etc.
    if hasattr(env, "num_envs") and hasattr(env, "step_async"):
        from ..adapters.vec_env import SixNimmtVecEnv
        return vec_problems(env, inner(env, SixNimmtVecEnv), steps, seed, skip)
    if hasattr(env, "possible_agents") and not hasattr(env, "agent_selection"):
        return parallel_problems(env, inner(env, SixNimmtParallelEnv), steps, seed, skip)
    if hasattr(env, "observation_space") and hasattr(env, "step") and not hasattr(env, "agent_selection"):
        from ..adapters.gym_env import SixNimmtEnv
        return gym_problems(env, inner(env, SixNimmtEnv), steps, seed, skip)
    return [f"env: {type(env).__name__} is not a ParallelEnv, Gymnasium env or SB3 VecEnv "
            f"(for the AEC form, check the ParallelEnv it wraps)"]


def check_game(game: str | Game = "cards", *, steps: int = 24, seed: int = 0, games: int = 8,
               rewards: tuple[str, ...] = ("points",), skip: tuple[str, ...] = (), **rule_options) -> None:
    """Check every adapter of a game (a Game, or a kind's name and its rule options): the
    observation bounds over `games` whole random games per observation variant, then the
    ParallelEnv under each reward mode of `rewards` (under the other observation
    variants, hidden information only),
    the Gymnasium env and the VecEnv. EnvCheckError lists what is wrong, each line naming
    the env it is about."""
    from ..adapters.gym_env import SixNimmtEnv
    from ..adapters.pettingzoo_env import SixNimmtParallelEnv
    from ..adapters.vec_env import SixNimmtVecEnv
    game = make_game(game, **rule_options)
    name = f"{game.info.game} {game.info.variant} {game.info.players}p"
    problems = [] if "observations" in skip else bounds_problems(game, games=games, seed=seed)
    for i, observation in enumerate(game.info.observations):
        # every check under the default observation; under the others, what the whole
        # random games above do not cover: hidden information
        others = skip if i == 0 else tuple(set(skip) | set(CHECKS) - {"hidden"})
        for reward in rewards if i == 0 else rewards[:1]:
            env = SixNimmtParallelEnv(game=game, observation=observation, reward=reward)
            problems += [f"[{name} ParallelEnv {observation} {reward}] {p}"
                         for p in env_problems(env, steps=steps, seed=seed, skip=others)]
    for label, env in (("Gymnasium env", SixNimmtEnv(game=game, reward=rewards[0])),
                       ("VecEnv", SixNimmtVecEnv(2, game=game, learners=min(2, game.info.players),
                                                 reward=rewards[0], seed=seed))):
        problems += [f"[{name} {label}] {p}" for p in env_problems(env, steps=steps, seed=seed, skip=skip)]
    if problems:
        raise EnvCheckError(problems)


def bounds_problems(game: Game, *, games: int = 8, seed: int = 0) -> list[str]:
    """Plays `games` random games of `game` to their end, all at once through the game
    interface; every seat's observation at every step, under every observation variant,
    must lie inside its layout's bounds. One line per variant that leaves them."""
    problems, seen = [], []
    P = game.info.players
    for observation in game.info.observations:
        layout = game.layout(observation)
        if layout.fields in seen:  # a variant that is another's under a second name
            continue
        seen.append(layout.fields)
        low, high = layout.low(), layout.high()
        st = game.new_games(game_seeds(seed, games))
        seats, cols = np.repeat(np.arange(P), games), np.tile(np.arange(games), P)
        rng = np.random.default_rng(seed)
        for step in range(100_000):  # a bound on a game that never ends
            view = game.view(st, seats, cols)
            obs = layout.encode(view)
            bad = (obs < low) | (obs > high) | ~np.isfinite(obs)
            if bad.any():
                fields = [f for f, part in layout.decode(bad).items() if part.any()]
                problems.append(f"observations: {observation}, step {step} of a random game: outside the "
                                f"layout's bounds in {', '.join(fields)}")
                break
            live = ~game.game_over(st)
            if not live.any():
                break
            game.step(st, view.random_legal_actions(rng).reshape(P, games), inplace=True, games=live)
        else:
            problems.append(f"observations: {observation}: random games did not end in 100000 steps")
    return problems
