"""Run directories of `train` and `imitate`: start one, resume one, read its files.

A run is a directory runs/<name>/ that holds at least `config.json` (the full config, as
its `to_dict()` gives it) and `versions.json` (the seed and the versions of Python and of
the packages the run depends on). A new run refuses a directory that already holds one;
a resumed run takes its config from the directory, never from the command line.
Everything a run writes goes through `write_json` (core/strict_json.py: strict JSON, a
temporary file, then a rename), so a killed run leaves whole files or none.
"""

from __future__ import annotations

import csv
import io
import platform
from pathlib import Path
from typing import Any

from sixnimmt_env.core.checks import is_number
from sixnimmt_env.core.errors import ConfigError, writing
from sixnimmt_env.core.strict_json import write_json

PACKAGES = ("numpy", "torch", "stable-baselines3", "sb3-contrib", "gymnasium", "pettingzoo", "sixnimmt-lab")
"""The packages whose versions versions.json records."""


def pyplot():
    """matplotlib's pyplot, drawing to files only (the Agg backend): a run's figures."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def save_plot(fig, out: Path) -> Path:
    """Lay out the figure `fig`, write it to `out` (100 dpi; OutputError if it cannot be
    written) and close it; returns `out`."""
    fig.tight_layout()
    with writing(out):
        fig.savefig(out, dpi=100)
    pyplot().close(fig)
    return out


def versions(seed: int) -> dict:
    """The seed and the versions of Python and of PACKAGES (None: not installed)."""
    import importlib.metadata as md
    out: dict[str, Any] = {"python": platform.python_version(), "seed": seed}
    for p in PACKAGES:
        try:
            out[p] = md.version(p)
        except md.PackageNotFoundError:
            out[p] = None
    return out


def holds_run(run: Path) -> bool:
    """True if the directory `run` holds a run (its config.json or a checkpoint pointer)."""
    return (run / "config.json").exists() or (run / "latest").exists()


def new_run(run: str | Path, cfg) -> Path:
    """Start the run directory `run` for `cfg` (a config with `to_dict()` and `seed`):
    config.json and versions.json written atomically.

    Raises:
        ConfigError: `run` already holds a run (its config.json or a checkpoint pointer).
        OutputError: the directory or its files cannot be written.
    """
    run = Path(run)
    if holds_run(run):
        raise ConfigError(f"{run} already holds a run: resume it with --resume {run}, or choose another name")
    with writing(run):
        run.mkdir(parents=True, exist_ok=True)
    write_json(run / "config.json", cfg.to_dict())
    write_json(run / "versions.json", versions(cfg.seed))
    return run


START_FILES = frozenset({"config.json", "versions.json"})
"""What new_run writes before any work: a directory holding only these (and empty folders)
holds nothing to resume."""


def discard_failed_start(run: str | Path) -> bool:
    """Remove the run directory `run` a start has just made when the run failed before any
    work (an init_model of another game, a bad option found late): it holds only START_FILES
    and empty folders, and would otherwise block both a retry under the same name and
    `--resume` (which would go on with the failed config). A directory holding anything
    else (a checkpoint, labels, a log) is a run to resume and stays. True if removed."""
    run = Path(run)
    if not run.is_dir():
        return False
    files = [p for p in run.rglob("*") if not p.is_dir()]
    if any(p.parent != run or p.name not in START_FILES for p in files):
        return False
    for p in files:
        p.unlink()
    for folder in sorted((p for p in run.rglob("*") if p.is_dir()), key=lambda p: len(p.parts), reverse=True):
        folder.rmdir()
    run.rmdir()
    return True


def saved_config(run: str | Path, config_class, missing: str):
    """The config a run directory saved (a `config_class`, read with its `from_dict`);
    `missing` is the whole error message where the directory holds no config.json.

    Raises:
        ConfigError: no config.json there, or one that is torn, foreign or invalid.
    """
    path = Path(run) / "config.json"
    if not path.is_file():
        raise ConfigError(missing)
    return config_class.from_dict(read_run_json(path, dict))


def resume_run(run: str | Path, config_class, what: str, missing: str = "no config.json"):
    """The run directory `run` and its saved config (`saved_config`); `what` names the kind
    of run in messages ("training", "imitation") and `missing` what a directory without a
    config.json lacks.

    Raises:
        ConfigError: no config.json there, or one that is torn, foreign or invalid.
    """
    run = Path(run)
    return run, saved_config(run, config_class, f"{run} holds no {what} run to resume ({missing})")


RESUME_OPTIONS = ("minutes", "total_timesteps", "torch_threads")
"""The options a resumed training run may change (`--resume DIR --set minutes=300`): its
budget and its threads, never what it learns or plays against."""


def resumed_config(run: Path, cfg, overrides, what: str):
    """`cfg` with the `overrides` (key=value) of RESUME_OPTIONS applied and saved into the
    run's config.json, so later resumes keep them; a ConfigError for any other option."""
    if not overrides:
        return cfg
    from .config import read_options
    values = read_options(None, overrides, cfg.to_dict(), what)
    other = sorted(set(values) - set(RESUME_OPTIONS))
    if other:
        raise ConfigError(f"a resumed run keeps its config but for {', '.join(RESUME_OPTIONS)}: "
                          f"cannot change {', '.join(other)}")
    cfg = type(cfg).from_dict({**cfg.to_dict(), **values})
    write_json(run / "config.json", cfg.to_dict())
    return cfg


