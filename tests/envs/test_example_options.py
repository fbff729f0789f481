"""The scripts of docs/examples/ as a user meets them (issue 63): `--help` shows the whole first
paragraph of the script's docstring (not its first line, cut mid-sentence) and a `--variant`
option, which reaches the env (the board's pro side through one of them)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
SCRIPTS = ["cleanrl_ppo.py", "supersuit_sb3.py", "tianshou_dqn.py", "torchrl_rollout.py", "rllib_ppo.py"]


@pytest.mark.parametrize("script", SCRIPTS)
def test_help_shows_the_whole_first_paragraph_and_variant(script):
    path = EXAMPLES / script
    proc = subprocess.run([sys.executable, str(path), "--help"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    source = path.read_text()
    doc = source.split('"""')[1]
    first = " ".join(doc.split("\n\n")[0].split())
    assert first in " ".join(proc.stdout.split()), proc.stdout
    assert "--variant" in proc.stdout and "pro-luck" in proc.stdout


def _supersuit():
    spec = importlib.util.spec_from_file_location("supersuit_sb3", EXAMPLES / "supersuit_sb3.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_variant_reaches_the_env():
    import sixnimmt_env
    from sixnimmt_env.core.errors import ConfigError

    example = _supersuit()
    shapes = {}
    for variant in ("basic", "pro"):  # the pro side's observation is wider (its action cards)
        vec = example.make_vec_env("board", 3, variant=variant)
        try:
            shapes[variant] = vec.observation_space["observation"].shape
        finally:
            vec.close()
        env = sixnimmt_env.parallel_env(3, game="board", variant=variant)
        assert shapes[variant] == env.observation_space(env.possible_agents[0])["observation"].shape
    assert shapes["basic"] != shapes["pro"]
    with pytest.raises(ConfigError, match="variant"):
        example.make_vec_env("cards", 3, variant="no-such-variant")


@pytest.mark.parametrize("bot", ["bot.py", "trivial_bot.py"])
def test_the_protocol_bots_answer_help_instead_of_waiting_for_the_lab(bot):
    """The bots talk on stdin/stdout; `--help` at a terminal used to wait silently for a
    message. It prints the docstring; another option is refused."""
    path = EXAMPLES / bot
    helped = subprocess.run([sys.executable, str(path), "--help"], capture_output=True, text=True, timeout=120)
    assert helped.returncode == 0 and path.read_text().split('"""')[1].split("\n")[0] in helped.stdout
    assert subprocess.run([sys.executable, str(path), "--players", "4"], capture_output=True, timeout=120).returncode == 2
