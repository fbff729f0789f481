"""`sixnimmt reproduce REPORT`: a report's figures re-run at a tiny scale, as a user would (a subprocess):
the cheapest figure of one card and one board report, a changed figure named with its old and new
value, and a figures block that asks for anything but an allowed `sixnimmt` command refused in one line."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

REPORTS = Path(__file__).resolve().parents[2] / "experiments"


def reproduce(*args: str) -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, "-m", "experiments.cli", "reproduce", *args],
                          capture_output=True, text=True, timeout=300)
    assert "Traceback" not in proc.stderr
    return proc


def test_card_report_cheapest_figure_holds():
    proc = reproduce(str(REPORTS / "baselines.md"), "--cheapest", "--scale", "0.02")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "holds    4 players, cheapest: random, bullheads per round" in proc.stdout
    assert proc.stdout.strip().endswith("at scale 0.02: 2 holds")  # random and greedy share the one run


def test_board_report_cheapest_figure_is_measured():
    proc = reproduce(str(REPORTS / "board-game.md"), "--cheapest", "--scale", "0.05", "--json")
    assert proc.returncode in (0, 1), proc.stderr
    [verdict] = json.loads(proc.stdout)["figures"]
    assert verdict["name"] == "pro, 4 players: board-safe's points a game against 3 random"
    assert verdict["status"] in ("holds", "changed") and math.isfinite(verdict["now"])
    assert verdict["command"].startswith("match --game board --variant pro")


def _copy_of_cheapest(tmp_path, shift: float) -> tuple[Path, str]:
    """baselines.md's first figure, its value moved by `shift`, as a report of its own."""
    block = (REPORTS / "baselines.md").read_text().split("```toml figures\n")[1].split("\n\n")[0]
    name = block.split('name = "')[1].split('"')[0]
    value = float(block.split("value = ")[1].split("\n")[0])
    report = tmp_path / "report.md"
    report.write_text("# a report\n\n```toml figures\n"
                      + block.replace(f"value = {value:.2f}", f"value = {value + shift:.2f}") + "\n```\n")
    return report, name


def test_a_changed_figure_is_named_with_both_values(tmp_path):
    report, name = _copy_of_cheapest(tmp_path, shift=5.0)
    proc = reproduce(str(report), "--scale", "0.02")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    [line] = [x for x in proc.stdout.splitlines() if x.startswith("changed")]
    assert f"changed  {name}: was 17.17 ± 0.12 at ddcd495, now " in line


def test_a_command_past_its_timeout_fails_that_figure(tmp_path):
    report, name = _copy_of_cheapest(tmp_path, shift=0.0)
    proc = reproduce(str(report), "--timeout", "0.01")
    assert proc.returncode == 1
    assert f"failed   {name}: timed out after 0.01 s" in proc.stdout


@pytest.mark.parametrize("entry, says", [
    ('command = "bash -c ls"', "only these sixnimmt commands re-run"),
    ('command = "train --config x.toml"', "only these sixnimmt commands re-run"),
    ('command = "study board --out /tmp/x"', "reproduce sets --out itself"),
    ('command = "match --agents random,random --json"', "reproduce sets --json itself"),
    ('command = "match --agents random,random"\nshell = "rm -rf /"', "unknown field(s) shell"),
    ('command = "match --agents \'random"', "command: No closing quotation"),
])
def test_a_figure_that_asks_for_anything_else_is_refused(tmp_path, entry, says):
    report = tmp_path / "r.md"
    report.write_text('```toml figures\n[[figure]]\nname = "x"\n' + entry
                      + '\npick = "agents[0].win_share"\nvalue = 1\ncommit = "ddcd495"\n```\n')
    proc = reproduce(str(report))
    assert proc.returncode == 2 and says in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_a_report_without_figures_or_an_open_block_is_refused(tmp_path):
    bare, open_block = tmp_path / "bare.md", tmp_path / "open.md"
    bare.write_text("# no figures\n")
    open_block.write_text("```toml figures\n[[figure]]\n")
    assert "no figures" in reproduce(str(bare)).stderr
    assert "not closed" in reproduce(str(open_block)).stderr
