"""What the package is as a whole: one version number, adapters that import only what
they use, declared test markers in use."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_one_version_number():
    """The package's version is pyproject.toml's, read from the installed metadata: no
    second number written into the code (there were 0.1.0 and 0.2.0)."""
    import sixnimmt_env
    assert sixnimmt_env.__version__ == metadata.version(PYPROJECT["project"]["name"])
    written = [str(p.relative_to(ROOT)) for pkg in ("sixnimmt_env", "agents", "training", "experiments")
               for p in (ROOT / pkg).rglob("*.py") if re.search(r"__version__\s*=\s*['\"]\d+\.\d+", p.read_text())]
    assert written == []


def test_the_sb3_vec_env_does_not_import_pettingzoo():
    """The SB3 path (VecEnv, learner seats) stands without PettingZoo: the illegal-action
    message's legal list lives in adapters/checks.py, not in the PettingZoo env."""
    code = ("import sys, sixnimmt_env.adapters.vec_env as v, sixnimmt_env.adapters.gym_env\n"
            "v.SixNimmtVecEnv(2, players=3).reset()\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pettingzoo' or m.endswith('pettingzoo_env')))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_every_declared_marker_is_used():
    """A marker declared in pyproject.toml is used by some test (an unused `slow` marker
    promised a selection that selected nothing)."""
    declared = [m.split(":")[0].strip() for m in PYPROJECT["tool"]["pytest"]["ini_options"].get("markers", [])]
    text = "".join(p.read_text() for p in (ROOT / "tests").rglob("*.py"))
    assert [m for m in declared if f"mark.{m}" not in text] == []
