"""The label stage of an imitation run: label units, one file each, on this machine's
processes or on a backend handed in (a Ray cluster: `sixnimmt imitate --backend ray`).

Unit i is `label_units.label_unit(i, ...)`: its table size, seating, deals and random draws
depend on the run's seed and i alone, and this process writes its file
(labels/unit-NNNNN.npz, atomically) from the batch the unit returns, so the files are the
same whichever process or node labelled them. A unit whose file is on disk is done: a
killed or stopped run resumes with the others, and a unit lost with its worker or node
is labelled again (by the backend's retry, or by the resumed run).

The budget is the run's: `label_minutes` of labelling in all sessions (the clock in
labels/progress.json; runs from before it kept labels/seconds.json), units started before
the deadline are finished. progress.json also holds the run's label rate and each node's
(units, labels, labels/s over the run's label time), written after every unit.

A backend is an object with `map_unordered(fn, items, window)` (call fn(*item) for each
item, at most `window` at once, taking items only as it has room, and yield the results
as they finish) and `capacity()` (how many units it runs at once), used as a context
manager: experiments.backends' RayBackend is one. Training does not import it (it is a
layer above); the CLI passes it in.
"""

from __future__ import annotations

import time
from pathlib import Path

from sixnimmt_env.core.checks import is_number
from sixnimmt_env.core.errors import ConfigError
from sixnimmt_env.core.processes import LocalPool

from .label_units import label_unit
from .runs import read_run_json, write_json


def unit_path(run: Path, index: int) -> Path:
    return run / "labels" / f"unit-{index:05d}.npz"


def unit_files(run: Path) -> list[Path]:
    """The complete label units of a run, by index (a unit being written is a .tmp.npz)."""
    return sorted(p for p in (run / "labels").glob("unit-*.npz") if not p.name.endswith(".tmp.npz"))


class LocalUnits(LocalPool):
    """This machine's backend: `workers` spawned processes of the one local pool
    (sixnimmt_env/core/processes.LocalPool), bound to this process's life, so no worker
    outlives it; on an error or a Ctrl-C they are killed rather than waited for. One
    worker is a process too: a unit never runs in the process that writes the files."""

    def __init__(self, workers: int):
        super().__init__(workers, inline_one=False)


def _spent(run: Path) -> float:
    """Seconds of labelling in the run's earlier sessions."""
    for name in ("progress.json", "seconds.json"):  # seconds.json: runs from before progress.json
        path = run / "labels" / name
        if path.exists():
            seconds = read_run_json(path, dict).get("seconds")
            if not is_number(seconds) or seconds < 0:
                raise ConfigError(f"{path}: 'seconds' must be a number >= 0")
            return float(seconds)
    return 0.0


def _nodes(run: Path) -> dict:
    path = run / "labels" / "progress.json"
    nodes = read_run_json(path, dict).get("nodes", {}) if path.exists() else {}
    if not isinstance(nodes, dict):
        raise ConfigError(f"{path}: 'nodes' must be an object")
    return nodes


def label(cfg, run: Path, progress: bool = True, backend=None) -> dict:
    """The label stage of the ImitationConfig `cfg` into `run`: the units not yet on disk,
    on `backend` (default: `cfg.workers` processes here), until the time or unit budget is
    spent. Returns {"units": units on disk, "records_this_session", "seconds": of
    labelling in all, "labels_per_s" of the run, "nodes": per node, "backend"}."""
    from tqdm import tqdm
    (run / "labels").mkdir(parents=True, exist_ok=True)
    done = {int(p.stem.split("-")[1]) for p in unit_files(run)}
    spent, nodes = _spent(run), _nodes(run)
    deadline = time.monotonic() + cfg.label_minutes * 60 - spent

    def units():  # taken as the backend has room: none is started after the deadline
        for i in range(cfg.units):
            if time.monotonic() >= deadline:
                return
            if i not in done:
                P = cfg.unit_players(i)
                yield (i, P, max(cfg.deal_seats // P, 1), cfg.teacher, cfg.field, cfg.field_seats, cfg.explore,
                       cfg.observation, cfg.rule_options(), cfg.seed)

    bar = tqdm(total=None, unit="label", unit_scale=True, desc="labels", disable=not progress)
    t0, records = time.perf_counter(), 0
    runner = backend if backend is not None else LocalUnits(cfg.workers)

    def summary() -> dict:
        seconds = spent + time.perf_counter() - t0
        for node in nodes.values():
            node["labels_per_s"] = round(node["labels"] / max(seconds, 1e-9), 1)
        labels = sum(node["labels"] for node in nodes.values())
        return {"seconds": round(seconds, 1), "labels": labels, "labels_per_s": round(labels / max(seconds, 1e-9), 1),
                "backend": getattr(runner, "name", type(runner).__name__), "nodes": nodes}

    with runner:
        for index, batch, seconds, node in runner.map_unordered(label_unit, units(), runner.capacity()):
            batch.save(unit_path(run, index))
            records += len(batch)
            bar.update(len(batch))
            mine = nodes.setdefault(node, {"units": 0, "labels": 0, "unit_seconds": 0.0})
            mine["units"] += 1
            mine["labels"] += len(batch)
            mine["unit_seconds"] = round(mine["unit_seconds"] + seconds, 2)
            write_json(run / "labels" / "progress.json", summary())
    bar.close()
    return {"units": len(unit_files(run)), "records_this_session": records, **summary()}
