"""A CleanRL-style single-file PPO with action masking on the project's VecEnv.

    python docs/examples/cleanrl_ppo.py --game cards --players 4 --steps 200000

Everything is here: the batched env (`SixNimmtVecEnv`: many games stepped at once, one
learning seat each among random opponents), a masked categorical policy, GAE and the
clipped PPO update. Illegal logits are set to -1e9, so no illegal action is ever sampled.
"""

from __future__ import annotations

import argparse

import numpy as np
import torch
from torch import nn

from sixnimmt_env.adapters.vec_env import SixNimmtVecEnv


class Agent(nn.Module):
    def __init__(self, obs_dim: int, n_actions: int, hidden: int = 128):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.pi, self.v = nn.Linear(hidden, n_actions), nn.Linear(hidden, 1)

    def act(self, obs, mask, action=None):
        h = self.body(obs)
        dist = torch.distributions.Categorical(logits=self.pi(h).masked_fill(~mask, -1e9))
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.v(h).squeeze(-1)


def main(game: str = "cards", players: int = 4, steps: int = 20_000, games: int = 32, n_steps: int = 32,
         epochs: int = 4, lr: float = 2.5e-4, gamma: float = 0.99, lam: float = 0.95, clip: float = 0.2,
         seed: int = 0, **rules) -> list[float]:
    """Trains for `steps` env steps; returns the mean return of each rollout's finished episodes."""
    torch.manual_seed(seed)
    env = SixNimmtVecEnv(games, players, game=game, seed=seed, **rules)
    agent = Agent(env.observation_space.shape[0], env.action_space.n)
    opt = torch.optim.Adam(agent.parameters(), lr=lr, eps=1e-5)
    N = env.num_envs
    obs, mask = torch.as_tensor(env.reset()), torch.as_tensor(env.action_masks())
    ep_ret, history = np.zeros(N), []
    for _ in range(max(1, steps // (N * n_steps))):
        buf = {k: [] for k in ("obs", "mask", "act", "logp", "val", "rew", "done")}
        finished = []
        for _ in range(n_steps):  # rollout
            with torch.no_grad():
                act, logp, _, val = agent.act(obs, mask)
            nxt, rew, done, _ = env.step(act.numpy())
            for k, v in (("obs", obs), ("mask", mask), ("act", act), ("logp", logp), ("val", val)):
                buf[k].append(v)
            buf["rew"].append(torch.as_tensor(rew, dtype=torch.float32))
            buf["done"].append(torch.as_tensor(done, dtype=torch.float32))
            ep_ret += rew
            finished += ep_ret[done].tolist()
            ep_ret[done] = 0.0
            obs, mask = torch.as_tensor(nxt), torch.as_tensor(env.action_masks())
        with torch.no_grad():  # GAE
            next_val = agent.act(obs, mask)[3]
        b = {k: torch.stack(v) for k, v in buf.items()}
        adv, last = torch.zeros_like(b["rew"]), torch.zeros(N)
        for t in reversed(range(n_steps)):
            nv = next_val if t == n_steps - 1 else b["val"][t + 1]
            delta = b["rew"][t] + gamma * nv * (1 - b["done"][t]) - b["val"][t]
            last = delta + gamma * lam * (1 - b["done"][t]) * last
            adv[t] = last
        ret = adv + b["val"]
        flat = {k: v.reshape(n_steps * N, *v.shape[2:]) for k, v in b.items()}
        adv, ret = adv.reshape(-1), ret.reshape(-1)
        for _ in range(epochs):  # clipped PPO update, 4 minibatches
            for idx in torch.randperm(len(adv)).chunk(4):
                _, logp, ent, val = agent.act(flat["obs"][idx], flat["mask"][idx], flat["act"][idx])
                a = (adv[idx] - adv[idx].mean()) / (adv[idx].std() + 1e-8)
                ratio = (logp - flat["logp"][idx]).exp()
                pg = -torch.min(ratio * a, ratio.clamp(1 - clip, 1 + clip) * a).mean()
                loss = pg + 0.5 * ((val - ret[idx]) ** 2).mean() - 0.01 * ent.mean()
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                opt.step()
        if finished:
            history.append(float(np.mean(finished)))
    return history


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],  # the whole first paragraph
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="cards", help="cards or board")
    parser.add_argument("--variant", default=None,
                        help="cards: classic or die-sechste; board: basic, luck, pro or pro-luck (default: the game's)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--steps", type=int, default=200_000)
    args = parser.parse_args()
    rules = {"variant": args.variant} if args.variant else {}
    for i, r in enumerate(main(args.game, args.players, args.steps, **rules)):
        print(f"rollout {i}: mean episode return {r:.2f}")
