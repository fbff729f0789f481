"""`make test` runs the linter first, and the linter's findings fail it.

The check runs the very command of the Makefile's test recipe on a copy of the project's
lint settings with one planted fault; the tree's own findings are not this test's business
(`make test` runs the linter over it).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINT = "$(VENV)/bin/ruff check ."


def _recipe(target: str) -> list[str]:
    """The recipe lines of a Makefile target."""
    lines = (ROOT / "Makefile").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(rf"{target}:", line))
    recipe = []
    for line in lines[start + 1:]:
        if not line.startswith("\t"):
            break
        recipe.append(line.strip())
    return recipe


def _ruff(cwd: Path) -> subprocess.CompletedProcess:
    """The Makefile's lint command, with this venv's ruff for $(VENV)/bin/ruff."""
    ruff = Path(sys.executable).with_name("ruff")
    command = [str(ruff) if ruff.exists() else shutil.which("ruff") or "ruff", *LINT.split()[1:]]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=120)


def test_make_test_lints_before_the_tests():
    recipe = _recipe("test")
    assert LINT in recipe
    assert recipe.index(LINT) < next(i for i, line in enumerate(recipe) if "pytest" in line)


def test_the_lint_step_fails_on_a_finding(tmp_path):
    """With the project's [tool.ruff] settings, a clean module passes and an unused import,
    an unsorted import block or a line over the limit each fail the step."""
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    module = tmp_path / "probe.py"
    module.write_text('"""A probe."""\n\nimport json\n\nprint(json.dumps(1))\n')
    clean = _ruff(tmp_path)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    for fault, code in (("import os\nimport json\n", "F401"), ("import sys\nimport json\nsys.exit(0)\n", "I001"),
                        ("import json\nx = '" + "a" * 150 + "'\n", "E501")):
        module.write_text(f'"""A probe."""\n\n{fault}\nprint(json.dumps(1))\n')
        found = _ruff(tmp_path)
        assert found.returncode != 0 and code in found.stdout, (fault, found.stdout)
