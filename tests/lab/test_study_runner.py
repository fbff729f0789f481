"""The studies' shared runner (experiments/studies/runner.py)."""

from __future__ import annotations


def _cell(job, cfg):
    """A study cell for the runner test: module-level, so spawned workers find it."""
    return {"job": job, "value": job * cfg["scale"]}


def test_studies_run_their_cells_on_the_local_backend(monkeypatch):
    """The one local process pool: a study's cells go through backends.LocalBackend (in
    this process with one worker, spawned processes with more), the same results either way."""
    from experiments import backends
    from experiments.studies.runner import run_cells

    seen = []
    map_unordered = backends.LocalBackend.map_unordered

    def spy(self, fn, items):
        seen.append((self.workers, fn))
        return map_unordered(self, fn, items)

    monkeypatch.setattr(backends.LocalBackend, "map_unordered", spy)
    one = run_cells(_cell, [1, 2, 3], {"scale": 10}, workers=1, progress=False)
    two = run_cells(_cell, [1, 2, 3], {"scale": 10}, workers=2, progress=False)
    assert seen == [(1, _cell), (2, _cell)]
    assert one == [{"job": j, "value": 10 * j} for j in (1, 2, 3)]
    assert sorted(two, key=lambda r: r["job"]) == one


def test_markdown_table():
    from experiments.studies.runner import markdown_table

    assert markdown_table(["a", "b"], [[1, "x"], ["", 2.5]]) == ["| a | b |", "| --- | --- |", "| 1 | x |",
                                                                 "|  | 2.5 |"]
