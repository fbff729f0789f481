"""PPO self-play training on the batched VecEnv (MaskablePPO, torch on the CPU).

`train` reads top to bottom: the run directory, the opponent pool, the env, the model,
then `model.learn` with the `Bookkeeping` callback, which does everything between PPO
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
import shutil
import signal
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import VecEnvWrapper, VecMonitor

from agents.ppo import PPOAgent, write_model_meta
from sixnimmt_env.adapters.vec_env import SixNimmtVecEnv
from sixnimmt_env.core.errors import ConfigError, writing
from sixnimmt_env.core.game import make_game

from .board_training import better, board_model_meta, check_init_model, eval_rules
from .config import TrainConfig
from .mixed_env import training_env
from .pool import OpponentPool
from .runs import new_run, read_run_file, read_run_json, resume_run, resumed_config, write_json

EVAL_COLUMNS = ["timesteps", "wall_s", "points_per_round", "ci95", "win_share", "steps_per_s", "env_share"]
"""The header of eval.csv: one row per evaluation."""
def model_meta(cfg: TrainConfig, steps: int, points: float | None = None) -> dict:
    """The sidecar .json of a saved model: what it was trained for, and its evaluation
    (`points`: the evaluation's points per round; the board game's: points per game)."""
    if cfg.game == "board":
        return board_model_meta(cfg, steps, points)
    return {"game": "cards", "variant": cfg.variant, "deck": cfg.deck, "players": cfg.players,
            "row_choice": cfg.row_choice, "observation": cfg.observation, "episode": cfg.episode,
            **({"game_share": cfg.game_share} if cfg.game_share else {}),
            "reward": cfg.reward, "timesteps": steps, "eval_points_per_round": points,
            "eval_field": f"{cfg.players - 1} x {cfg.eval_opponent}",
            **({"init_model": cfg.init_model} if cfg.init_model else {})}


def evaluate(model, cfg: TrainConfig, deals: int | None = None, opponent: str | None = None,
             seed: int = 12345) -> dict:
    """The policy (deterministic) in one seat against the fixed field: one round per game
    of the card game, whole games of the board game (`eval_rules`)."""
    from agents.arena import run_match

    rules = eval_rules(cfg)
    agent = PPOAgent(model=model, meta=model_meta(cfg, 0))
    agent.name = "learner"  # no spec is spelled so: a field of plain `ppo` stays the shipped model
    field = [opponent or cfg.eval_opponent] * (cfg.players - 1)
    result = run_match([agent] + field, rules, deals or cfg.eval_deals, seed, progress=False)
    me = next(a for a in result.agents if a.name == "learner")
    them = next(a for a in result.agents if a.name != "learner")
    return {"points_per_round": me.points_per_round, "ci": me.points_ci, "win_share": me.win_share,
            "field_points_per_round": them.points_per_round}


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
        seed=cfg.seed, device="cpu", verbose=0)


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


class TimedVecEnv(VecEnvWrapper):
    """Counts the wall time spent inside the env (resets, steps and env_method calls) in
    `seconds`, to report the env's share."""

    def __init__(self, venv):
        """Wrap `venv`, with the counter at zero."""
        super().__init__(venv)
        self.seconds = 0.0

    def reset(self):
        """The inner env's reset, timed."""
        t = time.perf_counter()
        out = self.venv.reset()
        self.seconds += time.perf_counter() - t
        return out

    def step_wait(self):
        """The inner env's step_wait, timed."""
        t = time.perf_counter()
        out = self.venv.step_wait()
        self.seconds += time.perf_counter() - t
        return out

    def env_method(self, *args, **kwargs):
        """The inner env's env_method (MaskablePPO asks for the action masks this way), timed."""
        t = time.perf_counter()
        out = self.venv.env_method(*args, **kwargs)
        self.seconds += time.perf_counter() - t
        return out


