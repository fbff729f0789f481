"""`sixnimmt sweep`: many training runs at once on Ray Tune, from a small TOML file.

Each trial is a normal `sixnimmt train` run writing its own runs/<name>-<ii>/ (config,
TensorBoard, eval.csv, best.zip); every evaluation is reported to Tune, whose ASHA
scheduler stops the poor trials early; at the end a summary of every trial (markdown,
CSV and a plot of the evaluation curves) is written to runs/sweep-<name>/.

The file (every key but `name` optional):

    name = "pilot"                       # trials: runs/pilot-00, runs/pilot-01, ...
    base = "training/configs/auto-rows-4p.toml"  # a training config under every trial
    search = "grid"                      # grid, or random: `samples` draws of [random]
    samples = 1                          # random: trials per point of the grid
    seed = 0                             # random: the draws' seed (the trial list is fixed)
    max_concurrent = 2                   # trials at once
    cpus_per_trial = 1                   # also torch_threads, unless [set] says otherwise
    [set]                                # the same for every trial (TrainConfig fields)
    minutes = 9
    [grid]                               # every combination of these
    seed = [0, 1]
    observation = ["basic", "card-features"]
    [random]                             # random search: a distribution per field
    learning_rate = {loguniform = [1e-4, 1e-3]}
    n_epochs = {choice = [4, 8]}         # also uniform = [a, b], randint = [a, b] (b excluded)
    [asha]                               # early stopping; leave the table out for none
    grace_steps = 500000                 # learner steps before a trial can be stopped
    reduction_factor = 2

The trial list is drawn once, here, with its own seed (not by Tune's search algorithm),
and saved in runs/sweep-<name>/sweep.json: a resumed sweep runs the same trials, and a
trial cut short resumes its training run from its last checkpoint (`train --resume`).
Evaluation figure: `points_per_round` of eval.csv (lower is better).

The sweep file, its base config and a resumed sweep.json are read through the lab's
bounded readers (`core/untrusted.read_toml`, `read_json`) and checked field by field:
anything odd is one line naming it, before Ray or any trial starts.
"""

from __future__ import annotations

import csv
import itertools
import os
import re
import shutil
from pathlib import Path

import numpy as np

from sixnimmt_env.core.errors import ConfigError
from sixnimmt_env.core.strict_json import json_text
from sixnimmt_env.core.untrusted import read_json, read_toml
from training.runs import read_evals

METRIC, MODE = "points_per_round", "min"
SPEC_KEYS = {"name", "base", "search", "samples", "seed", "max_concurrent", "cpus_per_trial",
             "set", "grid", "random", "asha"}
DISTRIBUTIONS = ("uniform", "loguniform", "randint", "choice")
SPEC_TABLES = ("set", "grid", "random", "asha")
SPEC_COUNTS = {"samples": 1, "seed": 0, "max_concurrent": 1, "cpus_per_trial": 1}  # whole numbers, their least
MAX_SPEC_BYTES = 2**20  # a sweep file is under 2 kB; sweep.json holds each trial's config
MAX_SAVED_BYTES = 64 * 2**20
SUMMARY_COLUMNS = ["trial", "run", "params", "status", "evaluations", "timesteps", "last_eval",
                   "best_eval", "steps_per_s", "wall_s"]


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:60] + "..."


def load_spec(path: str | Path) -> dict:
    """The sweep file, checked (ConfigError naming what is wrong)."""
    return check_spec(read_toml(path, limit=MAX_SPEC_BYTES, what=f"sweep file {path}"))


def check_spec(spec: dict) -> dict:
    """`spec` if every key of a sweep file holds a value of its kind (ConfigError naming
    the first that does not)."""
    unknown = set(spec) - SPEC_KEYS
    if unknown:
        raise ConfigError(f"unknown sweep key(s): {', '.join(sorted(unknown))}; valid: {', '.join(sorted(SPEC_KEYS))}")
    name = spec.get("name")
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}", name):
        raise ConfigError(f"a sweep file needs a name: letters, digits, _ . - (it names runs/sweep-<name>), "
                          f"got {_shown(name)}")
    if not isinstance(spec.get("base", ""), str):
        raise ConfigError(f"base must be a training config's path, got {_shown(spec['base'])}")
    if spec.get("search", "grid") not in ("grid", "random"):
        raise ConfigError(f"search must be grid or random, got {_shown(spec['search'])}")
    for key in SPEC_TABLES:
        if not isinstance(spec.get(key, {}), dict):
            raise ConfigError(f"[{key}] must be a table, got {_shown(spec[key])}")
    for key, least in SPEC_COUNTS.items():
        value = spec.get(key, least)
        if type(value) is not int or value < least:
            raise ConfigError(f"{key} must be a whole number >= {least}, got {_shown(value)}")
    for key, values in spec.get("grid", {}).items():
        if not isinstance(values, list) or not values:
            raise ConfigError(f"[grid] {key} must be a non-empty list of values")
    for key, dist in spec.get("random", {}).items():
        _check_distribution(key, dist)
    _check_asha(spec.get("asha", {}))
    return spec


