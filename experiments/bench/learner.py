"""`sixnimmt bench learner`: learner samples a second of training recipes, side by side in
one run (issue 59).

A recipe is a training config (training/config.py) as `sixnimmt train` would run it: the
same env, pool, network and learner, timed for a fixed wall time after one warm-up
rollout, counting the samples the learner consumed (`num_timesteps`). Nothing is written
but a temporary TensorBoard folder, removed at the end.

Recipes (cards): `default` (the lab's learner: every seat of self-play games learns, a
league beside them, 3 epochs over 8,192-sample minibatches) and `2026-12-06` (SB3's
MaskablePPO, one learner seat a game against network opponents, 10 epochs, minibatches
of 4,096, the 2026-12-06 runs' settings); both with the shipped network's shape. Board
(pro by default): `default` (training/configs/quick-board.toml's learner and network: the
lab's learner, every seat of the self-play games learning, 3 epochs, the tile-set network
of agents/board/tile_set.py; a league of heuristics, random play and snapshots) and
`2026-12-06` (training/configs/ppo-board-*.toml's settings: SB3, one learner seat, 10
epochs, minibatches of 4,096, the tile scorer over the whole observation, and its league,
the board search `mcs:rollouts=4:horizon=1` at a fifth of the opponents' draws included).

Each result also gives `samples_per_cpu_s`, the samples over the process's CPU seconds:
on a machine shared with other work the wall rate moves with the load, and the CPU rate
much less.
"""

from __future__ import annotations

import tempfile
import time

CARD_BASE = ["players=4", "row_choice=player", "observation=card-features", "policy=card-scorer",
             "reward=penalty", "episode=round"]
CARD_RECIPES = {
    "default": CARD_BASE + ["learner=lab", "self_play_games=1024", "num_games=512", "n_steps=16", "n_epochs=3",
                            "batch_size=8192", 'pool_weights={"heuristics": 0.2, "search": 0.4, "self": 0.4}',
                            'pool_search=["ppo:path=agents/models/ppo-4p.zip"]'],
    "2026-12-06": CARD_BASE + ["learner=sb3", "num_games=512", "n_steps=64", "n_epochs=10", "batch_size=4096",
                               'pool_weights={"search": 1.0}', 'pool_search=["ppo:path=agents/models/ppo-4p.zip"]'],
}
BOARD_BASE = ["game=board", "players=4", "episode=game", "reward=points", "observation=tile-features",
              'pool_heuristics=["board-safe", "board-greedy", "board-green"]']
BOARD_RECIPES = {
    "default": BOARD_BASE + ["learner=lab", "policy=tile-set", "scorer_context=[128]", "scorer_hidden=[64, 64]",
                             "net_arch=[128]", "self_play_games=256", "num_games=128", "n_steps=16", "n_epochs=3",
                             "batch_size=8192", 'pool_weights={"random": 0.1, "heuristics": 0.6, "search": 0.0, "self": 0.3}'],
    "2026-12-06": BOARD_BASE + ["learner=sb3", "policy=tile-scorer", "net_arch=[256, 256]", "scorer_context=[256, 128]",
                                "scorer_hidden=[128, 64]", "num_games=256", "n_steps=32", "n_epochs=10",
                                "batch_size=4096", 'pool_weights={"random": 0.1, "heuristics": 0.3, "search": 0.2, "self": 0.4}',
                                'pool_search=["mcs:rollouts=4:horizon=1"]'],
}


def recipes(game: str, variant: str | None) -> dict[str, list[str]]:
    """The recipes compared for `game` (cards or board), as `--set` overrides."""
    if game == "cards":
        return {name: list(r) + ([f"variant={variant}"] if variant else []) for name, r in CARD_RECIPES.items()}
    return {name: list(r) + [f"variant={variant or 'pro'}"] for name, r in BOARD_RECIPES.items()}


def scaled(overrides: list[str], scale: float) -> list[str]:
    """`overrides` with the recipe's game counts times `scale` (at least 1 each): a smoke run's."""
    out = []
    for item in overrides:
        key, value = item.split("=", 1)
        if key in ("num_games", "self_play_games") and scale != 1.0:
            value = str(max(1, round(int(value) * scale)))
        out.append(f"{key}={value}")
    return out


def bench_recipe(name: str, overrides: list[str], seconds: float, threads: int) -> dict:
    """Samples a second of one recipe: its learner run for `seconds` after a warm-up rollout."""
    import torch
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import VecMonitor

    from training.config import TrainConfig
    from training.mixed_env import training_env
    from training.pool import OpponentPool
    from training.train import new_model

    cfg = TrainConfig.load(None, [f"name=bench-{name}", f"torch_threads={threads}", *overrides])
    torch.set_num_threads(threads)
    pool = OpponentPool.for_run(cfg)
    env = VecMonitor(training_env(cfg, pool, seed=cfg.seed))
    rollout = env.num_envs * cfg.n_steps

    class Clock(BaseCallback):
        """Marks each rollout's start after the warm-up one; stops the learner at the first
        rollout start past `seconds`, so the rate counts whole collect-and-update cycles."""

        def __init__(self):
            super().__init__()
            self.marks: list[tuple[float, int]] = []
            self.done = False

        def _on_rollout_start(self) -> None:
            if self.num_timesteps >= rollout:
                self.marks.append((time.perf_counter(), self.num_timesteps, time.process_time()))
                self.done = self.marks[-1][0] - self.marks[0][0] >= seconds

        def _on_step(self) -> bool:
            return not self.done

    clock = Clock()
    with tempfile.TemporaryDirectory(prefix="sixnimmt-bench-learner-") as tmp:
        model = new_model(cfg, env, tensorboard_log=tmp)
        total = 10**12
        if cfg.learner == "lab":
            from training.lab_ppo import learn
            learn(model, cfg, total, clock, reset_num_timesteps=True)
        else:
            model.learn(total_timesteps=total, callback=clock, progress_bar=False)
    (t0, n0, c0), (t1, n1, c1) = clock.marks[0], clock.marks[-1]
    wall, samples, cpu = t1 - t0, n1 - n0, c1 - c0
    return {"recipe": name, "game": cfg.game, "variant": cfg.variant, "learner": cfg.learner, "policy": cfg.policy,
            "samples_per_s": round(samples / wall, 1) if wall > 0 else 0.0,
            "samples_per_cpu_s": round(samples / cpu, 1) if cpu > 0 else 0.0, "cpu_seconds": round(cpu, 1),
            "samples": int(samples), "seconds": round(wall, 1),
            "slots": env.num_envs, "n_epochs": cfg.n_epochs, "batch_size": cfg.batch_size, "threads": threads}


def bench_learner(game: str, variant: str | None, seconds: float, threads: int, only: list[str] | None = None,
                  scale: float = 1.0) -> list[dict]:
    """Every recipe of `game` (or those named in `only`), one after another in this process;
    `scale` multiplies every recipe's game counts (1: as trained)."""
    chosen = recipes(game, variant)
    return [bench_recipe(name, scaled(overrides, scale), seconds, threads) for name, overrides in chosen.items()
            if not only or name in only]
