"""Imports point down the layers only (README "Architecture").

Packages: sixnimmt_env -> agents -> training -> experiments; a module may import its own
package and the ones before it, never after. Inside sixnimmt_env: core imports no other
sub-package; a game (cards, board) imports core only; the adapters import core only and reach
games through the game interface. Agents for one game (agents/cards) are the only agents
that import that game's modules. Every import statement counts, also those inside
functions.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RANK = {"sixnimmt_env": 0, "agents": 1, "training": 2, "experiments": 3}
# Inside sixnimmt_env: what each sub-package may import of sixnimmt_env.
INSIDE = {"core": {"core"}, "cards": {"core", "cards"}, "board": {"core", "board"},
          "adapters": {"core", "adapters"}}
GAME_PACKAGES = {"cards", "board"}


def imports(path: Path, root: Path = ROOT) -> list[tuple[int, str]]:
    """(line, absolute module) of every import in a file (relative ones resolved)."""
    tree = ast.parse(path.read_text(), str(path))
    package = list(path.relative_to(root).with_suffix("").parts[:-1])
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
                names = [module] if node.module else [f"{module}.{a.name}" for a in node.names]
                found += [(node.lineno, m) for m in names]
            elif node.module:
                found.append((node.lineno, node.module))
    return found


def modules():
    for pkg in RANK:
        yield from sorted((ROOT / pkg).rglob("*.py"))


def violations(path: Path, root: Path = ROOT) -> list[str]:
    rel = path.relative_to(root)
    top = rel.parts[0]
    sub = rel.parts[1] if len(rel.parts) > 2 else None
    bad = []
    for line, module in imports(path, root):
        parts = module.split(".")
        if RANK.get(parts[0], -1) > RANK[top]:
            bad.append(f"{rel}:{line} imports {module} (a higher layer)")
        if top == "sixnimmt_env" and sub in INSIDE and parts[0] == "sixnimmt_env" and len(parts) > 1:
            if parts[1] in INSIDE and parts[1] not in INSIDE[sub]:
                bad.append(f"{rel}:{line} imports {module} ({sub} may import {', '.join(sorted(INSIDE[sub]))})")
        if top == "agents" and sub not in GAME_PACKAGES and module.startswith("sixnimmt_env.") \
                and parts[1] in GAME_PACKAGES and not (len(rel.parts) > 2 and rel.parts[1] == parts[1]):
            bad.append(f"{rel}:{line} imports {module} (game modules only from agents/{parts[1]}/)")
    return bad


def test_no_module_imports_up_the_layers():
    found = [v for path in modules() for v in violations(path)]
    assert found == []


@pytest.mark.parametrize("source,expected", [
    ("from experiments.cli import app\n", "a higher layer"),
    ("from ..cards.state import State\n", "adapters may import"),
    ("import training.train\n", "a higher layer"),
])
def test_the_check_sees_upward_imports(source, expected, tmp_path):
    """The check itself: an adapter module with an upward import is caught (the probe is
    written under tmp_path, laid out as the project: nothing is written into the package)."""
    fake = _probe(tmp_path, "sixnimmt_env/adapters/_layer_probe.py", source)
    assert any(expected in v for v in violations(fake, tmp_path))


def _probe(root: Path, rel: str, source: str) -> Path:
    """A probe module at `rel` under a scratch project root."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source)
    return path


def test_the_check_keeps_the_board_off_the_card_game(tmp_path):
    """A board module importing the card game is caught (the games are siblings)."""
    fake = _probe(tmp_path, "sixnimmt_env/board/_layer_probe.py", "from ..cards.rules import classic_bullheads\n")
    assert any("(board may import board, core)" in v for v in violations(fake, tmp_path))


# Game-neutral modules: every game goes through them, so they import no game's own modules
# (sixnimmt_env.cards/board, agents.cards/board) and no game-specific front end or study.
NEUTRAL = ["agents/arena.py", "agents/results.py", "experiments/play/session.py", "experiments/play/table.py",
           "experiments/tournaments/progress.py",
           "experiments/studies/runner.py", "experiments/figures.py", "experiments/tournaments/report.py",
           "experiments/tournaments/tournament.py",
           "experiments/serve/session.py", "experiments/serve/setup.py", "experiments/serve/app.py",
           "experiments/serve/allowed.py", "experiments/serve/guard.py", "experiments/serve/limits.py",
           "experiments/serve/server.py", "experiments/serve/store.py"]
GAME_SPECIFIC = ["sixnimmt_env.cards", "sixnimmt_env.board", "agents.cards", "agents.board",
                 "experiments.play.cards", "experiments.play.board", "experiments.studies.die_sechste",
                 "experiments.studies.board", "experiments.studies.board_skill"]
