"""Keep a training run's resume state somewhere git keeps it, and bring it back (issue 59).

Why: a long run is carried across sessions with `--resume`, and its directory lives under
runs/, which git ignores. On 2026-12-07 the machine was reset between two sessions and
runs/ went with it: five stages of the long run (138M learner samples), their checkpoints,
snapshots and gates. Only what had landed in git survived. So a session ends by keeping
the run (`sixnimmt keep runs/NAME --to experiments/networks/NAME`, then commit) and a new
machine starts by bringing it back (`sixnimmt keep experiments/networks/NAME --to runs/NAME`,
then `sixnimmt train --resume runs/NAME`).

What is kept is what `--resume` reads, and no more (a run's tb/ logs and older checkpoints
stay behind: a few MB a session, not hundreds): config.json, versions.json, eval.csv, the
`latest` pointer and the checkpoint it names, the newest `snapshots` of the snapshots its
opponent pool draws (the pool skips those it cannot find), and the run's gate records with
the snapshot each chose (what a report measured stays re-runnable). The
pool names its snapshots by path under runs/NAME, so a run must come back to the same
runs/NAME to draw the kept ones. The checkpoint's model.zip is written deflated (SB3 stores
it uncompressed, 18 MB, most of it the rollout's last observations), the snapshots and
best.zip as exported (training/export.py: the policy without Adam's moments, 2 MB each),
since they are only ever played, never trained on: a keep is about 10 MB.
"""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

from sixnimmt_env.core.errors import ConfigError, writing

from .export import export_model
from .runs import checkpoint_timesteps, read_run_file, read_run_json

RUN_FILES = ("config.json", "versions.json", "eval.csv", "best.json", "best.zip")
"""The files at a run's top level that are kept when present (the checkpoint apart)."""

GATE_SUFFIXES = (".json", ".md", ".png")
"""A gate's record, tables and plot (gate.*, gate-1.*, ...)."""


def kept_files(run: Path, snapshots: int) -> list[Path]:
    """The files of the run directory `run` that `keep` copies, relative to `run`; a
    ConfigError when `run` holds no checkpoint to resume from."""
    if not (run / "config.json").is_file() or not (run / "latest").is_file():
        raise ConfigError(f"{run}: not a training run with a checkpoint (config.json and latest)")
    ckpt = read_run_file(run / "latest").strip()
    if not ckpt.startswith("ckpt-") or "/" in ckpt or not (run / ckpt / "model.zip").is_file():
        raise ConfigError(f"{run}: its latest pointer names no complete checkpoint ({ckpt!r})")
    files = [Path(name) for name in RUN_FILES if (run / name).is_file()]
    files += [Path("latest")] + sorted(p.relative_to(run) for p in (run / ckpt).iterdir() if p.is_file())
    pool = read_run_json(run / ckpt / "pool.json", dict) if (run / ckpt / "pool.json").is_file() else {}
    names = [Path(str(p)).name for p in pool.get("snapshots", []) if isinstance(p, str)]
    gates = sorted(p.relative_to(run) for p in run.glob("gate*") if p.suffix in GATE_SUFFIXES and p.is_file())
    # the newest snapshots, and each gate's choice (what its report measured)
    for name in dict.fromkeys((names[len(names) - snapshots:] if snapshots else []) + gate_choices(run, gates)):
        for part in (Path("snapshots") / name, (Path("snapshots") / name).with_suffix(".json")):
            if (run / part).is_file():
                files.append(part)
    return files + gates


def gate_choices(run: Path, gates: list[Path]) -> list[str]:
    """The file names of the snapshots the run's gate records chose (gate.json, gate-N.json)."""
    names = []
    for rel in gates:
        if rel.suffix == ".json":
            chosen = (read_run_json(run / rel, dict).get("choosing") or {}).get("chosen") or {}
            spec = chosen.get("spec") if isinstance(chosen, dict) else None
            if isinstance(spec, str) and spec.startswith("ppo:path="):
                names.append(Path(spec.removeprefix("ppo:path=").split(":")[0]).name)
    return names


def keep(run: str | Path, to: str | Path, snapshots: int = 2) -> tuple[list[Path], int]:
    """Copy the resume state of the training run `run` to the directory `to` (replacing an
    earlier copy of the same run there; refusing any other directory that holds files);
    returns the files copied (relative paths) and their bytes. The copy is made beside `to`
    and moved into place, so a failed keep leaves the earlier copy whole."""
    run, to = Path(run), Path(to)
    if snapshots < 0:
        raise ConfigError(f"--snapshots must be >= 0, got {snapshots}")
    files = kept_files(run, snapshots)
    if to.resolve() == run.resolve():
        raise ConfigError(f"{to} is the run itself: keep it somewhere else")
    if to.exists():
        same = (to / "config.json").is_file() and read_run_json(to / "config.json", dict).get("name") == \
            read_run_json(run / "config.json", dict).get("name")
        if not to.is_dir() or (any(to.iterdir()) and not same):
            raise ConfigError(f"{to} holds something other than a copy of this run: choose another place")
        there, here = (checkpoint_timesteps(to), checkpoint_timesteps(run)) if same else (0, 0)
        if there > here:
            raise ConfigError(f"{to} holds a later checkpoint ({there:,} steps) than {run} ({here:,}): "
                              "keeping would go back; remove it first if you mean to")
    tmp = to.with_name(to.name + ".keeping")
    with writing(tmp):
        shutil.rmtree(tmp, ignore_errors=True)
        for rel in files:
            (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
            if rel.suffix == ".zip" and rel.parts[0] in ("snapshots", "best.zip"):
                export_model(run / rel, tmp / rel)  # played only: the policy without Adam's moments
            elif rel.suffix == ".zip":
                deflated_copy(run / rel, tmp / rel)  # the checkpoint, Adam's moments included
            else:
                shutil.copy2(run / rel, tmp / rel)
        if to.exists():
            old = to.with_name(to.name + ".old")
            shutil.rmtree(old, ignore_errors=True)
            to.rename(old)
            tmp.rename(to)
            shutil.rmtree(old)
        else:
            to.parent.mkdir(parents=True, exist_ok=True)
            tmp.rename(to)
    return files, sum((to / rel).stat().st_size for rel in files)


def deflated_copy(src: Path, dst: Path) -> None:
    """Copy the zip `src` to `dst` entry by entry, each deflated (the entries' bytes as they
    are: nothing is read into objects)."""
    with zipfile.ZipFile(src) as z, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as out:
        for info in z.infolist():
            out.writestr(info.filename, z.read(info))
