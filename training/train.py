"""PPO self-play training on the batched VecEnv (MaskablePPO, torch on the CPU).

`train` reads top to bottom: the run directory, the opponent pool, the env, the model,
then the learner (training/lab_ppo.py, or SB3's `model.learn`: `learner`) with the
`Bookkeeping` callback (training/bookkeeping.py), which does everything between PPO
steps — progress bar, checkpoints, evaluation, snapshots into the pool, the time budget.
`TimedVecEnv` measures the env's share of the wall time. Everything lands in runs/<name>/:

  config.json     the full TrainConfig      versions.json  seed, package versions
  tb/             TensorBoard logs           eval.csv       one row per evaluation
  latest          name of the last checkpoint (written after it is complete)
  ckpt-<steps>/   model.zip, state.json, pool.json (a checkpoint)
  best.zip/.json  the best model so far by the evaluation, and what it was trained for
  snapshots/      frozen policies the pool samples from

`train(cfg)` starts a run; `train(resume=run_dir)` continues an interrupted one from its
last complete checkpoint (kill it at any moment: the pointer moves only after a
checkpoint is fully written). SIGTERM or Ctrl-C stops a run at its next step with a
checkpoint of that step (no evaluation: a stop should be quick), then exits with the
signal's usual code (143, 130); a second signal stops at once, losing the steps since
the last checkpoint. Why: `kill`, `timeout` and a session's end used to lose up to
`checkpoint_every` steps (five minutes and more of a run).
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import VecMonitor

from sixnimmt_env.adapters.vec_env import SixNimmtVecEnv
from sixnimmt_env.core.errors import ConfigError, writing
from sixnimmt_env.core.game import make_game

from .board_training import check_init_model
from .bookkeeping import EVAL_COLUMNS, Bookkeeping, TimedVecEnv, eval_columns, evaluate, model_meta, stop_on_signals
from .config import TrainConfig
from .mixed_env import training_env
from .pool import OpponentPool
from .runs import new_run, read_run_file, read_run_json, resume_run, resumed_config

__all__ = ["EVAL_COLUMNS", "evaluate", "model_meta", "new_model", "start_from", "restore", "train"]


def new_model(cfg: TrainConfig, env=None, *, num_games: int | None = None, tensorboard_log: str | None = None):
    """A fresh MaskablePPO model of the network `cfg` describes, on `env` (default: a
    VecEnv of `num_games` games of cfg's table, with random opponents: enough for the
    spaces, e.g. to fit the network by imitation)."""
    if env is None:
        env = SixNimmtVecEnv(num_games or cfg.num_games, game=cfg.game, rules=cfg.game_rules(cfg.players), reward=cfg.reward,
                             episode=cfg.episode, seed=cfg.seed, observation=cfg.observation)
    policy, policy_kwargs = "MlpPolicy", {"net_arch": list(cfg.net_arch)}
    if cfg.policy != "mlp":  # a scorer: the actor is its own, the value an MLP (net_arch)
        if cfg.policy == "card-scorer":
            from agents.cards.policy import CardScorerPolicy as policy
            from agents.cards.policy import scorer_kwargs
        elif cfg.policy == "tile-set":  # the board's lean network (issue 59)
            from agents.board.tile_set import TileSetPolicy as policy
            from agents.board.tile_set import tile_set_kwargs as scorer_kwargs
        else:
            from agents.board.policy import TileScorerPolicy as policy
            from agents.board.policy import tile_scorer_kwargs as scorer_kwargs
        layout = make_game(cfg.game, cfg.game_rules(cfg.players)).layout(cfg.observation)
        extra = (cfg.scorer_attention,) if cfg.scorer_attention else ()  # card-scorer only (checked)
        policy_kwargs = {"net_arch": {"pi": [], "vf": list(cfg.net_arch)},
                         **scorer_kwargs(layout, cfg.scorer_context, cfg.scorer_hidden, *extra)}
    return MaskablePPO(
        policy, env, n_steps=cfg.n_steps, batch_size=cfg.batch_size, n_epochs=cfg.n_epochs,
        learning_rate=cfg.learning_rate, gamma=cfg.gamma, gae_lambda=cfg.gae_lambda,
        clip_range=cfg.clip_range, ent_coef=cfg.ent_coef,
        policy_kwargs=policy_kwargs, tensorboard_log=tensorboard_log,
        seed=cfg.seed, device=cfg.device, verbose=0)


def start_from(model, path: str | Path, cfg: TrainConfig | None = None) -> None:
    """Load the network weights of the saved model at `path` (e.g. one fitted by imitation)
    into `model`; a ConfigError when the two networks differ in shape, or (given the run's
    `cfg`) when the model was made for another game or variant. A model of an observation
    that the run's extends by appended fields starts it as the same function (widen.py)."""
    from agents.ppo import load_model
    source, meta = load_model(path)
    if cfg is not None:
        check_init_model(cfg, meta, path)
    weights, observation = source.policy.state_dict(), meta.get("observation", "basic")
    if cfg is not None and observation != cfg.observation:
        from .widen import widened
        game = make_game(cfg.game, cfg.game_rules(cfg.players))
        weights = widened(weights, model.policy.state_dict(), game.layout(observation), game.layout(cfg.observation))
        if weights is None:
            raise ConfigError(f"init_model {path}: made for observation {observation!r}, which this run's "
                              f"{cfg.observation!r} does not extend (only appended fields can start as the same network)")
    try:
        model.policy.load_state_dict(weights)
    except RuntimeError as e:
        raise ConfigError(f"init_model {path}: its network does not match this config's "
                          f"(policy, scorer_context, scorer_hidden, scorer_attention, net_arch): {str(e).splitlines()[0]}") from None


