"""What a training run does between PPO steps: the `Bookkeeping` callback (progress bar,
checkpoints, evaluations, snapshots into the pool, the time budget), the env's timer,
the signal handler, and the model's meta and evaluation. Both learners (SB3's
`model.learn` and the lab's own, training/lab_ppo.py) drive the same callback, so a
run's files and `--resume` do not depend on the learner.
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

from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import VecEnvWrapper

from agents.ppo import PPOAgent, write_model_meta
from sixnimmt_env.core.errors import writing

from .board_training import better, board_model_meta, eval_rules
from .config import TrainConfig
from .pool import OpponentPool
from .runs import EVAL_FIGURE_COLUMNS, write_json

EVAL_COLUMNS = ["timesteps", "wall_s", "points_per_round", "ci95", "win_share", "steps_per_s", "env_share"]
"""One evaluation's figures, the keys of `on_eval`'s dict and of `training.runs.read_evals`'
rows in every game; a card run's eval.csv header (a board run's: `eval_columns`)."""


def eval_columns(game: str) -> list[str]:
    """The header of a run's eval.csv: EVAL_COLUMNS, but a game without rounds names its
    figure as `training.runs.EVAL_FIGURE_COLUMNS` says (the board game: `points_per_game`;
    `read_evals` reads it back as `points_per_round`)."""
    figure = EVAL_FIGURE_COLUMNS.get(game, "points_per_round")
    return [(figure if c == "points_per_round" else c) for c in EVAL_COLUMNS]


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
             (experiments/backends/sweep.py) or to draw a best response's curve (training/exploit.py)
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
        state["evaluated_at"] = n  # a run evaluates a step once, whatever kills and resumes come
        self.logger.record(f"eval/{eval_columns(self.cfg.game)[2]}", result["points_per_round"])
        self.logger.record("eval/win_share", result["win_share"])
        self.logger.record("perf/env_share", self.env_share())
        if state["best"] is None or better(self.cfg, result["points_per_round"], state["best"]):
            state["best"] = result["points_per_round"]
            tmp = self.run / "best.tmp.zip"
            self.model.save(tmp)
            tmp.replace(self.run / "best.zip")
            write_model_meta(self.run / "best.zip", model_meta(self.cfg, n, result["points_per_round"]))
        # in words: the last evaluation's and the best points per round, the env's share of the wall time
        unit = "points/game" if self.cfg.game == "board" else "pts/round"  # the board game has no rounds
        self.bar.set_postfix_str(f"eval {result['points_per_round']:.2f} {unit}, best {state['best']:.2f}, "
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
        if self.stop_signal is None and self.state.get("evaluated_at") != self.num_timesteps:
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