MAX_RUN_FILE_BYTES = 16 * 2**20
"""The largest run file read (config.json, state.json, pool.json, progress.json are a few kB):
a run directory may come from elsewhere, so its files are untrusted input."""


def read_run_file(path: Path) -> str:
    """A run directory's text file (bounded, strict UTF-8: core/untrusted); a ConfigError naming it
    when it cannot be read."""
    from sixnimmt_env.core.untrusted import read_text
    try:
        return read_text(path, limit=MAX_RUN_FILE_BYTES)
    except ConfigError as e:
        raise ConfigError(f"{e} (not a run directory?)") from None


def read_run_json(path: Path, kind: type):
    """A run directory's JSON file holding a `kind` (dict, list); a ConfigError otherwise
    (parsed with the depth and number bounds of core/untrusted)."""
    from sixnimmt_env.core.untrusted import loads_json
    data = loads_json(read_run_file(path), what=f"{path} (a damaged or foreign run directory)")
    if not isinstance(data, kind):
        raise ConfigError(f"{path} does not hold a JSON {kind.__name__}")
    return data


def checkpoint_timesteps(run: Path) -> int:
    """The learner steps of the run's last checkpoint (its `latest` pointer's state.json), 0 if
    it has none yet."""
    if not (run / "latest").exists():
        return 0
    return int(read_run_json(run / read_run_file(run / "latest").strip() / "state.json", dict).get("timesteps", 0))


OLD_EVAL_NAMES = {"penalty_per_round": "points_per_round", "eval_penalty_per_round": "eval_points_per_round"}
"""Names runs wrote before the lab said points everywhere (eval.csv's column, the model
meta's key), and what they are called now: `read_evals` and `eval_figure` read both."""

EVAL_FIGURE_COLUMNS = {"board": "points_per_game"}
"""The eval.csv name of the evaluation figure in a game that has no rounds (the board
game), where the card game's header says `points_per_round`: the one place the name is
written (training.bookkeeping.eval_columns writes it, `read_evals` reads it back)."""

def points_per(game: str) -> str:
    """What a run's evaluation figure counts points over, in words for plots and tables:
    "a game" in a game without rounds (EVAL_FIGURE_COLUMNS: the board game), else "a round"."""
    return "a game" if game in EVAL_FIGURE_COLUMNS else "a round"


GAME_EVAL_NAMES = {column: "points_per_round" for column in EVAL_FIGURE_COLUMNS.values()}
"""Each game's eval.csv figure column and the key its rows are read under, the same in
every game (training.bookkeeping.EVAL_COLUMNS)."""


def read_evals(eval_csv: str | Path) -> list[dict]:
    """The rows of a run's eval.csv as dicts of numbers, keyed by EVAL_COLUMNS' names (a
    board run's `points_per_game` and an old run's `penalty_per_round` column read as
    `points_per_round`); a row that is not numbers (a torn last line) is skipped. The file
    is read as the other run files are (read_run_file: bounded, UTF-8); ConfigError naming
    it when it is larger, not text, or no CSV (a field past the csv module's limit)."""
    names = {**OLD_EVAL_NAMES, **GAME_EVAL_NAMES}
    rows = []
    text = read_run_file(Path(eval_csv))
    try:
        for r in csv.DictReader(io.StringIO(text, newline="")):
            try:
                rows.append({names.get(k, k): float(v) for k, v in r.items() if k is not None})
            except (TypeError, ValueError):
                continue
    except csv.Error as e:
        raise ConfigError(f"{eval_csv}: not an eval.csv ({e})") from None
    return rows


def eval_figure(meta: dict) -> float | None:
    """A saved model's evaluation figure from its meta (best.json, a snapshot's .json):
    `eval_points_per_round`, a board model's `eval_points_per_game`, or an older model's
    `eval_penalty_per_round`."""
    value = meta.get("eval_points_per_round", meta.get("eval_points_per_game", meta.get("eval_penalty_per_round")))
    return value if is_number(value) else None


