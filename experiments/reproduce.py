"""`sixnimmt reproduce REPORT`: re-run a report's figures at the current code.

Every report under experiments/ ends with a machine-readable block of its figures, a fenced
block whose info string is `toml figures`:

    ```toml figures
    [[figure]]
    name = "pro, 4 players: mcs lead over board-safe (points)"
    command = "study board-skill --players 4 --variants pro --opponents board-safe --games 48"
    pick = "cells[variant=pro,players=4,opponents=board-safe].gap"
    value = 16.1
    interval = 3.3
    commit = "a87059b"
    ```

Fields: `name`, `command` (a `sixnimmt` command line, the word `sixnimmt` optional),
`value` and `interval` (the 95% half-width; 0 for an exact figure) as written in the
report, `commit` (where it was measured), `pick` (where the figure sits in the command's
JSON result: keys joined by dots, `list[key=value,...]` picks the element whose fields
match, `list[3]` by position; a picked `[mean, ci]` pair gives both), optional `pick_ci`
(the new half-width's path), `factor` (e.g. 100 for a share shown in percent), `date`,
and `rerun = false` with a `note` for figures no command here can give again (training
runs of hours, networks kept only in runs/).

The text is untrusted: read within limits (sixnimmt_env/core/untrusted.py), each entry
validated, and a command runs only if it is one of the `ALLOWED` `sixnimmt` subcommands
with none of the `REFUSED` options; it runs as a subprocess of this Python's `sixnimmt`
(never a shell) in its own process group, killed whole at the timeout. `--scale F`
multiplies the game counts (`SCALED` options). A figure holds when the new value lies
within the combined interval sqrt(old² + new²) plus half a unit of the report's last
digit (the new half-width, when the result has none, is the old one widened by
1/sqrt(scale)).
"""

from __future__ import annotations

import math
import os
import shlex
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sixnimmt_env.core.errors import ConfigError
from sixnimmt_env.core.untrusted import loads_json, loads_toml, read_json, read_text

FENCE = "```toml figures"
MAX_REPORT_BYTES = 1 << 20  # the longest report is ~30 kB
MAX_OUTPUT_BYTES = 16 << 20  # a match's --json is ~1 kB
MAX_FIGURES = 200
ALLOWED = {"match": None, "baselines": None, "study": {"die-sechste", "board", "board-skill"}}
"""The subcommands a figure may run (None: no sub-command); nothing else runs."""
REFUSED = {"--out", "--records", "--resume", "--backend", "--address", "--json", "--progress", "--no-progress"}
"""Options a figure may not give: reproduce sets where outputs go and how they are shown."""
SCALED = {"--games", "--deals", "--heuristic-games", "--mcs-games", "--random-games", "--search-games"}
"""The options counting games or deals, multiplied by --scale."""
EXPENSIVE = ("mcs", "guided", "ppo", "bayes")
"""Agent names whose decisions cost far more than a rule of thumb's (for --cheapest)."""
FIELDS = {"name", "command", "value", "interval", "commit", "pick", "pick_ci", "factor", "date", "rerun", "note"}


@dataclass(frozen=True)
class Figure:
    """One figure of a report: where it came from and how to measure it again."""

    name: str
    command: tuple[str, ...]
    value: float
    interval: float
    commit: str
    pick: str = ""
    pick_ci: str = ""
    factor: float = 1.0
    rerun: bool = True
    note: str = ""


@dataclass(frozen=True)
class Verdict:
    """A figure measured again: `status` is holds, changed, failed or not re-run."""

    figure: Figure
    status: str
    value: float | None = None
    interval: float | None = None
    detail: str = ""

    def line(self) -> str:
        """The figure's one line of the report."""
        f = self.figure
        was = f"{_fmt(f.value)} ± {_fmt(f.interval)} at {f.commit}"
        if self.status == "holds":
            return f"holds    {f.name}: {_fmt(self.value)} ± {_fmt(self.interval)} (was {was})"
        if self.status == "changed":
            return f"changed  {f.name}: was {was}, now {_fmt(self.value)} ± {_fmt(self.interval)}"
        return f"{self.status:<8} {f.name}: {self.detail} (was {was})"

    def as_dict(self) -> dict:
        """The verdict as JSON-ready fields."""
        f = self.figure
        return {"name": f.name, "status": self.status, "command": shlex.join(f.command), "commit": f.commit,
                "was": f.value, "was_interval": f.interval, "now": self.value, "now_interval": self.interval,
                "detail": self.detail}


def _fmt(x: float | None) -> str:
    return "?" if x is None else f"{x:.4g}"


