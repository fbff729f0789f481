"""The board package's private core keeps its shape (issue 60): every per-game function of the
compiled core takes the game index `b` first; a game's end is written in one place
(`_kernel/turns.end_game`); a step fetches the kernels' inputs once (`_kernel/inputs.fetch`);
and the modules with `_` names are imported from inside the board package only."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np

from sixnimmt_env.board._kernel import inputs
from sixnimmt_env.core.game import make_game
from sixnimmt_env.core.rng import game_seeds

ROOT = Path(__file__).parents[2]
BOARD = ROOT / "sixnimmt_env" / "board"
KERNEL = BOARD / "_kernel"


def _functions(path: Path):
    return [n for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.FunctionDef)]


def _decorators(fn: ast.FunctionDef) -> set[str]:
    return {d.id if isinstance(d, ast.Name) else getattr(getattr(d, "func", None), "id", "") for d in fn.decorator_list}


def test_every_per_game_kernel_function_takes_the_game_index_first():
    per_game = [(path.name, fn) for path in sorted(KERNEL.glob("*.py")) for fn in _functions(path)
                if "inline" in _decorators(fn)]
    assert len(per_game) > 30  # (the stage machine, the rules, the views' per-game questions)
    wrong = [f"{name}:{fn.name}({', '.join(a.arg for a in fn.args.args)})" for name, fn in per_game
             if "b" in {a.arg for a in fn.args.args} and fn.args.args[0].arg != "b"]
    assert not wrong
    # the kernels called from Python take the list of games, never one game
    kernels = [fn for path in sorted(KERNEL.glob("*.py")) for fn in _functions(path) if "kernel" in _decorators(fn)]
    assert kernels and not [fn.name for fn in kernels if "b" in {a.arg for a in fn.args.args}]


def test_a_games_end_is_written_in_one_place():
    writes = []
    for path in sorted(BOARD.rglob("*.py")):
        for fn in _functions(path):
            for node in ast.walk(fn):
                if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and node.value.id == "PHASE_OVER":
                    writes.append(f"{path.relative_to(BOARD)}:{fn.name}")
    assert writes == ["_kernel/turns.py:end_game"]


def test_a_step_fetches_the_kernel_inputs_once(monkeypatch):
    """Through whole 3-player pro games (refills, the pro final scoring, reshuffles of the
    action deck) and 4-player ones (the end in the driver): one fetch a step."""
    fetched = []
    real = inputs.arrays
    monkeypatch.setattr(inputs, "arrays", lambda st: fetched.append(1) or real(st))
    for players in (3, 4):
        game = make_game("board", players=players, variant="pro")
        st = game.new_games(game_seeds(5, 8))
        rng = np.random.default_rng(5)
        while not game.game_over(st).all():
            actions = np.stack([game.view(st, [p] * 8).random_legal_actions(rng) for p in range(players)])
            fetched.clear()
            st, _ = game.step(st, actions, report=True)
            assert len(fetched) == 1


def test_the_private_modules_are_imported_inside_the_board_package_only():
    private = {p.stem for p in BOARD.glob("_*.py") if p.stem != "__init__"}
    assert len(private) >= 12
    outside = []
    for top in ("agents", "training", "experiments", "sixnimmt_env"):
        for path in sorted((ROOT / top).rglob("*.py")):
            if BOARD in path.parents:
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom):
                    names = [f"{node.module or ''}.{a.name}" for a in node.names] + [node.module or ""]
                else:
                    names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
                outside += [f"{path.relative_to(ROOT)}: {n}" for n in names
                            if n.split(".")[-1] in private and "board" in n]
    assert not outside
