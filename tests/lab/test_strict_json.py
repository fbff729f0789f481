"""Every JSON the lab writes or prints is strict JSON (RFC 8259: no NaN or Infinity tokens),
so jq, JavaScript's JSON.parse and strict parsers read it: a figure with no value (the 95%
interval of a 1-deal tournament or match) is null (sixnimmt_env/core/strict_json.py), and
the lab's readers of those files (a summary's leaderboards, `sixnimmt reproduce`, the
studies' tables) take the null. Every writer goes through the one helper."""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]


def _refuse(token: str):
    raise ValueError(f"not strict JSON: {token}")


def strict(text: str):
    """`text` parsed as a strict parser would: NaN, Infinity and -Infinity refused."""
    return json.loads(text, parse_constant=_refuse)


def sixnimmt(*args: str) -> str:
    """`sixnimmt ARGS`'s stdout, run in this process (the imports paid once); the torch
    thread count a match's worker set-up changes is restored after."""
    import torch
    from typer.testing import CliRunner

    from experiments.cli import app

    threads = torch.get_num_threads()
    try:
        run = CliRunner().invoke(app, list(args))
    finally:
        torch.set_num_threads(threads)
    assert run.exit_code == 0, run.output
    return run.stdout


ONE_DEAL = ("--agents", "lowest,random", "--games", "1", "--max-rounds", "1", "--no-progress")


def test_non_finite_floats_are_written_as_null(tmp_path):
    from sixnimmt_env.core.strict_json import json_text, write_json

    data = {"ci": float("nan"), "up": [1.5, float("inf"), (np.float64("-inf"), 2)], "n": 3, "s": "NaN",
            "deep": {"x": [{"y": float("nan")}]}}
    expected = {"ci": None, "up": [1.5, None, [None, 2]], "n": 3, "s": "NaN", "deep": {"x": [{"y": None}]}}
    assert strict(json_text(data)) == expected and strict(json_text(data, indent=1)) == expected
    as_text = json_text({"a": object()}, default=lambda o: [float("nan")])  # what `default` returns, too
    assert strict(as_text) == {"a": [None]}
    write_json(tmp_path / "f.json", data)
    assert strict((tmp_path / "f.json").read_text()) == expected and not list(tmp_path.glob("*.tmp"))
    with pytest.raises(ValueError):
        strict(json.dumps(data))  # what the writers wrote before


def test_a_one_deal_tournament_writes_a_strict_summary_that_reads_back(tmp_path):
    """summary.json held `NaN` for each agent's intervals; now null, and the leaderboards
    read from the file (AgentResult.from_dict) print "n/a" for it, as the table does."""
    from experiments.tournaments.report import leaderboards

    out = tmp_path / "t"
    sixnimmt("tournament", *ONE_DEAL, "--players", "2", "--out", str(out))
    summary = strict((out / "summary.json").read_text())
    agents = summary["by_players"]["2"]
    assert [a["points_ci"] for a in agents] == [None, None] and [a["win_ci"] for a in agents] == [None, None]
    assert all(math.isfinite(a["points_per_round"]) for a in agents)
    board = leaderboards(summary)
    assert "± n/a" in board and "nan" not in board.lower() and "none" not in board.lower()
    h2h = summary["head_to_head"]  # a pair that never met (each agent with itself) has no share: null, not -1
    assert [h2h["share"][i][i] for i in (0, 1)] == [None, None] and [h2h["games"][i][i] for i in (0, 1)] == [0, 0]
    assert h2h["games"][0][1] >= 1 and h2h["share"][0][1] + h2h["share"][1][0] == 1.0
    for line in (out / "results.jsonl").read_text().splitlines():
        assert strict(line)["deal"] == 0
    assert strict((out / "tournament.json").read_text())["games"] == 1
    assert strict((out / "timing.json").read_text())["games_played"] == 2


def test_match_json_of_one_deal_is_strict_and_reproduce_reads_it():
    """`sixnimmt match --json` printed `NaN` for one deal's intervals; now null, and
    `sixnimmt reproduce` judging a figure of it takes the null as no new interval."""
    from experiments.reproduce import Figure, judge

    result = strict(sixnimmt("match", *ONE_DEAL, "--json"))
    assert result["deals"] == 1 and all(a["points_ci"] is None and a["win_ci"] is None for a in result["agents"])
    [lowest] = [a for a in result["agents"] if a["spec"] == "lowest"]
    figure = Figure(name="lowest", command=("match",), value=lowest["points_per_round"], interval=0.5,
                    commit="x", pick="agents[spec=lowest].points_per_round", pick_ci="agents[spec=lowest].points_ci")
    verdict = judge(figure, result, scale=1.0)
    assert verdict.status == "holds" and verdict.interval == 0.5


@dataclass
class _OneCell:
    """A study's config of one cell (runner.Study.run takes any dataclass with jobs())."""

    games: int = 1

    def jobs(self):
        return [(1,)]


def _one_sample_cell(job, cfg):
    return {"job": job[0], "gap": [2.0, float("nan")]}


def test_a_study_writes_strict_results_and_its_table_reads_null(tmp_path):
    from experiments.studies.runner import Study, fmt_ci

    study = Study(cell=_one_sample_cell, job_keys=("job",), plot=lambda summary, out: [],
                  report=lambda summary, files: fmt_ci(summary["cells"][0]["gap"]))
    study.run(_OneCell(), tmp_path, progress=False)
    [cell] = strict((tmp_path / "results.json").read_text())["cells"]
    assert cell["gap"] == [2.0, None] and fmt_ci(cell["gap"]) == "2.00"
    assert (tmp_path / "report.md").read_text() == "2.00"


def test_the_servers_encoder_is_strict_where_orjson_gives_up():
    """The web server encodes with orjson (a non-finite float as null); what orjson does not
    take (an integer past 64 bits) went to json.dumps, which wrote NaN beside it."""
    from experiments.serve.messages import json_text as server_json_text

    message = {"seed": 2**70, "mean": float("nan"), "up": [float("inf")], "name": "Zoë"}
    expected = {"seed": 2**70, "mean": None, "up": [None], "name": "Zoë"}
    assert strict(server_json_text(message)) == expected
    assert strict(server_json_text({"mean": float("nan")})) == {"mean": None}  # orjson's own path


# Where `json.dumps` may stay: it writes no JSON file or output there.
NOT_WRITERS = {
    "sixnimmt_env/core/strict_json.py": "the helper itself",
    "sixnimmt_env/core/records.py": "short(): a value quoted in an error message; completed(): a deep copy",
    "sixnimmt_env/board/_layout_files.py": "a string quoted for TOML",
    "experiments/play/session.py": "a deep copy of a record",
}


def test_every_json_writer_goes_through_the_strict_helper():
    """A new `json.dumps`/`json.dump` writer would bring NaN back: the lab's code writes JSON
    with core/strict_json.py's json_text or write_json only."""
    found = []
    for folder in ("agents", "training", "experiments", "sixnimmt_env"):
        for path in (ROOT / folder).rglob("*.py"):
            name = path.relative_to(ROOT).as_posix()
            if name in NOT_WRITERS:
                continue
            found += [f"{name}:{n}" for n, line in enumerate(path.read_text().splitlines(), 1)
                      if re.search(r"\bjson\.dumps?\(", line)]
    assert not found, f"use sixnimmt_env.core.strict_json (json_text, write_json) in {found}"