def read_figures(path: str | Path) -> list[Figure]:
    """The figures of the report at `path` (every `toml figures` block); ConfigError naming
    the report and entry when a block or an entry is not valid."""
    text = read_text(path, limit=MAX_REPORT_BYTES, what=str(path))
    figures = []
    for block in _blocks(text, str(path)):
        data = loads_toml(block, what=f"{path}: figures block")
        entries = data.get("figure", [])
        if set(data) - {"figure"} or not isinstance(entries, list):
            raise ConfigError(f"{path}: a figures block holds only [[figure]] entries")
        figures += [_figure(e, f"{path}: figure {len(figures) + i + 1}") for i, e in enumerate(entries)]
    if not figures:
        raise ConfigError(f"{path}: no figures (a fenced block opened by {FENCE!r} with [[figure]] entries)")
    if len(figures) > MAX_FIGURES:
        raise ConfigError(f"{path}: more than {MAX_FIGURES} figures")
    return figures


def _blocks(text: str, what: str) -> list[str]:
    """The bodies of the report's `toml figures` fences."""
    blocks, lines, inside = [], [], False
    for line in text.splitlines():
        if not inside and line.strip() == FENCE:
            inside, lines = True, []
        elif inside and line.strip() == "```":
            inside = False
            blocks.append("\n".join(lines))
        elif inside:
            lines.append(line)
    if inside:
        raise ConfigError(f"{what}: a figures block is not closed by ```")
    return blocks


def _figure(entry: Any, what: str) -> Figure:
    """One validated [[figure]] entry."""
    if not isinstance(entry, dict):
        raise ConfigError(f"{what}: not a table")
    if unknown := set(entry) - FIELDS:
        raise ConfigError(f"{what}: unknown field(s) {', '.join(sorted(unknown))}")
    for key in ("name", "command", "commit"):
        if not isinstance(entry.get(key), str) or not entry[key].strip():
            raise ConfigError(f"{what}: {key} must be a non-empty string")
    for key, default in (("value", None), ("interval", 0.0), ("factor", 1.0)):
        x = entry.get(key, default)
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
            raise ConfigError(f"{what} ({entry['name']}): {key} must be a number")
    if entry.get("interval", 0) < 0:
        raise ConfigError(f"{what} ({entry['name']}): interval must be >= 0")
    commit = entry["commit"]
    if not 7 <= len(commit) <= 40 or any(c not in "0123456789abcdef" for c in commit):
        raise ConfigError(f"{what} ({entry['name']}): commit must be 7-40 hex digits")
    rerun = entry.get("rerun", True)
    if not isinstance(rerun, bool):
        raise ConfigError(f"{what} ({entry['name']}): rerun must be true or false")
    try:
        argv = tuple(shlex.split(entry["command"]))
    except ValueError as e:
        raise ConfigError(f"{what} ({entry['name']}): command: {e}") from None
    argv = argv[1:] if argv[:1] == ("sixnimmt",) else argv
    if rerun:
        check_command(argv, f"{what} ({entry['name']})")
        if not isinstance(entry.get("pick"), str) or not entry["pick"]:
            raise ConfigError(f"{what} ({entry['name']}): pick (where the figure is in the result) is missing")
    return Figure(name=entry["name"], command=argv, value=float(entry["value"]),
                  interval=float(entry.get("interval", 0.0)), commit=commit, pick=str(entry.get("pick", "")),
                  pick_ci=str(entry.get("pick_ci", "")), factor=float(entry.get("factor", 1.0)), rerun=rerun,
                  note=str(entry.get("note", "")))


def check_command(argv: tuple[str, ...], what: str) -> None:
    """Refuse a command that is not an allowed `sixnimmt` subcommand or gives a refused option."""
    if not argv or argv[0] not in ALLOWED:
        raise ConfigError(f"{what}: only these sixnimmt commands re-run: {', '.join(sorted(ALLOWED))}")
    subs = ALLOWED[argv[0]]
    if subs is not None and (len(argv) < 2 or argv[1] not in subs):
        raise ConfigError(f"{what}: {argv[0]} re-runs only as: {', '.join(sorted(subs))}")
    for token in argv:
        if token.split("=", 1)[0] in REFUSED:
            raise ConfigError(f"{what}: reproduce sets {token.split('=', 1)[0]} itself; drop it")


def scaled(argv: tuple[str, ...], scale: float) -> list[str]:
    """`argv` with every game or deal count multiplied by `scale` (at least 1)."""
    out = list(argv)
    for i, token in enumerate(out):
        key, eq, val = token.partition("=")
        if key in SCALED and eq:
            out[i] = f"{key}={_times(val, scale, key)}"
        elif token in SCALED and i + 1 < len(out):
            out[i + 1] = _times(out[i + 1], scale, token)
    return out


def _times(count: str, scale: float, option: str) -> str:
    if not count.isdigit():
        raise ConfigError(f"{option} {count}: not a count")
    return str(max(1, round(int(count) * scale)) if int(count) > 0 else 0)


