"""Session hooks: the property tests' input counts (tests/fuzz_support.py) are written to
the file SIXNIMMT_FUZZ_STATS names, when it is set."""

from __future__ import annotations

import json
import os


def pytest_sessionfinish(session, exitstatus):
    target = os.environ.get("SIXNIMMT_FUZZ_STATS")
    if not target:
        return
    from tests.fuzz_support import STATS
    table: dict = {}
    for key, n in sorted(STATS.items()):
        entry, kind = key.split("\t")
        table.setdefault(entry, {})[kind] = n
    with open(target, "w") as f:
        json.dump(table, f, indent=1)