def _check_distribution(key: str, dist) -> None:
    """A [random] field: {choice = [values]} or {uniform|loguniform|randint = [low, high]}."""
    if not isinstance(dist, dict) or len(dist) != 1 or next(iter(dist)) not in DISTRIBUTIONS:
        raise ConfigError(f"[random] {key} must be one of {{{', '.join(d + ' = ...' for d in DISTRIBUTIONS)}}}")
    (kind, args), = dist.items()
    if kind == "choice":
        ok = isinstance(args, list) and bool(args)
    else:
        number = int if kind == "randint" else (int, float)
        ok = (isinstance(args, list) and len(args) == 2 and all(isinstance(a, number) and not isinstance(a, bool)
                                                                  for a in args) and args[0] < args[1]
              and (kind != "loguniform" or args[0] > 0))
    if not ok:
        want = "a non-empty list" if kind == "choice" else "[low, high], low < high" + (
            ", both > 0" if kind == "loguniform" else "") + (", whole numbers" if kind == "randint" else "")
        raise ConfigError(f"[random] {key}: {kind} takes {want}, got {_shown(args)}")


def _check_asha(asha: dict) -> None:
    unknown = set(asha) - {"grace_steps", "reduction_factor"}
    if unknown:
        raise ConfigError(f"unknown [asha] key(s): {', '.join(sorted(unknown))}; valid: grace_steps, reduction_factor")
    grace, factor = asha.get("grace_steps", 1), asha.get("reduction_factor", 2)
    if type(grace) is not int or grace < 1:
        raise ConfigError(f"[asha] grace_steps must be a whole number >= 1, got {_shown(grace)}")
    if isinstance(factor, bool) or not isinstance(factor, (int, float)) or not factor > 1:
        raise ConfigError(f"[asha] reduction_factor must be a number > 1, got {_shown(factor)}")


def _draw(dist: dict, rng: np.random.Generator):
    (kind, args), = dist.items()
    if kind == "choice":
        return args[int(rng.integers(len(args)))]
    lo, hi = args
    if kind == "uniform":
        return float(rng.uniform(lo, hi))
    if kind == "loguniform":
        return float(np.exp(rng.uniform(np.log(lo), np.log(hi))))
    return int(rng.integers(lo, hi))


def trials(spec: dict) -> list[dict]:
    """Every trial: {"name", "overrides"} (the TrainConfig fields it sets beyond the base)."""
    grid = spec.get("grid", {})
    points = [dict(zip(grid, combo)) for combo in itertools.product(*grid.values())] or [{}]
    samples = int(spec.get("samples", 1)) if spec.get("search", "grid") == "random" else 1
    rng = np.random.default_rng(int(spec.get("seed", 0)))
    out = []
    cpus = int(spec.get("cpus_per_trial", 1))
    for point in points:
        for _ in range(samples):
            drawn = {k: _draw(d, rng) for k, d in spec.get("random", {}).items()}
            overrides = {"torch_threads": cpus, **spec.get("set", {}), **point, **drawn}
            out.append({"name": f"{spec['name']}-{len(out):02d}", "overrides": overrides,
                        "params": {**point, **drawn}})
    return out


def base_values(spec: dict, root: Path) -> dict:
    """The base training config's values (a file relative to the sweep file's folder or the cwd)."""
    base = spec.get("base")
    if not base:
        return {}
    path = Path(base)
    if not path.is_absolute() and not path.exists() and (root / base).exists():
        path = root / base
    from training.config import MAX_CONFIG_BYTES

    read = read_toml if path.suffix == ".toml" else read_json
    values = read(path, limit=MAX_CONFIG_BYTES, what=f"the sweep's base config {path}")
    if not isinstance(values, dict):
        raise ConfigError(f"the sweep's base config {path}: not a table of training config fields")
    return values