# Siblings over experiments/play/session.py: none imports another.
FRONT_ENDS = {"experiments/play/cards.py": "experiments.play.cards", "experiments/play/board.py":
              "experiments.play.board", "experiments/serve/session.py": "experiments.serve.session"}


# experiments/ by concern: each in its folder; at the top only what several concerns share.
CONCERNS = {"cli", "serve", "play", "tournaments", "backends", "studies", "bench"}
SHARED = {"__init__.py", "options.py", "figures.py", "reproduce.py"}


def test_experiments_are_folders_by_concern():
    """A reader finds the tournament or the terminal game by its place: no module of one
    concern lies loose at the top of experiments/, and no folder is a concern unnamed here."""
    top = ROOT / "experiments"
    assert {p.name for p in top.glob("*.py")} - SHARED == set()
    assert {p.parent.name for p in top.glob("*/__init__.py")} == CONCERNS


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


@pytest.mark.parametrize("rel", NEUTRAL)
def test_game_neutral_modules_import_no_game(rel):
    found = [f"{rel}:{line} imports {m}" for line, m in imports(ROOT / rel)
             if any(_within(m, g) for g in GAME_SPECIFIC)]
    assert found == []


def test_the_front_ends_stand_side_by_side_over_the_session():
    for rel, own in FRONT_ENDS.items():
        found = imports(ROOT / rel)
        assert any(m == "experiments.play.session" for _, m in found), rel
        assert not [m for _, m in found if any(_within(m, o) for o in FRONT_ENDS.values() if o != own)], rel


def test_the_boards_private_modules_are_imported_by_the_board_only():
    """The board's `_` modules (its compiled core `_kernel/`, `_driver`, `_deal`, ...) are
    imported by the board package alone; the rest of the lab goes through its public modules
    (the bench asks `engine.thread_count`, not `_kernel.threads.blocks`)."""
    found = [f"{path.relative_to(ROOT)}:{line} imports {module}" for path in modules()
             if not path.relative_to(ROOT).as_posix().startswith("sixnimmt_env/board/")
             for line, module in imports(path) if module.startswith("sixnimmt_env.board._")]
    assert not found, found


def test_the_results_do_not_import_the_arena():
    """agents/results.py is below the arena: the arena and the reports import it."""
    assert not [m for _, m in imports(ROOT / "agents" / "results.py") if m.startswith("agents")]
    assert any(m == "agents.results" for _, m in imports(ROOT / "experiments" / "tournaments" / "report.py"))

def _runtime_imports(path: Path, root: Path = ROOT) -> set[str]:
    """The project modules a file imports when it runs: every import but those under
    `if TYPE_CHECKING:` (annotations only), as module names of files that exist."""
    tree = ast.parse(path.read_text(), str(path))
    skipped = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
               and getattr(node.test, "id", getattr(node.test, "attr", None)) == "TYPE_CHECKING"
               for n in ast.walk(node)}
    package = list(path.relative_to(root).with_suffix("").parts[:-1])
    found = set()
    for node in ast.walk(tree):
        if id(node) in skipped or not isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif node.level:
            base = ".".join(package[:len(package) - node.level + 1])
            module = f"{base}.{node.module}" if node.module else base
            names = [module] + [f"{module}.{a.name}" for a in node.names]
        else:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        for name in names:
            file = root / Path(*name.split("."))
            if file.with_suffix(".py").is_file() or (file / "__init__.py").is_file():
                found.add(name)
    return found


def _module_name(path: Path, root: Path = ROOT) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_cycles(paths, root: Path = ROOT) -> list[list[str]]:
    """The cycles of the run-time import graph (strongly connected parts of 2+ modules, or a
    module importing itself), each as a sorted list of module names."""
    graph = {_module_name(p, root): _runtime_imports(p, root) for p in paths}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles = []

    def visit(v):  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, ()):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                cycles.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return cycles


def test_no_import_cycles():
    """No two modules import each other, however indirectly (also inside functions): the
    card encoders once imported the seat view, whose `encode` imported them back."""
    assert import_cycles(modules()) == []


def test_the_cycle_check_sees_a_cycle(tmp_path):
    """The check itself: a module pair that imports each other (one inside a function) is
    caught; an import under TYPE_CHECKING is not counted."""
    a = _probe(tmp_path, "sixnimmt_env/core/_cycle_probe_a.py",
               "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import _cycle_probe_b\n")
    b = _probe(tmp_path, "sixnimmt_env/core/_cycle_probe_b.py", "def f():\n    from ._cycle_probe_a import x\n")
    assert import_cycles([a, b], tmp_path) == []
    a.write_text("from . import _cycle_probe_b\n")
    assert import_cycles([a, b], tmp_path) == [["sixnimmt_env.core._cycle_probe_a", "sixnimmt_env.core._cycle_probe_b"]]