def projected_total(n: int, steps_done: int, seconds: float, seconds_left: float, total_timesteps: int) -> int:
    """The step count a run will reach: `total_timesteps`, or fewer when the time budget ends it first.

    The progress bar's total (and so its ETA) is this, re-estimated from this session's
    rate, so a run bounded by `minutes` does not show the hours that `total_timesteps`
    alone would take."""
    if steps_done <= 0 or seconds <= 0:
        return total_timesteps
    by_time = n + int(steps_done / seconds * max(seconds_left, 0.0))
    return max(n, min(total_timesteps, by_time))


class Bookkeeping(BaseCallback):
    """Everything a run does between PPO steps, and its stop on the time budget.

    Every `snapshot_every` steps a frozen copy of the model joins the opponent pool; every
    `eval_every` steps the model is evaluated (a row in eval.csv, TensorBoard scalars, and
    best.zip when it beats the best so far); every `checkpoint_every` steps a checkpoint is
    written. Training ends with one more evaluation and checkpoint.

    cfg      the run's TrainConfig
    run      the run directory (runs/<name>/); eval.csv in it must already have its header
    state    the run's counters (timesteps, elapsed, best, next_eval, next_checkpoint,
             next_snapshot, env_seconds), as saved in the last checkpoint or fresh; updated
             in place and written into every checkpoint
    pool     the OpponentPool the env samples from (snapshots are added to it)
    timed    the env wrapper whose `seconds` give the env's share of the wall time
    progress show a tqdm progress bar
    on_eval  called with each evaluation's row (EVAL_COLUMNS as a dict, and the field's
             `field_points_per_round`) after it is written, e.g. to report it to a tuner
             (experiments/sweep.py) or to draw a best response's curve (training/exploit.py)
    """

    def __init__(self, cfg: TrainConfig, run: Path, state: dict, pool: OpponentPool, timed: TimedVecEnv,
                 progress: bool = True, on_eval=None):
        """Keep the run's pieces (see the class docstring); the clocks start with training."""
        super().__init__()
        self.cfg, self.run, self.state, self.pool, self.timed = cfg, Path(run), state, pool, timed
        self.progress = progress
        self.on_eval = on_eval
        self.eval_csv = self.run / "eval.csv"
        self.stop_signal: int | None = None  # set by `stop_on_signals`: stop at the next step

    def _on_training_start(self) -> None:
        """Start the clocks (wall, env, steps) of this session and the progress bar."""
        from tqdm import tqdm
        self.t0 = time.perf_counter()
        self.env_t0 = self.timed.seconds
        self.steps0 = self.num_timesteps
        # PPO stops after the rollout that reaches total_timesteps: the bar's total is that rollout's end
        rollout = max(1, int(getattr(self.model, "n_steps", 1)) * int(getattr(self.model, "n_envs", 1)))
        self.last_step = -(-self.cfg.total_timesteps // rollout) * rollout
        self.bar = tqdm(total=self.last_step, initial=self.num_timesteps, unit="step",
                        unit_scale=True, desc=self.cfg.name, disable=not self.progress, smoothing=0.05)

    def _on_rollout_end(self) -> None:
        """Hold the policy's weights while the run is within `freeze_policy_steps`."""
        frozen = self.num_timesteps < self.cfg.freeze_policy_steps
        policy = self.model.policy
        for p in (*policy.action_net.parameters(), *policy.mlp_extractor.policy_net.parameters()):
            p.requires_grad_(not frozen)

    def elapsed(self) -> float:
        """Wall seconds of the whole run, earlier sessions included."""
        return self.state["elapsed"] + time.perf_counter() - self.t0

    def env_share(self) -> float:
        """The share of this session's wall time spent inside the env."""
        wall = time.perf_counter() - self.t0
        return (self.timed.seconds - self.env_t0) / wall if wall > 0 else 0.0

    def _on_step(self) -> bool:
        """Snapshot, evaluate, checkpoint when due; False (stop) once the time budget is spent."""
        cfg, state, n = self.cfg, self.state, self.num_timesteps
        self.bar.total = projected_total(n, n - self.steps0, time.perf_counter() - self.t0,
                                         cfg.minutes * 60 - self.elapsed(), self.last_step)
        self.bar.update(n - self.bar.n)
        if n >= state["next_snapshot"]:
            path = self.run / "snapshots" / f"ppo-{n}.zip"
            self.model.save(path)
            write_model_meta(path, model_meta(cfg, n))
            self.pool.add_snapshot(path)
            state["next_snapshot"] += cfg.snapshot_every
        if n >= state["next_eval"]:
            self.run_evaluation()
            state["next_eval"] += cfg.eval_every
        if n >= state["next_checkpoint"]:
            self.checkpoint()
            state["next_checkpoint"] += cfg.checkpoint_every
        return self.stop_signal is None and self.elapsed() < cfg.minutes * 60

    def run_evaluation(self) -> None:
        """Evaluate the model: a row in eval.csv, TensorBoard scalars, best.zip if it is the best."""
        n, state = self.num_timesteps, self.state
        result = evaluate(self.model, self.cfg)
        rate = (n - self.steps0) / max(time.perf_counter() - self.t0, 1e-9)
        row = [n, round(self.elapsed(), 1), round(result["points_per_round"], 4), round(result["ci"], 4),
               round(result["win_share"], 4), round(rate, 1), round(self.env_share(), 4)]
        with self.eval_csv.open("a", newline="") as f:
            csv.writer(f).writerow(row)
        self.logger.record("eval/points_per_round", result["points_per_round"])
        self.logger.record("eval/win_share", result["win_share"])
        self.logger.record("perf/env_share", self.env_share())
        if state["best"] is None or better(self.cfg, result["points_per_round"], state["best"]):
            state["best"] = result["points_per_round"]
            tmp = self.run / "best.tmp.zip"
            self.model.save(tmp)
            tmp.replace(self.run / "best.zip")
            write_model_meta(self.run / "best.zip", model_meta(self.cfg, n, result["points_per_round"]))
        # in words: the last evaluation's and the best points per round, the env's share of the wall time
        self.bar.set_postfix_str(f"eval {result['points_per_round']:.2f} pts/round, best {state['best']:.2f}, "
                                 f"env {self.env_share():.0%} of the time")
        if self.on_eval is not None:
            self.on_eval({**dict(zip(EVAL_COLUMNS, row)), "field_points_per_round": result["field_points_per_round"]})

    def checkpoint(self) -> None:
        """Write ckpt-<steps>/ (model, pool, state) under a temporary name, rename it, then
        move the `latest` pointer to it and delete the older checkpoints. A failed write
        (disk full) is an OutputError; the last complete checkpoint stays the pointer's."""
        with writing(f"a checkpoint in {self.run}"):
            self._checkpoint()

    def _checkpoint(self) -> None:
        n, run = self.num_timesteps, self.run
        target = run / f"ckpt-{n}"
        tmp = run / f"ckpt-{n}.tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
        self.model.save(tmp / "model.zip")
        self.pool.save(tmp / "pool.json")
        env_seconds = self.state["env_seconds"] + self.timed.seconds - self.env_t0
        write_json(tmp / "state.json", {**self.state, "timesteps": n, "elapsed": self.elapsed(),
                                         "env_seconds": env_seconds})
        shutil.rmtree(target, ignore_errors=True)
        tmp.rename(target)
        pointer = run / "latest.tmp"
        pointer.write_text(target.name)
        pointer.replace(run / "latest")  # the run now resumes from here
        for old in run.glob("ckpt-*"):
            if old.name != target.name and not old.name.endswith(".tmp"):
                shutil.rmtree(old, ignore_errors=True)

    def _on_training_end(self) -> None:
        """A last evaluation and checkpoint, whatever stopped the run (a signal: the
        checkpoint alone)."""
        if self.stop_signal is None:
            self.run_evaluation()
        self.checkpoint()
        self.bar.close()


@contextmanager
def stop_on_signals(bookkeeping: Bookkeeping):
    """While the block runs, SIGTERM and SIGINT ask `bookkeeping` to stop at the next step
    (it then writes a checkpoint); a second one is the signal's default (stop at once).
    Off the main thread (a tuner's worker) signals cannot be caught: nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    kinds = (signal.SIGTERM, signal.SIGINT)
    before = {sig: signal.getsignal(sig) for sig in kinds}

    def ask(signum, _frame):
        bookkeeping.stop_signal = signum
        for sig in kinds:  # the next one is not caught
            signal.signal(sig, before[sig] if sig == signal.SIGINT else signal.SIG_DFL)
        print(f"\n{signal.Signals(signum).name}: stopping at the next step with a checkpoint "
              "(signal again to stop at once)", file=sys.stderr, flush=True)

    for sig in kinds:
        signal.signal(sig, ask)
    try:
        yield
    finally:
        for sig in kinds:
            signal.signal(sig, before[sig])


def _fresh_state(cfg: TrainConfig) -> dict:
    """The counters of a run that has not started."""
    return {"timesteps": 0, "elapsed": 0.0, "best": None, "next_eval": cfg.eval_every,
            "next_checkpoint": cfg.checkpoint_every, "next_snapshot": cfg.snapshot_every,
            "env_seconds": 0.0}


def _truncate_eval(eval_csv: Path, steps: int) -> None:
    """Drop the evaluations after the checkpoint a run resumes from: they are done again,
    and would otherwise be counted twice (atomic rewrite)."""
    if not eval_csv.exists():
        return
    lines = read_run_file(eval_csv).splitlines()
    keep = lines[:1] + [line for line in lines[1:] if line.split(",")[0].isdigit() and int(line.split(",")[0]) <= steps]
    if keep != lines:
        with writing(eval_csv):
            tmp = eval_csv.with_name(eval_csv.name + ".tmp")
            tmp.write_text("".join(line + "\n" for line in keep))
            tmp.replace(eval_csv)


def train(cfg: TrainConfig | None = None, *, resume: str | Path | None = None,
          runs_dir: str | Path = "runs", progress: bool = True, on_eval=None, overrides=()) -> Path:
    """Train a new run from `cfg` under `runs_dir`, or resume the run directory `resume`
    from its last complete checkpoint (with its saved config, less `overrides` of its
    budget: runs.RESUME_OPTIONS); returns the run directory.
    `on_eval`: called with every evaluation's row (see Bookkeeping)."""
    # ------------------------------------------------------------------ the run directory
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
        _truncate_eval(run / "eval.csv", int(state["timesteps"]))
    else:
        assert cfg is not None
        run = new_run(Path(runs_dir) / cfg.name, cfg)
        state = _fresh_state(cfg)
    torch.set_num_threads(cfg.torch_threads)
    (run / "snapshots").mkdir(exist_ok=True)

    # ------------------------------------------------------------------ opponents and env
    if ckpt is not None:
        pool = OpponentPool.load(ckpt / "pool.json", cfg.players)
    else:
        pool = OpponentPool(cfg.pool_weights, {"random": ["random"], "heuristics": list(cfg.pool_heuristics),
                                               "search": list(cfg.pool_search)},
                            cfg.players, cfg.max_snapshots)
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
            csv.writer(f).writerow(EVAL_COLUMNS)

    # ------------------------------------------------------------------ learn, with the bookkeeping
    remaining = max(cfg.total_timesteps - int(state["timesteps"]), 1)
    bookkeeping = Bookkeeping(cfg, run, state, pool, env, progress, on_eval)
    with stop_on_signals(bookkeeping):
        model.learn(total_timesteps=remaining, callback=bookkeeping, reset_num_timesteps=ckpt is None,
                    tb_log_name="ppo", progress_bar=False)
    if bookkeeping.stop_signal is not None:
        print(f"stopped at {bookkeeping.num_timesteps:,} steps, checkpoint written; continue with: "
              f"sixnimmt train --resume {run}", file=sys.stderr, flush=True)
        sys.exit(128 + bookkeeping.stop_signal)
    return run
