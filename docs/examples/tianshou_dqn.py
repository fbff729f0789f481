"""Tianshou: the AEC env through `PettingZooEnv`; a DQN learns seat 0 against masked
random policies at the other seats.

    python docs/examples/tianshou_dqn.py --game cards --players 3 --steps 20000

Tianshou reads the observation's "observation" and "action_mask" keys itself, and its
policies see the mask (random ones sample legal actions, DQN never picks an illegal one).
"""

from __future__ import annotations

import argparse

import numpy as np
import torch
from tianshou.algorithm import DQN, MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.env.pettingzoo_env import PettingZooEnv
from tianshou.utils.net.common import Net
from tianshou.utils.torch_utils import policy_within_training_step

import sixnimmt_env


def make_env(game: str = "cards", players: int = 3, **rules) -> PettingZooEnv:
    return PettingZooEnv(sixnimmt_env.env(players, game=game, **rules))


def agents(env: PettingZooEnv, learn: bool = True) -> MultiAgentOffPolicyAlgorithm:
    """Seat 0 a DQN (or random, learn=False), the other seats masked random policies."""
    space = env.observation_space["observation"]
    others = [MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space)
              for _ in env.agents[1:]]
    if not learn:
        return MultiAgentOffPolicyAlgorithm(algorithms=[others[0]] + others, env=env)
    net = Net(state_shape=space.shape, action_shape=env.action_space.n, hidden_sizes=[128, 128])
    policy = DiscreteQLearningPolicy(model=net, action_space=env.action_space, eps_training=0.1,
                                     eps_inference=0.0)
    dqn = DQN(policy=policy, optim=AdamOptimizerFactory(lr=1e-3), gamma=0.99, target_update_freq=100)
    return MultiAgentOffPolicyAlgorithm(algorithms=[dqn] + others, env=env)


def main(game: str = "cards", players: int = 3, steps: int = 2000, envs: int = 4, seed: int = 0,
         **rules) -> dict:
    """Trains seat 0 for `steps` env steps; returns seat 0's mean return in test episodes,
    for the DQN and for a random policy in its seat."""
    np.random.seed(seed)
    torch.manual_seed(seed)
    make = lambda: make_env(game, players, **rules)  # noqa: E731
    train = DummyVectorEnv([make for _ in range(envs)])
    train.seed(seed)
    marl = agents(make())
    collector = Collector[CollectStats](marl, train, VectorReplayBuffer(20_000, envs), exploration_noise=True)
    collector.reset()
    collector.collect(n_step=64 * envs)
    done = 0
    while done < steps:
        collector.collect(n_step=16 * envs)
        done += 16 * envs
        with policy_within_training_step(marl.policy):  # what Tianshou's trainer does
            marl.update(sample_size=64, buffer=collector.buffer)
    returns = {}
    for name, algorithm in (("dqn", marl), ("random", agents(make(), learn=False))):
        test = DummyVectorEnv([make for _ in range(envs)])
        test.seed(seed + 1)
        stats = Collector[CollectStats](algorithm, test).collect(n_episode=2 * envs, reset_before_collect=True)
        returns[name] = float(stats.returns[:, 0].mean())
    return returns


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
    print(main(args.game, args.players, args.steps, **rules))
