"""Checks that an environment keeps the lab's promises, for anyone who wraps or extends one.

As pgx ships `api_test` and PettingZoo `parallel_api_test`: run these on one of our
environments, on a wrapper around one, or on the environments of a new game kind
registered in `sixnimmt_env.core.game.GAMES`. Our own tests run them on every game,
variant and table size (tests/envs/test_env_contracts.py).

```python
from sixnimmt_env import parallel_env, make_game
from sixnimmt_env.testing import check_env, check_game
check_env(MyWrapper(parallel_env(4)))               # a ParallelEnv, Gymnasium env or SB3 VecEnv
check_game(make_game("board", players=3, variant="pro"))   # every adapter of a game
```

What is checked (each a name for `skip=`):

- `api`: PettingZoo's `parallel_api_test`, Gymnasium's `check_env`, or the VecEnv's shapes.
- `seeds`: the same seed plays the same games (same actions: same observations, rewards,
  infos); another seed deals another game.
- `copies`: a copy (pickle, cloudpickle, `copy.deepcopy`), fresh or mid-game, plays on
  exactly as the original.
- `rewards`: a seat's rewards over an episode sum to what the env's reward mode makes of
  the seat's score change (`core.rewards.step_rewards` of the totals at the episode's
  start and end). A wrapper that shapes or scales rewards fails this by design.
- `observations`: every observation lies inside the declared observation space.
- `infos`: the same keys at every step; in the ParallelEnv numbers only (TorchRL makes
  tensors of them).
- `hidden`: at reset, exchanging the other seats' hands (the reset option `deal`, built
  from the game's own record of the deal) changes no seat's observation or mask: a seat
  sees only what it may know. ParallelEnv only, 3 or more seats (with 2 the one other
  hand has nothing to be exchanged with); the Gymnasium and VecEnv forms encode through
  the same game layout.

A VecEnv's copies are checked on the lab VecEnv inside it (SB3's VecEnv wrappers cannot
be copied, and nothing copies them).

The reward and hidden-information checks read the score and the deal from our env inside
the wrapper (found through `unwrapped`, `env`, `venv`, `par_env`); the others use only
the public API. Problems are reported one a line: `check_env` raises `EnvCheckError`
listing them, `env_problems` returns them. Steps are random legal actions drawn from the
action masks, so a check is bounded by `steps`, not by time.
"""

from .envs import CHECKS, EnvCheckError, bounds_problems, check_env, check_game, env_problems

__all__ = ["CHECKS", "EnvCheckError", "bounds_problems", "check_env", "check_game", "env_problems"]