def restore(model, path: Path) -> None:
    """Put the checkpoint at `path` into `model`, a fresh model of the run's config: the
    policy's and the optimizer's weights (read as tensors only) and the step counters (the
    checkpoint's plain data fields); nothing of the file is unpickled."""
    from agents.model_file import read_data, read_tensors
    data = read_data(path)
    try:
        model.policy.load_state_dict(read_tensors(path, "policy.pth"))
        model.policy.optimizer.load_state_dict(read_tensors(path, "policy.optimizer.pth"))
    except (RuntimeError, ValueError, KeyError) as e:
        raise ConfigError(f"{path}: its network does not match the run's config: "
                          f"{str(e).splitlines()[0][:200]}") from None
    for key in ("num_timesteps", "_n_updates", "_episode_num"):
        value = data.get(key, 0)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ConfigError(f"{path}: {key} is not a step count")
        setattr(model, key, value)


def _fresh_state(cfg: TrainConfig) -> dict:
    """The counters of a run that has not started."""
    return {"timesteps": 0, "elapsed": 0.0, "best": None, "next_eval": cfg.eval_every,
            "next_checkpoint": cfg.checkpoint_every, "next_snapshot": cfg.snapshot_every,
            "env_seconds": 0.0}


def _truncate_eval(eval_csv: Path, steps: int, evaluated: bool = True) -> None:
    """Drop the evaluations after the checkpoint a run resumes from (and the one at its
    step unless the checkpoint says it was `evaluated`): they are done again, and would
    otherwise be counted twice (atomic rewrite)."""
    if not eval_csv.exists():
        return
    lines = read_run_file(eval_csv).splitlines()
    last = steps if evaluated else steps - 1
    keep = lines[:1] + [line for line in lines[1:] if line.split(",")[0].isdigit() and int(line.split(",")[0]) <= last]
    if keep != lines:
        with writing(eval_csv):
            tmp = eval_csv.with_name(eval_csv.name + ".tmp")
            tmp.write_text("".join(line + "\n" for line in keep))
            tmp.replace(eval_csv)