def read_saved(sweep_dir: Path) -> dict:
    """The sweep.json of a sweep to resume, read within bounds and checked in its shape."""
    path = sweep_dir / "sweep.json"
    saved = read_json(path, limit=MAX_SAVED_BYTES, what=str(path))
    trials = saved.get("trials") if isinstance(saved, dict) else None
    if not (isinstance(saved, dict) and isinstance(saved.get("spec"), dict) and isinstance(saved.get("runs_dir"), str)
            and isinstance(trials, list) and trials
            and all(isinstance(t, dict) and isinstance(t.get("name"), str) and isinstance(t.get("train"), dict)
                    and isinstance(t.get("params", {}), dict) for t in trials)):
        raise ConfigError(f"{path}: not a sweep's record (spec, runs_dir, and trials with a name and a train config)")
    try:
        check_spec(saved["spec"])
    except ConfigError as e:
        raise ConfigError(f"{path}: {e}") from None
    from training.config import TrainConfig

    for t in trials:  # each trial's config as its run will read it
        try:
            TrainConfig.from_dict(t["train"])
        except ConfigError as e:
            raise ConfigError(f"{path}: trial {_shown(t['name'])}: {e}") from None
    return saved


def trial_config(base: dict, trial: dict):
    """The TrainConfig of one trial (ConfigError on a bad field)."""
    from training.config import TrainConfig
    return TrainConfig.from_dict({**base, **trial["overrides"], "name": trial["name"]})


def run_trial(config: dict) -> None:
    """One trial, inside a Tune worker: a training run, new or resumed, reporting every
    evaluation to Tune."""
    from ray import tune

    from training.config import TrainConfig
    from training.train import train

    if os.environ.get("TUNE_ORIG_WORKING_DIR"):
        os.chdir(os.environ["TUNE_ORIG_WORKING_DIR"])  # relative paths as at the project root
    trial = config["trial"]
    run = Path(config["runs_dir"]) / trial["name"]
    def report(row):
        return tune.report({METRIC: row[METRIC], "timesteps": row["timesteps"],
                                          "win_share": row["win_share"], "steps_per_s": row["steps_per_s"]})
    if (run / "latest").exists():
        train(resume=run, progress=False, on_eval=report)
        return
    if run.exists():  # cut short before its first checkpoint: nothing to keep
        shutil.rmtree(run)
    train(TrainConfig.from_dict(trial["train"]), runs_dir=config["runs_dir"], progress=False, on_eval=report)


def run_sweep(spec_file: str | Path | None, runs_dir: str | Path = "runs", *, resume: str | Path | None = None,
              address: str | None = None, num_cpus: int | None = None, progress: bool = True) -> Path:
    """Run (or resume) a sweep; returns its directory runs_dir/sweep-<name>/."""
    from experiments.backends import RayBackend, import_ray

    import_ray()
    if resume is not None:
        sweep_dir = Path(resume).resolve()
        if not (sweep_dir / "sweep.json").exists():
            raise ConfigError(f"{sweep_dir} holds no sweep to resume")
        saved = read_saved(sweep_dir)
    else:
        spec = load_spec(spec_file)
        runs_dir = Path(runs_dir).resolve()
        sweep_dir = runs_dir / f"sweep-{spec['name']}"
        if (sweep_dir / "sweep.json").exists():
            raise ConfigError(f"{sweep_dir} already holds this sweep: --resume {sweep_dir}, or another name")
        base = base_values(spec, Path(spec_file).resolve().parent)
        todo = trials(spec)
        configs = [trial_config(base, t).to_dict() for t in todo]  # every trial checked before any starts
        for t, c in zip(todo, configs):
            if (runs_dir / t["name"]).exists():
                raise ConfigError(f"{runs_dir / t['name']} already exists: give the sweep another name")
            t["train"] = c
        saved = {"spec": spec, "runs_dir": str(runs_dir), "trials": todo}
        sweep_dir.mkdir(parents=True, exist_ok=True)
        (sweep_dir / "sweep.json").write_text(json_text(saved, indent=1) + "\n")
    with RayBackend(address, num_cpus=num_cpus):
        results = _tune(saved, sweep_dir, resume is not None, progress)
    write_summary(saved, sweep_dir, results)
    return sweep_dir


