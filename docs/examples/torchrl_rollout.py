"""TorchRL: the ParallelEnv and the AEC env through `PettingZooWrapper`, with masked
random rollouts (the mask moves into the action spec, so `rand_action` is legal).

    python docs/examples/torchrl_rollout.py --game board --players 4
"""

from __future__ import annotations

import argparse

import torch
from torchrl.envs.libs.pettingzoo import PettingZooWrapper

import sixnimmt_env


def make_env(game: str = "cards", players: int = 3, parallel: bool = True, **rules) -> PettingZooWrapper:
    make = sixnimmt_env.parallel_env if parallel else sixnimmt_env.env
    # AEC: one agent acts at a time, so TorchRL needs use_mask to know which
    return PettingZooWrapper(make(players, game=game, **rules), use_mask=not parallel,
                             categorical_actions=True, seed=0)


def main(game: str = "cards", players: int = 3, steps: int = 50, parallel: bool = True, **rules):
    """A masked random rollout of `steps` steps; returns the rollout TensorDict."""
    env = make_env(game, players, parallel, **rules)
    rollout = env.rollout(steps, break_when_any_done=False)
    env.close()
    return rollout


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],  # the whole first paragraph
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="cards", help="cards or board")
    parser.add_argument("--variant", default=None,
                        help="cards: classic or die-sechste; board: basic, luck, pro or pro-luck (default: the game's)")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--steps", type=int, default=100)
    args = parser.parse_args()
    rules = {"variant": args.variant} if args.variant else {}
    for parallel in (True, False):
        td = main(args.game, args.players, args.steps, parallel, **rules)
        reward = td["next", "player", "reward"].sum(dim=0).squeeze(-1)
        print("parallel" if parallel else "AEC", "rollout", tuple(td.batch_size), "rewards", reward.tolist())
    torch.set_num_threads(1)
