"""The package installs whole: a wheel and an sdist build from the repository, and the
wheel, installed into a fresh venv outside the checkout, carries the shipped models and
board layouts, so `ppo` and `guided` play and the board's default layouts load, and shares
the board kernels the checkout compiled (one compile a machine, not one an install)."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(wheel, sdist) built from a copy of the tracked files (the checkout stays clean)."""
    tmp = tmp_path_factory.mktemp("package")
    src = tmp / "src"
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, files.decode().split("\0")):
        if (ROOT / name).is_file():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            (src / name).write_bytes((ROOT / name).read_bytes())
    proc = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--wheel", "--sdist",
                           "--outdir", str(tmp / "dist"), str(src)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    (wheel,) = (tmp / "dist").glob("*.whl")
    (sdist,) = (tmp / "dist").glob("*.tar.gz")
    return wheel, sdist, tmp


def test_wheel_and_sdist_carry_the_data(built):
    wheel, sdist, _ = built
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.startswith("agents/models/") and n.endswith(".zip") for n in names), "no shipped model in the wheel"
    assert any(n.startswith("training/configs/") and n.endswith(".toml") for n in names)
    assert any(n.startswith("sixnimmt_env/board/layouts/") and n.endswith(".toml") for n in names)
    assert any(n.endswith("static/app.js") for n in names)
    assert any(n.endswith("LICENSE") for n in names)
    members = tarfile.open(sdist).getnames()
    assert any(m.endswith("/LICENSE") for m in members) and any(m.endswith("/README.md") for m in members)


def test_installed_wheel_plays_ppo_and_guided(built, tmp_path):
    wheel, _, _ = built
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    site = Path(sysconfig.get_path("purelib", vars={"base": str(venv), "platbase": str(venv)}))
    # The dependencies (torch and the rest) are this venv's, reached through a .pth line, so
    # the test installs nothing from the network; the project itself comes from the wheel only.
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    # --ignore-installed: the checkout's editable install, visible through deps.pth (and a
    # PYTHONPATH), must not count as the project being installed already
    subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "--quiet",
                    "--no-deps", "--no-index", "--ignore-installed", str(wheel)], env=env, check=True,
                   capture_output=True, timeout=300)
    where = subprocess.run([str(venv / "bin" / "python"), "-c", "import agents; print(agents.__file__)"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, check=True).stdout
    assert Path(where.strip()).is_relative_to(site), where  # the wheel's copy, not the checkout
    sixnimmt = str(venv / "bin" / "sixnimmt")
    for agents in ("ppo,guided:worlds=4,random,random", "guided:worlds=4,ppo,mcs,random"):
        proc = subprocess.run([sixnimmt, "match", "--agents", agents, "--games", "1", "--max-rounds", "1",
                               "--seed", "3"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr[-3000:]
        assert "ppo" in proc.stdout and "guided" in proc.stdout
    # The board kernels' cache is named by their sources, not their install path
    # (sixnimmt_env/board/_kernel/jit.py): the installed copy loads what the checkout compiled
    # before the tests (tests/conftest.py) and compiles nothing (cold, minutes on a slow machine)
    proc = subprocess.run([sixnimmt, "demo", "--game", "board", "--variant", "pro", "--seed", "1"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "compiling the board kernels" not in proc.stderr, (
        "the installed wheel compiled the board kernels again: its kernel sources differ from the checkout's "
        "(an untracked file under sixnimmt_env/board/? the wheel holds the tracked files only)\n" + proc.stderr[-3000:])
