"""The lab's own PPO learner: CleanRL-style, over the batched VecEnv, with the network,
optimizer and model file of SB3's MaskablePPO.

Why a learner of our own (issue 59): measured on this machine (`sixnimmt bench learner`),
SB3's MaskablePPO spends a quarter of an update outside the network (a `Categorical`
built per minibatch, the rollout buffer's copies and reshapes, the masks fetched slot by
slot through `env_method`), and it trains on every sample, the forced ones included. Here:

- one forward per step for every slot (every learning seat of every game at once);
- the rollout kept as torch tensors, GAE over the whole batch in one backward loop;
- samples whose only legal action is forced (a seat that passes while another picks a
  row, the last card of a hand) are dropped from the update: their policy gradient is
  exactly zero, and their value targets are their neighbours' (GAE runs over them first);
- few epochs over large minibatches (`n_epochs`, `batch_size`), masked logits built
  once per minibatch without a distribution object.

The model stays an SB3 `MaskablePPO`: `model.policy` is the network (and its Adam
optimizer), `model.save` writes the same model files every agent loads, and the run's
`Bookkeeping` callback (train.py) is driven exactly as `model.learn` drives it — so
checkpoints, evaluations, snapshots and `--resume` are the same for both learners.
"""

from __future__ import annotations

import numpy as np
import torch as th
from torch.nn import functional as F

MASKED = -1e8  # the logit of an illegal action (as sb3-contrib's masking)


