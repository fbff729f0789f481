"""SuperSuit + Stable-Baselines3: every seat of the ParallelEnv is one sub-env of a vector
env, and one PPO plays them all (parameter sharing).

    python docs/examples/supersuit_sb3.py --game board --players 3 --steps 20000

SB3's PPO does not mask, so the env ends an episode on an illegal action with
`illegal_reward` (`illegal_action="penalize"`): the policy learns the rules too. For masked
training on this project's games use MaskablePPO on `SixNimmtVecEnv` (cleanrl_ppo.py).
"""

from __future__ import annotations

import argparse

import supersuit as ss
from stable_baselines3 import PPO
from stable_baselines3.common.utils import set_random_seed

import sixnimmt_env


def make_vec_env(game: str = "cards", players: int = 3, copies: int = 2, **rules):
    env = sixnimmt_env.parallel_env(players, game=game, illegal_action="penalize", **rules)
    vec = ss.pettingzoo_env_to_vec_env_v1(env)  # one sub-env per seat
    # copies of the whole table (SuperSuit copies the env), in this process
    return ss.concat_vec_envs_v1(vec, copies, num_cpus=0, base_class="stable_baselines3")


def main(game: str = "cards", players: int = 3, steps: int = 2048, seed: int = 0, n_steps: int = 128,
         **rules) -> PPO:
    vec = make_vec_env(game, players, **rules)
    set_random_seed(seed)  # not PPO(seed=): SuperSuit's vector env has no seed()
    model = PPO("MultiInputPolicy", vec, n_steps=n_steps, batch_size=min(n_steps, 64), verbose=0, device="cpu")
    model.learn(steps)
    vec.close()
    return model


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],  # the whole first paragraph
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="cards", help="cards or board")
    parser.add_argument("--variant", default=None,
                        help="cards: classic or die-sechste; board: basic, luck, pro or pro-luck (default: the game's)")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--steps", type=int, default=20_000)
    args = parser.parse_args()
    rules = {"variant": args.variant} if args.variant else {}
    main(args.game, args.players, args.steps, **rules)
    print("trained", args.steps, "steps")
