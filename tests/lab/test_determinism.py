"""Determinism: the same command with the same seed gives byte-identical records and the
same results (timing fields aside: seconds, ms per decision) across runs, worker counts
and batch sizes — for `sixnimmt match`, a tournament and a short training run's first
update. And long work shows that it moves: a match's progress counts decisions, with
an estimate of the share done, while all games of its batch are still running."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tests.support.fuzz_support import run_cli

TIMING = ("seconds", "ms_per_decision")


def _untimed(result: dict) -> dict:
    result = json.loads(json.dumps(result))
    for key in TIMING:
        result.pop(key, None)
    for a in result["agents"]:
        for key in TIMING:
            a.pop(key, None)
    return result


def _match(tmp: Path, agents: str, games: int, *extra: str):
    code, out, err = run_cli("match", "--agents", agents, "--games", games, "--seed", "11", "--json",
                             "--records", tmp, "--no-progress", *extra)
    assert code == 0, err
    return json.loads(out), {p.name: p.read_bytes() for p in sorted(tmp.glob("*.json"))}


@pytest.mark.parametrize("game, extra", [("cards", ()), ("board", ("--game", "board"))])
def test_match_is_byte_identical_across_runs(tmp_path, game, extra):
    agents = "mcs:rollouts=3,lowest,random" if game == "cards" else "mcs:rollouts=2,board-greedy,random"
    first, rec1 = _match(tmp_path / "a", agents, 3, *extra)
    second, rec2 = _match(tmp_path / "b", agents, 3, *extra)
    assert rec1 == rec2 and len(rec1) == 9
    assert _untimed(first) == _untimed(second)


def test_match_games_do_not_depend_on_the_batch_size(tmp_path):
    """Deal i is the same game in a batch of 2 deals or of 5 (deterministic agents: a
    random or search agent draws from one generator shared by the batch)."""
    _, small = _match(tmp_path / "small", "lowest,greedy,safe-high", 2)
    _, large = _match(tmp_path / "large", "lowest,greedy,safe-high", 5)
    assert small and all(large[name] == data for name, data in small.items())


def _tournament(out: Path, workers: int) -> tuple:
    code, _, err = run_cli("tournament", "--agents", "random,lowest,mcs:rollouts=2,greedy", "--players", "3",
                           "--games", "7", "--max-rounds", "1", "--records", "--workers", workers,
                           "--out", out, "--no-progress")
    assert code == 0, err
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    for r in rows:
        r.pop("ms")
    rows.sort(key=lambda r: (r["players"], r["lineup"], r["deal"], r["rotation"]))
    records = {p.name: p.read_bytes() for p in sorted((out / "records").glob("*.json"))}
    summary = json.loads((out / "summary.json").read_text())
    standings = {p: [{k: v for k, v in a.items() if k not in TIMING} for a in agents]
                 for p, agents in summary["by_players"].items()}
    return rows, records, standings


def test_tournament_is_identical_across_runs_and_worker_counts(tmp_path):
    one = _tournament(tmp_path / "w1", 1)
    two = _tournament(tmp_path / "w2", 2)  # another run, and units finishing in another order
    assert len(one[1]) == 4 * 7 * 3  # 4 line-ups x 7 deals x 3 rotations, every record
    assert one == two


def test_training_first_update_is_identical_across_runs(tmp_path):
    import torch
    from sb3_contrib import MaskablePPO

    from training.config import TrainConfig
    from training.train import train

    tiny = ["num_games=32", "n_steps=16", "batch_size=256", "n_epochs=1", "eval_deals=2", "torch_threads=1",
            "total_timesteps=512", "checkpoint_every=100000", "eval_every=100000", "snapshot_every=100000",
            "players=3", "name=det"]
    params, evals = [], []
    for k in range(2):
        run = train(TrainConfig.load(None, tiny), runs_dir=tmp_path / f"r{k}", progress=False)
        ckpt = run / (run / "latest").read_text()
        model = MaskablePPO.load(ckpt / "model.zip", device="cpu")
        params.append({n: t.clone() for n, t in model.policy.state_dict().items()})
        rows = (run / "eval.csv").read_text().splitlines()
        # timesteps, penalty, ci95, win_share (not the wall time, speed and env share)
        evals.append([[c for i, c in enumerate(line.split(",")) if i in (0, 2, 3, 4)] for line in rows[1:]])
        assert json.loads((ckpt / "state.json").read_text())["timesteps"] == 512  # one update
    assert params[0].keys() == params[1].keys()
    assert all(torch.equal(params[0][n], params[1][n]) for n in params[0])
    assert evals[0] == evals[1] and evals[0]


# ---------------------------------------------------------------- progress

def test_match_progress_moves_while_every_game_still_runs():
    """All games of a match are one batch and end together: counting finished games shows
    0% until the very end. The arena reports decisions and the share played after every
    step instead."""
    from agents.arena import build_agents, play_duplicate
    from sixnimmt_env.core.game import make_game
    from sixnimmt_env.core.rng import game_seeds

    game = make_game("cards", players=4)  # to 66 points: several rounds
    names, agents = build_agents(["mcs:rollouts=2", "lowest", "random", "greedy"], "cards")
    updates = []
    rows, _, decisions, _ = play_duplicate(names, agents, game, game_seeds(3, 4), np.random.default_rng(0),
                                           progress=lambda n, share: updates.append((n, share)))
    shares = [s for _, s in updates]
    assert shares == sorted(shares) and shares[-1] == 1.0
    assert sum(n for n, _ in updates) == sum(decisions.values())
    # the share moves long before the first game ends, and in many steps
    first_over = next(i for i, s in enumerate(shares) if s == 1.0)
    assert first_over == len(shares) - 1 or shares[first_over - 1] < 1.0
    halfway = next(i for i, s in enumerate(shares) if s >= 0.5)
    assert 0.2 * len(shares) < halfway < 0.9 * len(shares)
    assert len(set(shares)) > 20


@pytest.mark.parametrize("chunk_deals", [0, 2])
def test_run_match_reports_progress_to_its_callback(chunk_deals):
    """run_match takes the progress callback (the bar lives in experiments/): after every
    step of one batch, after every unit of several; the decisions add up and it ends at 1."""
    from agents.arena import run_match
    from sixnimmt_env.core.game import make_game

    updates = []
    result = run_match(["lowest", "random", "greedy"], make_game("cards", players=3, max_rounds=1), 5, 0,
                       chunk_deals=chunk_deals, progress=lambda n, share: updates.append((n, share)))
    shares = [s for _, s in updates]
    assert len(updates) >= 10 if chunk_deals == 0 else len(updates) == 3  # every step (10 turns); every unit
    assert shares == sorted(shares) and shares[-1] == 1.0
    assert sum(n for n, _ in updates) == sum(a.decisions for a in result.agents)


def test_match_progress_bar_shows_decisions_and_time_left(tmp_path):
    code, _, err = run_cli("match", "--agents", "mcs:rollouts=5,mcs:rollouts=5,random", "--games", "4")
    assert code == 0, err
    frames = [f for f in err.replace("\r", "\n").splitlines() if "decisions [" in f]
    percents = {int(f.split("%")[0].split(":")[-1]) for f in frames if "%" in f}
    assert any(0 < p < 100 for p in percents), frames  # it moved before the end
    assert any("<00:" in f or "<0" in f for f in frames)  # an estimate of the time left


def test_board_game_share_done():
    from sixnimmt_env.core.game import make_game
    from sixnimmt_env.core.rng import game_seeds

    for players in (2, 4):
        game = make_game("board", players=players)
        st = game.new_games(game_seeds(0, 8))
        rng = np.random.default_rng(0)
        seen = [game.fraction_done(st).mean()]
        while not game.game_over(st).all():
            view = game.view(st, *np.nonzero(np.ones((players, 8), dtype=bool)))
            actions = np.zeros((players, 8), dtype=np.int64)
            seats, games = np.nonzero(np.ones((players, 8), dtype=bool))
            actions[seats, games] = view.random_legal_actions(rng)
            st, _ = game.step(st, actions)
            seen.append(game.fraction_done(st).mean())
        assert seen[0] == 0.0 and seen[-1] == 1.0 and seen == sorted(seen)