def cost(figure: Figure) -> float:
    """A rough cost of the figure's command: games, far more with search or network agents."""
    games = sum(int(tok) for prev, tok in zip(figure.command, figure.command[1:]) if prev in SCALED and tok.isdigit())
    heavy = any(name in token for token in figure.command for name in EXPENSIVE)
    return max(games, 1) * (100 if heavy else 1) * (10 if "study" in figure.command else 1)


def pick(result: Any, path: str) -> Any:
    """The value at `path` in a JSON result (see the module docstring); ConfigError if absent."""
    node = result
    for part in path.split("."):
        key, _, select = part.partition("[")
        if key:
            if not isinstance(node, dict) or key not in node:
                raise ConfigError(f"pick {path!r}: no {key!r} in the result")
            node = node[key]
        if select:
            node = _select(node, select.rstrip("]"), path)
    return node


def _select(node: Any, select: str, path: str) -> Any:
    if not isinstance(node, list):
        raise ConfigError(f"pick {path!r}: [{select}] applies to a list")
    if select.isdigit():
        if int(select) >= len(node):
            raise ConfigError(f"pick {path!r}: the list has {len(node)} elements")
        return node[int(select)]
    want = dict(kv.split("=", 1) for kv in select.split(",") if "=" in kv)
    for item in node:
        if isinstance(item, dict) and all(str(item.get(k)) == v for k, v in want.items()):
            return item
    raise ConfigError(f"pick {path!r}: no element with {select}")


def run_command(argv: list[str], timeout: float) -> Any:
    """Run `sixnimmt ARGV` as a subprocess (its own process group, killed whole after
    `timeout` seconds) and return its JSON result: stdout of `--json` commands, else the
    results.json written into a temporary --out."""
    with tempfile.TemporaryDirectory(prefix="reproduce-") as tmp:
        extra = ["--json"] if argv[0] in ("match", "baselines") else ["--out", tmp]
        extra += ["--no-progress"] if argv[0] != "baselines" else []
        cmd = [sys.executable, "-m", "experiments.cli", *argv, *extra]
        with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                              start_new_session=True) as proc:
            try:
                out, err = proc.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.communicate()
                raise ConfigError(f"timed out after {timeout:g} s") from None
        if proc.returncode != 0:
            last = (err.decode("utf-8", "replace").strip().splitlines() or ["no message"])[-1]
            raise ConfigError(f"exit {proc.returncode}: {last[:300]}")
        if "--json" in extra:
            if len(out) > MAX_OUTPUT_BYTES:
                raise ConfigError("the command printed more than the limit")
            return loads_json(out, what="the command's output")
        return read_json(Path(tmp) / "results.json", limit=MAX_OUTPUT_BYTES, what="results.json")


def judge(figure: Figure, result: Any, scale: float) -> Verdict:
    """Compare the figure with its value in a fresh result."""
    try:
        got = pick(result, figure.pick)
        ci = pick(result, figure.pick_ci) if figure.pick_ci else None
    except ConfigError as e:
        return Verdict(figure, "failed", detail=str(e))
    if isinstance(got, list) and len(got) == 2:
        got, ci = got
    if isinstance(got, bool) or not isinstance(got, (int, float)):
        return Verdict(figure, "failed", detail=f"pick {figure.pick!r} is not a number")
    value = float(got) * figure.factor
    new_ci = float(ci) * abs(figure.factor) if isinstance(ci, (int, float)) and math.isfinite(ci) \
        else figure.interval / math.sqrt(min(scale, 1.0))
    tolerance = math.hypot(figure.interval, new_ci) + _half_digit(figure.value)
    status = "holds" if abs(value - figure.value) <= tolerance else "changed"
    return Verdict(figure, status, value=value, interval=new_ci)


def _half_digit(value: float) -> float:
    """Half a unit of the last digit the report wrote (16.1 -> 0.05; 68 -> 0.5)."""
    text = repr(float(value))
    decimals = 0 if text.endswith(".0") or "." not in text or "e" in text else len(text.split(".")[1])
    return 0.5 * 10.0 ** -decimals


def reproduce(figures: list[Figure], *, scale: float = 1.0, timeout: float = 600.0, log=None) -> list[Verdict]:
    """Re-run every figure's command once (figures sharing a command share the run) at
    `scale`; `log(verdict)` is called as each figure is judged."""
    if not 0 < scale <= 100:
        raise ConfigError(f"--scale {scale:g}: must be in (0, 100]")
    results: dict[tuple[str, ...], Any] = {}
    verdicts = []
    for f in figures:
        if not f.rerun:
            v = Verdict(f, "not re-run", detail=f.note or "kept as a record")
        else:
            if f.command not in results:
                try:
                    results[f.command] = run_command(scaled(f.command, scale), timeout)
                except ConfigError as e:
                    results[f.command] = e
            got = results[f.command]
            v = Verdict(f, "failed", detail=str(got)) if isinstance(got, ConfigError) else judge(f, got, scale)
        verdicts.append(v)
        if log is not None:
            log(v)
    return verdicts