def _open_run(cfg, resume, runs_dir, overrides):
    """The run directory, its config, its last complete checkpoint (None: none yet) and its
    counters: a new run of `cfg` under `runs_dir`, or the run `resume` with its saved config
    (less `overrides` of its budget), its evaluations after that checkpoint dropped."""
    ckpt = None
    if resume is not None:
        run, cfg = resume_run(resume, TrainConfig, "training", "no config.json, no complete checkpoint")
        cfg = resumed_config(run, cfg, overrides, "training")
        if (run / "latest").exists():
            ckpt = run / read_run_file(run / "latest").strip()
            state = read_run_json(ckpt / "state.json", dict)
            if not isinstance(state.get("timesteps"), int) or not (ckpt / "model.zip").is_file():
                raise ConfigError(f"{ckpt} is not a complete checkpoint (state.json, model.zip)")
        else:  # killed before its first checkpoint: nothing to keep, start it again
            state = _fresh_state(cfg)
        _truncate_eval(run / "eval.csv", int(state["timesteps"]),
                       state.get("evaluated_at", state["timesteps"]) == state["timesteps"])
    else:
        assert cfg is not None
        run = new_run(Path(runs_dir) / cfg.name, cfg)
        state = _fresh_state(cfg)
    return run, cfg, ckpt, state


def train(cfg: TrainConfig | None = None, *, resume: str | Path | None = None,
          runs_dir: str | Path = "runs", progress: bool = True, on_eval=None, overrides=(),
          command: str = "train") -> Path:
    """Train a new run from `cfg` under `runs_dir`, or resume the run directory `resume`
    from its last complete checkpoint (with its saved config, less `overrides` of its
    budget: runs.RESUME_OPTIONS); returns the run directory.
    `on_eval`: called with every evaluation's row (see Bookkeeping). `command`: the
    `sixnimmt` command that resumes the run, named in the line a stopping signal prints
    (`exploit` runs through here too)."""
    run, cfg, ckpt, state = _open_run(cfg, resume, runs_dir, overrides)
    torch.set_num_threads(cfg.torch_threads)
    (run / "snapshots").mkdir(exist_ok=True)

    # ------------------------------------------------------------------ opponents and env
    if ckpt is not None:
        pool = OpponentPool.load(ckpt / "pool.json", cfg.players, cfg.game)
    else:
        pool = OpponentPool.for_run(cfg)
    # a resumed run plays new games: the seed moves on with the steps done
    env = TimedVecEnv(VecMonitor(training_env(cfg, pool, seed=cfg.seed + int(state["timesteps"]))))

    # ------------------------------------------------------------------ the model
    if ckpt is not None:
        model = new_model(cfg, env, tensorboard_log=str(run / "tb"))
        restore(model, ckpt / "model.zip")
    else:
        model = new_model(cfg, env, tensorboard_log=str(run / "tb"))
        if cfg.init_model:
            start_from(model, cfg.init_model, cfg)

    # ------------------------------------------------------------------ the evaluation log
    eval_csv = run / "eval.csv"
    if not eval_csv.exists():
        with eval_csv.open("w", newline="") as f:
            csv.writer(f).writerow(eval_columns(cfg.game))

    # ------------------------------------------------------------------ learn, with the bookkeeping
    remaining = cfg.total_timesteps - int(state["timesteps"])
    if remaining <= 0 and state.get("evaluated_at") == state["timesteps"]:
        print(f"{run} is complete ({state['timesteps']:,} steps, evaluated); raise total_timesteps with "
              f"--set to go on", file=sys.stderr, flush=True)
        return run
    bookkeeping = Bookkeeping(cfg, run, state, pool, env, progress, on_eval)
    with stop_on_signals(bookkeeping):
        if cfg.learner == "lab":
            from .lab_ppo import learn
            learn(model, cfg, max(remaining, 1), bookkeeping, reset_num_timesteps=ckpt is None)
        else:
            model.learn(total_timesteps=max(remaining, 1), callback=bookkeeping, reset_num_timesteps=ckpt is None,
                        tb_log_name="ppo", progress_bar=False)
    if bookkeeping.stop_signal is not None:
        print(f"stopped at {bookkeeping.num_timesteps:,} steps, checkpoint written; continue with: "
              f"sixnimmt {command} --resume {run}", file=sys.stderr, flush=True)
        sys.exit(128 + bookkeeping.stop_signal)
    return run