def _tune(saved: dict, sweep_dir: Path, resume: bool, progress: bool) -> dict:
    """Run the trials on Tune; returns each trial's Tune outcome by name (ok / error text)."""
    from ray import tune
    from ray.tune.schedulers import ASHAScheduler, FIFOScheduler

    spec = saved["spec"]
    trainable = tune.with_resources(run_trial, {"cpu": int(spec.get("cpus_per_trial", 1))})
    path = sweep_dir / "tune"
    if resume and tune.Tuner.can_restore(str(path)):
        tuner = tune.Tuner.restore(str(path), trainable, resume_unfinished=True, resume_errored=True)
    else:
        asha = spec.get("asha")
        if asha:
            max_t = max(t["train"]["total_timesteps"] for t in saved["trials"])
            scheduler = ASHAScheduler(time_attr="timesteps", metric=METRIC, mode=MODE, max_t=max_t,
                                      grace_period=int(asha.get("grace_steps", 1)),
                                      reduction_factor=float(asha.get("reduction_factor", 2)))
        else:
            scheduler = FIFOScheduler()
        space = {"runs_dir": saved["runs_dir"],
                 "trial": tune.grid_search([{"name": t["name"], "train": t["train"]} for t in saved["trials"]])}
        tuner = tune.Tuner(
            trainable,
            param_space=space,
            tune_config=tune.TuneConfig(scheduler=scheduler, max_concurrent_trials=int(spec.get("max_concurrent", 2)),
                                        metric=None if asha else METRIC, mode=None if asha else MODE),
            run_config=tune.RunConfig(name="tune", storage_path=str(sweep_dir), verbose=1 if progress else 0))
    grid = tuner.fit()
    outcome = {}
    for result in grid:
        name = ((result.config or {}).get("trial") or {}).get("name")
        if name:
            outcome[name] = "error: " + str(result.error).strip().splitlines()[-1] if result.error else "ok"
    return outcome


def write_summary(saved: dict, sweep_dir: Path, outcome: dict) -> list[dict]:
    """summary.md, summary.csv and curves.png of every trial, from their eval.csv files."""
    rows, curves = [], {}
    runs_dir = Path(saved["runs_dir"])
    for t in saved["trials"]:
        run = runs_dir / t["name"]
        evals = []
        if (run / "eval.csv").exists():
            evals = read_evals(run / "eval.csv")  # an old run's penalty_per_round column too
        curves[t["name"]] = evals
        cfg = t["train"]
        last = evals[-1] if evals else {}
        done = bool(last) and (last["timesteps"] >= cfg["total_timesteps"] or last["wall_s"] >= cfg["minutes"] * 60)
        status = outcome.get(t["name"], "not run")
        if status == "ok":
            status = "finished" if done else "stopped early (ASHA)"
        rows.append({"trial": t["name"], "run": str(run), "params": json_text(t["params"], sort_keys=True),
                     "status": status, "evaluations": len(evals), "timesteps": int(last.get("timesteps", 0)),
                     "last_eval": last.get(METRIC), "best_eval": min((e[METRIC] for e in evals), default=None),
                     "steps_per_s": last.get("steps_per_s"), "wall_s": last.get("wall_s")})
    with (sweep_dir / "summary.csv").open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=SUMMARY_COLUMNS)
        writer.writeheader()
        writer.writerows(rows)
    ranked = sorted(rows, key=lambda r: (r["best_eval"] is None, r["best_eval"] or 0))
    def fmt(v):
        return "" if v is None else (f"{v:.3f}" if isinstance(v, float) else str(v))
    lines = [f"# Sweep {saved['spec']['name']}", "",
             f"{len(rows)} trials; evaluation: bullheads per round against the eval field (lower is better); "
             "best first. Curves: curves.png.", "",
             "| trial | params | status | evals | timesteps | last eval | best eval | steps/s |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in ranked:
        lines.append(f"| `{r['trial']}` | `{r['params']}` | {r['status']} | {r['evaluations']} | {r['timesteps']:,} "
                     f"| {fmt(r['last_eval'])} | {fmt(r['best_eval'])} | {fmt(r['steps_per_s'] and round(r['steps_per_s']))} |")
    (sweep_dir / "summary.md").write_text("\n".join(lines) + "\n")
    _plot(curves, sweep_dir / "curves.png")
    return rows


def _plot(curves: dict, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name, evals in curves.items():
        if evals:
            ax.plot([e["timesteps"] for e in evals], [e[METRIC] for e in evals], marker="o", ms=3, label=name)
    ax.set_xlabel("learner steps")
    ax.set_ylabel("bullheads per round (eval)")
    ax.set_title("evaluation curves")
    if any(curves.values()):
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
