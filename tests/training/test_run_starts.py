"""How `train` and `imitate` runs start (issue 63): a start that fails before any work leaves
no run directory behind (a retry under the same name and `--resume` are not blocked by it),
while a run that did work keeps its directory; and `imitate`'s closing hint is a `train`
command whose options rebuild the fitted network in every game (a board network needs
`--set game=board` and its variant)."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from sixnimmt_env.core.errors import ConfigError

ROOT = Path(__file__).resolve().parents[2]


def _start(tmp_path, runner):
    from experiments.cli.runs import RunStart
    from training.config import TrainConfig
    start = RunStart(config=None, set_=["name=r"], resume=None, runs_dir=tmp_path, progress=False)
    return start.start(runner, TrainConfig)


def test_a_start_that_fails_before_any_work_leaves_no_folder(tmp_path):
    from training.runs import new_run

    def fails_late(cfg, runs_dir, progress):
        run = new_run(Path(runs_dir) / cfg.name, cfg)
        (run / "snapshots").mkdir()
        raise ConfigError("init_model x: a model of the 'board' game, this run's game is 'cards'")

    with pytest.raises(ConfigError, match="'board' game"):
        _start(tmp_path, fails_late)
    assert not (tmp_path / "r").exists()
    assert _start(tmp_path, lambda cfg, runs_dir, progress: new_run(Path(runs_dir) / cfg.name, cfg)) == tmp_path / "r"


def test_a_run_that_did_work_keeps_its_folder_to_resume(tmp_path):
    from training.runs import new_run

    def fails_after_labels(cfg, runs_dir, progress):
        run = new_run(Path(runs_dir) / cfg.name, cfg)
        (run / "labels").mkdir()
        (run / "labels" / "unit-00000.npz").write_bytes(b"labels")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _start(tmp_path, fails_after_labels)
    assert (tmp_path / "r" / "labels" / "unit-00000.npz").is_file() and (tmp_path / "r" / "config.json").is_file()


def test_train_from_a_network_of_another_game_can_be_retried(tmp_path):
    board_net = ROOT / "agents" / "models" / "board-basic.zip"
    cmd = [sys.executable, "-m", "experiments.cli", "train", "--set", f"init_model={board_net}", "--set", "name=r",
           "--runs-dir", str(tmp_path), "--no-progress"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2 and "a model of the 'board' game, this run's game is 'cards'" in proc.stderr
    assert not (tmp_path / "r").exists()  # nothing for a retry or --resume to trip over


@pytest.mark.parametrize("options", [
    [],
    ["players=[2]", "variant=die-sechste"],
    ["game=board", "variant=pro", "players=[4]"],
    ["game=board", "variant=luck", "players=[3]", "net_arch=[64]"],
])
def test_the_imitate_hint_rebuilds_the_fitted_network(tmp_path, options):
    from training.board_training import check_init_model
    from training.config import TrainConfig
    from training.imitate import HINT_SKIPS, ImitationConfig, train_command
    from training.runs import new_run

    cfg = ImitationConfig.load(None, options)
    run = new_run(tmp_path / "imitate", cfg)
    words = shlex.split(train_command(run))
    assert words[:2] == ["sixnimmt", "train"] and words[-1] == f"init_model={run}/model.zip"
    hinted = TrainConfig.load(None, [w for w in words[2:] if w != "--set"])
    fitted = cfg.train_config()
    differ = {k for k, v in fitted.to_dict().items() if k not in HINT_SKIPS and hinted.to_dict()[k] != v}
    assert not differ, differ
    check_init_model(hinted, {"game": cfg.game, "variant": cfg.variant}, "model.zip")  # the check train makes


def test_a_card_runs_league_builds_its_agents_for_the_card_game_only():
    """A card run's `mcs` opponents are the card game's: built without a game, `mcs` is
    also the board's search, whose constructor compiles the board kernels (a cold card run
    waited minutes on them, and on another process's compile lock)."""
    from agents.registry import PerGameAgent
    from training.config import TrainConfig
    from training.pool import OpponentPool

    cfg = TrainConfig(pool_search=("mcs:rollouts=2",), pool_heuristics=("lowest",))
    pool = OpponentPool.for_run(cfg)
    assert cfg.game == "cards"
    assert pool.agents and not any(isinstance(a, PerGameAgent) for a in pool.agents)
    assert all(type(a).__module__.startswith(("agents.cards", "agents.random", "agents.base")) for a in pool.agents), \
        [type(a).__module__ for a in pool.agents]