def _forward(policy, obs: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
    """(logits (N, A), values (N,)) of the SB3 actor-critic `policy` for `obs` (N, D)."""
    features = policy.extract_features(obs)
    if isinstance(features, tuple):  # separate actor and critic extractors
        latent_pi = policy.mlp_extractor.forward_actor(features[0])
        latent_vf = policy.mlp_extractor.forward_critic(features[1])
    else:
        latent_pi, latent_vf = policy.mlp_extractor(features)
    return policy.action_net(latent_pi), policy.value_net(latent_vf).squeeze(-1)


def masked_log_probs(logits: th.Tensor, masks: th.Tensor) -> th.Tensor:
    """(N, A) log-probabilities over the legal actions (`masks` (N, A) bool)."""
    return F.log_softmax(logits.masked_fill(~masks, MASKED), dim=-1)


class Rollout:
    """One rollout of `n_steps` steps of `num_envs` slots, as tensors on `device`."""

    def __init__(self, n_steps: int, num_envs: int, obs_dim: int, n_actions: int, device):
        shape = (n_steps, num_envs)
        self.obs = th.zeros((*shape, obs_dim), dtype=th.float32, device=device)
        self.masks = th.zeros((*shape, n_actions), dtype=th.bool, device=device)
        self.actions = th.zeros(shape, dtype=th.long, device=device)
        self.log_probs = th.zeros(shape, dtype=th.float32, device=device)
        self.values = th.zeros(shape, dtype=th.float32, device=device)
        self.rewards = th.zeros(shape, dtype=th.float32, device=device)
        self.dones = th.zeros(shape, dtype=th.float32, device=device)  # the episode ended at this step

    def advantages(self, last_values: th.Tensor, gamma: float, lam: float) -> tuple[th.Tensor, th.Tensor]:
        """GAE advantages and returns (n_steps, num_envs); a done step's next value is 0
        (every episode of the lab ends for real: no time limits to bootstrap)."""
        n = self.rewards.shape[0]
        adv = th.zeros_like(self.rewards)
        running = th.zeros_like(last_values)
        for t in reversed(range(n)):
            next_values = last_values if t == n - 1 else self.values[t + 1]
            alive = 1.0 - self.dones[t]
            delta = self.rewards[t] + gamma * next_values * alive - self.values[t]
            running = delta + gamma * lam * alive * running
            adv[t] = running
        return adv, adv + self.values


def collect(model, env, rollout: Rollout, callback, obs: np.ndarray) -> tuple[np.ndarray, bool]:
    """Fill `rollout` by stepping `env` with `model`'s policy (sampled actions); calls the
    callback once per step as SB3 does. Returns the last observation and whether the
    callback asked to stop."""
    policy, device = model.policy, model.device
    n_envs = env.num_envs
    policy.set_training_mode(False)
    for t in range(rollout.obs.shape[0]):
        obs_t = th.as_tensor(obs, device=device)
        mask_t = th.as_tensor(env.action_masks(), device=device)
        with th.no_grad():
            logits, values = _forward(policy, obs_t)
            log_p = masked_log_probs(logits, mask_t)
            actions = th.multinomial(log_p.exp(), 1).squeeze(-1)
        next_obs, rewards, dones, infos = env.step(actions.cpu().numpy())
        model.num_timesteps += n_envs
        rollout.obs[t], rollout.masks[t], rollout.actions[t] = obs_t, mask_t, actions
        rollout.log_probs[t] = log_p.gather(1, actions[:, None]).squeeze(-1)
        rollout.values[t] = values
        rollout.rewards[t] = th.as_tensor(rewards, device=device)
        rollout.dones[t] = th.as_tensor(dones, dtype=th.float32, device=device)
        callback.update_locals({"infos": infos, "dones": dones})
        if not callback.on_step():
            return next_obs, True
        obs = next_obs
    return obs, False


def update(model, rollout: Rollout, last_obs: np.ndarray, cfg) -> dict:
    """PPO epochs over the rollout's decisions (forced ones dropped); the losses' means."""
    policy, device = model.policy, model.device
    with th.no_grad():
        _, last_values = _forward(policy, th.as_tensor(last_obs, device=device))
    adv, returns = rollout.advantages(last_values, cfg.gamma, cfg.gae_lambda)
    choice = rollout.masks.sum(-1) > 1  # (n_steps, num_envs) a real decision
    obs, masks = rollout.obs[choice], rollout.masks[choice]
    actions, old_log_p = rollout.actions[choice], rollout.log_probs[choice]
    adv, returns, old_values = adv[choice], returns[choice], rollout.values[choice]
    n = len(actions)
    for group in policy.optimizer.param_groups:
        group["lr"] = cfg.learning_rate
    policy.set_training_mode(True)
    stats = {"policy_loss": 0.0, "value_loss": 0.0, "entropy": 0.0, "clip_fraction": 0.0, "samples": n}
    batches = 0
    for _ in range(cfg.n_epochs):
        order = th.randperm(n, device=device)
        for start in range(0, n, cfg.batch_size):
            idx = order[start:start + cfg.batch_size]
            if len(idx) < 2:
                continue
            logits, values = _forward(policy, obs[idx])
            log_p_all = masked_log_probs(logits, masks[idx])
            log_p = log_p_all.gather(1, actions[idx, None]).squeeze(-1)
            a = adv[idx]
            a = (a - a.mean()) / (a.std() + 1e-8)
            ratio = th.exp(log_p - old_log_p[idx])
            policy_loss = -th.min(a * ratio, a * th.clamp(ratio, 1 - cfg.clip_range, 1 + cfg.clip_range)).mean()
            value_loss = F.mse_loss(values, returns[idx])
            probs = log_p_all.exp()
            entropy = -(probs * log_p_all.clamp(min=MASKED / 1e4)).sum(-1).mean()
            loss = policy_loss + 0.5 * value_loss - cfg.ent_coef * entropy
            policy.optimizer.zero_grad(set_to_none=True)
            loss.backward()
            th.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            policy.optimizer.step()
            batches += 1
            stats["policy_loss"] += float(policy_loss.detach())
            stats["value_loss"] += float(value_loss.detach())
            stats["entropy"] += float(entropy.detach())
            stats["clip_fraction"] += float(((ratio - 1).abs() > cfg.clip_range).float().mean())
    for key in ("policy_loss", "value_loss", "entropy", "clip_fraction"):
        stats[key] /= max(batches, 1)
    explained = 1 - float(((returns - old_values).var() / (returns.var() + 1e-8)))
    stats["explained_variance"] = explained
    model._n_updates += cfg.n_epochs
    return stats


def learn(model, cfg, total_timesteps: int, callback, reset_num_timesteps: bool, tb_log_name: str = "ppo"):
    """Train `model` (an SB3 MaskablePPO on its VecEnv) for `total_timesteps` more samples
    with the lab's PPO and `cfg`'s settings; `callback` is driven as `model.learn` drives
    it (the run's Bookkeeping), so it may stop the run at any step."""
    total_timesteps, callback = model._setup_learn(total_timesteps, callback, reset_num_timesteps,
                                                   tb_log_name, progress_bar=False)
    callback.on_training_start(locals(), globals())
    env = model.get_env()
    rollout = Rollout(cfg.n_steps, env.num_envs, env.observation_space.shape[0], env.action_space.n, model.device)
    obs = model._last_obs
    while model.num_timesteps < total_timesteps:
        callback.on_rollout_start()
        obs, stop = collect(model, env, rollout, callback, obs)
        if stop:
            break
        callback.on_rollout_end()
        stats = update(model, rollout, obs, cfg)
        for key, value in stats.items():
            model.logger.record(f"train/{key}", value)
        model.logger.record("time/total_timesteps", model.num_timesteps)
        model.logger.dump(step=model.num_timesteps)
    model._last_obs = obs
    callback.on_training_end()
    return model
